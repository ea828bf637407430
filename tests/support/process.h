#pragma once
// Test helpers: run a shell command and capture its output, make temp dirs
// and files. Header-only so every test program can use it.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace errdex::testing {

struct RunResult {
  int code = -1;
  std::string out;  // stdout only; stderr goes to `err`
  std::string err;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

// A fresh directory under $TMPDIR, removed by the destructor.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "errdex-test-XXXXXX").string();
    char* p = ::mkdtemp(tmpl.data());
    if (!p) std::abort();
    m_path = p;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  const std::filesystem::path& path() const { return m_path; }
  std::string str() const { return m_path.string(); }
  std::filesystem::path operator/(const std::string& rel) const { return m_path / rel; }

 private:
  std::filesystem::path m_path;
};

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const std::filesystem::path& p, const std::string& data) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << data;
}

// Runs `cmd` with /bin/sh; stdout and stderr are captured through files so
// large outputs cannot deadlock.
inline RunResult run(const std::string& cmd) {
  TempDir tmp;
  auto out = tmp / "out", err = tmp / "err";
  std::string full = "(" + cmd + ") >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  int status = std::system(full.c_str());
  RunResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

// Starts `args` (args[0] a path) in the background, stdout and stderr to
// `out`; `max_fds` > 0: it may hold at most that many descriptors. Its pid.
inline pid_t spawn(std::vector<std::string> args, const std::filesystem::path& out, int max_fds = 0) {
  pid_t pid = ::fork();
  if (pid == 0) {
    if (max_fds > 0) {
      rlimit rl{static_cast<rlim_t>(max_fds), static_cast<rlim_t>(max_fds)};
      ::setrlimit(RLIMIT_NOFILE, &rl);
    }
    int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

inline std::string errdex_cmd() { return shell_quote(ERRDEX_BINARY); }

// The standard library of the python3 on PATH, or of `python` (sysconfig's
// stdlib path).
inline std::string python_stdlib(const std::string& python = "python3") {
  auto r = run(python + " -c 'import sysconfig; print(sysconfig.get_paths()[\"stdlib\"])'");
  std::string s = r.out;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// `errdex scan` of the standard library `stdlib` as `make run` does (repo
// python/cpython, prefix Lib) into a new SQLite store in `dir`, exported to
// `dir`/s.jsonl: its out is that path; else the failing step's result.
inline RunResult scan_and_export_stdlib(const std::string& stdlib, const std::filesystem::path& dir) {
  const std::string db = "sqlite:" + (dir / "s.db").string();
  auto r = run(errdex_cmd() + " scan " + shell_quote(stdlib) + " --repo python/cpython --prefix Lib -q --db " +
               shell_quote(db));
  if (r.code != 0) return r;
  const auto exported = (dir / "s.jsonl").string();
  r = run(errdex_cmd() + " export --db " + shell_quote(db) + " > " + shell_quote(exported));
  if (r.code == 0) r.out = exported;
  return r;
}

// One package of python3's (or `python`'s) standard library (`json`)
// scanned as `make run` stores it (python/cpython, prefix Lib/<package>, no
// evidence) into the SQLite store `db` ("sqlite:…"); the scan's result.
inline RunResult scan_stdlib_package(const std::string& package, const std::string& db,
                                     const std::string& python = "python3") {
  const std::string stdlib = python_stdlib(python);
  if (stdlib.empty()) return RunResult{2, "", "no python3 standard library found"};
  return run(errdex_cmd() + " scan " + shell_quote(stdlib + "/" + package) + " --repo python/cpython --prefix Lib/" +
             package + " --no-evidence -q --db " + shell_quote(db));
}

// The commit of transformers that the published seeds were made from.
inline constexpr const char* k_transformers_sha = "a597f974857b3d92939971296bc0deb93d33d780";

// A git directory holding transformers at k_transformers_sha: $TRANSFORMERS_GIT,
// else the fork mirror fetched on a developer machine; "" when neither has it
// (tests then skip). Its code is only read, never committed.
inline std::string transformers_git() {
  const char* env = std::getenv("TRANSFORMERS_GIT");
  std::string dir = env && *env ? env : "/work/.mirror/zucchini-nlp+transformers/repo";
  auto r = run("git --git-dir=" + shell_quote(dir) + " cat-file -e " + k_transformers_sha + "^{commit}");
  return r.code == 0 ? dir : "";
}

}  // namespace errdex::testing
