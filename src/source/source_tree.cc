#include "source/source_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>

#include "util/text.h"

namespace errdex::source {
namespace {

// Folders that hold other projects' code (dependencies, environments) or
// tool state, never the repository's own throw sites. A plain `venv` is
// judged by its pyvenv.cfg instead: the standard library has a venv package.
// `.yarn` holds the Yarn release a repository commits to pin its package
// manager (`.yarn/releases/yarn-4.x.cjs`, a 3 MB bundle), its plugins and
// cache: sequelize's gave 1,659 of its 2,316 records.
bool is_dependency_dir(std::string_view name) {
  static const std::set<std::string_view> k_names = {
      ".git", ".hg", ".svn", "node_modules", "site-packages", "dist-packages",
      ".venv", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".eggs", ".direnv", ".yarn"};
  return k_names.count(name) > 0;
}

// What setuptools writes when a project is built or installed from its
// folder (`pip install .`, `setup.py build`): `build/lib/`,
// `build/lib.linux-x86_64-cpython-311/`, `build/bdist.linux-x86_64/`,
// copies of the package under `src/` that would answer in its place. Only
// beside the project's setup.py or pyproject.toml (`parent` is the folder
// holding `build`).
bool is_setuptools_build(const std::string& parent, std::string_view build, std::string_view name) {
  if (build != "build") return false;
  if (name != "lib" && !name.starts_with("lib.") && !name.starts_with("bdist.")) return false;
  return ::access((parent + "/setup.py").c_str(), F_OK) == 0 || ::access((parent + "/pyproject.toml").c_str(), F_OK) == 0;
}

bool has_extension(std::string_view name, const Options& o) {
  for (const auto& ext : o.extensions)
    if (name.size() >= ext.size() && name.substr(name.size() - ext.size()) == ext) return true;
  return false;
}

std::string git_error_text(const char* what) {
  const git_error* e = git_error_last();
  return std::string(what) + ": " + (e && e->message ? e->message : "unknown libgit2 error");
}

// Seconds since the epoch as ISO 8601 in UTC: 2024-03-01T12:00:00Z.
std::string iso_utc(git_time_t seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

struct GitLib {
  GitLib() {
    git_libgit2_init();
    // Objects are read by their id and not hashed again on every read (as
    // git itself reads them): rehashing each blob read was a quarter of
    // reading it, on every revision a scan reads.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
  }
  ~GitLib() { git_libgit2_shutdown(); }
};
void ensure_git() { static GitLib lib; }

struct RepoHandle {
  git_repository* repo = nullptr;
  ~RepoHandle() {
    if (repo) git_repository_free(repo);
  }
};

// True when HEAD's tree holds `rel`: a folder inside a work tree that git
// ignores or does not track (pyenv keeps whole Python installs inside its
// own clone) is not that repository's code.
bool tracked_at_head(git_repository* repo, const git_oid& head, const std::string& rel) {
  if (rel.empty()) return true;
  git_commit* commit = nullptr;
  if (git_commit_lookup(&commit, repo, &head) != 0) return false;
  git_tree* tree = nullptr;
  bool found = false;
  if (git_commit_tree(&tree, commit) == 0) {
    git_tree_entry* e = nullptr;
    found = git_tree_entry_bypath(&e, tree, rel.c_str()) == 0;
    if (e) git_tree_entry_free(e);
    git_tree_free(tree);
  }
  git_commit_free(commit);
  return found;
}

// HEAD's sha and whether tracked files under `pathspec` differ from it.
// False, with both left alone, when the folder is not tracked at HEAD.
bool head_state(git_repository* repo, const std::string& pathspec, std::string& sha, bool& dirty) {
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo, "HEAD") != 0) return false;
  if (!tracked_at_head(repo, oid, pathspec)) return false;
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &oid);
  sha = hex;
  git_status_options opts;
  git_status_options_init(&opts, GIT_STATUS_OPTIONS_VERSION);
  opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  opts.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
  char* spec = const_cast<char*>(pathspec.c_str());
  if (!pathspec.empty()) {
    opts.pathspec.strings = &spec;
    opts.pathspec.count = 1;
  }
  git_status_list* list = nullptr;
  if (git_status_list_new(&list, repo, &opts) == 0) {
    dirty = git_status_list_entrycount(list) > 0;
    git_status_list_free(list);
  }
  return true;
}

class DirectoryTree final : public SourceTree {
 public:
  DirectoryTree(std::filesystem::path root, Options options, std::string sha, bool dirty, std::string repo_path)
      : m_root(std::move(root)), m_options(std::move(options)), m_sha(std::move(sha)), m_dirty(dirty),
        m_repo_path(std::move(repo_path)) {}

  const std::string& sha() const override { return m_sha; }
  const std::string& repo_path() const override { return m_repo_path; }
  bool dirty() const override { return m_dirty; }

  // Only these files (relative, '/'-separated), not a walk of the folder.
  void keep_only(std::vector<std::string> files) { m_only = std::move(files); }

  std::vector<Entry> list(std::vector<Skip>& skipped) override {
    std::vector<Entry> out;
    if (m_only) {
      for (const auto& rel : *m_only) {
        if (!has_extension(rel, m_options)) continue;
        // The list is outside input: nothing outside the root is read.
        if (rel.empty() || rel.front() == '/' || rel.find("..") != std::string::npos) {
          skipped.push_back({rel, "outside-root"});
          continue;
        }
        struct stat st {};
        if (::stat((m_root / rel).c_str(), &st) != 0) {
          skipped.push_back({rel, std::string("unreadable: ") + std::strerror(errno)});
          continue;
        }
        if (!S_ISREG(st.st_mode)) {
          skipped.push_back({rel, "not-regular"});
          continue;
        }
        out.push_back({rel, static_cast<std::uint64_t>(st.st_size), {}});
      }
      std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.path < b.path; });
      out.erase(std::unique(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.path == b.path; }),
                out.end());
      return out;
    }
    // Iterative walk; directories are identified by (device, inode) so a
    // symlink cycle is seen the second time round and never followed.
    std::set<std::pair<dev_t, ino_t>> seen;
    struct stat st {};
    if (::stat(m_root.c_str(), &st) == 0) seen.insert({st.st_dev, st.st_ino});
    std::vector<std::string> stack{""};
    while (!stack.empty()) {
      std::string rel = std::move(stack.back());
      stack.pop_back();
      std::string abs = rel.empty() ? m_root.string() : (m_root / rel).string();
      DIR* d = ::opendir(abs.c_str());
      if (!d) {
        skipped.push_back({rel, std::string("unreadable: ") + std::strerror(errno)});
        continue;
      }
      while (dirent* de = ::readdir(d)) {
        std::string_view name = de->d_name;
        if (name == "." || name == "..") continue;
        std::string child_rel = rel.empty() ? std::string(name) : rel + "/" + std::string(name);
        std::string child_abs = abs + "/" + std::string(name);
        struct stat lst {};
        if (::lstat(child_abs.c_str(), &lst) != 0) {
          skipped.push_back({child_rel, std::string("unreadable: ") + std::strerror(errno)});
          continue;
        }
        bool is_link = S_ISLNK(lst.st_mode);
        struct stat tst = lst;
        if (is_link && ::stat(child_abs.c_str(), &tst) != 0) {
          skipped.push_back({child_rel, errno == ELOOP ? "symlink-loop" : "broken-symlink"});
          continue;
        }
        if (S_ISDIR(tst.st_mode)) {
          if (name == "__pycache__") continue;  // bytecode only: nothing to scan, nothing to report
          if (is_dependency_dir(name) || ::access((child_abs + "/pyvenv.cfg").c_str(), F_OK) == 0) {
            skipped.push_back({child_rel, "dependency-dir"});
            continue;
          }
          if (const auto slash = abs.rfind('/');
              slash != std::string::npos && is_setuptools_build(abs.substr(0, slash), std::string_view(abs).substr(slash + 1), name)) {
            skipped.push_back({child_rel, "build-output"});
            continue;
          }
          if (!seen.insert({tst.st_dev, tst.st_ino}).second) {
            skipped.push_back({child_rel, is_link ? "symlink-loop" : "already-visited"});
            continue;
          }
          stack.push_back(std::move(child_rel));
          continue;
        }
        if (!has_extension(name, m_options)) continue;
        if (!S_ISREG(tst.st_mode)) {
          skipped.push_back({child_rel, "not-regular"});
          continue;
        }
        if (static_cast<std::uint64_t>(tst.st_size) > m_options.max_file_size) {
          skipped.push_back({child_rel, "too-large"});
          continue;
        }
        out.push_back({child_rel, static_cast<std::uint64_t>(tst.st_size), {}});
      }
      ::closedir(d);
    }
    std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.path < b.path; });
    return out;
  }

  Expected<std::string> read(const Entry& e) const override {
    std::string abs = (m_root / e.path).string();
    // O_NONBLOCK: if the file was swapped for a FIFO after listing, open
    // must not wait for a writer.
    int fd = ::open(abs.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return Error{std::string("unreadable: ") + std::strerror(errno)};
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      return Error{"not-regular"};
    }
    if (static_cast<std::uint64_t>(st.st_size) > m_options.max_file_size) {
      ::close(fd);
      return Error{"too-large"};
    }
    std::string data(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < data.size()) {
      ssize_t n = ::read(fd, data.data() + got, data.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    data.resize(got);
    return data;
  }

 private:
  std::filesystem::path m_root;
  Options m_options;
  std::string m_sha;
  bool m_dirty;
  std::string m_repo_path;
  std::optional<std::vector<std::string>> m_only;
};

class GitTree final : public SourceTree {
 public:
  GitTree(git_repository* repo, git_tree* tree, std::string sha, Options options, std::string repo_path)
      : m_repo(repo), m_tree(tree), m_sha(std::move(sha)), m_options(std::move(options)),
        m_repo_path(std::move(repo_path)) {}
  ~GitTree() override {
    git_tree_free(m_tree);
    git_repository_free(m_repo);
  }

  const std::string& sha() const override { return m_sha; }
  const std::string& repo_path() const override { return m_repo_path; }
  bool dirty() const override { return false; }

  std::vector<Entry> list(std::vector<Skip>& skipped) override {
    struct Walk {
      GitTree* self;
      std::vector<Entry>* out;
      std::vector<Skip>* skipped;
    } w{this, nullptr, &skipped};
    std::vector<Entry> out;
    w.out = &out;
    git_tree_walk(
        m_tree, GIT_TREEWALK_PRE,
        [](const char* root, const git_tree_entry* entry, void* payload) -> int {
          auto* w = static_cast<Walk*>(payload);
          std::string_view name = git_tree_entry_name(entry);
          std::string path = std::string(root) + std::string(name);
          git_filemode_t mode = git_tree_entry_filemode(entry);
          if (mode == GIT_FILEMODE_TREE) {
            if (is_dependency_dir(name)) {
              w->skipped->push_back({path, "dependency-dir"});
              return 1;  // skip this subtree
            }
            return 0;
          }
          if (!has_extension(name, w->self->m_options)) return 0;
          if (mode == GIT_FILEMODE_LINK) {
            w->skipped->push_back({path, "symlink"});
            return 0;
          }
          if (mode == GIT_FILEMODE_COMMIT) {
            w->skipped->push_back({path, "submodule"});
            return 0;
          }
          const git_oid* oid = git_tree_entry_id(entry);
          w->self->m_oids.emplace(path, *oid);
          char hex[GIT_OID_HEXSZ + 1];
          git_oid_tostr(hex, sizeof hex, oid);
          w->out->push_back({path, 0, hex});
          return 0;
        },
        &w);
    std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.path < b.path; });
    return out;
  }

  std::string content_id(const Entry& e) const override {
    auto it = m_oids.find(e.path);
    if (it == m_oids.end()) return {};
    char hex[GIT_OID_HEXSZ + 1];
    git_oid_tostr(hex, sizeof hex, &it->second);
    return hex;
  }

  std::vector<LineOrigin> blame(const Entry& e, const std::vector<int>& lines) const override {
    std::vector<LineOrigin> out;
    if (lines.empty() || !m_oids.contains(e.path)) return out;
    // Its own handle: blames run on several threads, and a git_repository
    // must not be used by two at once.
    RepoHandle h;
    if (git_repository_open(&h.repo, git_repository_path(m_repo)) != 0) return out;
    git_blame_options opts;
    git_blame_options_init(&opts, GIT_BLAME_OPTIONS_VERSION);
    git_oid_fromstr(&opts.newest_commit, m_sha.c_str());
    auto [lo, hi] = std::minmax_element(lines.begin(), lines.end());
    // Only the span asked is followed back: history stops once each of its
    // lines has its commit.
    opts.min_line = static_cast<std::size_t>(std::max(1, *lo));
    opts.max_line = static_cast<std::size_t>(std::max(1, *hi));
    const std::string path = m_repo_path.empty() ? e.path : m_repo_path + "/" + e.path;
    git_blame* b = nullptr;
    if (git_blame_file(&b, h.repo, path.c_str(), &opts) != 0) return out;
    std::unordered_map<std::string, LineOrigin> commits;  // by sha: summary and date read once
    for (int line : lines) {
      const git_blame_hunk* hunk = line > 0 ? git_blame_get_hunk_byline(b, static_cast<std::size_t>(line)) : nullptr;
      if (!hunk || git_oid_is_zero(&hunk->final_commit_id)) continue;
      char hex[GIT_OID_HEXSZ + 1];
      git_oid_tostr(hex, sizeof hex, &hunk->final_commit_id);
      auto it = commits.find(hex);
      if (it == commits.end()) {
        LineOrigin o;
        o.sha = hex;
        git_commit* c = nullptr;
        if (git_commit_lookup(&c, h.repo, &hunk->final_commit_id) == 0) {
          if (const char* s = git_commit_summary(c)) o.summary = s;
          const git_signature* a = git_commit_author(c);
          o.date = iso_utc(a ? a->when.time : git_commit_time(c));
          git_commit_free(c);
        }
        it = commits.emplace(hex, std::move(o)).first;
      }
      LineOrigin o = it->second;
      o.line = line;
      out.push_back(std::move(o));
    }
    git_blame_free(b);
    return out;
  }

  Expected<std::string> read(const Entry& e) const override {
    auto it = m_oids.find(e.path);
    if (it == m_oids.end()) return Error{"not listed"};
    // A git_repository must not be used by two threads at once.
    std::lock_guard<std::mutex> lock(m_mutex);
    git_blob* blob = nullptr;
    if (git_blob_lookup(&blob, m_repo, &it->second) != 0) return Error{git_error_text("unreadable")};
    auto size = static_cast<std::uint64_t>(git_blob_rawsize(blob));
    if (size > m_options.max_file_size) {
      git_blob_free(blob);
      return Error{"too-large"};
    }
    std::string data(static_cast<const char*>(git_blob_rawcontent(blob)), static_cast<std::size_t>(size));
    git_blob_free(blob);
    return data;
  }

 private:
  git_repository* m_repo;
  git_tree* m_tree;
  std::string m_sha;
  Options m_options;
  std::string m_repo_path;
  std::unordered_map<std::string, git_oid> m_oids;
  mutable std::mutex m_mutex;
};

}  // namespace

bool decode_declared_encoding(std::string& content) {
  if (util::is_valid_utf8(content)) return false;
  // The declaration must be in a comment on one of the first two lines.
  std::string encoding;
  std::size_t line_start = 0;
  for (int line = 0; line < 2 && line_start < content.size() && encoding.empty(); ++line) {
    std::size_t end = content.find('\n', line_start);
    if (end == std::string::npos) end = content.size();
    std::string_view l(content.data() + line_start, end - line_start);
    std::size_t hash = l.find('#');
    std::size_t at = hash == std::string_view::npos ? hash : l.find("coding", hash);
    if (at != std::string_view::npos && at + 6 < l.size() && (l[at + 6] == ':' || l[at + 6] == '=')) {
      std::size_t i = at + 7;
      while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
      while (i < l.size() && (std::isalnum(static_cast<unsigned char>(l[i])) || l[i] == '-' || l[i] == '_' || l[i] == '.'))
        encoding += l[i++];
    }
    line_start = end + 1;
  }
  if (encoding.empty() || encoding.size() > 40) return false;
  // Python's spellings ("latin-1", "utf_8") are iconv's without the
  // separators when not as they are.
  auto utf8 = util::to_utf8(content, encoding);
  if (!utf8) return false;
  content = std::move(*utf8);
  return true;
}

std::optional<std::string> content_problem(const std::string& content, const Options& options) {
  if (content.size() > options.max_file_size) return "too-large";
  // Git's rule of thumb: a NUL byte in the first 8000 bytes means binary.
  if (std::memchr(content.data(), '\0', std::min<std::size_t>(content.size(), 8000))) return "binary";
  if (!util::is_valid_utf8(content)) return "invalid-utf8";
  return std::nullopt;
}

Expected<std::unique_ptr<SourceTree>> open_tree(const std::string& path, const std::optional<std::string>& rev,
                                                const Options& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec || !fs::exists(abs, ec)) return Error{"no such directory: " + path};
  if (!fs::is_directory(abs, ec)) return Error{"not a directory: " + path};
  ensure_git();

  RepoHandle h;
  bool in_git = git_repository_open_ext(&h.repo, abs.c_str(), 0, nullptr) == 0;
  std::string rel;  // the scanned folder inside the repository
  // The git directory itself (a bare clone, or a mirror without a config
  // that says bare) has no work tree to be inside of.
  bool is_git_dir = in_git && fs::weakly_canonical(git_repository_path(h.repo), ec) == abs;
  if (in_git && !is_git_dir && git_repository_workdir(h.repo)) {
    fs::path wd = fs::weakly_canonical(git_repository_workdir(h.repo), ec);
    rel = fs::relative(abs, wd, ec).generic_string();
    if (rel == ".") rel.clear();
  }

  // A git directory holds no files to read, only commits: without --rev,
  // its HEAD is what it holds.
  std::optional<std::string> asked = rev;
  if (!asked && is_git_dir) asked = "HEAD";
  if (!asked) {
    std::string sha;
    bool dirty = false;
    if (in_git && !head_state(h.repo, rel, sha, dirty)) rel.clear();
    return std::unique_ptr<SourceTree>(new DirectoryTree(abs, options, sha, dirty, rel));
  }
  if (!in_git) return Error{"--rev needs a git repository, and " + path + " is not in one"};
  git_object* obj = nullptr;
  if (git_revparse_single(&obj, h.repo, asked->c_str()) != 0)
    return Error{git_error_text(("unknown revision '" + *asked + "'").c_str())};
  git_commit* commit = nullptr;
  int rc = git_object_peel(reinterpret_cast<git_object**>(&commit), obj, GIT_OBJECT_COMMIT);
  git_object_free(obj);
  if (rc != 0) return Error{git_error_text(("'" + *asked + "' is not a commit").c_str())};
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, git_commit_id(commit));
  git_tree* root = nullptr;
  rc = git_commit_tree(&root, commit);
  git_commit_free(commit);
  if (rc != 0) return Error{git_error_text("cannot read the commit's tree")};
  git_tree* tree = root;
  if (!rel.empty()) {
    git_tree_entry* te = nullptr;
    if (git_tree_entry_bypath(&te, root, rel.c_str()) != 0) {
      git_tree_free(root);
      return Error{"'" + rel + "' does not exist at revision " + *asked};
    }
    git_object* sub = nullptr;
    rc = git_tree_entry_to_object(&sub, h.repo, te);
    git_tree_entry_free(te);
    git_tree_free(root);
    if (rc != 0 || git_object_type(sub) != GIT_OBJECT_TREE) {
      git_object_free(sub);
      return Error{"'" + rel + "' is not a folder at revision " + *asked};
    }
    tree = reinterpret_cast<git_tree*>(sub);
  }
  git_repository* repo = h.repo;
  h.repo = nullptr;
  return std::unique_ptr<SourceTree>(new GitTree(repo, tree, hex, options, rel));
}

Expected<std::vector<std::string>> matching_tags(const std::string& path, const std::string& glob) {
  ensure_git();
  RepoHandle h;
  std::error_code ec;
  std::string abs = std::filesystem::absolute(path, ec).string();
  if (git_repository_open_ext(&h.repo, abs.c_str(), 0, nullptr) != 0)
    return Error{"--revs needs a git repository, and " + path + " is not in one"};
  git_strarray names{};
  if (git_tag_list_match(&names, glob.c_str(), h.repo) != 0) return Error{git_error_text("cannot list tags")};
  std::vector<std::string> out(names.strings, names.strings + names.count);
  git_strarray_dispose(&names);
  std::stable_sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) { return util::version_less(a, b); });
  return out;
}

Expected<std::unique_ptr<SourceTree>> open_files(const std::string& root, std::vector<std::string> files,
                                                 const Options& options) {
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::weakly_canonical(std::filesystem::absolute(root, ec), ec);
  if (ec || !std::filesystem::is_directory(abs, ec)) return Error{"no such directory: " + root};
  auto tree = std::make_unique<DirectoryTree>(abs, options, "", false, "");
  tree->keep_only(std::move(files));
  return std::unique_ptr<SourceTree>(std::move(tree));
}

std::string path_in_repo(const std::string& prefix, const std::string& rel) {
  std::string_view p = prefix;
  while (!p.empty() && p.back() == '/') p.remove_suffix(1);
  while (!p.empty() && p.front() == '/') p.remove_prefix(1);
  return p.empty() ? rel : std::string(p) + "/" + rel;
}

}  // namespace errdex::source
