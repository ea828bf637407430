// errdex run around a real pytest: pytest prints its own report of each
// failure (in the `--tb` style asked for) and a short summary, not
// Python's traceback, and each failure's error is answered once, in order.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "support/process.h"

namespace errdex::testing {
namespace {

// The first line of each answer errdex added to a run's output.
std::vector<std::string> answers(const std::string& out) {
  std::vector<std::string> got;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("errdex: ", 0) == 0 && line.rfind("errdex:   ", 0) != 0) got.push_back(line);
  return got;
}

// Debian's python3 is the one `make test` installs pytest for.
constexpr const char* k_python = "/usr/bin/python3";

TEST(RunPytest, EachFailingTestsErrorIsAnsweredOnceInEveryStyle) {
  if (run(std::string(k_python) + " -c 'import pytest'").code != 0) GTEST_SKIP() << "no pytest for " << k_python;
  TempDir data;
  const std::string db = "sqlite:" + (data / "json.db").string();
  auto scan = scan_stdlib_package("json", db, k_python);
  ASSERT_EQ(scan.code, 0) << scan.err;
  // A package raising another class with a message a failed `assert`
  // fits (py's `raise Failure("assert %s" % explanation)`).
  write_file(data / "checks/checks/__init__.py",
             "class Failure(Exception):\n"
             "    pass\n"
             "def check(explanation):\n"
             "    raise Failure('assert %s' % explanation)\n");
  scan = run(errdex_cmd() + " scan " + shell_quote((data / "checks").string()) + " --repo acme/checks -q --db " +
             shell_quote(db));
  ASSERT_EQ(scan.code, 0) << scan.err;
  // Two tests fail alike: each is a failure of its own.
  write_file(data / "test_cfg.py",
             "import json\n"
             "def load(text):\n"
             "    return json.loads(text)\n"
             "def test_empty():\n"
             "    load('')\n"
             "def test_empty_again():\n"
             "    load('')\n"
             "def test_dump():\n"
             "    json.dumps(object())\n"
             "def test_fine():\n"
             "    assert load('1') == 1\n"
             "def test_sum():\n"
             "    total = load('1') + 1\n"
             "    assert total == 3\n");
  auto pytest = [&](const std::string& tb, const std::string& columns = "200") {
    return run("cd " + shell_quote(data.str()) + " && COLUMNS=" + columns + " " + errdex_cmd() + " run --db " +
               shell_quote(db) + " --url http://errdex.test -- " + k_python +
               " -m pytest -p no:cacheprovider --tb=" + tb + " test_cfg.py");
  };
  const std::string empty = "errdex: JSONDecodeError raised at Lib/json/decoder.py:";
  const std::string dump = "errdex: TypeError raised at Lib/json/encoder.py:";
  for (const char* tb : {"long", "short", "line", "native", "no"}) {
    auto r = pytest(tb);
    EXPECT_EQ(r.code, 1) << tb << "\n" << r.out << r.err;  // pytest's: tests failed
    auto got = answers(r.out + r.err);
    ASSERT_EQ(got.size(), 4u) << tb << "\n" << r.out << r.err;
    EXPECT_EQ(got[0].rfind(empty, 0), 0u) << tb << ": " << got[0];
    EXPECT_EQ(got[1].rfind(empty, 0), 0u) << tb << ": " << got[1];
    EXPECT_EQ(got[2].rfind(dump, 0), 0u) << tb << ": " << got[2];
    // Under the failure, above the next one (the summary, with --tb=no).
    EXPECT_LT(r.out.find("Expecting value"), r.out.find(empty)) << tb;
    EXPECT_LT(r.out.find(empty), r.out.find("not JSON serializable")) << tb;
    EXPECT_NE(r.out.find("http://errdex.test/errors/"), std::string::npos) << tb;
    // The test's own `assert`, which no indexed raise made (but in
    // `--tb=line`'s line, which prints neither its class nor its frame's
    // source); the summary's line names no frame, nor (here) the class.
    if (std::string(tb) == "no")
      EXPECT_EQ(got[3].rfind("errdex: AssertionError matches no raise statement errdex has indexed", 0), 0u) << got[3];
    else if (std::string(tb) != "line")
      EXPECT_EQ(got[3].rfind("errdex: AssertionError matches no raise statement errdex has indexed; it was raised at or "
                             "below test_cfg.py:",
                             0),
                0u)
          << tb << ": " << got[3];
  }
  // A summary line cut to the terminal's width still answers from the
  // report; alone (--tb=no), a cut message answers only when its start
  // fits a site, and never says no raise explains it (the test's own
  // assert, whole, is none's).
  auto r = pytest("short", "60");
  EXPECT_EQ(answers(r.out).size(), 4u) << r.out;
  r = pytest("no", "60");
  for (const std::string& line : answers(r.out))
    if (line.find("AssertionError") == std::string::npos)
      EXPECT_EQ(line.find("matches no raise statement"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace errdex::testing
