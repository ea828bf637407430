// The traceback parser on the reports pytest prints: a failure in each
// `--tb` style, a whole report, a failed `assert`.
#include "match/traceback.h"

#include <gtest/gtest.h>

namespace errdex::match {
namespace {

const ExceptionBlock& last(const Traceback& t) { return t.exceptions.back(); }

TEST(Traceback, PytestOutput) {
  auto t = parse_traceback(
      "    def test_parse():\n"
      ">       parse('')\n"
      "\n"
      "tests/test_p.py:7: \n"
      "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
      "\n"
      "    def parse(s):\n"
      "        if not s:\n"
      ">           raise ValueError(f\"empty input: {s!r}\")\n"
      "E           ValueError: empty input: ''\n"
      "E             (while parsing)\n"
      "\n"
      "src/pkg/p.py:3: ValueError\n"
      "=========================== short test summary info ============================\n"
      "FAILED tests/test_p.py::test_parse - ValueError: empty input: ''\n");
  EXPECT_EQ(last(t).error_class, "ValueError");
  EXPECT_EQ(last(t).message, "empty input: ''\n  (while parsing)");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].file, "src/pkg/p.py");
  EXPECT_EQ(last(t).frames[1].line, 3);
}

// pytest --tb=line: one line per failure, its frame first.
TEST(Traceback, PytestLineFormatKeepsItsFrame) {
  const char* line = "/srv/app/config.py:11: json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)";
  LineException one;
  EXPECT_FALSE(parse_single_line(line, {}, one));
  auto t = parse_traceback(line);
  EXPECT_EQ(last(t).error_class, "json.decoder.JSONDecodeError");
  EXPECT_EQ(last(t).message, "Expecting value: line 1 column 1 (char 0)");
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].file, "/srv/app/config.py");
  EXPECT_EQ(last(t).frames[0].line, 11);
  // A log prefix with a blank before the path is no frame.
  EXPECT_TRUE(last(parse_traceback("2026-12-03 12:00 app.py:12: ValueError: bad")).frames.empty());
}

// A whole pytest report: several failures, the last explained with its own
// frames; warnings (which read like failures) and the summary left out; a
// message quoting a Python traceback does not turn the report into one.
TEST(Traceback, WholePytestReport) {
  auto t = parse_traceback(
      "============================= test session starts ==============================\n"
      "collected 2 items\n"
      "\n"
      "tests/test_a.py FF                                                        [100%]\n"
      "\n"
      "=================================== FAILURES ===================================\n"
      "___________________________________ test_one ___________________________________\n"
      "tests/test_a.py:3: in test_one\n"
      "    run()\n"
      "/srv/app/pool.py:40: in run\n"
      "    raise RuntimeError(remote)\n"
      "E   RuntimeError: worker failed:\n"
      "E   Traceback (most recent call last):\n"
      "E     File \"/srv/app/worker.py\", line 9, in work\n"
      "E   ValueError: bad\n"
      "___________________________________ test_two ___________________________________\n"
      "tests/test_a.py:6: in test_two\n"
      "    load()\n"
      "/srv/app/config.py:11: in load\n"
      "    raise KeyError('cfg')\n"
      "E   KeyError: 'cfg'\n"
      "=============================== warnings summary ===============================\n"
      "tests/test_a.py::test_two\n"
      "  /usr/lib/python3.11/wave.py:583: DeprecationWarning: old\n"
      "    warnings.warn(msg)\n"
      "=========================== short test summary info ============================\n"
      "FAILED tests/test_a.py::test_one - RuntimeError: worker failed:\n"
      "FAILED tests/test_a.py::test_two - KeyError: 'cfg'\n"
      "============================== 2 failed in 0.05s ===============================\n");
  EXPECT_EQ(last(t).error_class, "KeyError");
  EXPECT_EQ(last(t).message, "'cfg'");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].file, "/srv/app/config.py");
  EXPECT_EQ(last(t).frames[1].line, 11);

  // --tb=line: a failure per line, the last explained, whatever its class.
  auto is_error = [](std::string_view name) { return name == "error"; };
  auto l = parse_traceback(
      "/srv/app/a.py:3: ValueError: first\n"
      "/srv/app/b.py:7: re.error: second at position 4\n",
      is_error);
  EXPECT_EQ(last(l).error_class, "re.error");
  ASSERT_EQ(last(l).frames.size(), 1u);
  EXPECT_EQ(last(l).frames[0].file, "/srv/app/b.py");
}

// pytest prints a failed `assert` without its class (`E   assert 1 == 2`,
// pytest's rewriting strips `AssertionError: `); the failure's raising
// frame names it in the long style, and the exception is read as that
// class, so a site of another class whose message is `assert {x}` is not
// taken for it.
TEST(Traceback, PytestsFailedAssertTakesItsClassFromTheRaisingFrame) {
  auto t = parse_traceback(
      "___________________________________ test_sum ___________________________________\n"
      "\n"
      "    def test_sum():\n"
      ">       assert load('1') == 2\n"
      "E       assert 1 == 2\n"
      "E        +  where 1 = load('1')\n"
      "\n"
      "test_cfg.py:11: AssertionError\n");
  EXPECT_EQ(last(t).error_class, "AssertionError");
  EXPECT_EQ(last(t).message.substr(0, 13), "assert 1 == 2");
  // A class in the E lines stays the one read.
  t = parse_traceback("test_a.py:4: in test_a\n    f()\nE   ValueError: bad\nx.py:3: ValueError\n");
  EXPECT_EQ(last(t).error_class, "ValueError");
  // `--tb=short` prints no raising frame: a classless failure is a failed `assert`.
  t = parse_traceback("test_b.py:9: in test_b\n    assert f()\nE   assert None\n");
  EXPECT_EQ(last(t).error_class, "AssertionError");
}

}  // namespace
}  // namespace errdex::match
