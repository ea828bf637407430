// Tests seen raising errors (analyze/observed.h): what `python3 -m
// errdex.observe` writes while real tests run, and how a scan links it to
// the records raised there.
#include "analyze/observed.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "support/process.h"

namespace errdex {
namespace {

using analyze::Observations;
using analyze::ObservedPaths;
using testing::errdex_cmd;
using testing::run;
using testing::shell_quote;
using testing::TempDir;

const std::string k_client = std::string(ERRDEX_SOURCE_DIR) + "/clients/python";

model::ErrorRecord record(std::string path, int line, std::string cls) {
  model::ErrorRecord r;
  r.file_path = std::move(path);
  r.line_number = line;
  r.error_class = std::move(cls);
  return r;
}

std::string line(const std::string& raised, const std::string& cls, const std::string& bases,
                 const std::string& test_file, int test_line, const std::string& name) {
  return R"({"raised": )" + raised + R"(, "class": ")" + cls + R"(", "bases": )" + bases +
         R"(, "message": "m", "test": {"file": ")" + test_file + R"(", "line": )" + std::to_string(test_line) +
         R"(, "name": ")" + name + R"x(", "code": "f(1)"}})x" + "\n";
}

TEST(Observed, LinesThatAreNotObservationsAreCountedAndLeftOut) {
  const std::string text = line(R"([["/r/pkg/a.py", 3]])", "ValueError", R"(["Exception"])", "/r/tests/t.py", 9,
                                "T.test_a") +
                           "not json\n{\"raised\": []}\n\n" +
                           line(R"([["/r/pkg/a.py", 0]])", "ValueError", "[]", "/r/tests/t.py", 9, "T.test_b");
  const Observations o = analyze::parse_observations(text);
  ASSERT_EQ(o.items.size(), 1u);
  EXPECT_EQ(o.bad_lines, 3u);  // not JSON, no test, no frame with a line
  EXPECT_EQ(o.items[0].raised[0], std::pair(std::string("/r/pkg/a.py"), 3));
  EXPECT_EQ(o.items[0].bases, std::vector<std::string>{"Exception"});
  EXPECT_EQ(o.items[0].test_name, "T.test_a");
  EXPECT_FALSE(analyze::read_observations("/nonexistent/observed.jsonl"));
  TempDir dir;
  auto folder = analyze::read_observations(dir.str());
  ASSERT_FALSE(folder);
  EXPECT_NE(folder.error().find("is a folder"), std::string::npos) << folder.error();
}

TEST(Observed, PathsUnderTheRootOrEndingLikeOneFile) {
  const ObservedPaths paths("/home/u/cpython/Lib", "Lib",
                            {"Lib/json/decoder.py", "Lib/ipaddress.py", "Lib/test/test_json/test_decode.py",
                             "Lib/a/util.py", "Lib/b/util.py"});
  EXPECT_EQ(paths.resolve("/home/u/cpython/Lib/json/decoder.py"), "Lib/json/decoder.py");
  // Under the root, only the file at that place.
  EXPECT_EQ(paths.resolve("/home/u/cpython/Lib/decoder.py"), std::nullopt);
  // An installed copy: the one file ending the same way.
  EXPECT_EQ(paths.resolve("/usr/lib/python3.11/json/decoder.py"), "Lib/json/decoder.py");
  EXPECT_EQ(paths.resolve("/usr/lib/python3.11/ipaddress.py"), "Lib/ipaddress.py");
  EXPECT_EQ(paths.resolve("json/decoder.py"), "Lib/json/decoder.py");
  // Two files end "util.py", one ends "a/util.py".
  EXPECT_EQ(paths.resolve("/site-packages/util.py"), std::nullopt);
  EXPECT_EQ(paths.resolve("/site-packages/a/util.py"), "Lib/a/util.py");
  EXPECT_EQ(paths.resolve("/usr/lib/python3.11/csv.py"), std::nullopt);
  EXPECT_EQ(paths.resolve("<frozen importlib._bootstrap>"), std::nullopt);  // not scanned
  EXPECT_EQ(paths.resolve("<frozen ipaddress>"), "Lib/ipaddress.py");
}

TEST(Observed, TheInnermostFrameHoldingARecordOfTheClassIsLinked) {
  const ObservedPaths paths("/r", "", {"pkg/a.py", "pkg/b.py", "tests/test_a.py"});
  std::vector<model::ErrorRecord> records = {
      record("pkg/a.py", 10, "ValueError"),   // 0: the raise
      record("pkg/b.py", 20, "ValueError"),   // 1: a call on the way, holding a raise of its own
      record("pkg/a.py", 30, "TypeError"),    // 2: a raise of another class
      record("pkg/a.py", 40, "pkg.Custom"),   // 3: a subclass's raise, named by its module
  };
  std::string text;
  // Raised at a.py:10, called from b.py:20: the innermost record is it.
  text += line(R"([["/r/pkg/a.py", 10], ["/r/pkg/b.py", 20]])", "ValueError", R"(["Exception"])", "/r/tests/test_a.py",
               5, "T.test_one");
  // Raised in C under a.py:30 (no record of its class there), then b.py:20.
  text += line(R"([["/r/pkg/a.py", 30], ["/r/pkg/b.py", 20]])", "ValueError", R"(["Exception"])",
               "/r/tests/test_a.py", 7, "T.test_two");
  // An installed copy's frame; the record names the class by its module.
  text += line(R"([["/elsewhere/pkg/a.py", 40]])", "Custom", R"(["ValueError", "Exception"])", "/r/tests/test_a.py",
               9, "T.test_three");
  // A test outside the scanned tree names nothing.
  text += line(R"([["/r/pkg/a.py", 10]])", "ValueError", "[]", "/other/test_x.py", 1, "X.test_x");
  analyze::ObservedCounts counts;
  const auto links = analyze::observed_tests(analyze::parse_observations(text), paths, records, &counts);
  const auto& tests = links.tests;
  ASSERT_EQ(tests.size(), 4u);
  ASSERT_EQ(tests[0].size(), 1u);
  EXPECT_EQ(tests[0][0].name, "T.test_one");
  EXPECT_EQ(tests[0][0].file_path, "tests/test_a.py");
  EXPECT_EQ(tests[0][0].line_number, 5);
  EXPECT_EQ(tests[0][0].code, "f(1)");
  ASSERT_EQ(tests[1].size(), 1u);
  EXPECT_EQ(tests[1][0].name, "T.test_two");
  EXPECT_TRUE(tests[2].empty());
  ASSERT_EQ(tests[3].size(), 1u);
  EXPECT_EQ(tests[3][0].name, "T.test_three");
  EXPECT_EQ(counts.observations, 4u);
  EXPECT_EQ(counts.linked, 3u);
  EXPECT_EQ(counts.records, 3u);
  // An expectation watched contradicts a link to any record it did not
  // raise at; one never watched contradicts none.
  EXPECT_FALSE(links.contradicts("tests/test_a.py", 5, 0));
  EXPECT_TRUE(links.contradicts("tests/test_a.py", 5, 2));
  EXPECT_TRUE(links.contradicts("tests/test_a.py", 7, 0));
  EXPECT_FALSE(links.contradicts("tests/test_a.py", 6, 0));
}

TEST(Observed, AnExpectationRaisedInCContradictsEveryRecordButOneItAlsoRaised) {
  const ObservedPaths paths("/r", "", {"pkg/a.py", "tests/test_a.py"});
  std::vector<model::ErrorRecord> records = {record("pkg/a.py", 10, "ValueError"), record("pkg/a.py", 20, "ValueError")};
  std::string text;
  // One expectation, run for the C and the Python build of a module: the
  // C one raised under a call (no record there), the Python one at a.py:10.
  text += line(R"([["/r/pkg/a.py", 4]])", "ValueError", "[]", "/r/tests/test_a.py", 3, "CTests.test_m");
  text += line(R"([["/r/pkg/a.py", 10]])", "ValueError", "[]", "/r/tests/test_a.py", 3, "PyTests.test_m");
  // Another raised in C only.
  text += line(R"([["/r/pkg/a.py", 5]])", "ValueError", "[]", "/r/tests/test_a.py", 8, "CTests.test_n");
  const auto links = analyze::observed_tests(analyze::parse_observations(text), paths, records);
  EXPECT_FALSE(links.contradicts("tests/test_a.py", 3, 0));
  EXPECT_TRUE(links.contradicts("tests/test_a.py", 3, 1));
  EXPECT_TRUE(links.contradicts("tests/test_a.py", 8, 0));
  EXPECT_TRUE(links.contradicts("tests/test_a.py", 8, 1));
}

TEST(Observed, OneEntryPerTestLineInPathOrderAtMostThree) {
  const ObservedPaths paths("/r", "", {"pkg/a.py", "tests/test_a.py", "tests/test_b.py"});
  std::vector<model::ErrorRecord> records = {record("pkg/a.py", 10, "ValueError")};
  std::string text;
  // A mixin's test runs as two classes, written in either order.
  text += line(R"([["/r/pkg/a.py", 10]])", "ValueError", "[]", "/r/tests/test_b.py", 3, "PyTests.test_m");
  text += line(R"([["/r/pkg/a.py", 10]])", "ValueError", "[]", "/r/tests/test_b.py", 3, "CTests.test_m");
  text += line(R"([["/r/pkg/a.py", 10]])", "ValueError", "[]", "/r/tests/test_a.py", 30, "A.test_z");
  text += line(R"([["/r/pkg/a.py", 10]])", "ValueError", "[]", "/r/tests/test_a.py", 20, "A.test_y");
  text += line(R"([["/r/pkg/a.py", 10]])", "ValueError", "[]", "/r/tests/test_b.py", 90, "B.test_w");
  auto tests = analyze::observed_tests(analyze::parse_observations(text), paths, records).tests;
  ASSERT_EQ(tests[0].size(), 3u);
  EXPECT_EQ(tests[0][0].name, "A.test_y");
  EXPECT_EQ(tests[0][1].name, "A.test_z");
  EXPECT_EQ(tests[0][2].name, "CTests.test_m");
}

// The observer in a real interpreter: unittest's assertRaises as a call and
// as `with`, a child interpreter, and pytest.raises.
TEST(ObserveClient, ExpectedErrorsOfRealTestsAreWrittenWithTheirFramesAndTest) {
  TempDir dir;
  testing::write_file(dir / "test_u.py", R"(import json, subprocess, sys, unittest

class Decode(unittest.TestCase):
    def test_call(self):
        self.assertRaises(json.JSONDecodeError, json.loads, "{")

    def test_with(self):
        with self.assertRaisesRegex(ValueError, "Expecting"):
            json.loads("[1,")

    def test_not_raised_is_not_written(self):
        with self.assertRaises(KeyError):
            {}["k"] if False else None
        # (the assertion fails inside: the failure is expected here)

    def test_child(self):
        subprocess.run([sys.executable, "-m", "unittest", "-q", "test_child_u"], check=True,
                       capture_output=True)

if __name__ == "__main__":
    unittest.main()
)");
  testing::write_file(dir / "test_child_u.py", R"(import ipaddress, unittest

class Child(unittest.TestCase):
    def test_address(self):
        with self.assertRaises(ValueError):
            ipaddress.ip_address("300.1.1.1")
)");
  const std::string out = (dir / "o.jsonl").string();
  auto r = run("cd " + shell_quote(dir.str()) + " && PYTHONPATH=" + shell_quote(k_client) +
               " python3 -m errdex.observe -o " + shell_quote(out) + " -- -m unittest -q test_u 2>&1");
  // test_not_raised_is_not_written fails: the run says so, the others pass.
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("KeyError not raised"), std::string::npos) << r.out;
  const Observations o = analyze::parse_observations(testing::read_file(out));
  EXPECT_EQ(o.bad_lines, 0u);
  std::map<std::string, analyze::Observation> by_name;
  for (const auto& x : o.items) by_name[x.test_name] = x;
  ASSERT_EQ(by_name.size(), 3u) << testing::read_file(out);
  const auto& call = by_name.at("Decode.test_call");
  EXPECT_EQ(call.error_class, "JSONDecodeError");
  EXPECT_EQ(call.bases.front(), "ValueError");
  EXPECT_TRUE(call.raised.front().first.ends_with("json/decoder.py")) << call.raised.front().first;
  EXPECT_EQ(call.test_line, 5);
  EXPECT_EQ(call.code, R"(self.assertRaises(json.JSONDecodeError, json.loads, "{"))");
  const auto& with = by_name.at("Decode.test_with");
  EXPECT_EQ(with.test_line, 8);
  EXPECT_EQ(with.code, "with self.assertRaisesRegex(ValueError, \"Expecting\"):\n    json.loads(\"[1,\")");
  EXPECT_TRUE(with.test_file.ends_with("test_u.py"));
  // The child interpreter was observed through the environment.
  const auto& child = by_name.at("Child.test_address");
  EXPECT_TRUE(child.raised.front().first.ends_with("ipaddress.py")) << child.raised.front().first;
  EXPECT_EQ(child.test_line, 5);

  // pytest.raises, in the interpreter that has pytest (Debian's).
  if (run("/usr/bin/python3 -c 'import pytest'").code != 0) GTEST_SKIP() << "no pytest for /usr/bin/python3";
  testing::write_file(dir / "test_p.py", R"(import json, pytest

class TestP:
    def test_p(self):
        with pytest.raises(json.JSONDecodeError, match="Expecting"):
            json.loads("{")
)");
  const std::string out_p = (dir / "p.jsonl").string();
  r = run("cd " + shell_quote(dir.str()) + " && PYTHONPATH=" + shell_quote(k_client) +
          " /usr/bin/python3 -m errdex.observe -o " + shell_quote(out_p) +
          " -- -m pytest -q -p no:cacheprovider test_p.py 2>&1");
  EXPECT_EQ(r.code, 0) << r.out;
  const Observations p = analyze::parse_observations(testing::read_file(out_p));
  ASSERT_EQ(p.items.size(), 1u) << testing::read_file(out_p);
  EXPECT_EQ(p.items[0].test_name, "TestP.test_p");
  EXPECT_EQ(p.items[0].test_line, 5);
  EXPECT_TRUE(p.items[0].raised.front().first.ends_with("json/decoder.py"));
}

TEST(ObserveClient, UsageErrorsExitTwo) {
  auto r = run("PYTHONPATH=" + shell_quote(k_client) + " python3 -m errdex.observe -- -c pass 2>&1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("give -o FILE"), std::string::npos) << r.out;
  r = run("PYTHONPATH=" + shell_quote(k_client) + " python3 -m errdex.observe -o /nonexistent/dir/x.jsonl -- -c pass 2>&1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("cannot write"), std::string::npos) << r.out;
  r = run("PYTHONPATH=" + shell_quote(k_client) + " python3 -m errdex.observe --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("usage:"), std::string::npos);
}

// A link the code suggests and the run contradicts is dropped: the test
// was watched getting its error from C code under another line.
TEST(ObservedScan, AnExpectationWatchedRaisingElsewhereLinksNothingFromTheCode) {
  TempDir dir;
  std::filesystem::create_directories(dir / "pkg");
  std::filesystem::create_directories(dir / "tests");
  testing::write_file(dir / "pkg" / "__init__.py", "");
  testing::write_file(dir / "pkg" / "mod.py", R"(def parse(text):
    if not text:
        raise ValueError("empty text")
    return int(text)
)");
  testing::write_file(dir / "tests" / "test_mod.py", R"(import unittest
from pkg.mod import parse


class ParseTest(unittest.TestCase):
    word = "word"

    def test_empty(self):
        with self.assertRaises(ValueError):
            parse("")

    def test_word(self):
        with self.assertRaises(ValueError):
            parse(self.word)
)");
  // The tests of the record at mod.py:3, by name, in a scan's export.
  auto tests_of_site = [&](const std::string& extra) {
    const std::string db = "sqlite:" + (dir / ("s" + std::to_string(extra.size()) + ".db")).string();
    auto r = run(errdex_cmd() + " scan " + shell_quote(dir.str()) + " --repo o/n -q --db " + shell_quote(db) + extra);
    EXPECT_EQ(r.code, 0) << r.err;
    r = run(errdex_cmd() + " export --db " + shell_quote(db));
    std::vector<std::string> names;
    for (std::size_t at = 0; at < r.out.size();) {
      std::size_t nl = r.out.find('\n', at);
      if (nl == std::string::npos) nl = r.out.size();
      auto j = nlohmann::json::parse(r.out.substr(at, nl - at), nullptr, false);
      at = nl + 1;
      if (!j.is_object() || j["record"]["lineNumber"] != 3 || !j["record"]["evidence"].contains("tests")) continue;
      for (const auto& t : j["record"]["evidence"]["tests"]) names.push_back(t["name"].get<std::string>());
    }
    return names;
  };
  const auto from_code = tests_of_site("");
  // The code alone cannot tell what `self.word` holds: both tests link.
  ASSERT_EQ(from_code, (std::vector<std::string>{"ParseTest.test_empty", "ParseTest.test_word"}));
  const std::string out = (dir / "o.jsonl").string();
  auto r = run("cd " + shell_quote(dir.str()) + " && PYTHONPATH=" + shell_quote(k_client) +
               " python3 -m errdex.observe -o " + shell_quote(out) + " -- -m unittest -q tests.test_mod 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  // int("word") raised in C under line 4: test_word's error is not the
  // record's, and test_empty's is, seen.
  EXPECT_EQ(tests_of_site(" --observed " + shell_quote(out)), std::vector<std::string>{"ParseTest.test_empty"});
}

// The whole way on real code: the standard library's own tests of json and
// ipaddress run under the observer, the standard library scanned with what
// it wrote, as `make run` indexes it (--prefix Lib).
TEST(ObservedScan, StandardLibraryRecordsNameTheTestsSeenRaisingThem) {
  const std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());
  TempDir dir;
  const std::string out = (dir / "o.jsonl").string();
  auto r = run("cd " + shell_quote(dir.str()) + " && PYTHONPATH=" + shell_quote(k_client) +
               " timeout 600 python3 -m errdex.observe -o " + shell_quote(out) +
               " -- -m test -q test_json test_ipaddress 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  testing::write_file(dir / "bad.jsonl", "{\"raised\": 1}\n");
  const std::string db = "sqlite:" + (dir / "s.db").string();
  r = run(errdex_cmd() + " scan " + shell_quote(stdlib) + " --repo python/cpython --prefix Lib -q --json --db " +
          shell_quote(db) + " --observed " + shell_quote(out) + " --observed " + shell_quote((dir / "bad.jsonl").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto summary = nlohmann::json::parse(r.out);
  const auto& seen = summary["observed"];
  EXPECT_GE(seen["observations"].get<int>(), 100) << seen.dump();
  EXPECT_EQ(seen["unreadLines"].get<int>(), 1);
  // Most errors these tests expect are raised by a statement of the
  // library (the rest in C, under a call).
  EXPECT_GE(seen["linked"].get<int>() * 10, seen["observations"].get<int>() * 6) << seen.dump();
  // Records naming a test, and whether json's decoder names one of
  // test_json's, in a store's export.
  auto tested = [&](const std::string& store, bool* decoder) {
    auto e = run(errdex_cmd() + " export --db " + shell_quote(store));
    EXPECT_EQ(e.code, 0) << e.err;
    int with_tests = 0;
    for (std::size_t at = 0; at < e.out.size();) {
      std::size_t nl = e.out.find('\n', at);
      if (nl == std::string::npos) nl = e.out.size();
      auto line = nlohmann::json::parse(e.out.substr(at, nl - at), nullptr, false);
      at = nl + 1;
      if (!line.is_object() || !line.contains("record")) continue;
      const auto& j = line["record"];
      if (!j.contains("evidence") || !j["evidence"].contains("tests")) continue;
      ++with_tests;
      for (const auto& t : j["evidence"]["tests"]) {
        // Each test is a file of the tree, and its line is in it.
        const std::string path = t["filePath"].get<std::string>();
        EXPECT_TRUE(path.starts_with("Lib/")) << path;
        const std::string file = testing::read_file(stdlib + "/" + path.substr(4));
        EXPECT_GE(std::count(file.begin(), file.end(), '\n'), t["lineNumber"].get<long>()) << path;
        if (j["filePath"] == "Lib/json/decoder.py" && j["errorClass"] == "JSONDecodeError" &&
            path.starts_with("Lib/test/test_json/"))
          *decoder = true;
      }
    }
    return with_tests;
  };
  const std::string db_static = "sqlite:" + (dir / "static.db").string();
  r = run(errdex_cmd() + " scan " + shell_quote(stdlib) + " --repo python/cpython --prefix Lib -q --db " +
          shell_quote(db_static));
  ASSERT_EQ(r.code, 0) << r.err;
  bool decoder = false, decoder_static = false;
  const int observed_records = tested(db, &decoder), static_records = tested(db_static, &decoder_static);
  EXPECT_TRUE(decoder);
  // The observations add records the code alone links no test to.
  EXPECT_GE(observed_records, static_records + 30) << observed_records << " against " << static_records;

  // Several revisions, or --no-evidence, cannot take observations of one.
  r = run(errdex_cmd() + " scan " + shell_quote(stdlib) + " --no-evidence -q --db " + shell_quote(db) +
          " --observed " + shell_quote(out));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--no-evidence"), std::string::npos) << r.err;
  r = run(errdex_cmd() + " scan " + shell_quote(stdlib) + " --revs 'v*' -q --db " + shell_quote(db) + " --observed " +
          shell_quote(out));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("one tree"), std::string::npos) << r.err;
  r = run(errdex_cmd() + " scan " + shell_quote(stdlib) + " -q --db " + shell_quote(db) + " --observed /nonexistent.jsonl");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannot read observations file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace errdex
