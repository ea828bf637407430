// The real binary as a new user runs it, with the stores, files and
// arguments users get wrong: each gives a clear message and the documented
// exit code (0 ok, 1 not found, 2 error).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "support/process.h"

namespace errdex {
namespace {

using namespace errdex::testing;

const char* k_module = R"(def resize(n):
    """Resizes the cache to n layers."""
    if n < 0:
        raise ValueError(f"n must be non-negative, got {n}")
    return n
)";

// `cmd` run by a user who may not write the store: root ignores file
// modes, so as root it runs as `nobody`. Empty when that is not possible.
std::string as_reader(const std::string& cmd) {
  if (::geteuid() != 0) return cmd;
  if (run("command -v runuser").code != 0 || run("id nobody").code != 0) return {};
  return "runuser -u nobody -- " + cmd;
}

// A store file another user owns, in a folder this user may not write (a
// read-only mount, a shared folder): SQLite cannot make the WAL index
// beside it, so it was refused as "attempt to write a readonly database"
// by every command. Reading commands read it; writing ones say why not.
TEST(CliInputs, ReadOnlyStoreInAReadOnlyFolderIsRead) {
  TempDir repo, data;
  write_file(repo / "cache.py", k_module);
  const auto db_path = data / "ro" / "s.db";
  std::filesystem::create_directories(db_path.parent_path());
  const std::string db = "sqlite:" + db_path.string();
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_FALSE(std::filesystem::exists(db_path.string() + "-wal"));
  namespace fs = std::filesystem;
  fs::permissions(data.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                   fs::perms::others_read | fs::perms::others_exec);
  fs::permissions(db_path.parent_path(), fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                             fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  fs::permissions(db_path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string at = " --db " + shell_quote(db);
  if (as_reader("true").empty()) GTEST_SKIP() << "no way to run as a user who may not write";

  r = run(as_reader(errdex_cmd() + " list" + at));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("n must be non-negative"), std::string::npos) << r.out;
  r = run(as_reader(errdex_cmd() + " search non-negative" + at));
  EXPECT_EQ(r.code, 0) << r.err;
  r = run(as_reader(errdex_cmd() + " match " + shell_quote("ValueError: n must be non-negative, got -3") + at));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("cache.py:4"), std::string::npos) << r.out;
  r = run(as_reader(errdex_cmd() + " export" + at));
  EXPECT_EQ(r.code, 0) << r.err;
  r = run(as_reader(errdex_cmd() + " forget acme/cache" + at));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("readonly"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(db_path.string() + "-wal"));
  fs::permissions(db_path.parent_path(), fs::perms::owner_all);
}

// `scan` into a store this user may not write did the whole scan and
// failed only when storing it ("storing failed: … readonly database"):
// it is refused before the work now, with the reason, exit 2. Both a
// read-only file in a writable folder and a file in a read-only folder.
TEST(CliInputs, ScanIntoAReadOnlyStoreFailsBeforeTheWork) {
  if (as_reader("true").empty()) GTEST_SKIP() << "no way to run as a user who may not write";
  namespace fs = std::filesystem;
  const auto readable = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                        fs::perms::others_exec;
  TempDir repo, data;
  write_file(repo / "cache.py", k_module);
  fs::permissions(repo.path(), readable);
  fs::permissions(data.path(), readable);
  const auto in_ro = data / "ro" / "s.db", in_rw = data / "rw" / "s.db";
  for (const auto& db : {in_ro, in_rw}) {
    fs::create_directories(db.parent_path());
    auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache -q --db " +
                 shell_quote("sqlite:" + db.string()));
    ASSERT_EQ(r.code, 0) << r.err;
    fs::permissions(db, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  }
  fs::permissions(in_ro.parent_path(), readable & ~fs::perms::owner_write);
  fs::permissions(in_rw.parent_path(), fs::perms::all);
  for (const auto& [db, flags] : {std::pair{in_ro, " --no-cache"}, std::pair{in_ro, ""}, std::pair{in_rw, ""}}) {
    auto r = run(as_reader("env ERRDEX_PHASES=1 " + errdex_cmd() + " scan " + shell_quote(repo.str()) +
                           " --repo acme/other" + flags + " --db " + shell_quote("sqlite:" + db.string())));
    EXPECT_EQ(r.code, 2) << db;
    EXPECT_NE(r.err.find("readonly database: this user may not write the file or its folder"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("storing failed"), std::string::npos) << "the scan ran first: " << r.err;
    EXPECT_EQ(r.err.find("parse"), std::string::npos) << "the scan's passes ran: " << r.err;
    r = run(errdex_cmd() + " list --db " + shell_quote("sqlite:" + db.string()));
    EXPECT_NE(r.out.find("cache.py:4"), std::string::npos) << "nothing lost: " << r.out;
  }
  fs::permissions(in_ro.parent_path(), fs::perms::owner_all);
}

// `scan --python` with Python 2 printed Python's usage ("Unknown option:
// -I") and "exited with status 2"; with 3.6 a traceback about
// importlib.metadata; with a program that is no Python, its own output.
// Each says what is wrong now, exit 2.
TEST(CliInputs, ScanPythonSaysWhenTheInterpreterIsTooOldOrNoPython) {
  TempDir tmp;
  const auto old_python = tmp / "python3.6";
  write_file(old_python, "#!/bin/sh\nprintf '3 6 15'\n");  // what Python 3.6 answers errdex's version query
  std::filesystem::permissions(old_python, std::filesystem::perms::owner_all);
  const std::string db = " --db " + shell_quote("sqlite:" + (tmp / "a.db").string());
  auto r = run(errdex_cmd() + " scan --python " + shell_quote(old_python.string()) + db);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is Python 3.6.15: scan --python needs Python 3.8 or later"), std::string::npos) << r.err;
  r = run(errdex_cmd() + " scan --python /bin/false" + db);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/bin/false is not a Python interpreter"), std::string::npos) << r.err;
}

// `import` of a file that is not JSON Lines (an image, a binary) echoed
// its bytes into each error (nlohmann's "last read: '…'"), one error per
// line of the file. A binary line is said to be one now, other bad text
// is quoted short and escaped, and past 20 errors the rest are counted.
TEST(CliInputs, ImportOfABinaryFileQuotesNoRawBytes) {
  TempDir data;
  std::string binary = "\x7f" "ELF\x02\x01\x01";
  for (int i = 0; i < 200; ++i) binary += std::string("\x00\x01\xff\xfe\x1b[31m junk\n", 15);
  write_file(data / "a.bin", binary);
  const std::string db = " --db " + shell_quote("sqlite:" + (data / "a.db").string());
  auto r = run(errdex_cmd() + " import " + shell_quote((data / "a.bin").string()) + db);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a.bin:1: binary data, not a JSON line"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("more bad lines"), std::string::npos) << r.err;
  for (unsigned char c : r.err)
    EXPECT_TRUE(c == '\n' || (c >= 0x20 && c != 0x7f)) << "a raw byte " << int(c) << " in: " << r.err;
  EXPECT_LT(std::count(r.err.begin(), r.err.end(), '\n'), 25) << r.err;

  // Text that is not JSON: an unterminated string of 10,000 characters,
  // and a line whose text holds a terminal escape.
  write_file(data / "b.jsonl", "{\"record\": \"" + std::string(10000, 'x') + "\n" +
                                   "{\"record\": {\"repo\": \"a/b\\u001b[2J" + std::string(500, 'y') + "\"}}\n");
  r = run(errdex_cmd() + " import " + shell_quote((data / "b.jsonl").string()) + db);
  EXPECT_EQ(r.code, 2);
  EXPECT_LT(r.err.size(), 1000u) << r.err;
  EXPECT_NE(r.err.find("b.jsonl:1: invalid JSON"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
}

// The site addresses a repository as /repos/{owner}/{name}: a dataset
// whose repo is not owner/name ("../x", "x/..", "noslash", "a/b/c") was
// imported and listed on the home page with a link that led nowhere (the
// server refuses dot segments, a browser resolves them away). Such lines
// are bad lines now, reported by number while the others land; `scan
// --repo` refuses them too. A folder given to import was "0 records".
TEST(CliInputs, ImportRefusesAFolderAndRepoNamesTheSiteCannotAddress) {
  TempDir repo, data;
  write_file(repo / "cache.py", k_module);
  const std::string db = " --db " + shell_quote("sqlite:" + (data / "a.db").string());
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache -q" + db);
  ASSERT_EQ(r.code, 0) << r.err;
  for (std::string bad : {"../x", "x/..", "./x", "acme/."})
    EXPECT_EQ(run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo " + shell_quote(bad) + db).code, 2)
        << bad;
  auto line = run(errdex_cmd() + " export" + db).out;
  ASSERT_FALSE(line.empty());
  std::string lines;
  for (std::string name : {"../x", "x/..", "noslash", "a/b/c", "/lead", "own er/na me"}) {
    std::string l = line;
    l.replace(l.find("\"repo\":\"acme/cache\""), 19, "\"repo\":\"" + name + "\"");
    lines += l;
  }
  write_file(data / "odd.jsonl", lines);
  const std::string db2 = " --db " + shell_quote("sqlite:" + (data / "b.db").string());
  r = run(errdex_cmd() + " import " + shell_quote((data / "odd.jsonl").string()) + db2);
  EXPECT_EQ(r.code, 2);
  for (int n = 1; n <= 5; ++n)
    EXPECT_NE(r.err.find("odd.jsonl:" + std::to_string(n) + ": repo must be owner/name"), std::string::npos) << r.err;
  // Counted in words that agree with the counts ("1 records in 1 datasets, 5 bad lines" before).
  EXPECT_NE(r.out.find("imported 1 record in 1 dataset, 5 bad lines\n"), std::string::npos) << r.out;
  r = run(errdex_cmd() + " list" + db2);
  EXPECT_NE(r.out.find("cache.py:4"), std::string::npos) << r.out;

  r = run(errdex_cmd() + " import " + shell_quote(data.str()) + db2);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
}

// A file whose name holds a space, '#', '?' or '%' got a githubUrl with the
// name as it is: GitHub read `my file #1?.py` as `my file ` and a fragment.
TEST(CliInputs, GithubUrlsOfOddFileNamesAreEncoded) {
  TempDir repo, data;
  write_file(repo / "my file #1?.py", k_module);
  write_file(repo / "pkg%2e%2e" / "x.py", k_module);
  const std::string db = " --db " + shell_quote("sqlite:" + (data / "a.db").string());
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/odd --sha " + std::string(40, 'a') +
               " -q" + db);
  ASSERT_EQ(r.code, 0) << r.err;
  r = run(errdex_cmd() + " export" + db);
  const std::string blob = "https://github.com/acme/odd/blob/" + std::string(40, 'a') + "/";
  EXPECT_NE(r.out.find("\"githubUrl\":\"" + blob + "my%20file%20%231%3F.py#L1-L5\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"githubUrl\":\"" + blob + "pkg%252e%252e/x.py#L1-L5\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"filePath\":\"my file #1?.py\""), std::string::npos) << r.out;
}

// `match --repo` with a repository the store does not hold said "no throw
// site found for ValueError among 0 records", as if it had looked.
TEST(CliInputs, MatchSaysWhenTheRepositoryIsNotStored) {
  TempDir repo, data;
  write_file(repo / "cache.py", k_module);
  const std::string db = " --db " + shell_quote("sqlite:" + (data / "a.db").string());
  ASSERT_EQ(run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache -q" + db).code, 0);
  const std::string text = shell_quote("ValueError: n must be non-negative, got -3");
  auto r = run(errdex_cmd() + " match " + text + " --repo nobody/none" + db);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no repository nobody/none in the store"), std::string::npos) << r.err;
  r = run(errdex_cmd() + " match " + text + " --repo acme/cache" + db);
  EXPECT_EQ(r.code, 0) << r.err;
}

// `list` and `search` print one line per record: a message that runs over
// lines is written with `\n`, and each line names its repository, so the
// same file scanned under two names reads as two sites.
TEST(CliInputs, ListAndSearchPrintOneLineNamingTheRepositoryPerRecord) {
  TempDir repo, data;
  write_file(repo / "cache.py", std::string(k_module) +
                                    "\n\ndef load(path):\n    if not path:\n"
                                    "        raise ValueError(\"no path given\\nset CACHE_PATH or pass one\")\n");
  const std::string db = " --db " + shell_quote("sqlite:" + (data / "a.db").string());
  ASSERT_EQ(run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache -q" + db).code, 0);
  ASSERT_EQ(run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo fork/cache -q" + db).code, 0);
  for (const std::string cmd : {" list", " search path"}) {
    auto r = run(errdex_cmd() + cmd + db);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto lines = std::count(r.out.begin(), r.out.end(), '\n');
    EXPECT_EQ(lines, cmd == " list" ? 4 : 2) << r.out;
    EXPECT_NE(r.out.find("  acme/cache  cache.py:10  ValueError: no path given\\nset CACHE_PATH or pass one\n"),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  fork/cache  cache.py:10  ValueError: no path given\\nset"), std::string::npos) << r.out;
  }
}

// The scan's summary counts a reworded site that kept its id in words that
// agree with the count ("1 sites … keep their id" before).
TEST(CliInputs, TheSummarySaysOneRewordedSiteKeepsItsId) {
  TempDir repo, data;
  const std::string db = " --db " + shell_quote("sqlite:" + (data / "a.db").string());
  write_file(repo / "cache.py", k_module);
  ASSERT_EQ(run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache --ref v1 -q" + db).code, 0);
  std::string reworded = k_module;
  reworded.replace(reworded.find("n must be non-negative"), 22, "n must be zero or more");
  write_file(repo / "cache.py", reworded);
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache --ref v2 -q" + db);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\n1 site whose message changed since a stored revision keeps its id\n"), std::string::npos)
      << r.out;
}

// `errdex migrate` on a store it has just made said "schema up to date"
// (it opened the store, migrating it, before asking what to migrate): it
// says it created the store, in a folder made for it, and the next run
// that there was nothing to do.
TEST(CliInputs, MigrateSaysItCreatedTheStore) {
  TempDir data;
  const std::string db = " --db " + shell_quote("sqlite:" + (data / "new" / "s.db").string());
  auto r = run(errdex_cmd() + " migrate" + db);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("store created, schema at version "), 0u) << r.out;
  r = run(errdex_cmd() + " migrate" + db);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("(up to date)"), std::string::npos) << r.out;
}

// `scan --rev v1 --rev typo` scanned and stored v1, then failed on the
// typo (exit 2): every --rev is looked up first, and a missing one stops
// the command before any work, naming it, with no store made.
TEST(CliInputs, AnUnknownRevisionIsFoundBeforeAnyIsScanned) {
  TempDir repo, data;
  write_file(repo / "cache.py", k_module);
  ASSERT_EQ(run("cd " + shell_quote(repo.str()) +
                " && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git tag v1")
                .code,
            0);
  const auto db_path = data / "s.db";
  const std::string db = " --db " + shell_quote("sqlite:" + db_path.string());
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --rev v1 --rev v1.O --repo acme/cache -q" + db);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.err.find("unknown revision 'v1.O'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nothing scanned"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("scanned acme/cache"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(db_path));
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --rev v1 --repo acme/cache -q" + db);
  EXPECT_EQ(r.code, 0) << r.err;
}

}  // namespace
}  // namespace errdex
