// The real binary over small repositories made in a temp dir.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/process.h"

namespace errdex {
namespace {

using nlohmann::json;
using testing::errdex_cmd;
using testing::run;
using testing::RunResult;
using testing::shell_quote;
using testing::TempDir;
using testing::write_file;

const char* k_module = R"(import warnings


class Cache:
    """A cache of layers."""

    def resize(self, n):
        """Resizes the cache to n layers."""
        if n < 0:
            raise ValueError(f"n must be non-negative, got {n}")
        if not isinstance(n, int):
            raise TypeError("n must be an int, got %s" % type(n).__name__)
        warnings.warn("resize is deprecated", DeprecationWarning)
        return n
)";

std::vector<json> export_records(const std::string& db) {
  auto r = run(errdex_cmd() + " export --db " + shell_quote(db));
  std::vector<json> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line)["record"]);
  return out;
}

std::string git(const TempDir& d, const std::string& args) {
  auto r = run("cd " + shell_quote(d.str()) + " && git -c user.name=t -c user.email=t@t -c init.defaultBranch=main " + args);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
  return r.out;
}

TEST(Cli, ScansAGitRevisionWithoutCheckoutAndIdsSurviveLineMoves) {
  TempDir repo, data;
  std::string db = "sqlite:" + (data / "e.db").string();
  write_file(repo / "pkg/cache.py", k_module);
  git(repo, "init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git tag v1");
  std::string sha1 = git(repo, "rev-parse HEAD");
  sha1.pop_back();
  // A second commit moves every site down by three lines.
  write_file(repo / "pkg/cache.py", std::string("# a\n# b\n# c\n") + k_module);
  git(repo, "commit -qam two");

  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --rev v1 --repo acme/cache --db " +
               shell_quote(db) + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto summary = json::parse(r.out);
  EXPECT_EQ(summary["sha"], sha1);
  EXPECT_EQ(summary["records"], 3);
  auto v1 = export_records(db);
  ASSERT_EQ(v1.size(), 3u);
  EXPECT_EQ(v1[0]["filePath"], "pkg/cache.py");
  EXPECT_EQ(v1[0]["lineNumber"], 10);
  EXPECT_EQ(v1[0]["errorMessage"], "n must be non-negative, got {n}");
  EXPECT_EQ(v1[0]["analyzedSha"], sha1);
  EXPECT_EQ(v1[0]["githubUrl"], "https://github.com/acme/cache/blob/" + sha1 + "/pkg/cache.py#L1-L14");
  EXPECT_EQ(v1[2]["severity"], "warning");
  EXPECT_EQ(v1[2]["errorClass"], "DeprecationWarning");

  // HEAD, read from the work tree: same ids, lines moved by three.
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache --db " + shell_quote(db) + " -q");
  ASSERT_EQ(r.code, 0) << r.err;
  auto v2 = export_records(db);
  ASSERT_EQ(v2.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(v2[i]["id"], v1[i]["id"]);
    EXPECT_EQ(v2[i]["lineNumber"].get<int>(), v1[i]["lineNumber"].get<int>() + 3);
  }

  // A dirty work tree is said so.
  write_file(repo / "pkg/cache.py", std::string("# dirty\n") + k_module);
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache --db " + shell_quote(db) + " -q");
  EXPECT_NE(r.out.find("uncommitted"), std::string::npos) << r.out;

  // Subfolder of a repository: paths stay relative to the repository root.
  r = run(errdex_cmd() + " scan " + shell_quote((repo / "pkg").string()) + " --rev v1 --repo acme/cache --db " +
          shell_quote(db) + " -q");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(export_records(db)[0]["filePath"], "pkg/cache.py");

  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --rev no-such-tag --db " + shell_quote(db));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no-such-tag"), std::string::npos) << r.err;

  // A bare clone has no work tree: its HEAD is scanned, as --rev HEAD.
  TempDir bare;
  git(bare, "clone -q --bare " + shell_quote(repo.str()) + " clone.git");
  r = run(errdex_cmd() + " scan " + shell_quote((bare / "clone.git").string()) + " --repo acme/bare --db " +
          shell_quote(db) + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  summary = json::parse(r.out);
  EXPECT_EQ(summary["records"], 3);
  EXPECT_EQ(summary["sha"], git(repo, "rev-parse HEAD").substr(0, 40));
}

// Test code raises on purpose: by default it gives no records, and the
// summary says how many files were left out so (issue 29, item 1). The
// import roots the scan stores let an installed traceback name src/ files.
TEST(Cli, TestCodeIsLeftOutUnlessAskedAndSrcLayoutFramesMatch) {
  TempDir repo, data;
  std::string db = "sqlite:" + (data / "e.db").string();
  // The second raise's one-word message is a lint finding.
  const char* raising =
      "def f(x):\n    if x < 0:\n        raise ValueError(f\"x must be positive, got {x}\")\n\n\n"
      "def g():\n    raise RuntimeError(\"oops\")\n";
  write_file(repo / "src/pkg/__init__.py", "");
  write_file(repo / "src/pkg/core.py", raising);
  write_file(repo / "src/pkg/testing/helpers.py", raising);
  write_file(repo / "src/pkg/core_test.py", raising);
  write_file(repo / "tests/test_core.py", raising);
  write_file(repo / "tests/data/sample.py", raising);
  write_file(repo / "conftest.py", raising);
  write_file(repo / "test_top.py", raising);
  write_file(repo / "tools/contest.py", raising);  // not test code: only near the names

  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/pkg --json -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  auto summary = json::parse(r.out);
  EXPECT_EQ(summary["testFiles"], 6);
  EXPECT_EQ(summary["records"], 4);
  auto recs = export_records(db);
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[0]["filePath"], "src/pkg/core.py");
  EXPECT_EQ(recs[2]["filePath"], "tools/contest.py");
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/pkg --db " + shell_quote(db));
  EXPECT_NE(r.out.find("left out 6 test files"), std::string::npos) << r.out;
  // A folder outside git has no commit: the summary says so, not forty
  // zeros, and its counts say which files the cache line is about.
  EXPECT_NE(r.out.find("at no commit (a folder outside git: --ref or --sha pins its links): 3 files, 4 records"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("0000000000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 of the 2 files holding a raise or throw unchanged since an earlier scan"), std::string::npos)
      << r.out;

  // A traceback from the installed package: the frame's module path
  // pkg/core.py is src/pkg/core.py under the import root src.
  r = run(errdex_cmd() + " match --json --db " + shell_quote(db) + " " +
          shell_quote("Traceback (most recent call last):\n"
                      "  File \"/srv/app/.venv/lib/python3.11/site-packages/pkg/core.py\", line 3, in f\n"
                      "ValueError: x must be positive, got -1\n"));
  ASSERT_EQ(r.code, 0) << r.err;
  auto m = json::parse(r.out);
  ASSERT_FALSE(m["candidates"].empty());
  EXPECT_EQ(m["candidates"][0]["filePath"], "src/pkg/core.py");
  EXPECT_FALSE(m["ambiguous"]);

  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/pkg --include-tests --json -q --db " +
          shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["testFiles"], 0);
  EXPECT_EQ(export_records(db).size(), 16u);

  // lint reads what scan reads.
  r = run(errdex_cmd() + " lint " + shell_quote(repo.str()) + " --format json");
  auto findings = r.out;
  r = run(errdex_cmd() + " lint " + shell_quote(repo.str()) + " --format json --include-tests");
  EXPECT_EQ(findings.find("tests/test_core.py"), std::string::npos);
  EXPECT_NE(r.out.find("tests/test_core.py"), std::string::npos) << r.out;
}

// Issue 29, items 2, 3 and 7: a test file gives no records but its tests
// are linked to the records they raise: directly, through a public function
// that calls the raising helper, by class and subclass, with the regex
// agreeing; a test whose regex disagrees links nothing. triggerScenarios
// names the test's call; a record without tests has no "evidence".
TEST(Cli, TestsThatRaiseTheErrorAreLinkedToItsRecord) {
  TempDir repo, data;
  std::string db = "sqlite:" + (data / "e.db").string();
  write_file(repo / "pkg/__init__.py", "");
  write_file(repo / "pkg/errors.py", "class WidthError(ValueError):\n    pass\n");
  write_file(repo / "pkg/wrap.py",
             "from pkg.errors import WidthError\n\n\n"
             "def _check(width):\n"
             "    if width <= 0:\n"
             "        raise WidthError(f\"invalid width {width} (must be > 0)\")\n\n\n"
             "def wrap(text, width):\n"
             "    _check(width)\n"
             "    return [text]\n\n\n"
             "def fill(text, mode):\n"
             "    if mode not in ('a', 'b'):\n"
             "        raise KeyError(mode)\n"
             "    return text\n\n\n"
             "def never(x):\n"
             "    raise RuntimeError('never tested')\n");
  write_file(repo / "tests/test_wrap.py",
             "import unittest\nimport pytest\nfrom pkg.wrap import wrap, fill\n\n\n"
             "class WrapTest(unittest.TestCase):\n"
             "    def test_bad_width(self):\n"
             "        with self.assertRaisesRegex(ValueError, r'invalid width'):\n"
             "            wrap('x', width=0)\n\n"
             "    def test_mode(self):\n"
             "        self.assertRaises(LookupError, fill, 'x', 'c')\n\n\n"
             "def test_wrong_regex():\n"
             "    with pytest.raises(ValueError, match='no such text'):\n"
             "        wrap('x', 0)\n");
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/wrap --json -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["testFiles"], 1);
  auto recs = export_records(db);
  ASSERT_EQ(recs.size(), 3u);
  std::map<std::string, json> by_class;
  for (const auto& rec : recs) by_class[rec["errorClass"]] = rec;
  const json& width = by_class["WidthError"];
  ASSERT_TRUE(width.contains("evidence")) << width.dump();
  ASSERT_EQ(width["evidence"]["tests"].size(), 1u) << width.dump();
  const json& t = width["evidence"]["tests"][0];
  EXPECT_EQ(t["filePath"], "tests/test_wrap.py");
  EXPECT_EQ(t["lineNumber"], 8);
  EXPECT_EQ(t["name"], "WrapTest.test_bad_width");
  EXPECT_EQ(t["code"], "with self.assertRaisesRegex(ValueError, r'invalid width'):\n    wrap('x', width=0)");
  EXPECT_EQ(width["triggerScenarios"].get<std::string>().rfind(
                "`tests/test_wrap.py::WrapTest.test_bad_width` raises it on purpose: `wrap('x', width=0)`. ", 0),
            0u)
      << width["triggerScenarios"];
  const json& mode = by_class["KeyError"];
  ASSERT_TRUE(mode.contains("evidence")) << mode.dump();
  EXPECT_EQ(mode["evidence"]["tests"][0]["name"], "WrapTest.test_mode");
  EXPECT_EQ(mode["evidence"]["tests"][0]["code"], "self.assertRaises(LookupError, fill, 'x', 'c')");
  // No test for `never`; users get there by calling it (evidence.entryPoints),
  // and to the width check through `wrap`.
  EXPECT_FALSE(by_class["RuntimeError"]["evidence"].contains("tests")) << by_class["RuntimeError"].dump();
  EXPECT_EQ(by_class["RuntimeError"]["evidence"]["entryPoints"],
            json::parse(R"([{"name": "pkg.wrap.never", "chain": ["pkg.wrap.never"]}])"));
  EXPECT_EQ(width["evidence"]["entryPoints"],
            json::parse(R"([{"name": "pkg.wrap.wrap", "chain": ["pkg.wrap.wrap", "pkg.wrap._check"]}])"));

  // --no-evidence reads no test: the records are as before evidence.
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/wrap --no-evidence -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& rec : export_records(db)) EXPECT_FALSE(rec.contains("evidence")) << rec.dump();
}

// Issue 29, items 4 and 5: on a git revision scanned with --blame, each
// record names the commit that last changed its raise line (sha, summary,
// author date in UTC); docs that quote the message, the raising function's
// docstring naming the class and a doc paragraph naming class and function
// are linked with file and line, closest first. A folder scan has no
// history, and --no-evidence reads no docs.
TEST(Cli, DocsAndTheCommitThatIntroducedTheRaiseAreLinked) {
  TempDir repo, data;
  std::string db = "sqlite:" + (data / "e.db").string();
  write_file(repo / "pkg/__init__.py", "");
  write_file(repo / "pkg/wrap.py",
             "def wrap(text, width):\n"
             "    \"\"\"Wraps text.\n\n"
             "    Raises ValueError when the width is not positive.\n"
             "    \"\"\"\n"
             "    return [text]\n\n\n"
             "def old(x):\n"
             "    raise KeyError(x)\n");
  git(repo, "init -q && git add -A && GIT_AUTHOR_DATE='2023-05-06T07:08:09Z' git -c user.name=t -c user.email=t@t "
            "commit -qm 'first: wrap'");
  std::string sha1 = git(repo, "rev-parse HEAD");
  sha1.pop_back();
  write_file(repo / "pkg/wrap.py",
             "def wrap(text, width):\n"
             "    \"\"\"Wraps text.\n\n"
             "    Raises ValueError when the width is not positive.\n"
             "    \"\"\"\n"
             "    if width <= 0:\n"
             "        raise ValueError(f\"the width must be a positive number of columns, got {width}\")\n"
             "    return [text]\n\n\n"
             "def old(x):\n"
             "    raise KeyError(x)\n");
  write_file(repo / "docs/guide.rst",
             "Wrapping\n========\n\n"
             "Call :func:`wrap` with a width; a :exc:`ValueError` tells you\n"
             "when it is wrong.\n\n"
             "The error reads::\n\n"
             "    ValueError: the width must be a positive\n"
             "    number of columns, got 0\n");
  write_file(repo / "docs/data.bin.txt", std::string("\0\1binary", 8));
  git(repo, "add -A && GIT_AUTHOR_DATE='2024-03-01T12:00:00Z' git -c user.name=t -c user.email=t@t "
            "commit -qm 'wrap: refuse a width that is not positive' -m 'Body text.'");
  std::string sha2 = git(repo, "rev-parse HEAD");
  sha2.pop_back();

  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --rev HEAD --blame --repo acme/wrap --json -q --db " +
               shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  auto summary = json::parse(r.out);
  EXPECT_EQ(summary["docFiles"], 1) << summary.dump();  // the binary one is left out
  EXPECT_EQ(summary["files"], 2) << summary.dump();     // doc files are not scanned files
  std::map<std::string, json> by_class;
  for (const auto& rec : export_records(db)) by_class[rec["errorClass"]] = rec;
  ASSERT_EQ(by_class.size(), 2u);
  const json& width = by_class["ValueError"];
  ASSERT_TRUE(width.contains("evidence")) << width.dump();
  const json& intro = width["evidence"]["introduced"];
  EXPECT_EQ(intro["sha"], sha2);
  EXPECT_EQ(intro["summary"], "wrap: refuse a width that is not positive");
  EXPECT_EQ(intro["date"], "2024-03-01T12:00:00Z");
  EXPECT_EQ(by_class["KeyError"]["evidence"]["introduced"]["sha"], sha1);
  EXPECT_EQ(by_class["KeyError"]["evidence"]["introduced"]["date"], "2023-05-06T07:08:09Z");
  // The quote (folded across its two lines) first, then the docstring.
  const json& docs = width["evidence"]["docs"];
  ASSERT_EQ(docs.size(), 2u) << width.dump();
  EXPECT_EQ(docs[0]["filePath"], "docs/guide.rst");
  EXPECT_EQ(docs[0]["lineNumber"], 9);
  EXPECT_EQ(docs[1]["filePath"], "pkg/wrap.py");
  EXPECT_EQ(docs[1]["lineNumber"], 2);
  // KeyError: no docstring, no quote, and `old` is not named as code.
  EXPECT_FALSE(by_class["KeyError"]["evidence"].contains("docs")) << by_class["KeyError"].dump();

  // Without the quote, the paragraph naming `wrap` and ValueError is the link.
  write_file(repo / "docs/guide.rst",
             "Wrapping\n========\n\nCall :func:`wrap` with a width; a :exc:`ValueError` tells you\n"
             "when it is wrong.\n");
  git(repo, "commit -qam 'docs: shorter' && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m noop");
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --rev HEAD --repo acme/wrap -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& rec : export_records(db)) {
    if (rec["errorClass"] != "ValueError") continue;
    const json& d = rec["evidence"]["docs"];
    ASSERT_EQ(d.size(), 2u) << rec.dump();
    EXPECT_EQ(d[0]["filePath"], "pkg/wrap.py");  // the docstring is closer than a paragraph
    EXPECT_EQ(d[1]["filePath"], "docs/guide.rst");
    EXPECT_EQ(d[1]["lineNumber"], 4);
    EXPECT_FALSE(rec["evidence"].contains("introduced")) << "no --blame";
  }

  // A folder has no history; --no-evidence reads no docs.
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --blame --repo acme/wrap -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& rec : export_records(db))
    EXPECT_FALSE(rec.contains("evidence") && rec["evidence"].contains("introduced")) << rec.dump();
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --no-evidence --repo acme/wrap -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& rec : export_records(db)) EXPECT_FALSE(rec.contains("evidence")) << rec.dump();
}

// Several revisions of one repository in one store (issue 28, items 2, 4
// and 5): every tag a glob names, each its own dataset; a reworded message
// keeps its site's id; history and diff read across them; forget drops one.
TEST(Cli, RevisionsHistoryDiffAndForget) {
  TempDir repo, data;
  std::string db = "sqlite:" + (data / "e.db").string();
  write_file(repo / "pkg/a.py",
             "def f(x):\n    if x < 0:\n        raise ValueError(f\"x must be positive, got {x}\")\n\n\n"
             "def g():\n    raise KeyError(\"gone soon\")\n");
  git(repo, "init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git tag v1.9");
  write_file(repo / "pkg/a.py",
             "# a line above\n\ndef f(x):\n    if x < 0:\n        raise ValueError(f\"x must not be negative, got {x}\")\n\n\n"
             "def h():\n    raise TypeError(\"new one\")\n");
  git(repo, "commit -qam two && git tag v1.10 && git tag other-tag");

  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/vr --revs 'v1.*' --json -q --db " +
               shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  // One summary per revision, in version order (v1.9 before v1.10).
  std::vector<json> summaries;
  for (std::size_t at = 0; (at = r.out.find("{\n", at)) != std::string::npos;) {
    std::size_t end = r.out.find("\n}", at);
    summaries.push_back(json::parse(r.out.substr(at, end + 2 - at)));
    at = end;
  }
  ASSERT_EQ(summaries.size(), 2u) << r.out;
  EXPECT_EQ(summaries[0]["ref"], "v1.9");
  EXPECT_EQ(summaries[1]["ref"], "v1.10");
  EXPECT_EQ(summaries[1]["keptIds"], 1);

  // The current revision is the last: list shows v1.10's records.
  auto current = export_records(db);
  ASSERT_EQ(current.size(), 2u);
  std::string f_id;
  for (const auto& rec : current)
    if (rec["errorClass"] == "ValueError") f_id = rec["id"];
  ASSERT_FALSE(f_id.empty());

  r = run(errdex_cmd() + " history " + f_id + " --json --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  auto h = json::parse(r.out);
  EXPECT_EQ(h["firstSeen"], "v1.9");
  EXPECT_EQ(h["lastSeen"], "v1.10");
  EXPECT_TRUE(h["removedIn"].is_null());
  ASSERT_EQ(h["changes"].size(), 1u);
  EXPECT_EQ(h["changes"][0]["old"]["errorMessage"], "x must be positive, got {x}");
  EXPECT_EQ(h["changes"][0]["new"]["errorMessage"], "x must not be negative, got {x}");
  EXPECT_EQ(h["revisions"][0]["lineNumber"], 3);
  EXPECT_EQ(h["revisions"][1]["lineNumber"], 5);
  r = run(errdex_cmd() + " history " + f_id + " --db " + shell_quote(db));
  EXPECT_NE(r.out.find("first seen v1.9, last seen v1.10"), std::string::npos) << r.out;

  r = run(errdex_cmd() + " diff acme/vr v1.9 v1.10 --json --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  auto d = json::parse(r.out);
  ASSERT_EQ(d["added"].size(), 1u);
  EXPECT_EQ(d["added"][0]["errorMessage"], "new one");
  ASSERT_EQ(d["removed"].size(), 1u);
  EXPECT_EQ(d["removed"][0]["errorMessage"], "gone soon");
  ASSERT_EQ(d["reworded"].size(), 1u);
  EXPECT_EQ(d["reworded"][0]["new"]["id"], f_id);
  r = run(errdex_cmd() + " diff acme/vr v1.9 v2.0 --db " + shell_quote(db));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no revision v2.0"), std::string::npos) << r.err;

  // Another --rev adds a revision beside them; --ref names one revision only.
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/vr --rev other-tag -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/vr --rev v1.9 --rev v1.10 --ref x -q --db " +
          shell_quote(db));
  EXPECT_EQ(r.code, 2);
  r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/vr --revs 'v9.*' -q --db " + shell_quote(db));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no tag matches"), std::string::npos) << r.err;

  // The gone site's history says where it went away.
  std::string g_id;
  r = run(errdex_cmd() + " diff acme/vr v1.9 v1.10 --json --db " + shell_quote(db));
  g_id = json::parse(r.out)["removed"][0]["id"];
  r = run(errdex_cmd() + " history " + g_id + " --json --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["removedIn"], "v1.10");

  // Matching keeps to one revision with --ref: v1.9's message at v1.9's line.
  r = run(errdex_cmd() + " match --repo acme/vr --ref v1.9 --json --db " + shell_quote(db) + " " +
          shell_quote("ValueError: x must be positive, got -1"));
  ASSERT_EQ(r.code, 0) << r.err;
  auto m = json::parse(r.out)["candidates"][0];
  EXPECT_EQ(m["ref"], "v1.9");
  EXPECT_EQ(m["lineNumber"], 3);
  EXPECT_EQ(m["id"], f_id);
  r = run(errdex_cmd() + " match --repo acme/vr --json --db " + shell_quote(db) + " " +
          shell_quote("ValueError: x must not be negative, got -1"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["candidates"][0]["lineNumber"], 5);
  EXPECT_EQ(run(errdex_cmd() + " match --ref v1.9 --db " + shell_quote(db) + " 'ValueError: x'").code, 2);
  EXPECT_EQ(run(errdex_cmd() + " match --repo acme/vr --ref v0 --db " + shell_quote(db) + " 'ValueError: x'").code, 1);

  r = run(errdex_cmd() + " forget acme/vr --ref v1.10 --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run(errdex_cmd() + " forget acme/vr --ref v1.10 --db " + shell_quote(db));
  EXPECT_EQ(r.code, 1);
  r = run(errdex_cmd() + " forget acme/vr --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("forgot 2 revisions"), std::string::npos) << r.out;
  EXPECT_TRUE(export_records(db).empty());
  r = run(errdex_cmd() + " history " + f_id + " --db " + shell_quote(db));
  EXPECT_EQ(r.code, 1);
}

// A file scanned before is not parsed again (issue 28, item 3): the facts
// cache answers for it, and the records are the same as a full parse's.
TEST(Cli, UnchangedFilesComeFromTheFactsCacheWithTheSameRecords) {
  TempDir repo, data;
  write_file(repo / "pkg/cache.py", k_module);
  write_file(repo / "pkg/other.py", "class Oops(ValueError):\n    pass\n\n\ndef f(x):\n    raise Oops(f\"bad {x}\")\n");
  std::string cached = "sqlite:" + (data / "c.db").string(), plain = "sqlite:" + (data / "p.db").string();
  auto scan = [&](const std::string& db, const std::string& extra) {
    auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache --json -q " + extra + " --db " +
                 shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
    return json::parse(r.out);
  };
  EXPECT_EQ(scan(cached, "")["cachedFiles"], 0);
  EXPECT_EQ(scan(cached, "")["cachedFiles"], 2);
  EXPECT_EQ(scan(plain, "--no-cache")["cachedFiles"], 0);
  // A changed file is parsed again (the store keeps the reworded site's id
  // in both: the same history).
  write_file(repo / "pkg/other.py", "class Oops(ValueError):\n    pass\n\n\ndef f(x):\n    raise Oops(f\"worse {x}\")\n");
  EXPECT_EQ(scan(cached, "")["cachedFiles"], 1);
  EXPECT_EQ(scan(plain, "--no-cache")["cachedFiles"], 0);
  // Apart from when they were made, the same records.
  auto strip = [](std::vector<json> recs) {
    for (auto& r : recs) {
      r.erase("analyzedAt");
      if (r.contains("analysis")) r["analysis"].erase("at");
    }
    return recs;
  };
  auto a = strip(export_records(cached)), b = strip(export_records(plain));
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a, b);

  // Records too: a file whose content, facts and classes are unchanged
  // keeps its analyzed records (stamped anew); one whose raised class now
  // resolves to another base is analyzed again, though its text is the same.
  write_file(repo / "pkg/errors.py", "class Bad(ValueError):\n    pass\n");
  write_file(repo / "pkg/third.py", "from pkg.errors import Bad\n\n\ndef g(x):\n    raise Bad(f\"third {x}\")\n");
  EXPECT_EQ(scan(cached, "")["reusedFiles"], 2);
  scan(plain, "--no-cache");
  auto again = scan(cached, "");
  EXPECT_EQ(again["reusedFiles"], 3) << again.dump();
  write_file(repo / "pkg/errors.py", "class Bad(KeyError):\n    pass\n");
  auto changed = scan(cached, "");
  EXPECT_EQ(changed["reusedFiles"], 2) << "third.py's class resolves anew: " << changed.dump();
  scan(plain, "--no-cache");
  a = strip(export_records(cached));
  b = strip(export_records(plain));
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a, b) << "the same records as a full analysis";
}

// Git revisions (issue 28, item 3): a blob scanned before is neither read
// nor parsed again, in the same command (memory) or a later one (the
// store); a file whose blob is unchanged but whose raised class now
// resolves to another base is read and analyzed again. Every revision
// exports the same lines as a scan that parses and analyzes everything.
// Every revision's lines of `db`'s export, without the times a scan writes.
std::vector<json> export_without_times(const std::string& db) {
  auto r = run(errdex_cmd() + " export --all-revisions --db " + shell_quote(db));
  EXPECT_EQ(r.code, 0) << r.err;
  std::vector<json> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    auto j = json::parse(line);
    j.erase("datasetVersion");
    j["record"].erase("analyzedAt");
    if (j["record"].contains("analysis")) j["record"]["analysis"].erase("at");
    out.push_back(std::move(j));
  }
  return out;
}

// A SQLite store's rows of records, their bodies, the search index and the
// current revisions, but the times of analysis and ingest: what the store
// holds beyond an export (search docs, bodies shared between revisions).
std::string store_rows_without_times(const std::string& db) {
  const std::string program =
      "import sqlite3, sys\n"
      "c = sqlite3.connect(sys.argv[1])\n"
      "for q in ['SELECT id, repo, sha, ref, record_count, import_roots FROM datasets ORDER BY id',\n"
      "          'SELECT * FROM repos ORDER BY repo', 'SELECT id, key, json FROM record_bodies ORDER BY id',\n"
      "          'SELECT seq, dataset_id, id, repo, file_path, line_number, error_class, error_message, site_key,'\n"
      "          ' search_doc, search_hash, body, github_url, analyzed_sha, source_code_start, source_code_end'\n"
      "          ' FROM records ORDER BY seq', 'SELECT rowid, * FROM records_fts ORDER BY rowid']:\n"
      "    print(q)\n"
      "    for row in c.execute(q): print(repr(row))\n";
  auto r = run("python3 -c " + shell_quote(program) + " " + shell_quote(db.substr(std::string("sqlite:").size())));
  EXPECT_EQ(r.code, 0) << r.err;
  return r.out;
}

TEST(Cli, GitRevisionsFromTheCachesExportTheSameAsAFullScan) {
  TempDir repo, data;
  write_file(repo / "pkg/__init__.py", "");
  write_file(repo / "pkg/errors.py", "class Bad(ValueError):\n    pass\n");
  write_file(repo / "pkg/a.py", "from pkg.errors import Bad\n\n\ndef a(x):\n    if x < 0:\n        raise Bad(f\"a got {x}\")\n");
  write_file(repo / "pkg/b.py", "def b(x):\n    raise ValueError(f\"b got {x}\")\n");
  write_file(repo / "tests/test_a.py",
             "import pytest\nfrom pkg.errors import Bad\nfrom pkg.a import a\n\n\ndef test_a():\n"
             "    with pytest.raises(Bad, match='a got'):\n        a(-1)\n");
  git(repo, "init -q && git add -A && git commit -qm one && git tag v1");
  write_file(repo / "pkg/b.py", "def b(x):\n    raise ValueError(f\"b now got {x}\")\n");
  git(repo, "commit -qam two && git tag v2");
  write_file(repo / "pkg/errors.py", "class Bad(KeyError):\n    pass\n");
  git(repo, "commit -qam three && git tag v3");
  std::string cached = "sqlite:" + (data / "c.db").string(), plain = "sqlite:" + (data / "p.db").string();
  auto scan = [&](const std::string& db, const std::string& revs) {
    auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/blobs -q --json " + revs +
                 " --db " + shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
    return r.out;
  };
  auto both = scan(cached, "--rev v1 --rev v2");  // one command: v2's unchanged blobs from memory
  // v2's record of a.py is v1's but for its stamp: its JSON is v1's,
  // restamped; b.py's changed and is serialised anew.
  auto restamped = both.rfind("\"restampedRecords\": ");
  ASSERT_NE(restamped, std::string::npos) << both;
  EXPECT_EQ(both.substr(restamped, 21), "\"restampedRecords\": 1") << both;
  auto v3 = json::parse(scan(cached, "--rev v3"));  // another: from the store
  EXPECT_EQ(v3["parsed"], 3) << v3.dump();
  EXPECT_EQ(v3["cachedFiles"], 2) << "a.py and b.py are known blobs: " << v3.dump();
  EXPECT_EQ(v3["reusedFiles"], 1) << "a.py's class resolves anew, so it is read and analyzed: " << v3.dump();
  scan(plain, "--rev v1 --rev v2 --rev v3 --no-cache");
  auto a = export_without_times(cached), b = export_without_times(plain);
  ASSERT_EQ(a.size(), 6u);
  EXPECT_EQ(a, b);
  int linked = 0;
  for (const auto& l : a) linked += l["record"].contains("evidence") && l["record"]["evidence"].contains("tests");
  EXPECT_EQ(linked, 3) << "the test read as evidence links a.py's record in each revision";
}

// Incremental parsing across revisions (scan/python/earlier_trees.h): a
// file edited in the middle, at the start, at the end, with a function moved
// and with an import changed is parsed from its earlier tree, and every
// revision exports what a scan parsing every file from scratch exports. The
// import's change reaches the record of the unchanged function that raises
// the class it names: the record shows the file as it now is.
TEST(Cli, FilesParsedFromTheirEarlierTreesExportTheSameAsAFullScan) {
  TempDir repo, data;
  write_file(repo / "pkg/__init__.py", "");
  write_file(repo / "pkg/errors.py", "class Bad(ValueError):\n    pass\n");
  write_file(repo / "pkg/other.py", "class Bad(LookupError):\n    pass\n");
  const std::string first =
      "def first(x):\n    if x < 0:\n        raise ValueError(f\"first got {x}, a negative number\")\n    return x\n";
  const std::string middle =
      "def middle(y):\n    if y > LIMIT:\n        raise Bad(f\"middle got {y} over the limit\")\n    return y\n";
  const std::string last =
      "def last(z):\n    if not z:\n        raise KeyError(f\"last got nothing for {z}\")\n    return z\n";
  const std::string head = "from pkg.errors import Bad\n\nLIMIT = 10\n\n\n";
  std::vector<std::string> versions = {
      head + first + "\n\n" + middle + "\n\n" + last,
      // In the middle: middle's message reworded and a line added.
      head + first + "\n\n" +
          "def middle(y):\n    y = abs(y)\n    if y > LIMIT:\n        raise Bad(f\"middle now got {y} past the limit\")\n"
          "    return y\n\n\n" + last,
      // At the start.
      "\"\"\"A module.\"\"\"\nimport os\n" + head + first + "\n\n" + middle + "\n\n" + last,
      // At the end.
      "\"\"\"A module.\"\"\"\nimport os\n" + head + first + "\n\n" + middle + "\n\n" + last +
          "\n\ndef added(w):\n    raise RuntimeError(f\"added got {w}\")\n",
      // A function moved.
      "\"\"\"A module.\"\"\"\nimport os\n" + head + middle + "\n\n" + last + "\n\n" + first,
      // The import changed: middle's text is not.
      "\"\"\"A module.\"\"\"\nimport os\nfrom pkg.other import Bad\n\nLIMIT = 10\n\n\n" + middle + "\n\n" + last +
          "\n\n" + first,
  };
  std::string revs;
  for (std::size_t v = 0; v < versions.size(); ++v) {
    write_file(repo / "pkg/m.py", versions[v]);
    std::string tag = "v" + std::to_string(v + 1);
    git(repo, (v == 0 ? "init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm " : "commit -qam ") + tag + " && git tag " + tag);
    revs += " --rev " + tag;
  }
  std::string cached = "sqlite:" + (data / "c.db").string(), plain = "sqlite:" + (data / "p.db").string();
  auto scan = [&](const std::string& db, const std::string& args) {
    auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/edits -q --json " + args +
                 " --db " + shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
    return r.out;
  };
  auto summaries = scan(cached, revs);
  // One parse of m.py per revision after the first starts from the tree
  // of the revision before.
  int incremental = 0;
  const std::string field = "\"incrementalParses\": ";
  for (auto at = summaries.find(field); at != std::string::npos; at = summaries.find(field, at + 1))
    incremental += std::stoi(summaries.substr(at + field.size()));
  EXPECT_EQ(incremental, 5) << summaries;
  scan(plain, revs + " --no-cache");
  auto a = export_without_times(cached), b = export_without_times(plain);
  EXPECT_EQ(a.size(), 3u * 6 + 1);
  EXPECT_EQ(a, b);
  // middle's record in v5 and v6: the same text, the class imported from
  // another module.
  std::map<std::string, json> middle_at;
  for (const auto& l : a)
    if (l["record"]["errorClass"] == "Bad") middle_at[l["record"]["analyzedSha"].get<std::string>()] = l["record"];
  ASSERT_EQ(middle_at.size(), 6u);
  auto sha = [&](const std::string& tag) { return git(repo, "rev-parse " + tag).substr(0, 40); };
  const json& v5 = middle_at[sha("v5")];
  const json& v6 = middle_at[sha("v6")];
  EXPECT_EQ(v5["lineNumber"], v6["lineNumber"]);
  EXPECT_EQ(v5["documentation"], v6["documentation"]);
  EXPECT_NE(v5["sourceCode"].get<std::string>().find("from pkg.errors import Bad"), std::string::npos) << v5.dump();
  EXPECT_NE(v6["sourceCode"].get<std::string>().find("from pkg.other import Bad"), std::string::npos) << v6.dump();
}

// A file whose messages take alternatives from a class another file
// defines (scan/python/link.cc) keeps its records while those
// alternatives are the same, and gets new ones when the class's message
// changes though the raising file did not: the records key hashes the
// alternatives, not the whole facts (records_key).
TEST(Cli, RecordsOfAFileFollowTheMessageOfAClassDefinedElsewhere) {
  TempDir repo, data;
  write_file(repo / "pkg/__init__.py", "");
  auto errors = [](const std::string& words) {
    return "class Missing(KeyError):\n    def __init__(self, name):\n        super().__init__(f\"" + words +
           " {name}\")\n";
  };
  write_file(repo / "pkg/errors.py", errors("no entry named"));
  write_file(repo / "pkg/use.py",
             "from pkg.errors import Missing\n\n\ndef fetch(table, key):\n    if key not in table:\n"
             "        raise Missing(key)\n    return table[key]\n");
  write_file(repo / "pkg/other.py", "def other(x):\n    raise ValueError(f\"other got {x}\")\n");
  git(repo, "init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm v1 && git tag v1");
  write_file(repo / "pkg/other.py", "def other(x):\n    raise ValueError(f\"other now got {x}\")\n");
  git(repo, "commit -qam v2 && git tag v2");
  write_file(repo / "pkg/errors.py", errors("nothing is filed under"));
  git(repo, "commit -qam v3 && git tag v3");
  const std::string revs = " --rev v1 --rev v2 --rev v3";
  std::string cached = "sqlite:" + (data / "c.db").string(), plain = "sqlite:" + (data / "p.db").string();
  auto scan = [&](const std::string& db, const std::string& args) {
    auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/alts -q --json " + args +
                 " --db " + shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
    return r.out;
  };
  auto summaries = scan(cached, revs);
  std::vector<int> reused;
  const std::string field = "\"reusedFiles\": ";
  for (auto at = summaries.find(field); at != std::string::npos; at = summaries.find(field, at + 1))
    reused.push_back(std::stoi(summaries.substr(at + field.size())));
  // v2: use.py (its alternatives unchanged) is reused, other.py is not;
  // v3: other.py is reused, use.py is analyzed again.
  EXPECT_EQ(reused, (std::vector<int>{0, 1, 1})) << summaries;
  scan(plain, revs + " --no-cache");
  auto a = export_without_times(cached), b = export_without_times(plain);
  EXPECT_EQ(a, b);
  std::map<std::string, std::string> fetch_at;
  for (const auto& l : a)
    if (l["record"]["errorClass"] == "Missing") fetch_at[l["record"]["analyzedSha"].get<std::string>()] = l.dump();
  auto sha = [&](const std::string& tag) { return git(repo, "rev-parse " + tag).substr(0, 40); };
  ASSERT_EQ(fetch_at.size(), 3u);
  EXPECT_NE(fetch_at[sha("v2")].find("no entry named"), std::string::npos) << fetch_at[sha("v2")];
  EXPECT_NE(fetch_at[sha("v3")].find("nothing is filed under"), std::string::npos) << fetch_at[sha("v3")];
  EXPECT_EQ(fetch_at[sha("v3")].find("no entry named"), std::string::npos) << fetch_at[sha("v3")];
}

// A helper raising its parameter (`def _value_check(condition, message):
// raise ValueError(message)`) takes, as message variants, what callers in
// other files pass for it through an import; across revisions (facts from
// the cache and the memo) as in a full scan, and a caller's new literal
// reaches the helper's record. A message alone then finds the helper.
TEST(Cli, AHelperRaisingItsParameterShowsWhatOtherFilesPass) {
  TempDir repo, data;
  write_file(repo / "stats/__init__.py", "");
  write_file(repo / "stats/rv.py",
             "def _value_check(condition, message):\n    if not condition:\n        raise ValueError(message)\n"
             "    return True\n");
  auto caller = [](const std::string& words) {
    return "from stats.rv import _value_check\nfrom stats import rv as randvar\n\n\ndef normal(std):\n"
           "    _value_check(std > 0, \"" + words + "\")\n"
           "    randvar._value_check(std < 9, message=\"Standard deviation is too large\")\n"
           "    notimported._value_check(std, \"Never seen by the helper at all\")\n    return std\n";
  };
  write_file(repo / "stats/crv.py", caller("Standard deviation must be positive"));
  git(repo, "init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm v1 && git tag v1");
  write_file(repo / "stats/crv.py", caller("Standard deviation must be strictly positive"));
  git(repo, "commit -qam v2 && git tag v2");
  std::string cached = "sqlite:" + (data / "c.db").string(), plain = "sqlite:" + (data / "p.db").string();
  auto scan = [&](const std::string& db, const std::string& args) {
    auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/stats -q " + args + " --db " +
                 shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
  };
  scan(cached, "--rev v1 --rev v2");
  scan(plain, "--rev v1 --rev v2 --no-cache");
  auto a = export_without_times(cached), b = export_without_times(plain);
  EXPECT_EQ(a, b);
  std::map<std::string, std::string> check_at;
  for (const auto& l : a)
    if (l["record"]["filePath"] == "stats/rv.py") check_at[l["record"]["analyzedSha"].get<std::string>()] = l.dump();
  auto sha = [&](const std::string& tag) { return git(repo, "rev-parse " + tag).substr(0, 40); };
  ASSERT_EQ(check_at.size(), 2u);
  const std::string& v1 = check_at[sha("v1")];
  const std::string& v2 = check_at[sha("v2")];
  EXPECT_NE(v1.find("Standard deviation must be positive"), std::string::npos) << v1;
  EXPECT_NE(v1.find("Standard deviation is too large"), std::string::npos) << v1;
  EXPECT_EQ(v1.find("Never seen"), std::string::npos) << v1;
  EXPECT_NE(v2.find("Standard deviation must be strictly positive"), std::string::npos) << v2;
  EXPECT_EQ(v2.find("Standard deviation must be positive"), std::string::npos) << v2;
  auto m = run(errdex_cmd() + " match --db " + shell_quote(cached) + " --repo acme/stats --ref v2 " +
               shell_quote("ValueError: Standard deviation must be strictly positive"));
  EXPECT_EQ(m.code, 0) << m.err;
  EXPECT_NE(m.out.find("1. stats/rv.py:3"), std::string::npos) << m.out;
}

// What one command keeps between the revisions it scans (doc files by
// blob id, the stored revisions' sites by site key) gives what scans of one
// revision each give, also when a revision is stored before the others
// (version order: v1 after v2 here) and when a doc file changes.
TEST(Cli, ManyRevisionsInOneCommandStoreWhatOneCommandEachStores) {
  TempDir repo, data;
  const std::string readme = "# pkg\n\nCalling `fetch_value` with a negative number raises ValueError.\n";
  write_file(repo / "README.md", readme);
  write_file(repo / "docs/errors.rst", "fetch_value refuses them: x must be positive, got something else.\n");
  write_file(repo / "pkg/a.py", "def fetch_value(x):\n    if x < 0:\n        raise ValueError(f\"x must be positive, got {x}\")\n");
  git(repo, "init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git tag v1");
  write_file(repo / "pkg/a.py", "def fetch_value(x):\n    if x < 0:\n        raise ValueError(f\"x must not be negative, got {x}\")\n");
  git(repo, "commit -qam two && git tag v2");
  write_file(repo / "docs/errors.rst", "fetch_value refuses them: x must not be negative, got something else.\n");
  write_file(repo / "pkg/b.py", "def g(y):\n    raise KeyError(f\"no key {y} in the table of keys\")\n");
  git(repo, "add -A && git commit -qm three && git tag v3");
  std::string one = "sqlite:" + (data / "one.db").string(), each = "sqlite:" + (data / "each.db").string();
  auto scan = [&](const std::string& db, const std::string& args) {
    auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/many -q --json " + args +
                 " --db " + shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
    return r.out;
  };
  auto summaries = scan(one, "--rev v2 --rev v1 --rev v3");
  for (const char* rev : {"v2", "v1", "v3"}) scan(each, std::string("--no-cache --rev ") + rev);
  auto a = export_without_times(one), b = export_without_times(each);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a, b);
  // And the same rows: the store's memory of the ingest before (bodies,
  // search docs) holds through an older revision that does not become
  // current (v1) and a record reworded (new body, new search doc).
  const std::string rows = store_rows_without_times(one);
  EXPECT_EQ(rows, store_rows_without_times(each));
  EXPECT_NE(rows.find("records_fts"), std::string::npos) << rows;
  // The reworded site kept v2's id in v1 and v3 (v1 scanned after it).
  std::set<std::string> f_ids;
  for (const auto& l : a)
    if (l["record"]["errorClass"] == "ValueError") f_ids.insert(l["record"]["id"].get<std::string>());
  EXPECT_EQ(f_ids.size(), 1u) << summaries;
  // The doc quoting each revision's message is linked where it quotes it
  // (v1, v3), and the README naming the function everywhere.
  int quoted = 0, named = 0;
  for (const auto& l : a)
    if (l["record"]["errorClass"] == "ValueError") {
      ASSERT_TRUE(l["record"]["evidence"].contains("docs")) << l.dump();
      for (const auto& d : l["record"]["evidence"]["docs"]) {
        quoted += d["filePath"] == "docs/errors.rst";
        named += d["filePath"] == "README.md";
      }
    }
  EXPECT_EQ(quoted, 2);
  EXPECT_EQ(named, 3);
}

// A later revision's evidence follows files other than the record's own:
// a test file added at v2 links the record of a file unchanged since v1,
// a public caller added at v3 in another module gives that record a new
// entry point (and its docstring's prose), a doc added at v4 quotes its
// message, and at v5 the test is changed so that it no longer reaches the
// record. One command over the five revisions (facts, records and the
// passes over the whole tree carried between revisions) stores what a
// --no-cache scan of each stores.
TEST(Cli, EvidenceFromOtherFilesFollowsEachRevisionAsAFullScanFindsIt) {
  TempDir repo, data;
  write_file(repo / "pkg/__init__.py", "");
  write_file(repo / "pkg/core.py",
             "def _check_width(width):\n    if width <= 0:\n"
             "        raise ValueError(f\"the width of a column must be positive, got {width}\")\n    return width\n\n\n"
             "def _other(x):\n    raise KeyError(f\"no column named {x} in this table\")\n");
  write_file(repo / "pkg/util.py", "def helper(x):\n    return x\n");
  git(repo, "init -q && git add -A && git commit -qm v1 && git tag v1");
  const std::string test_reaching =
      "import pytest\nfrom pkg.core import _check_width\n\n\ndef test_width():\n"
      "    with pytest.raises(ValueError, match='width of a column'):\n        _check_width(0)\n";
  write_file(repo / "tests/test_core.py", test_reaching);
  git(repo, "add -A && git commit -qm v2 && git tag v2");
  write_file(repo / "pkg/table.py",
             "from pkg.core import _check_width\n\n\ndef layout(width):\n"
             "    \"\"\"Lays the table out in columns of the given width.\"\"\"\n    return _check_width(width)\n");
  git(repo, "add -A && git commit -qm v3 && git tag v3");
  write_file(repo / "docs/errors.md",
             "# Errors\n\nA table refuses it: the width of a column must be positive, got 0.\n");
  git(repo, "add -A && git commit -qm v4 && git tag v4");
  write_file(repo / "tests/test_core.py",
             "import pytest\nfrom pkg.util import helper\n\n\ndef test_width():\n"
             "    with pytest.raises(ValueError, match='width of a column'):\n        helper(0)\n");
  git(repo, "commit -qam v5 && git tag v5");
  std::string one = "sqlite:" + (data / "one.db").string(), each = "sqlite:" + (data / "each.db").string();
  auto scan = [&](const std::string& db, const std::string& args) {
    auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cols -q --json " + args +
                 " --db " + shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
    return r.out;
  };
  const std::vector<std::string> tags = {"v1", "v2", "v3", "v4", "v5"};
  std::string revs;
  for (const auto& t : tags) revs += " --rev " + t;
  auto summaries = scan(one, revs);
  // core.py's records come from the memo after v1: its evidence is not
  // its own file's.
  std::vector<int> reused;
  const std::string field = "\"reusedFiles\": ";
  for (auto at = summaries.find(field); at != std::string::npos; at = summaries.find(field, at + 1))
    reused.push_back(std::stoi(summaries.substr(at + field.size())));
  EXPECT_EQ(reused, (std::vector<int>{0, 1, 1, 1, 1})) << summaries;
  for (const auto& t : tags) scan(each, "--no-cache --rev " + t);
  auto a = export_without_times(one), b = export_without_times(each);
  ASSERT_EQ(a.size(), 2u * tags.size());
  EXPECT_EQ(a, b);
  auto sha = [&](const std::string& tag) { return git(repo, "rev-parse " + tag).substr(0, 40); };
  std::map<std::string, json> width_at;
  for (const auto& l : a)
    if (l["record"]["errorClass"] == "ValueError") width_at[l["record"]["analyzedSha"].get<std::string>()] = l["record"];
  ASSERT_EQ(width_at.size(), tags.size());
  auto evidence = [&](const std::string& tag, const char* kind) {
    const json& r = width_at[sha(tag)];
    return r.contains("evidence") && r["evidence"].contains(kind) ? r["evidence"][kind] : json();
  };
  EXPECT_TRUE(evidence("v1", "tests").is_null()) << width_at[sha("v1")].dump();
  for (const char* t : {"v2", "v3", "v4"}) {
    ASSERT_EQ(evidence(t, "tests").size(), 1u) << t << " " << width_at[sha(t)].dump();
    EXPECT_EQ(evidence(t, "tests")[0]["filePath"], "tests/test_core.py") << t;
  }
  EXPECT_TRUE(evidence("v5", "tests").is_null()) << width_at[sha("v5")].dump();
  for (const char* t : {"v1", "v2"}) EXPECT_TRUE(evidence(t, "entryPoints").is_null()) << width_at[sha(t)].dump();
  for (const char* t : {"v3", "v4", "v5"}) {
    ASSERT_EQ(evidence(t, "entryPoints").size(), 1u) << t << " " << width_at[sha(t)].dump();
    EXPECT_EQ(evidence(t, "entryPoints")[0]["name"], "pkg.table.layout") << t;
    EXPECT_NE(width_at[sha(t)].dump().find("Lays the table out"), std::string::npos) << t;
  }
  for (const char* t : {"v1", "v2", "v3"}) EXPECT_TRUE(evidence(t, "docs").is_null()) << width_at[sha(t)].dump();
  for (const char* t : {"v4", "v5"}) {
    ASSERT_FALSE(evidence(t, "docs").is_null()) << t << " " << width_at[sha(t)].dump();
    EXPECT_EQ(evidence(t, "docs")[0]["filePath"], "docs/errors.md") << t;
  }
}

// The exports (export_without_times) of the revisions `tags` of git
// repository `repo` scanned in one command, then each scanned alone with
// --no-cache; the stores are made in `data`.
std::pair<std::vector<json>, std::vector<json>> exports_in_one_command_and_each_alone(
    const TempDir& repo, const TempDir& data, const std::vector<std::string>& tags) {
  const std::string one = "sqlite:" + (data / "one.db").string(), each = "sqlite:" + (data / "each.db").string();
  auto scan = [&](const std::string& db, const std::string& args) {
    auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/revs -q " + args + " --db " +
                 shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
  };
  std::string revs;
  for (const auto& t : tags) revs += " --rev " + t;
  scan(one, revs);
  for (const auto& t : tags) scan(each, "--no-cache --rev " + t);
  return {export_without_times(one), export_without_times(each)};
}

// What a later revision reuses of an unchanged file in the whole-tree
// passes (its part of the call graph, its doc texts' index) follows the
// changes that should break it: a module moved with its content unchanged
// gives its entry point its new name; a module the unchanged caller imports
// through changes, and the entry point goes; a doc rewritten quotes the
// message at another line. Each revision exports what a --no-cache scan of
// it exports.
TEST(Cli, ReusedGraphModulesAndDocIndexesFollowTheChangesThatBreakThem) {
  TempDir repo, data;
  write_file(repo / "pkg/__init__.py", "");
  write_file(repo / "pkg/core.py",
             "def _check_width(width):\n    if width <= 0:\n"
             "        raise ValueError(f\"the width of a column must be positive, got {width}\")\n    return width\n");
  write_file(repo / "pkg/helpers.py", "from pkg.core import _check_width as check\n");
  write_file(repo / "pkg/table.py",
             "from pkg.helpers import check\n\n\ndef layout(width):\n"
             "    \"\"\"Lays the table out; a ValueError for a bad width.\"\"\"\n    return check(width)\n");
  write_file(repo / "docs/errors.md", "# Errors\n\nA table refuses it: the width of a column must be positive, got 0.\n");
  git(repo, "init -q && git add -A && git commit -qm v1 && git tag v1");
  git(repo, "mv pkg/table.py pkg/grid.py && git commit -qm v2 && git tag v2");
  write_file(repo / "docs/errors.md",
             "# Errors\n\nSome words first.\n\nA table refuses it: the width of a\ncolumn must be positive, got 0.\n");
  git(repo, "commit -qam v3 && git tag v3");
  write_file(repo / "pkg/helpers.py", "def check(width):\n    return width\n");
  git(repo, "commit -qam v4 && git tag v4");
  const std::vector<std::string> tags = {"v1", "v2", "v3", "v4"};
  auto [a, b] = exports_in_one_command_and_each_alone(repo, data, tags);
  ASSERT_EQ(a.size(), tags.size());
  EXPECT_EQ(a, b);
  std::map<std::string, json> at;
  for (const auto& l : a) at[l["record"]["analyzedSha"].get<std::string>()] = l["record"];
  auto record = [&](const std::string& tag) { return at[git(repo, "rev-parse " + tag).substr(0, 40)]; };
  auto entry = [&](const std::string& tag) {
    json r = record(tag);
    return r["evidence"].contains("entryPoints") ? r["evidence"]["entryPoints"][0]["name"].get<std::string>() : "";
  };
  EXPECT_EQ(entry("v1"), "pkg.table.layout") << record("v1").dump();
  EXPECT_EQ(entry("v2"), "pkg.grid.layout") << record("v2").dump();
  EXPECT_EQ(entry("v3"), "pkg.grid.layout") << record("v3").dump();
  EXPECT_EQ(entry("v4"), "") << record("v4").dump();
  auto doc_line = [&](const std::string& tag) {
    json r = record(tag);
    for (const auto& d : r["evidence"].value("docs", json::array()))
      if (d["filePath"] == "docs/errors.md") return d["lineNumber"].get<int>();
    return 0;
  };
  EXPECT_EQ(doc_line("v1"), 3) << record("v1").dump();
  EXPECT_EQ(doc_line("v2"), 3) << record("v2").dump();
  EXPECT_EQ(doc_line("v3"), 5) << record("v3").dump();
  EXPECT_EQ(doc_line("v4"), 5) << record("v4").dump();
}

// The answer printed where the error is (issue 32, item 4): errdex run
// around a real failing Python program passes its output through unchanged
// and its exit code on, and under the traceback says where it was raised,
// its values, the first fix and the page; errdex explain does the same for
// a stream.
TEST(Cli, RunAndExplainPrintTheAnswerUnderTheTraceback) {
  TempDir repo, data;
  write_file(repo / "pkg/__init__.py", "");
  write_file(repo / "pkg/mod.py",
             "def f(x):\n    if x < 0:\n        raise ValueError(f\"x must be positive, got {x}\")\n    return x\n");
  std::string db = "sqlite:" + (data / "e.db").string();
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/pkg -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string program = "import sys; sys.path.insert(0, " + json(repo.str()).dump() +
                              "); print('working'); import pkg.mod; pkg.mod.f(int(sys.argv[1]))";
  auto direct = run("python3 -c " + shell_quote(program) + " -5");
  ASSERT_EQ(direct.code, 1);
  auto wrapped = run(errdex_cmd() + " run --db " + shell_quote(db) + " --url http://errdex.test -- python3 -c " +
                     shell_quote(program) + " -5");
  EXPECT_EQ(wrapped.code, 1);
  EXPECT_EQ(wrapped.out, direct.out);
  // stderr: the program's own, with the answer's lines under the traceback.
  std::string own, said;
  std::istringstream err(wrapped.err);
  for (std::string line; std::getline(err, line);) (line.rfind("errdex:", 0) == 0 ? said : own) += line + "\n";
  EXPECT_EQ(own, direct.err);
  EXPECT_EQ(wrapped.err.substr(0, direct.err.size()), direct.err) << "the answer comes after the traceback";
  EXPECT_NE(said.find("ValueError raised at pkg/mod.py:3 (acme/pkg)"), std::string::npos) << said;
  EXPECT_NE(said.find("x = -5"), std::string::npos) << said;
  EXPECT_NE(said.find("fix: "), std::string::npos) << said;
  EXPECT_NE(said.find("http://errdex.test/errors/"), std::string::npos) << said;

  // No error: nothing added, the exit code kept.
  auto fine = run(errdex_cmd() + " run --db " + shell_quote(db) + " -- python3 -c " + shell_quote(program) + " 5");
  EXPECT_EQ(fine.code, 0);
  EXPECT_EQ(fine.out, "working\n");
  EXPECT_EQ(fine.err, "");
  EXPECT_EQ(run(errdex_cmd() + " run --db " + shell_quote(db) + " -- sh -c 'exit 7'").code, 7);
  EXPECT_EQ(run(errdex_cmd() + " run --db " + shell_quote(db) + " -- errdex-no-such-program").code, 127);
  EXPECT_EQ(run(errdex_cmd() + " run --db " + shell_quote(db)).code, 2);

  // explain: a stream, the traceback in it explained in place.
  auto piped = run("python3 -c " + shell_quote(program) + " -2 2>&1 | env -u ERRDEX_URL " + errdex_cmd() + " explain --db " +
                   shell_quote(db));
  EXPECT_EQ(piped.code, 0);
  EXPECT_EQ(piped.out.rfind("working\nTraceback", 0), 0u) << piped.out;
  EXPECT_NE(piped.out.find("ValueError: x must be positive, got -2\nerrdex: ValueError raised at pkg/mod.py:3"),
            std::string::npos)
      << piped.out;
  EXPECT_NE(piped.out.find("http://127.0.0.1:8080/errors/"), std::string::npos) << piped.out;
}

// An error raised by a built-in (`open()` under the repository's own code)
// matches only by class a raise of the same file that never ran: explain
// says no indexed raise matches, and where it was raised from, instead of
// naming that other raise.
TEST(Cli, ExplainDoesNotNameARaiseThatOnlyTheClassTiesToTheError) {
  TempDir repo, data;
  write_file(repo / "store/files.py",
             "def load(path):\n"
             "    with open(path) as f:\n"
             "        return f.read()\n"
             "def check(err, path):\n"
             "    if err:\n"
             "        raise FileNotFoundError(err)\n"
             "def must_exist(path, exists):\n"
             "    if not exists:\n"
             "        raise FileNotFoundError(f'no file at {path}')\n");
  std::string db = "sqlite:" + (data / "e.db").string();
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/store -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string program = "import sys; sys.path.insert(0, " + json(repo.str()).dump() +
                              "); import store.files as f; f.load('/nonexistent/errdex/x') if sys.argv[1] == 'open' "
                              "else f.must_exist('/x', False)";
  auto open_missing = run(errdex_cmd() + " run --db " + shell_quote(db) + " -- python3 -c " + shell_quote(program) + " open");
  EXPECT_EQ(open_missing.code, 1);
  EXPECT_EQ(open_missing.err.find("raised at store/files.py"), std::string::npos) << open_missing.err;
  EXPECT_NE(open_missing.err.find("errdex: FileNotFoundError matches no raise statement errdex has indexed; it was "
                                  "raised at or below files.py:2"),
            std::string::npos)
      << open_missing.err;
  // The repository's own raise is named as before.
  auto own = run(errdex_cmd() + " run --db " + shell_quote(db) + " -- python3 -c " + shell_quote(program) + " own");
  EXPECT_NE(own.err.find("errdex: FileNotFoundError raised at store/files.py:9 (acme/store)"), std::string::npos)
      << own.err;
  // `match` lists the candidates, saying how little ties them.
  auto listed = run(errdex_cmd() + " match --db " + shell_quote(db) + " " +
                    shell_quote("FileNotFoundError: [Errno 2] No such file or directory: '/nonexistent/errdex/x'"));
  EXPECT_NE(listed.out.find("\nweak: "), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("only the class"), std::string::npos) << listed.out;
  // Text with no class that only shares words with a site: the note does
  // not speak of a class it never had.
  auto words = run(errdex_cmd() + " match --db " + shell_quote(db) + " " + shell_quote("could not find the file at x"));
  ASSERT_EQ(words.code, 0) << words.err;
  EXPECT_NE(words.out.find("\nweak: no class"), std::string::npos) << words.out;
  EXPECT_EQ(words.out.find("only the class"), std::string::npos) << words.out;
}

// What a user pipes into `errdex match` that is not UTF-8 text: a
// traceback that Windows PowerShell redirected to a file (UTF-16 with a byte
// order mark) is read as the same traceback; a binary file is refused with a
// clear message and exit 2, not echoed to the terminal as an "error".
TEST(Cli, MatchReadsUtf16AndRefusesData) {
  TempDir repo, data;
  write_file(repo / "pkg/mod.py", "def f(x):\n    if x < 0:\n        raise ValueError(f'x must be positive, got {x}')\n");
  std::string db = "sqlite:" + (data / "e.db").string();
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/pkg -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string program = "import sys; sys.path.insert(0, " + json(repo.str()).dump() + "); import pkg.mod; pkg.mod.f(-3)";
  auto raised = run("python3 -c " + shell_quote(program));
  ASSERT_NE(raised.code, 0);
  write_file(data / "tb8.txt", raised.err);
  auto utf8 = run(errdex_cmd() + " match --json --db " + shell_quote(db) + " < " + shell_quote((data / "tb8.txt").string()));
  ASSERT_EQ(utf8.code, 0) << utf8.err;
  // The same bytes as PowerShell writes them, converted by Python.
  auto conv = run("python3 -c " + shell_quote("import sys; d = sys.stdin.buffer.read().decode(); "
                                               "sys.stdout.buffer.write(d.replace('\\n', '\\r\\n').encode('utf-16'))") +
                  " < " + shell_quote((data / "tb8.txt").string()) + " > " + shell_quote((data / "tb16.txt").string()));
  ASSERT_EQ(conv.code, 0) << conv.err;
  auto utf16 = run(errdex_cmd() + " match --json --db " + shell_quote(db) + " < " + shell_quote((data / "tb16.txt").string()));
  ASSERT_EQ(utf16.code, 0) << utf16.err;
  auto a = json::parse(utf8.out), b = json::parse(utf16.out);
  EXPECT_EQ(a["candidates"][0]["lineNumber"], 3);
  EXPECT_EQ(a["candidates"], b["candidates"]);
  EXPECT_EQ(b["exception"]["message"], "x must be positive, got -3");
  // A binary file: the errdex executable itself.
  auto binary = run(errdex_cmd() + " match --db " + shell_quote(db) + " < " + shell_quote(ERRDEX_BINARY));
  EXPECT_EQ(binary.code, 2);
  EXPECT_EQ(binary.out, "");
  EXPECT_NE(binary.err.find("errdex match: the input is not text"), std::string::npos) << binary.err;
}

// errdex scan --python (issue 32, item 1): a real virtual environment of
// this machine's python3 holding two distributions, one with a RECORD and
// one egg-info with only top_level.txt. Each is stored as pypi/<name> at its
// version with only its own files, the standard library as python/cpython
// at v<version>; a second scan skips what is stored; and an error raised by
// the installed code is explained at the installed version.
TEST(Cli, ScanPythonIndexesTheEnvironmentAtItsVersions) {
  TempDir venv, data;
  auto made = run("python3 -m venv --without-pip " + shell_quote(venv.str()));
  ASSERT_EQ(made.code, 0) << made.err;
  auto sp = run(shell_quote((venv / "bin/python").string()) +
                " -c 'import sysconfig; print(sysconfig.get_paths()[\"purelib\"])'");
  ASSERT_EQ(sp.code, 0) << sp.err;
  std::filesystem::path site = sp.out.substr(0, sp.out.find('\n'));
  write_file(site / "fakepkg/__init__.py", "def f(x):\n    if x < 0:\n        raise ValueError(f\"x must be positive, got {x}\")\n");
  write_file(site / "fakepkg/extra.py", "def g():\n    raise KeyError(\"missing\")\n");
  write_file(site / "fake_pkg-1.2.3.dist-info/METADATA", "Metadata-Version: 2.1\nName: Fake_Pkg\nVersion: 1.2.3\n");
  write_file(site / "fake_pkg-1.2.3.dist-info/RECORD", "fakepkg/__init__.py,,\nfake_pkg-1.2.3.dist-info/METADATA,,\n");
  write_file(site / "oldegg/__init__.py", "def h():\n    raise RuntimeError(\"old egg\")\n");
  write_file(site / "oldegg-0.9.egg-info/PKG-INFO", "Metadata-Version: 1.0\nName: oldegg\nVersion: 0.9\n");
  write_file(site / "oldegg-0.9.egg-info/top_level.txt", "oldegg\n");
  std::string db = "sqlite:" + (data / "e.db").string();
  std::string python = shell_quote((venv / "bin/python").string());
  auto r = run(errdex_cmd() + " scan --python " + python + " --json -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  auto summary = json::parse(r.out);
  EXPECT_EQ(summary["distributions"], 2);
  EXPECT_EQ(summary["scanned"], 3);
  EXPECT_TRUE(summary["failed"].empty()) << summary.dump();

  r = run(errdex_cmd() + " list --json --db " + shell_quote(db));
  std::map<std::string, std::vector<std::string>> files;  // repo -> its files
  std::map<std::string, std::string> link;                 // repo -> a githubUrl
  for (const auto& rec : json::parse(r.out)) {
    files[rec["repo"]].push_back(rec["filePath"]);
    link[rec["repo"]] = rec["githubUrl"];
  }
  // pypi/fake-pkg is no GitHub repository: no link rather than a wrong one.
  EXPECT_EQ(link["pypi/fake-pkg"], "");
  EXPECT_EQ(link["python/cpython"].rfind("https://github.com/python/cpython/blob/v3.", 0), 0u) << link["python/cpython"];
  ASSERT_TRUE(files.count("pypi/fake-pkg")) << r.out.substr(0, 500);
  EXPECT_EQ(files["pypi/fake-pkg"], (std::vector<std::string>{"fakepkg/__init__.py"}))
      << "only the files its RECORD lists";
  EXPECT_EQ(files["pypi/oldegg"], (std::vector<std::string>{"oldegg/__init__.py"}));
  EXPECT_GT(files["python/cpython"].size(), 1000u);
  EXPECT_EQ(files["python/cpython"].front().rfind("Lib/", 0), 0u);
  auto revs = run(errdex_cmd() + " diff pypi/fake-pkg 1.2.3 1.2.3 --json --db " + shell_quote(db));
  EXPECT_EQ(revs.code, 0) << "stored at its version: " << revs.err;

  r = run(errdex_cmd() + " scan --python " + python + " --json -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["scanned"], 0);
  EXPECT_EQ(json::parse(r.out)["alreadyStored"], 3);

  // A real error raised by the installed package, explained where it is printed.
  r = run(errdex_cmd() + " run --db " + shell_quote(db) + " -- " + python + " -c 'import fakepkg; fakepkg.f(-3)'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("errdex: ValueError raised at fakepkg/__init__.py:3 (pypi/fake-pkg 1.2.3)"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("errdex:   x = -3"), std::string::npos) << r.err;

  EXPECT_EQ(run(errdex_cmd() + " scan --db " + shell_quote(db)).code, 2);
  EXPECT_EQ(run(errdex_cmd() + " scan --python errdex-no-such-python --db " + shell_quote(db)).code, 2);
}

// Two distributions shipping the same module (attrs' `attr/` and the
// unrelated `attr` on PyPI), each in its own real virtual environment,
// scanned into one store: the same file path, line and statement in both,
// so only where the frame's file is installed tells them apart (issue 32,
// item 2: by the RECORDs seen at scan time).
TEST(Cli, ScanPythonFramesBelongToTheDistributionInstalledThere) {
  TempDir a, b, data;
  std::string db = "sqlite:" + (data / "e.db").string();
  auto make_env = [&](const TempDir& venv, const std::string& dist, const std::string& version) -> std::string {
    auto made = run("python3 -m venv --without-pip " + shell_quote(venv.str()));
    EXPECT_EQ(made.code, 0) << made.err;
    std::string python = shell_quote((venv / "bin/python").string());
    auto sp = run(python + " -c 'import sysconfig; print(sysconfig.get_paths()[\"purelib\"])'");
    std::filesystem::path site = sp.out.substr(0, sp.out.find('\n'));
    write_file(site / "attr/__init__.py", "def f(x):\n    raise ValueError(f\"bad attribute {x}\")\n");
    std::string info = dist + "-" + version + ".dist-info";
    write_file(site / info / "METADATA", "Metadata-Version: 2.1\nName: " + dist + "\nVersion: " + version + "\n");
    write_file(site / info / "RECORD", "attr/__init__.py,,\n" + info + "/METADATA,,\n");
    auto r = run(errdex_cmd() + " scan --python " + python + " -q --db " + shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
    return python;
  };
  std::string in_a = make_env(a, "attrs", "23.1.0"), in_b = make_env(b, "attr", "0.3.2");
  for (const auto& [python, repo] : {std::pair{in_a, "pypi/attrs"}, std::pair{in_b, "pypi/attr"}}) {
    auto raised = run(python + " -c 'import attr; attr.f(7)'");
    ASSERT_NE(raised.code, 0);
    auto m = run(errdex_cmd() + " match --json --db " + shell_quote(db) + " " + shell_quote(raised.err));
    ASSERT_EQ(m.code, 0) << m.err;
    auto j = json::parse(m.out);
    ASSERT_FALSE(j["candidates"].empty()) << m.out;
    EXPECT_EQ(j["candidates"][0]["repo"], repo) << raised.err << m.out;
    EXPECT_FALSE(j["ambiguous"].get<bool>()) << m.out;
    EXPECT_EQ(j["candidates"][0]["filePath"], "attr/__init__.py");
  }
  // The same traceback from a path no scan saw: both hold the file, a tie.
  auto moved = run(errdex_cmd() + " match --json --db " + shell_quote(db) + " " +
                   shell_quote("Traceback (most recent call last):\n  File \"/elsewhere/site-packages/attr/__init__.py\", "
                               "line 2, in f\n    raise ValueError(f\"bad attribute {x}\")\nValueError: bad attribute 7\n"));
  EXPECT_TRUE(json::parse(moved.out)["ambiguous"].get<bool>()) << moved.out;
}

// Several revisions in one store (issue 28, item 7): list, show, search and
// export work per revision; export writes every revision, each line naming
// its revision, and importing that file gives back the same store.
TEST(Cli, ListShowSearchAndExportPerRevision) {
  TempDir tmp;
  std::string repo = (tmp / "repo").string();
  write_file(tmp / "repo" / "m.py", "def f(x):\n    raise ValueError(f\"bad width {x}\")\n");
  std::string git = "cd " + shell_quote(repo) + " && git -c user.name=t -c user.email=t@t -c init.defaultBranch=main ";
  ASSERT_EQ(run(git + "init -q && " + git + "add -A && " + git + "commit -qm one && " + git + "tag v1.0").code, 0);
  write_file(tmp / "repo" / "m.py",
             "def f(x):\n    raise ValueError(f\"width {x} is too wide\")\n\ndef g():\n    raise KeyError(\"height\")\n");
  ASSERT_EQ(run(git + "commit -qam two && " + git + "tag v1.1").code, 0);
  std::string db = "sqlite:" + (tmp / "a.db").string();
  ASSERT_EQ(run(errdex_cmd() + " scan " + shell_quote(repo) + " --repo acme/m --revs 'v1.*' -q --db " + shell_quote(db)).code, 0);

  auto l10 = run(errdex_cmd() + " list --repo acme/m --ref v1.0 --json --db " + shell_quote(db));
  ASSERT_EQ(l10.code, 0) << l10.err;
  ASSERT_EQ(json::parse(l10.out).size(), 1u);
  EXPECT_EQ(json::parse(l10.out)[0]["errorMessage"], "bad width {x}");
  EXPECT_EQ(json::parse(run(errdex_cmd() + " list --repo acme/m --json --db " + shell_quote(db)).out).size(), 2u)
      << "the current revision by default";
  std::string id = json::parse(l10.out)[0]["id"];
  auto shown = run(errdex_cmd() + " show " + id + " --repo acme/m --ref v1.0 --json --db " + shell_quote(db));
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_EQ(json::parse(shown.out)["ref"], "v1.0");
  EXPECT_EQ(json::parse(shown.out)["record"]["errorMessage"], "bad width {x}");
  auto found = run(errdex_cmd() + " search width --repo acme/m --ref v1.0 --json --db " + shell_quote(db));
  ASSERT_EQ(found.code, 0) << found.err;
  EXPECT_EQ(json::parse(found.out)[0]["record"]["errorMessage"], "bad width {x}");
  EXPECT_EQ(run(errdex_cmd() + " search height --repo acme/m --ref v1.0 --db " + shell_quote(db)).code, 1);
  EXPECT_EQ(run(errdex_cmd() + " search height --repo acme/m --db " + shell_quote(db)).code, 0);
  EXPECT_EQ(run(errdex_cmd() + " list --repo acme/m --ref v9 --db " + shell_quote(db)).code, 1);
  EXPECT_EQ(run(errdex_cmd() + " list --ref v1.0 --db " + shell_quote(db)).code, 2) << "--ref needs --repo";

  auto all = run(errdex_cmd() + " export --all-revisions --db " + shell_quote(db));
  ASSERT_EQ(all.code, 0) << all.err;
  std::vector<std::string> refs;
  std::istringstream lines(all.out);
  for (std::string line; std::getline(lines, line);) refs.push_back(json::parse(line)["ref"]);
  EXPECT_EQ(refs, (std::vector<std::string>{"v1.0", "v1.1", "v1.1"})) << all.out;
  auto current = run(errdex_cmd() + " export --db " + shell_quote(db));
  EXPECT_EQ(std::count(current.out.begin(), current.out.end(), '\n'), 2) << "the current revision by default";
  auto one = run(errdex_cmd() + " export --repo acme/m --ref v1.0 --db " + shell_quote(db));
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 1);

  write_file(tmp / "all.jsonl", all.out);
  std::string db2 = "sqlite:" + (tmp / "b.db").string();
  auto imported = run(errdex_cmd() + " import " + shell_quote((tmp / "all.jsonl").string()) + " --db " + shell_quote(db2));
  ASSERT_EQ(imported.code, 0) << imported.err;
  EXPECT_NE(imported.out.find("in 2 datasets"), std::string::npos) << imported.out;
  EXPECT_EQ(run(errdex_cmd() + " export --all-revisions --db " + shell_quote(db2)).out, all.out);
  auto revs = run(errdex_cmd() + " diff acme/m v1.0 v1.1 --json --db " + shell_quote(db2));
  ASSERT_EQ(revs.code, 0) << revs.err;
  EXPECT_EQ(json::parse(revs.out)["added"].size(), 1u);
}

// A published npm package's folder (issue 31, item 5) is npm/<name> at its
// package.json version; --repo and --ref still win; a git work tree with a
// package.json is not a published package.
TEST(Cli, AnNpmPackageFolderIsStoredAsItsPackageAtItsVersion) {
  TempDir tmp;
  write_file(tmp / "pkg" / "package.json", "{\"name\": \"@acme/widget\", \"version\": \"2.4.1\"}");
  write_file(tmp / "pkg" / "index.js", "function f(x) {\n  throw new TypeError(`bad widget: ${x}`);\n}\nmodule.exports = f;\n");
  std::string db = "sqlite:" + (tmp / "n.db").string();
  auto r = run(errdex_cmd() + " scan " + shell_quote((tmp / "pkg").string()) + " -q --json --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  auto stats = json::parse(run(errdex_cmd() + " stats --json --db " + shell_quote(db)).out);
  ASSERT_EQ(stats["repos"].size(), 1u);
  EXPECT_EQ(stats["repos"][0]["repo"], "npm/@acme__widget");
  EXPECT_EQ(stats["repos"][0]["ref"], "2.4.1");
  auto rec = json::parse(run(errdex_cmd() + " list --json --db " + shell_quote(db)).out)[0];
  EXPECT_EQ(rec["githubUrl"], "") << "an npm package is no GitHub repository";

  std::string db2 = "sqlite:" + (tmp / "m.db").string();
  r = run(errdex_cmd() + " scan " + shell_quote((tmp / "pkg").string()) + " --repo acme/widget --ref v9 -q --db " + shell_quote(db2));
  ASSERT_EQ(r.code, 0) << r.err;
  stats = json::parse(run(errdex_cmd() + " stats --json --db " + shell_quote(db2)).out);
  EXPECT_EQ(stats["repos"][0]["repo"], "acme/widget");
  EXPECT_EQ(stats["repos"][0]["ref"], "v9");

  ASSERT_EQ(run("cd " + shell_quote((tmp / "pkg").string()) + " && git init -q").code, 0);
  std::string db3 = "sqlite:" + (tmp / "g.db").string();
  r = run(errdex_cmd() + " scan " + shell_quote((tmp / "pkg").string()) + " -q --db " + shell_quote(db3));
  ASSERT_EQ(r.code, 0) << r.err;
  stats = json::parse(run(errdex_cmd() + " stats --json --db " + shell_quote(db3)).out);
  EXPECT_EQ(stats["repos"][0]["repo"], "local/pkg");
}

// errdex run around a real failing node program (issue 32, item 4: any
// language errdex reads): node's output passes through, its exit code is
// kept, and under the stack stands the throw site in the installed package.
TEST(Cli, RunExplainsANodeStackUnderIt) {
  TempDir tmp;
  const std::string semver = std::string(ERRDEX_SOURCE_DIR) + "/node_modules/semver";
  std::string db = "sqlite:" + (tmp / "n.db").string();
  ASSERT_EQ(run(errdex_cmd() + " scan " + shell_quote(semver) + " -q --db " + shell_quote(db)).code, 0);
  auto r = run(errdex_cmd() + " run --db " + shell_quote(db) + " -- node -e " +
               shell_quote("require(" + nlohmann::json(semver).dump() + ").parse('1.2.3', {}).inc('nope')"));
  EXPECT_EQ(r.code, 1) << "node's exit code";
  auto stack = r.err.find("Error: invalid increment argument: nope");
  auto said = r.err.find("errdex: Error raised at classes/semver.js:323 (npm/semver ");
  ASSERT_NE(stack, std::string::npos) << r.err;
  ASSERT_NE(said, std::string::npos) << r.err;
  EXPECT_LT(stack, said);
  EXPECT_LT(said, r.err.find("Node.js v")) << "right under the stack, before node's last line";
  EXPECT_NE(r.err.find("errdex:   release = nope"), std::string::npos) << r.err;
}

// postcss's parse() rethrows the parser's error (`throw e`): node's header
// names that line, a site with neither class nor text of its own, which the
// answer says in words instead of printing an empty "class: message".
TEST(Cli, MatchSaysASiteRaisesAgainTheErrorItCaught) {
  TempDir tmp;
  const std::string postcss = std::string(ERRDEX_SOURCE_DIR) + "/node_modules/postcss";
  std::string db = "sqlite:" + (tmp / "p.db").string();
  ASSERT_EQ(run(errdex_cmd() + " scan " + shell_quote(postcss) + " -q --db " + shell_quote(db)).code, 0);
  auto node = run("node -e " + shell_quote("require(" + nlohmann::json(postcss).dump() + ").parse('a { color: red')"));
  ASSERT_NE(node.err.find("Unclosed block"), std::string::npos) << node.err;
  write_file(tmp / "stack.txt", node.err);
  auto r = run(errdex_cmd() + " match --db " + shell_quote(db) + " < " + shell_quote((tmp / "stack.txt").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("1. lib/parse.js:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(raises again the error it caught)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\n   : \n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Unclosed block"), std::string::npos) << "the parser's own site: " << r.out;
}

TEST(Cli, ShowListSearchExportImportAndExitCodes) {
  TempDir repo, data;
  std::string db = "sqlite:" + (data / "e.db").string();
  write_file(repo / "cache.py", k_module);
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/cache --prefix src/acme --db " +
               shell_quote(db) + " -q");
  ASSERT_EQ(r.code, 0) << r.err;
  auto recs = export_records(db);
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0]["filePath"], "src/acme/cache.py");
  std::string id = recs[0]["id"];

  r = run(errdex_cmd() + " show " + id + " --db " + shell_quote(db));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("n must be non-negative"), std::string::npos);
  r = run(errdex_cmd() + " show " + id + " --json --db " + shell_quote(db));
  EXPECT_EQ(json::parse(r.out)["record"]["id"], id);
  r = run(errdex_cmd() + " show 0123456789abcdef --db " + shell_quote(db));
  EXPECT_EQ(r.code, 1);
  r = run(errdex_cmd() + " list --repo acme/cache --json --db " + shell_quote(db));
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(json::parse(r.out).size(), 3u);
  r = run(errdex_cmd() + " list --repo nobody/none --db " + shell_quote(db));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no records for nobody/none"), std::string::npos) << r.err;
  r = run(errdex_cmd() + " export --repo nobody/none --db " + shell_quote(db));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("no records for nobody/none"), std::string::npos) << r.err;
  r = run(errdex_cmd() + " search zzyzzyx --db " + shell_quote(db));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no record matches \"zzyzzyx\""), std::string::npos) << r.err;
  r = run(errdex_cmd() + " search non-negative --json --db " + shell_quote(db));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)[0]["record"]["id"], id);
  r = run(errdex_cmd() + " search " + shell_quote("\"NEAR( * -') OR") + " --db " + shell_quote(db));
  EXPECT_LE(r.code, 1) << r.err;
  r = run(errdex_cmd() + " stats --json --db " + shell_quote(db));
  EXPECT_EQ(json::parse(r.out)["records"], 3);

  // Export, import into a new store, export again: the same bytes.
  auto first = run(errdex_cmd() + " export --db " + shell_quote(db));
  write_file(data / "dump.jsonl", first.out);
  std::string db2 = "sqlite:" + (data / "f.db").string();
  r = run(errdex_cmd() + " import " + shell_quote((data / "dump.jsonl").string()) + " --db " + shell_quote(db2));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(run(errdex_cmd() + " export --db " + shell_quote(db2)).out, first.out);

  // Bad lines are reported with their number; good lines still land.
  write_file(data / "bad.jsonl", first.out + "{not json\n{\"record\":{}}\n");
  std::string db3 = "sqlite:" + (data / "g.db").string();
  r = run(errdex_cmd() + " import " + shell_quote((data / "bad.jsonl").string()) + " --db " + shell_quote(db3));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(":4:"), std::string::npos) << r.err;
  EXPECT_EQ(export_records(db3).size(), 3u);

  EXPECT_EQ(run(errdex_cmd() + " show " + id + " --db sqlite:" + shell_quote((data / "missing.db").string())).code, 2);
  EXPECT_EQ(run(errdex_cmd() + " frobnicate").code, 2);
  EXPECT_EQ(run(errdex_cmd() + " scan /no/such/dir --db " + shell_quote(db)).code, 2);
  EXPECT_EQ(run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo not-a-repo --db " + shell_quote(db)).code, 2);
  for (std::string cmd : {"", "scan", "show", "list", "search", "export", "import", "stats"}) {
    r = run(errdex_cmd() + " " + cmd + " --help");
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_NE(r.out.find("--help"), std::string::npos) << cmd;
  }
}

// A class defined in one module and raised in another: what its
// `__str__` prints there is a variant of the raising site, so a pasted line
// finds that site by pattern with the values named. Of two classes of one
// name in two modules, the one the raising file imports is the one raised.
TEST(Cli, ClassDefinedInOneFileShowsAsItPrintsWhereAnotherRaisesIt) {
  TempDir repo, data;
  std::string db = "sqlite:" + (data / "x.db").string();
  write_file(repo / "net/error.py", R"(class URLError(OSError):
    def __init__(self, reason, filename=None):
        self.reason = reason

    def __str__(self):
        return '<urlopen error %s>' % self.reason


class Twice(Exception):
    def __str__(self):
        return 'first twice'
)");
  write_file(repo / "net/other.py", R"(class Twice(Exception):
    def __str__(self):
        return 'second twice'
)");
  write_file(repo / "net/request.py", R"(from net.error import URLError, Twice


def open_url(url, kind):
    if kind not in ('http', 'ftp'):
        raise URLError('unknown url type: %s' % kind)
    if not url:
        raise Twice('no url')
    raise URLError(*url)
)");
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/net --db " + shell_quote(db) + " -q");
  ASSERT_EQ(r.code, 0) << r.err;
  std::map<int, json> by_line;
  for (auto& rec : export_records(db))
    if (rec["filePath"] == "net/request.py") by_line[rec["lineNumber"].get<int>()] = rec;
  ASSERT_EQ(by_line.size(), 3u);
  // What the class prints is the message; the argument's text a variant.
  EXPECT_EQ(by_line[6]["errorMessage"], "<urlopen error unknown url type: {kind}>");
  ASSERT_TRUE(by_line[6].contains("messageVariants")) << by_line[6].dump();
  EXPECT_EQ(by_line[6]["messageVariants"][0]["errorMessage"], "unknown url type: {kind}");
  EXPECT_EQ(by_line[8]["errorMessage"], "first twice");  // net.error's Twice, which request.py imports
  EXPECT_FALSE(by_line[9].contains("messageVariants")) << by_line[9].dump();  // *url: which parameter is not known

  r = run(errdex_cmd() + " match --json --db " + shell_quote(db) + " " +
          shell_quote("urllib.error.URLError: <urlopen error unknown url type: gopher>"));
  ASSERT_EQ(r.code, 0) << r.err;
  json best = json::parse(r.out)["candidates"][0];
  EXPECT_EQ(best["filePath"], "net/request.py");
  EXPECT_EQ(best["lineNumber"], 6);
  ASSERT_EQ(best["captures"].size(), 1u);
  EXPECT_EQ(best["captures"][0]["name"], "kind");
  EXPECT_EQ(best["captures"][0]["value"], "gopher");
}

// A minified bundle, named so (`.min.js`) or not (lines of thousands of
// characters), is not read: the summary lists it among the skipped files,
// with its reason, and it gives no record; a `.d.ts` is no loss, not listed.
TEST(Cli, AMinifiedJavaScriptFileIsListedAmongTheSkips) {
  TempDir repo, data;
  std::string db = "sqlite:" + (data / "m.db").string();
  write_file(repo / "lib/index.js", "function f(x) {\n  if (!x) throw new TypeError('x is required')\n}\n");
  std::string bundle;
  for (int i = 0; i < 400; ++i) bundle += "function g" + std::to_string(i) + "(n){if(!n)throw new Error(\"bundled\");return n}";
  write_file(repo / "web/app.min.js", bundle + "\n");
  write_file(repo / "web/app.js", bundle + "\n");
  write_file(repo / "types/index.d.ts", "export declare function f(x: string): void\n");
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/bundle --no-cache --json --db " +
               shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  const json summary = json::parse(r.out);
  std::map<std::string, std::string> skips;
  for (const auto& s : summary["skipped"]) skips[s["path"]] = s["reason"];
  EXPECT_EQ(skips["web/app.min.js"], "minified");
  EXPECT_EQ(skips["web/app.js"], "minified");
  EXPECT_FALSE(skips.count("types/index.d.ts"));
  std::set<std::string> messages;
  for (const auto& rec : export_records(db)) messages.insert(rec["errorMessage"].get<std::string>());
  EXPECT_TRUE(messages.count("x is required"));
  EXPECT_FALSE(messages.count("bundled"));
}

TEST(Cli, HostileTreeIsScannedAndEverySkipHasItsReason) {
  TempDir repo, data;
  std::string db = "sqlite:" + (data / "e.db").string();
  write_file(repo / "good.py", "def f(x):\n    if x:\n        raise ValueError('good one')\n");
  write_file(repo / "binary.py", std::string("raise\0\x01\x02\xff", 9) + std::string(100, '\0'));
  write_file(repo / "latin1.py", "raise ValueError('caf\xe9')\n");
  write_file(repo / "declared.py", "# -*- coding: latin-1 -*-\nraise ValueError('d\xe9" "clar\xe9')\n");
  write_file(repo / "huge.py", "x = '" + std::string(20 * 1024 * 1024, 'a') + "'\n");
  write_file(repo / "deep.py", "x = " + std::string(5000, '(') + "1" + std::string(5000, ')') +
                                   "\nraise ValueError('after the deep line')\n");
  write_file(repo / "broken.py", "def f(:\n    raise KeyError('still found')\n");
  std::filesystem::create_directories(repo / "loop");
  std::filesystem::create_directory_symlink("..", repo / "loop" / "back");
  ASSERT_EQ(::mkfifo((repo / "pipe.py").c_str(), 0644), 0);
  write_file(repo / "node_modules/dep/x.py", "raise ValueError('vendored')\n");
  write_file(repo / ".venv/lib/y.py", "raise ValueError('venv')\n");

  auto r = run("timeout 120 " + errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/hostile --json --db " +
               shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  auto summary = json::parse(r.out);
  std::map<std::string, std::string> skips;
  for (const auto& s : summary["skipped"]) skips[s["path"]] = s["reason"];
  EXPECT_EQ(skips["binary.py"], "binary");
  EXPECT_EQ(skips["latin1.py"], "invalid-utf8");
  EXPECT_EQ(skips["huge.py"], "too-large");
  EXPECT_EQ(skips["pipe.py"], "not-regular");
  EXPECT_EQ(skips["loop/back"], "symlink-loop");
  EXPECT_EQ(skips["node_modules"], "dependency-dir");
  EXPECT_EQ(skips[".venv"], "dependency-dir");

  std::set<std::string> messages;
  for (const auto& rec : export_records(db)) messages.insert(rec["errorMessage"].get<std::string>());
  EXPECT_TRUE(messages.count("good one"));
  EXPECT_TRUE(messages.count("after the deep line"));
  EXPECT_TRUE(messages.count("still found"));
  EXPECT_TRUE(messages.count("d\xc3\xa9" "clar\xc3\xa9"));  // PEP 263 declaration honoured
  EXPECT_FALSE(skips.count("declared.py"));
  EXPECT_FALSE(messages.count("vendored"));
}

}  // namespace
}  // namespace errdex
