// Whole tracebacks found in a stream of lines, as errdex run and explain
// read a program's output.
#include "match/stream_watch.h"

#include <gtest/gtest.h>

#include <sstream>

namespace errdex::match {
namespace {

// Feeds `text` line by line; the tracebacks handed back, in order.
std::vector<std::string> watch(const std::string& text) {
  StreamWatch w;
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (auto tb = w.feed(line)) out.push_back(*tb);
  if (auto tb = w.finish()) out.push_back(*tb);
  return out;
}

const char* k_tb =
    "Traceback (most recent call last):\n"
    "  File \"/x/pkg/mod.py\", line 3, in f\n"
    "    raise ValueError(f\"x must be positive, got {x}\")\n"
    "ValueError: x must be positive, got -1\n";

TEST(StreamWatch, ATracebackIsHandedBackWhenTheNextLineComesOrTheStreamEnds) {
  auto got = watch(std::string("starting\n") + k_tb + "done\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0] + "\n", k_tb);
  StreamWatch w;
  std::istringstream in(k_tb);
  for (std::string line; std::getline(in, line);) EXPECT_FALSE(w.feed(line)) << line;
  auto last = w.finish();
  ASSERT_TRUE(last);
  EXPECT_NE(last->find("ValueError: x must be positive"), std::string::npos);
  EXPECT_TRUE(watch("no error here\nat all\n").empty());
  // A traceback cut before its exception line is no whole traceback.
  EXPECT_TRUE(watch("Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n").empty());
}

TEST(StreamWatch, AChainIsOneErrorAndTwoErrorsAreTwo) {
  std::string chained = std::string(k_tb) + "\nDuring handling of the above exception, another exception occurred:\n\n" +
                        "Traceback (most recent call last):\n  File \"/x/pkg/mod.py\", line 9, in g\n" +
                        "    raise KeyError(k)\nKeyError: 'a'\n";
  auto got = watch(chained + "after\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NE(got[0].find("KeyError: 'a'"), std::string::npos);
  EXPECT_NE(got[0].find("ValueError: x must be positive"), std::string::npos);
  got = watch(std::string(k_tb) + "\n" + k_tb);
  EXPECT_EQ(got.size(), 2u);
  // Back to back, without a line between them.
  got = watch(std::string(k_tb) + k_tb);
  EXPECT_EQ(got.size(), 2u);
}

// A message over several lines (PyYAML's: where in the input, indented,
// then more text) is part of the traceback: the answer goes under all of
// it. A plain line right after a one-line message is not.
TEST(StreamWatch, AMessageOverSeveralLinesIsWhole) {
  const std::string yaml =
      "Traceback (most recent call last):\n"
      "  File \"/x/yaml/parser.py\", line 483, in parse_flow_sequence_entry\n"
      "    raise ParserError(\"while parsing a flow sequence\", self.marks[-1],\n"
      "yaml.parser.ParserError: while parsing a flow sequence\n"
      "  in \"<unicode string>\", line 1, column 4:\n"
      "    a: [1\n"
      "       ^\n"
      "expected ',' or ']', but got '<stream end>'\n"
      "  in \"<unicode string>\", line 1, column 6:\n"
      "    a: [1\n"
      "         ^\n";
  auto got = watch(yaml + "\nnext\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0] + "\n", yaml);
  got = watch(yaml);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0] + "\n", yaml);
  got = watch(yaml + k_tb);
  ASSERT_EQ(got.size(), 2u) << "a new traceback ends the message";
  EXPECT_EQ(got[0] + "\n", yaml);
  got = watch(std::string(k_tb) + "done\n  indented output\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0] + "\n", k_tb);
}

// Node's uncaught error (the throwing line above it, its own properties
// after the frames), console.error(err) with a cause, and a Python
// exception line alone: a stack only with its frames.
const char* k_node =
    "/app/node_modules/semver/classes/semver.js:323\n"
    "        throw new Error(`invalid increment argument: ${release}`)\n"
    "        ^\n"
    "\n"
    "Error: invalid increment argument: nope\n"
    "    at SemVer.inc (/app/node_modules/semver/classes/semver.js:323:15)\n"
    "    at [eval]:1:38\n"
    "    at node:internal/main/eval_string:51:3 {\n"
    "  code: 'ERR_X'\n"
    "}\n";

TEST(StreamWatch, NodeStacksAreWholeWithTheirHeaderAndProperties) {
  auto got = watch(std::string("starting\n") + k_node + "\nNode.js v20.20.2\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0] + "\n", k_node);
  got = watch(
      "TypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be of type string. Received undefined\n"
      "    at f (/app/x.js:2:9)\n"
      "  [cause]: RangeError: inner\n"
      "      at g (/app/x.js:5:3)\n"
      "done\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NE(got[0].find("[cause]: RangeError: inner"), std::string::npos);
  EXPECT_EQ(got[0].find("done"), std::string::npos);
  // No frames: a message only, not a stack; a traceback after it is still found.
  EXPECT_TRUE(watch("ValueError: bad input\nnext\n").empty());
  got = watch(std::string("ValueError: bad input\n") + k_tb);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].rfind("Traceback (most recent call last):", 0), 0u);
  // A stack, then a traceback.
  got = watch(std::string(k_node) + k_tb);
  EXPECT_EQ(got.size(), 2u);
}

TEST(StreamWatch, ColoursAndGroupsAndLogPrefixes) {
  auto got = watch(
      "\x1b[35mTraceback (most recent call last):\x1b[0m\n"
      "  File \x1b[35m\"/x/a.py\"\x1b[0m, line \x1b[35m3\x1b[0m, in \x1b[35mf\x1b[0m\n"
      "\x1b[1;35mValueError\x1b[0m: \x1b[35mbad\x1b[0m\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].find('\x1b'), std::string::npos);
  EXPECT_NE(got[0].find("ValueError: bad"), std::string::npos);
  got = watch(
      "  + Exception Group Traceback (most recent call last):\n"
      "  |   File \"/x/a.py\", line 1, in <module>\n"
      "  | ExceptionGroup: two (2 sub-exceptions)\n"
      "  +-+---------------- 1 ----------------\n"
      "    | ValueError: one\n"
      "    +------------------------------------\n"
      "next\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NE(got[0].find("ValueError: one"), std::string::npos);
  got = watch("2026-12-04 ERROR task failed\nTraceback (most recent call last):\n  File \"a.py\", line 1, in f\nOSError: x\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].rfind("Traceback", 0), 0u);
}

// `docker logs -t` and `kubectl logs --timestamps` put the time before every
// line: the traceback is read without it, through its chain, and ends at
// the next line of the log.
TEST(StreamWatch, ATimeBeforeEveryLineIsReadPast) {
  auto got = watch(
      "2026-12-07T20:41:03.000001Z starting\n"
      "2026-12-07T20:41:03.000002Z Traceback (most recent call last):\n"
      "2026-12-07T20:41:03.000003Z   File \"/x/pkg/mod.py\", line 3, in f\n"
      "2026-12-07T20:41:03.000004Z     raise KeyError(k)\n"
      "2026-12-07T20:41:03.000005Z KeyError: 'a'\n"
      "2026-12-07T20:41:03.000006Z \n"
      "2026-12-07T20:41:03.000007Z During handling of the above exception, another exception occurred:\n"
      "2026-12-07T20:41:03.000008Z \n"
      "2026-12-07T20:41:03.000009Z Traceback (most recent call last):\n"
      "2026-12-07T20:41:03.000010Z   File \"/x/app.py\", line 9, in main\n"
      "2026-12-07T20:41:03.000011Z     raise AppError('could not do it')\n"
      "2026-12-07T20:41:03.000012Z app.AppError: could not do it\n"
      "2026-12-07T20:41:04.000013Z next request\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].rfind("2026-12-07T20:41:03.000002Z Traceback", 0), 0u);
  EXPECT_NE(got[0].find("KeyError: 'a'"), std::string::npos);
  EXPECT_TRUE(got[0].ends_with("app.AppError: could not do it")) << got[0];
}

// pytest prints its own report, not Python's traceback: each failure,
// from its `___ name ___` line up to the next, the section's end or its
// captured output, is one error; `--tb=line` prints one a line; each
// `FAILED` line of the short summary is one too (the caller tells
// repeats), and what follows pytest is read as before.
TEST(StreamWatch, PytestsReportIsOneErrorPerFailure) {
  const std::string report =
      "============================= test session starts ==============================\n"
      "collected 3 items\n"
      "\n"
      "test_a.py FF.                                                            [100%]\n"
      "\n"
      "=================================== FAILURES ===================================\n"
      "___________________________________ test_ip ____________________________________\n"
      "\n"
      "    def test_ip():\n"
      ">       ipaddress.ip_address(\"999.1.1.1\")\n"
      "\n"
      "test_a.py:4: \n"
      "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
      "\n"
      ">       raise ValueError(f'{address!r} does not appear to be an IPv4 or IPv6 address')\n"
      "E       ValueError: '999.1.1.1' does not appear to be an IPv4 or IPv6 address\n"
      "\n"
      "/usr/lib/python3.11/ipaddress.py:54: ValueError\n"
      "----------------------------- Captured stdout call -----------------------------\n"
      "Traceback (most recent call last):\n"
      "  File \"x.py\", line 1, in f\n"
      "KeyError: 'printed by the test'\n"
      "__________________________________ test_frac ___________________________________\n"
      "test_a.py:7: in test_frac\n"
      "    fractions.Fraction(\"x/y\")\n"
      "/usr/lib/python3.11/fractions.py:115: in __new__\n"
      "    raise ValueError('Invalid literal for Fraction: %r' %\n"
      "E   ValueError: Invalid literal for Fraction: 'x/y'\n"
      "=========================== short test summary info ============================\n"
      "FAILED test_a.py::test_ip - ValueError: '999.1.1.1' does not appear to be ...\n"
      "FAILED test_a.py::test_frac[a - b] - ValueError: Invalid literal for Fraction: 'x/y'\n"
      "========================= 2 failed, 1 passed in 0.07s ==========================\n";
  auto got = watch(report + k_tb);
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0].rfind("___", 0), 0u);
  EXPECT_NE(got[0].find("E       ValueError: '999.1.1.1'"), std::string::npos);
  EXPECT_TRUE(got[0].ends_with("ipaddress.py:54: ValueError")) << got[0];
  EXPECT_EQ(got[0].find("printed by the test"), std::string::npos);
  EXPECT_TRUE(got[1].ends_with("E   ValueError: Invalid literal for Fraction: 'x/y'")) << got[1];
  EXPECT_EQ(pytest_summary_error(got[2]), "ValueError: '999.1.1.1' does not appear to be ...");
  EXPECT_EQ(pytest_summary_error(got[3]), "ValueError: Invalid literal for Fraction: 'x/y'");
  EXPECT_EQ(pytest_summary_error(got[0]), "");
  EXPECT_EQ(got[4] + "\n", k_tb);

  // `--tb=line`; `--tb=no` (the summary alone); the stream ending in it.
  got = watch(
      "=================================== FAILURES ===================================\n"
      "/usr/lib/python3.11/ipaddress.py:54: ValueError: '999.1.1.1' does not appear to be an IPv4 or IPv6 address\n"
      "/tmp/t/test_a.py:9: assert 1 == 2\n"
      "=========================== short test summary info ============================\n"
      "FAILED test_a.py::test_ip - ValueError: '999.1.1.1' does not appear to be ...\n");
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], "/usr/lib/python3.11/ipaddress.py:54: ValueError: '999.1.1.1' does not appear to be an IPv4 or IPv6 address");
  EXPECT_EQ(got[1], "/tmp/t/test_a.py:9: assert 1 == 2");
  EXPECT_FALSE(pytest_summary_error(got[2]).empty());
  // A summary cut short by the program stopping: the next line is read anew.
  got = watch(
      "=========================== short test summary info ============================\n"
      "ERROR test_b.py - ModuleNotFoundError: No module named 'nope'\n" +
      std::string(k_tb));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(pytest_summary_error(got[0]), "ModuleNotFoundError: No module named 'nope'");
  EXPECT_EQ(got[1] + "\n", k_tb);
}

}  // namespace
}  // namespace errdex::match
