// The traceback parser on the layouts Python and pytest print.
#include "match/traceback.h"

#include <gtest/gtest.h>

namespace errdex::match {
namespace {

const ExceptionBlock& last(const Traceback& t) { return t.exceptions.back(); }

TEST(Traceback, PlainTracebackWithCaretLines) {
  auto t = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"/app/main.py\", line 10, in <module>\n"
      "    run()\n"
      "    ^^^^^\n"
      "  File \"/usr/lib/python3.11/json/decoder.py\", line 355, in raw_decode\n"
      "    raise JSONDecodeError(\"Expecting value\", s, err.value) from None\n"
      "    ~~~~~~~~~~~~~~~~~~~~~^^^^^^^^\n"
      "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n");
  ASSERT_EQ(t.exceptions.size(), 1u);
  EXPECT_EQ(last(t).error_class, "json.decoder.JSONDecodeError");
  EXPECT_EQ(last(t).message, "Expecting value: line 1 column 1 (char 0)");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].file, "/usr/lib/python3.11/json/decoder.py");
  EXPECT_EQ(last(t).frames[1].line, 355);
  EXPECT_EQ(last(t).frames[1].function, "raw_decode");
}

TEST(Traceback, ChainedExceptionsExplainTheLast) {
  auto t = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"a.py\", line 2, in f\n"
      "    d['x']\n"
      "KeyError: 'x'\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"a.py\", line 4, in f\n"
      "    raise ValueError('bad') from e\n"
      "ValueError: bad\n"
      "\n"
      "The above exception was the direct cause of the following exception:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"b.py\", line 9, in g\n"
      "    raise RuntimeError(\"wrapped\")\n"
      "RuntimeError: wrapped\n");
  ASSERT_EQ(t.exceptions.size(), 3u);
  EXPECT_EQ(t.exceptions[0].error_class, "KeyError");
  EXPECT_EQ(t.exceptions[0].message, "'x'");
  EXPECT_EQ(t.exceptions[1].error_class, "ValueError");
  EXPECT_EQ(last(t).error_class, "RuntimeError");
  EXPECT_EQ(last(t).message, "wrapped");
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].file, "b.py");
}

// A process pool's error: the worker's traceback (itself a chain here) is
// the message of the exception the pool chains to its copy, between lines
// of triple quotes; the copy's last frame raises the object handed over.
// pip's build-backend error carries the backend process's traceback as
// its message, starting on the exception's own line: the exception to
// explain is pip's, raised where its frames end, and the other process's
// frames and exception are its message. A log's prefix before a header is
// still a header.
TEST(Traceback, AMessageThatIsAnotherProcesssTraceback) {
  auto t = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"/srv/app.py\", line 3, in <module>\n"
      "    hooks.get_requires_for_build_wheel()\n"
      "  File \"/usr/lib/python3/dist-packages/pip/_vendor/pyproject_hooks/_impl.py\", line 321, in _call_hook\n"
      "    raise BackendUnavailable(data.get('traceback', ''))\n"
      "pip._vendor.pyproject_hooks._impl.BackendUnavailable: Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3/dist-packages/pip/_vendor/pyproject_hooks/_in_process/_in_process.py\", line 77, in "
      "_build_backend\n"
      "    obj = import_module(mod_path)\n"
      "  File \"<frozen importlib._bootstrap>\", line 1140, in _find_and_load_unlocked\n"
      "ModuleNotFoundError: No module named 'bogus_backend'\n"
      "\n");
  ASSERT_EQ(t.exceptions.size(), 1u);
  EXPECT_EQ(last(t).error_class, "pip._vendor.pyproject_hooks._impl.BackendUnavailable");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].line, 321);
  EXPECT_TRUE(last(t).message.starts_with("Traceback (most recent call last):\n  File ")) << last(t).message;
  EXPECT_TRUE(last(t).message.ends_with("ModuleNotFoundError: No module named 'bogus_backend'")) << last(t).message;
  auto logged = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"a.py\", line 2, in f\n"
      "ValueError: first\n"
      "ERROR: Traceback (most recent call last):\n"
      "  File \"b.py\", line 5, in g\n"
      "KeyError: 'second'\n");
  EXPECT_EQ(last(logged).error_class, "KeyError");
  ASSERT_EQ(last(logged).frames.size(), 1u);
  EXPECT_EQ(last(logged).frames[0].file, "b.py");
}

TEST(Traceback, WorkerTracebackBetweenQuotes) {
  auto t = parse_traceback(
      "concurrent.futures.process._RemoteTraceback: \n"
      "\"\"\"\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3.11/ipaddress.py\", line 1, in f\n"
      "    return int(s)\n"
      "KeyError: 'x'\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3.11/concurrent/futures/process.py\", line 256, in _process_worker\n"
      "    r = call_item.fn(*call_item.args, **call_item.kwargs)\n"
      "        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
      "  File \"/usr/lib/python3.11/ipaddress.py\", line 3, in g\n"
      "    raise ValueError(msg) from None\n"
      "ValueError: Address negative\n"
      "\"\"\"\n"
      "\n"
      "The above exception was the direct cause of the following exception:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/srv/app.py\", line 6, in <module>\n"
      "    ex.submit(work, \"x\").result()\n"
      "  File \"/usr/lib/python3.11/concurrent/futures/_base.py\", line 401, in __get_result\n"
      "    raise self._exception\n"
      "ValueError: Address negative\n");
  ASSERT_EQ(t.exceptions.size(), 3u);
  EXPECT_EQ(t.exceptions[0].message, "'x'");
  EXPECT_EQ(t.exceptions[1].error_class, "ValueError");
  EXPECT_EQ(t.exceptions[1].message, "Address negative");  // the closing quotes are no part of it
  ASSERT_EQ(t.exceptions[1].frames.size(), 2u);
  EXPECT_FALSE(t.exceptions[1].frames[1].reraise);  // `raise ValueError(msg) from None` makes one
  EXPECT_EQ(last(t).message, "Address negative");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_FALSE(last(t).frames[0].reraise);
  EXPECT_TRUE(last(t).frames[1].reraise);
  // Outside such quotes a line of `"""` is the message's.
  auto q = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"a.py\", line 2, in f\n"
      "ValueError: bad docstring\n"
      "\"\"\"\n"
      "end\n");
  EXPECT_EQ(last(q).message, "bad docstring\n\"\"\"\nend");
}

// Which source lines raise an object made elsewhere.
TEST(Traceback, ReraiseOfAnObjectIsToldFromANewException) {
  auto reraise = [](std::string source) {
    auto t = parse_traceback("Traceback (most recent call last):\n  File \"a.py\", line 2, in f\n    " + source +
                             "\nValueError: x\n");
    return !last(t).frames.empty() && last(t).frames.back().reraise;
  };
  EXPECT_TRUE(reraise("raise exc"));
  EXPECT_TRUE(reraise("raise self._value"));
  EXPECT_TRUE(reraise("raise errors[0]"));
  EXPECT_TRUE(reraise("raise exc from None"));
  EXPECT_TRUE(reraise("raise _err  # hand it on"));
  EXPECT_TRUE(reraise("raise value.with_traceback(tb)"));
  EXPECT_FALSE(reraise("raise ValueError"));
  EXPECT_FALSE(reraise("raise ValueError('x')"));
  EXPECT_FALSE(reraise("raise make_error(x)"));
  EXPECT_FALSE(reraise("raise"));
  EXPECT_FALSE(reraise("raised = exc"));
  EXPECT_FALSE(reraise("return exc"));
  // Only the frame's own line: a source line further down is not read.
  auto t = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"a.py\", line 2, in f\n"
      "ValueError: x\n");
  EXPECT_FALSE(last(t).frames.back().reraise);
}

TEST(Traceback, MultiLineMessageAndNoMessage) {
  auto t = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"c.py\", line 1, in <module>\n"
      "configparser.MissingSectionHeaderError: File contains no section headers.\n"
      "file: '<string>', line: 1\n"
      "'x'\n");
  EXPECT_EQ(last(t).error_class, "configparser.MissingSectionHeaderError");
  EXPECT_EQ(last(t).message, "File contains no section headers.\nfile: '<string>', line: 1\n'x'");

  auto bare = parse_traceback("Traceback (most recent call last):\n  File \"q.py\", line 3, in get\nqueue.Empty\n");
  EXPECT_EQ(last(bare).error_class, "queue.Empty");
  EXPECT_EQ(last(bare).message, "");
}

// Without a traceback, a line naming a conventional class starts another
// exception (a list of errors), unless it stands in parentheses or the
// message so far ends in `:`, which introduces it (SympifyError's "failed, because of exception being
// raised:" and the exception it quotes).
TEST(Traceback, AMessageGoesOnAtAQuotedClassLine) {
  auto quoted = parse_traceback(
      "sympy.core.sympify.SympifyError: Sympify of expression 'x' failed, because of exception being raised:\n"
      "SyntaxError: invalid syntax (<string>, line 1)\n");
  ASSERT_EQ(quoted.exceptions.size(), 1u);
  EXPECT_EQ(last(quoted).error_class, "sympy.core.sympify.SympifyError");
  EXPECT_EQ(last(quoted).message,
            "Sympify of expression 'x' failed, because of exception being raised:\nSyntaxError: invalid syntax (<string>, line 1)");
  // Nor does a class in parentheses.
  auto inside = parse_traceback(
      "docutils.io.InputError: Unable to decode input data.  Tried the following encodings: 'ascii'.\n"
      "(UnicodeDecodeError: 'ascii' codec can't decode byte 0xff in position 0: ordinal not in range(128))\n");
  ASSERT_EQ(inside.exceptions.size(), 1u);
  EXPECT_EQ(last(inside).error_class, "docutils.io.InputError");
  auto listed = parse_traceback("ValueError: bad value 3\nKeyError: 'x'\n");
  ASSERT_EQ(listed.exceptions.size(), 2u);
  EXPECT_EQ(last(listed).error_class, "KeyError");
}

// A message may hold a blank line: distutils' `raise SystemExit(usage +
// "\nerror: %s" % msg)` prints a usage text, a blank line, then `error:
// invalid command 'x'`. That last line, a bare lower-case word before `:`,
// is the same message going on (even where `error` is a known class, as
// imaplib's is), with its frames; a dotted or capitalised class after a
// blank line still starts another exception.
TEST(Traceback, AMessageGoesOnAfterABlankLineAtALowerCaseWord) {
  auto known = [](std::string_view c) { return c == "error"; };
  const std::string usage =
      "SystemExit: usage: setup.py [global_opts] cmd1 [cmd1_opts] [cmd2 [cmd2_opts] ...]\n"
      "   or: setup.py --help [cmd1 cmd2 ...]\n"
      "\n"
      "error: invalid command 'nosuchcommand'\n";
  auto t = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"/site-packages/setuptools/_distutils/core.py\", line 174, in setup\n"
      "    raise SystemExit(gen_usage(dist.script_name) + \"\\nerror: %s\" % msg)\n" + usage,
      known);
  ASSERT_EQ(t.exceptions.size(), 1u);
  EXPECT_EQ(last(t).error_class, "SystemExit");
  EXPECT_EQ(last(t).message,
            "usage: setup.py [global_opts] cmd1 [cmd1_opts] [cmd2 [cmd2_opts] ...]\n"
            "   or: setup.py --help [cmd1 cmd2 ...]\n\nerror: invalid command 'nosuchcommand'");
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].line, 174);
  auto alone = parse_traceback(usage, known);
  ASSERT_EQ(alone.exceptions.size(), 1u);
  EXPECT_EQ(last(alone).error_class, "SystemExit");
  auto listed = parse_traceback("ValueError: bad value 3\n\nre.error: missing )\n\nKeyError: 'x'\n", known);
  ASSERT_EQ(listed.exceptions.size(), 3u);
  EXPECT_EQ(listed.exceptions[1].error_class, "re.error");
  EXPECT_EQ(last(listed).error_class, "KeyError");
}

// A message with blank lines that quotes another exception after a line
// introducing it (werkzeug's ImportStringError: `Original exception:`, a
// blank line, `ImportError: ...`) is the framed exception's, not a later
// exception without frames; a chain separator still starts another.
TEST(Traceback, AnExceptionQuotedInAMessageAfterAnIntroductionIsNoOther) {
  const std::string framed =
      "Traceback (most recent call last):\n"
      "  File \"/site-packages/werkzeug/utils.py\", line 605, in import_string\n"
      "    raise ImportStringError(import_name, e).with_traceback(\n"
      "werkzeug.utils.ImportStringError: import_string() failed for 'os.x'. Possible reasons are:\n"
      "\n"
      "- missing __init__.py in a package;\n"
      "\n"
      "Original exception:\n"
      "\n"
      "ImportError: module 'os' has no attribute 'x'\n";
  auto t = parse_traceback(framed);
  ASSERT_EQ(t.exceptions.size(), 1u);
  EXPECT_EQ(last(t).error_class, "werkzeug.utils.ImportStringError");
  EXPECT_EQ(last(t).frames.size(), 1u);
  auto chained = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"a.py\", line 2, in f\n"
      "    d['x']\n"
      "ValueError: bad value:\n"
      "\n"
      "The above exception was the direct cause of the following exception:\n"
      "\n"
      "KeyError: 'x'\n");
  EXPECT_EQ(last(chained).error_class, "KeyError");
}

TEST(Traceback, SyntaxErrorLayout) {
  auto t = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"/x/run.py\", line 5, in <module>\n"
      "    compile(src, 'm.py', 'exec')\n"
      "  File \"m.py\", line 3\n"
      "    def f(:\n"
      "          ^\n"
      "SyntaxError: invalid syntax\n");
  EXPECT_EQ(last(t).error_class, "SyntaxError");
  EXPECT_EQ(last(t).message, "invalid syntax");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].file, "m.py");
  EXPECT_EQ(last(t).frames[1].line, 3);
  EXPECT_EQ(last(t).frames[1].function, "");
}

TEST(Traceback, ExceptionGroup) {
  auto t = parse_traceback(
      "  + Exception Group Traceback (most recent call last):\n"
      "  |   File \"/app/m.py\", line 12, in <module>\n"
      "  |     asyncio.run(main())\n"
      "  | ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)\n"
      "  +-+---------------- 1 ----------------\n"
      "    | Traceback (most recent call last):\n"
      "    |   File \"/app/m.py\", line 4, in bad\n"
      "    |     raise ValueError('x')\n"
      "    | ValueError: x\n"
      "    +---------------- 2 ----------------\n"
      "    | TypeError: y\n"
      "    +------------------------------------\n");
  ASSERT_EQ(t.exceptions.size(), 3u);
  EXPECT_EQ(t.exceptions[0].error_class, "ExceptionGroup");
  EXPECT_EQ(t.exceptions[1].error_class, "ValueError");
  ASSERT_EQ(t.exceptions[1].frames.size(), 1u);
  EXPECT_EQ(t.exceptions[1].frames[0].line, 4);
  EXPECT_EQ(last(t).error_class, "TypeError");
  EXPECT_EQ(last(t).message, "y");
}

TEST(Traceback, LogPrefixes) {
  auto t = parse_traceback(
      "2024-05-01 10:00:00,123 ERROR [worker] Unhandled error\n"
      "2024-05-01 10:00:00,123 ERROR [worker] Traceback (most recent call last):\n"
      "2024-05-01 10:00:00,123 ERROR [worker]   File \"/srv/app/x.py\", line 8, in handle\n"
      "2024-05-01 10:00:00,123 ERROR [worker]     raise KeyError(k)\n"
      "2024-05-01 10:00:00,123 ERROR [worker] KeyError: 'user'\n");
  EXPECT_EQ(last(t).error_class, "KeyError");
  EXPECT_EQ(last(t).message, "'user'");
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].line, 8);

  auto one = parse_traceback("Mar 03 12:00:01 host app[42]: ERROR app: ValueError: bad value 7");
  EXPECT_EQ(last(one).error_class, "ValueError");
  EXPECT_EQ(last(one).message, "bad value 7");
}

TEST(Traceback, TextWithoutAnExceptionIsTheMessage) {
  auto t = parse_traceback("  Expecting value: line 1 column 1 (char 0)\n");
  EXPECT_EQ(last(t).error_class, "");
  EXPECT_EQ(last(t).message, "Expecting value: line 1 column 1 (char 0)");
  auto empty = parse_traceback("");
  ASSERT_EQ(empty.exceptions.size(), 1u);
  EXPECT_EQ(last(empty).message, "");
}

// One pasted line is read without the line loop; a blank line after it
// sends the same text through the loop, which must read it alike.
TEST(Traceback, OneLineReadsAsTheLoopReadsIt) {
  auto known = [](std::string_view c) { return c == "error"; };
  for (std::string_view line :
       {"ValueError: bad value 7", "  KeyError: 'x'  \r", "re.error: bad escape", "error: not a class here",
        "Mar 03 12:00:01 host app[42]: ERROR app: ValueError: bad value 7", "just some text", "", "\r",
        "E   ValueError: pytest line", "E\tValueError: pytest line", "Traceback (most recent call last):",
        "During handling of the above exception, another exception occurred: ValueError: x",
        "  | Exception Group Traceback ValueError: x", "x.py:3: ValueError: in a pytest frame line"}) {
    for (std::string_view end : {"", "\n", "\r\n"}) {
      std::string text = std::string(line) + std::string(end);
      auto one = parse_traceback(text, known);
      auto looped = parse_traceback(text + "\n\n", known);
      ASSERT_EQ(one.exceptions.size(), looped.exceptions.size()) << text;
      for (std::size_t i = 0; i < one.exceptions.size(); ++i) {
        EXPECT_EQ(one.exceptions[i].error_class, looped.exceptions[i].error_class) << text;
        EXPECT_EQ(one.exceptions[i].message, looped.exceptions[i].message) << text;
        EXPECT_EQ(one.exceptions[i].frames.size(), looped.exceptions[i].frames.size()) << text;
      }
    }
  }
}

// The one-line reader finds its newline and the markers 16 bytes at a
// time: each marker and a newline at every offset (across the groups'
// edges, and at the very end) must still send the text to the loop.
TEST(Traceback, OneLineSeesMarkersAndNewlinesAtEveryOffset) {
  LineException out;
  for (std::string_view marker : {"Traceback (most recent call last):",
                                  "During handling of the above exception, another exception occurred:",
                                  "The above exception was the direct cause of the following exception:",
                                  "Exception Group Traceback"})
    for (std::size_t offset = 0; offset < 40; ++offset)
      for (std::size_t after = 0; after < 3; ++after) {
        std::string text = std::string(offset, 'a') + std::string(marker) + std::string(after, 'b');
        EXPECT_FALSE(parse_single_line(text, {}, out)) << text;
      }
  for (std::size_t offset = 0; offset < 40; ++offset) {
    std::string two = "ValueError: " + std::string(offset, 'v') + "\nsecond line";
    EXPECT_FALSE(parse_single_line(two, {}, out)) << two;
    std::string one = "ValueError: " + std::string(offset, 'v') + "\n";
    ASSERT_TRUE(parse_single_line(one, {}, out)) << one;
    EXPECT_EQ(out.error_class, "ValueError");
    EXPECT_EQ(out.message, std::string(offset, 'v'));
    // Near-misses of the markers ("Tr", "xc") leave it a single line.
    std::string near = std::string(offset, 'a') + " Trace xcept Traceback (most recent call) ValueError: no";
    EXPECT_TRUE(parse_single_line(near, {}, out)) << near;
  }
  ASSERT_TRUE(parse_single_line("pkg.mod.CustomError: x", {}, out));
  EXPECT_EQ(out.last_class, "CustomError");
}

// Node's util.inspect writes an error's code after its name; one such line
// pasted alone is the class and the message, as in a stack.
TEST(Traceback, ASingleNodeLineWithACode) {
  LineException out;
  ASSERT_TRUE(parse_single_line("FastifyError [FST_ERR_OPTIONS_NOT_OBJ]: Options must be an object\n", {}, out));
  EXPECT_EQ(out.error_class, "FastifyError");
  EXPECT_EQ(out.message, "Options must be an object");
  ASSERT_TRUE(parse_single_line("TypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be of type string", {}, out));
  EXPECT_EQ(out.last_class, "TypeError");
  EXPECT_EQ(out.message, "The \"path\" argument must be of type string");
  // Not a code: a lower-case word in brackets, or no error class.
  ASSERT_TRUE(parse_single_line("ValueError [see docs]: x", {}, out));
  EXPECT_NE(out.message, "x");
  ASSERT_TRUE(parse_single_line("Note [ERR_X]: x", {}, out));
  EXPECT_EQ(out.error_class, "");
}

TEST(Traceback, KnownClassWithoutConventionalName) {
  auto t = parse_traceback("re.error: missing ), unterminated subpattern at position 0",
                           [](std::string_view c) { return c == "error"; });
  EXPECT_EQ(last(t).error_class, "re.error");
  EXPECT_EQ(last(t).message, "missing ), unterminated subpattern at position 0");
}

// Outside input of any size and content: bounded work, a clear result.
TEST(Traceback, HugeAndBinaryInputs) {
  std::string big(10u << 20, 'a');
  big += "\nValueError: at the end\n";
  auto t = parse_traceback(big);
  EXPECT_EQ(last(t).error_class, "ValueError");
  EXPECT_EQ(last(t).message, "at the end");
  // Beyond k_max_input only the end is read, and the result says so.
  std::string huge(k_max_input + (1u << 20), '\n');
  huge += "KeyError: 'k'\n";
  auto h = parse_traceback(huge);
  EXPECT_TRUE(h.truncated);
  EXPECT_EQ(last(h).error_class, "KeyError");

  std::string binary;
  for (unsigned i = 0; i < (1u << 20); ++i) binary += static_cast<char>((i * 7919u) & 0xffu);
  auto b = parse_traceback(binary);
  EXPECT_FALSE(b.exceptions.empty());

  std::string frames = "Traceback (most recent call last):\n";
  for (int i = 0; i < 100000; ++i) frames += "  File \"/a/b.py\", line " + std::to_string(i + 1) + ", in f\n    f()\n";
  frames += "RecursionError: maximum recursion depth exceeded\n";
  auto f = parse_traceback(frames);
  EXPECT_EQ(last(f).frames.size(), 100000u);
  EXPECT_EQ(last(f).error_class, "RecursionError");

  std::string lines = "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nValueError: first\n";
  for (int i = 0; i < 100000; ++i) lines += "more line " + std::to_string(i) + "\n";
  auto l = parse_traceback(lines);
  EXPECT_EQ(last(l).error_class, "ValueError");
  EXPECT_EQ(std::count(last(l).message.begin(), last(l).message.end(), '\n'), 100000);

  // 50,000 frames with no header that no exception ends, each its own
  // block until all are let go in one pass, between 50,000 exceptions.
  std::string stray;
  for (int i = 0; i < 50000; ++i) stray += "  File \"a.py\", line 1, in f\nnot an exception\n\nKeyError: 'k'\n\n";
  auto s = parse_traceback(stray);
  ASSERT_EQ(s.exceptions.size(), 50000u);
  EXPECT_TRUE(s.exceptions.front().frames.empty());
  EXPECT_EQ(last(s).error_class, "KeyError");
}

}  // namespace
}  // namespace errdex::match

namespace errdex::match {
namespace {

// Found by traceback_fuzz: a 40-digit line number overflowed into a
// negative line.
TEST(Traceback, RegressionLineNumberTooLongIsUnknown) {
  auto t = parse_traceback("Traceback (most recent call last):\n  File \"a.py\", line 3550000000000000000000000000000000, in f\n"
                           "ValueError: x\n");
  ASSERT_EQ(t.exceptions.back().frames.size(), 1u);
  EXPECT_EQ(t.exceptions.back().frames[0].line, 0);
}

// Found by traceback_fuzz: a repr's string argument ending in a blank gave
// an untrimmed message.
TEST(Traceback, RegressionReprMessageIsTrimmed) {
  auto t = parse_traceback(std::string_view("act eError('iin ')\x1e'"));
  EXPECT_EQ(t.exceptions.back().error_class, "eError");
  EXPECT_EQ(t.exceptions.back().message, "iin");
}

}  // namespace
}  // namespace errdex::match

namespace errdex::match {
namespace {

// IPython 8.5's layout (Debian's ipython3, and Jupyter's kernel): a rule,
// the class beside the header words, `File path:N, in f(args)` frames with a
// numbered excerpt, the marked line `--> N`.
TEST(Traceback, IPythonTraceback) {
  auto t = parse_traceback(
      "---------------------------------------------------------------------------\n"
      "JSONDecodeError                           Traceback (most recent call last)\n"
      "Cell In [1], line 1\n"
      "----> 1 import json; json.loads('')\n"
      "\n"
      "File /usr/lib/python3.11/json/__init__.py:346, in loads(s, cls, object_hook, **kw)\n"
      "    343 if (cls is None and object_hook is None and\n"
      "--> 346     return _default_decoder.decode(s)\n"
      "\n"
      "File ~/.venv/lib/python3.11/subprocess.py:1901, in Popen._execute_child(self, args)\n"
      "   (...)\n"
      "   1899     if errno_num != 0:\n"
      "   1900         err_msg = os.strerror(errno_num)\n"
      "-> 1901     raise child_exception_type(errno_num, err_msg, err_filename)\n"
      "\n"
      "File ~/.venv/lib/python3.11/json/decoder.py:355, in JSONDecoder.raw_decode(self, s, idx)\n"
      "    354 except StopIteration as err:\n"
      "--> 355     raise JSONDecodeError(\"Expecting value\", s, err.value) from None\n"
      "\n"
      "JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n");
  ASSERT_EQ(t.exceptions.size(), 1u);
  EXPECT_EQ(last(t).error_class, "JSONDecodeError");
  EXPECT_EQ(last(t).message, "Expecting value: line 1 column 1 (char 0)");
  ASSERT_EQ(last(t).frames.size(), 4u);
  EXPECT_EQ(last(t).frames[0].file, "Cell In [1]");
  EXPECT_EQ(last(t).frames[0].line, 1);
  EXPECT_EQ(last(t).frames[1].file, "/usr/lib/python3.11/json/__init__.py");
  EXPECT_EQ(last(t).frames[1].line, 346);
  EXPECT_EQ(last(t).frames[1].function, "loads");
  EXPECT_EQ(last(t).frames[2].line, 1901);  // past line 999 the excerpt is indented less
  EXPECT_EQ(last(t).frames[3].file, "~/.venv/lib/python3.11/json/decoder.py");
  EXPECT_EQ(last(t).frames[3].line, 355);
  EXPECT_EQ(last(t).frames[3].function, "JSONDecoder.raw_decode");
}

// Chained, a Windows path, IPython 8.0's `Input In [2], in <cell line: 3>()`
// cell and hidden frames.
TEST(Traceback, IPythonChainedWithWindowsPath) {
  auto t = parse_traceback(
      "---------------------------------------------------------------------------\n"
      "KeyError                                  Traceback (most recent call last)\n"
      "Input In [2], in <cell line: 3>()\n"
      "      2 try:\n"
      "----> 3     d['x']\n"
      "\n"
      "KeyError: 'x'\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "ValueError                                Traceback (most recent call last)\n"
      "    [... skipping hidden 1 frame]\n"
      "\n"
      "File C:\\Users\\me\\app\\config.py:12, in load(path)\n"
      "---> 12 raise ValueError(f\"bad config: {path}\")\n"
      "\n"
      "ValueError: bad config: a.toml\n");
  ASSERT_EQ(t.exceptions.size(), 2u);
  EXPECT_EQ(t.exceptions[0].error_class, "KeyError");
  ASSERT_EQ(t.exceptions[0].frames.size(), 1u);
  EXPECT_EQ(t.exceptions[0].frames[0].file, "Input In [2]");
  EXPECT_EQ(t.exceptions[0].frames[0].line, 3);
  EXPECT_EQ(last(t).error_class, "ValueError");
  EXPECT_EQ(last(t).message, "bad config: a.toml");
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].file, "C:\\Users\\me\\app\\config.py");
  EXPECT_EQ(last(t).frames[0].line, 12);
  EXPECT_EQ(last(t).frames[0].function, "load");
}

// IPython 7 names a frame `path in f(args)`; its line is the one the
// excerpt marks.
TEST(Traceback, IPython7FramesTakeTheMarkedLine) {
  auto t = parse_traceback(
      "---------------------------------------------------------------------------\n"
      "JSONDecodeError                           Traceback (most recent call last)\n"
      "<ipython-input-1-5b1a4b5c2d3e> in <module>\n"
      "----> 1 json.loads('')\n"
      "\n"
      "/usr/lib/python3.8/json/__init__.py in loads(s, cls, object_hook, **kw)\n"
      "    355             parse_constant is None and object_pairs_hook is None and not kw):\n"
      "--> 357         return _default_decoder.decode(s)\n"
      "    358     if cls is None:\n"
      "\n"
      "/usr/lib/python3.8/json/decoder.py in raw_decode(self, s, idx)\n"
      "    354         except StopIteration as err:\n"
      "--> 355             raise JSONDecodeError(\"Expecting value\", s, err.value) from None\n"
      "\n"
      "JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n");
  EXPECT_EQ(last(t).error_class, "JSONDecodeError");
  ASSERT_EQ(last(t).frames.size(), 3u);
  EXPECT_EQ(last(t).frames[0].file, "<ipython-input-1-5b1a4b5c2d3e>");
  EXPECT_EQ(last(t).frames[0].line, 1);
  EXPECT_EQ(last(t).frames[1].line, 357);
  EXPECT_EQ(last(t).frames[2].file, "/usr/lib/python3.8/json/decoder.py");
  EXPECT_EQ(last(t).frames[2].line, 355);
  EXPECT_EQ(last(t).frames[2].function, "raw_decode");
}

// IPython's SyntaxError layout: Python's header over its own frames, one
// of them `File path:N in f` with no comma, the last `File name:N` alone.
TEST(Traceback, IPythonSyntaxErrorLayout) {
  auto t = parse_traceback(
      "Traceback (most recent call last):\n"
      "\n"
      "  File ~/.venv/lib/python3.11/site-packages/IPython/core/interactiveshell.py:3433 in run_code\n"
      "    exec(code_obj, self.user_global_ns, self.user_ns)\n"
      "\n"
      "  Cell In[1], line 1\n"
      "    compile('def f(:', 'x.py', 'exec')\n"
      "\n"
      "  File x.py:1\n"
      "    def f(:\n"
      "          ^\n"
      "SyntaxError: invalid syntax\n");
  EXPECT_EQ(last(t).error_class, "SyntaxError");
  EXPECT_EQ(last(t).message, "invalid syntax");
  ASSERT_EQ(last(t).frames.size(), 3u);
  EXPECT_EQ(last(t).frames[0].line, 3433);
  EXPECT_EQ(last(t).frames[0].function, "run_code");
  EXPECT_EQ(last(t).frames[1].file, "Cell In[1]");
  EXPECT_EQ(last(t).frames[2].file, "x.py");
  EXPECT_EQ(last(t).frames[2].line, 1);
}

// Colours and window titles (IPython, pytest --color=yes, Python 3.13)
// read as the text they paint: every kind of sequence, whole or cut short.
TEST(Traceback, TerminalControlSequencesAreReadThrough) {
  const std::string plain =
      "Traceback (most recent call last):\n"
      "  File \"/app/main.py\", line 10, in <module>\n"
      "    run()\n"
      "ValueError: bad value: 3\n";
  auto expected = parse_traceback(plain);
  const std::string coloured =
      "\x1b]0;IPython: /tmp\x07\x1b[22;0t"  // a title (OSC ended by BEL), a window op
      "Traceback (most recent call last):\n"
      "  File \x1b[35m\"/app/main.py\"\x1b[0m, line \x1b[38;5;241m10\x1b[39m, in \x1b[1m<module>\x1b[m\n"
      "    run()\x1b]8;;http://x\x1b\\\n"  // a hyperlink (OSC ended by ST)
      "\x1b(B\x1b[1;35mValueError\x1b[0m: \x1b[35mbad value: 3\x1b[0m\n";
  auto t = parse_traceback(coloured);
  ASSERT_EQ(t.exceptions.size(), 1u);
  EXPECT_EQ(last(t).error_class, last(expected).error_class);
  EXPECT_EQ(last(t).message, last(expected).message);
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].file, "/app/main.py");
  EXPECT_EQ(last(t).frames[0].line, 10);
  EXPECT_EQ(last(t).frames[0].function, "<module>");

  // One line: the single-line reader leaves it to parse_traceback.
  LineException one;
  EXPECT_FALSE(parse_single_line("\x1b[31mKeyError\x1b[0m: 'x'", {}, one));
  auto k = parse_traceback("\x1b[31mKeyError\x1b[0m: 'x'");
  EXPECT_EQ(last(k).error_class, "KeyError");
  EXPECT_EQ(last(k).message, "'x'");

  // A title never ended loses the rest of its line only; a lone ESC at the
  // end, nothing.
  auto cut = parse_traceback("\x1b]0;title without end\nValueError: kept\x1b");
  EXPECT_EQ(last(cut).error_class, "ValueError");
  EXPECT_EQ(last(cut).message, "kept");
}

}  // namespace
}  // namespace errdex::match

namespace errdex::match {
namespace {

// Exceptions as logs print them, by repr(): the class and what str() would
// show, escapes read back.
TEST(Traceback, ReprInALogLine) {
  auto t = parse_traceback(
      "[2026-12-03 12:00:00,000: ERROR/MainProcess] Task app.parse raised unexpected: "
      "JSONDecodeError('Expecting value: line 1 column 1 (char 0)')");
  EXPECT_EQ(last(t).error_class, "JSONDecodeError");
  EXPECT_EQ(last(t).message, "Expecting value: line 1 column 1 (char 0)");
  LineException one;
  ASSERT_TRUE(parse_single_line("raised unexpected: ValueError(\"bad 'x'\") in 0.1s", {}, one));
  EXPECT_EQ(one.error_class, "ValueError");
  EXPECT_EQ(one.message, "bad 'x'");

  // asyncio, after '='; KeyError's str() is the key's repr, quotes kept.
  auto k = parse_traceback("future: <Task finished name='Task-1' coro=<main() done> exception=KeyError('user')>");
  EXPECT_EQ(last(k).error_class, "KeyError");
  EXPECT_EQ(last(k).message, "'user'");

  // Escapes: the single-line reader hands the line over, the message is
  // the text they stand for.
  const char* escaped = "got ValueError('it\\'s \\xe9\\u20ac\\n\\\\ \\q')";
  EXPECT_FALSE(parse_single_line(escaped, {}, one));
  auto e = parse_traceback(escaped);
  EXPECT_EQ(last(e).error_class, "ValueError");
  EXPECT_EQ(last(e).message, "it's \xc3\xa9\xe2\x82\xac\n\\ \\q");

  // No argument; arguments that are not one string, as written.
  EXPECT_EQ(last(parse_traceback("failed: StopIteration()")).error_class, "StopIteration");
  EXPECT_EQ(last(parse_traceback("failed: StopIteration()")).message, "");
  auto os = parse_traceback("failed: FileNotFoundError(2, 'No such file (or directory)')");
  EXPECT_EQ(last(os).error_class, "FileNotFoundError");
  EXPECT_EQ(last(os).message, "2, 'No such file (or directory)'");
}

TEST(Traceback, ReprLookalikesAreNotExceptions) {
  // A source line raises; a call of an unknown name, a method, an unclosed
  // literal name nothing.
  for (const char* line : {"    raise ValueError('x')", "compute(ValueErrorish('x'))", "log.Warning('x')",
                           "failed: ValueError('never closed)"}) {
    auto t = parse_traceback(line);
    EXPECT_EQ(last(t).error_class, "") << line;
  }
  // A known class in lower case (re's `error`) with one string argument.
  auto is_error = [](std::string_view name) { return name == "error" || name == "value"; };
  EXPECT_EQ(last(parse_traceback("failed: error('missing group name')", is_error)).error_class, "error");
  EXPECT_EQ(last(parse_traceback("set value(3) of x", is_error)).error_class, "");
}

}  // namespace
}  // namespace errdex::match

namespace errdex::match {
namespace {

// rich's layout (typer, pip): frames in a box, `path:N in f`, excerpts
// marked `❱`, boxes of locals; chained; a right border cut off.
TEST(Traceback, RichTraceback) {
  auto t = parse_traceback(
      "╭───────────────────── Traceback (most recent call last) ──────────────────────╮\n"
      "│ /app/config.py:6 in f                                                        │\n"
      "│                                                                              │\n"
      "│   5 │   try:                                                                 │\n"
      "│ ❱ 6 │   │   return d['x']                                                    │\n"
      "│ ╭─ locals ─╮                                                                 │\n"
      "│ │ d = {}   │                                                                 │\n"
      "│ ╰──────────╯                                                                 │\n"
      "╰──────────────────────────────────────────────────────────────────────────────╯\n"
      "KeyError: 'x'\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "╭───────────────────── Traceback (most recent call last) ──────────────────────╮\n"
      "│ in <module>                                                                  │\n"
      "│ ╭──────────── locals ─────────────╮                                          │\n"
      "│ │ where = 'settings.py:12 in load' │                                         │\n"
      "│ ╰─────────────────────────────────╯                                          │\n"
      "│ C:\\Users\\me\\app\\config.py:8 in f\n"
      "│ ❱ 8 │   │   raise ValueError(\"bad config: a.toml\")                           │\n"
      "╰──────────────────────────────────────────────────────────────────────────────╯\n"
      "ValueError: bad config: a.toml\n");
  ASSERT_EQ(t.exceptions.size(), 2u);
  EXPECT_EQ(t.exceptions[0].error_class, "KeyError");
  ASSERT_EQ(t.exceptions[0].frames.size(), 1u);
  EXPECT_EQ(t.exceptions[0].frames[0].file, "/app/config.py");
  EXPECT_EQ(t.exceptions[0].frames[0].line, 6);
  EXPECT_EQ(t.exceptions[0].frames[0].function, "f");
  EXPECT_EQ(last(t).error_class, "ValueError");
  EXPECT_EQ(last(t).message, "bad config: a.toml");
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].file, "C:\\Users\\me\\app\\config.py");
  EXPECT_EQ(last(t).frames[0].line, 8);
}

}  // namespace
}  // namespace errdex::match

namespace errdex::match {
namespace {

// Django's error report (debug page, e-mails): the class and message come
// after the frames; a chain stays inside one traceback.
TEST(Traceback, DjangoReport) {
  auto t = parse_traceback(
      "Environment:\n"
      "\n"
      "Request Method: GET\n"
      "Request URL: http://127.0.0.1:8000/api/\n"
      "\n"
      "Django Version: 3.2.25\n"
      "Python Version: 3.11.2\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3.11/json/decoder.py\", line 355, in raw_decode\n"
      "    raise JSONDecodeError(\"Expecting value\", s, err.value) from None\n"
      "\n"
      "The above exception (Expecting value: line 1 column 1 (char 0)) was the direct cause of the following exception:\n"
      "  File \"/srv/app/views.py\", line 13, in api\n"
      "    <source code not available>\n"
      "  File \"/srv/app/config.py\", line 11, in load\n"
      "    raise KeyError('cfg') from e\n"
      "\n"
      "Exception Type: KeyError at /api/\n"
      "Exception Value: 'cfg'\n"
      "Request information:\n"
      "USER: AnonymousUser\n");
  ASSERT_EQ(t.exceptions.size(), 2u);
  EXPECT_EQ(t.exceptions[0].message, "Expecting value: line 1 column 1 (char 0)");
  ASSERT_EQ(t.exceptions[0].frames.size(), 1u);
  EXPECT_EQ(t.exceptions[0].frames[0].line, 355);
  EXPECT_EQ(last(t).error_class, "KeyError");
  EXPECT_EQ(last(t).message, "'cfg'");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].file, "/srv/app/config.py");
  EXPECT_EQ(last(t).frames[1].line, 11);
}

}  // namespace
}  // namespace errdex::match

namespace errdex::match {
namespace {

// A dotted, capitalised name with a message is an exception whatever its
// name (decimal's InvalidOperation), unless a name known as one comes later.
TEST(Traceback, DottedCapitalisedNamesAreExceptionsLastOfAll) {
  EXPECT_EQ(last(parse_traceback("decimal.InvalidOperation: 0 / 0")).error_class, "decimal.InvalidOperation");
  auto t = parse_traceback("task failed: decimal.DivisionByZero: x / 0");
  EXPECT_EQ(last(t).error_class, "decimal.DivisionByZero");
  EXPECT_EQ(last(t).message, "x / 0");
  EXPECT_EQ(last(parse_traceback("INFO app.Worker: stopped on ValueError: bad")).error_class, "ValueError");
  EXPECT_EQ(last(parse_traceback("see app.worker: it stopped")).error_class, "");
}

}  // namespace
}  // namespace errdex::match

namespace errdex::match {
namespace {

// What Python prints for `json.loads("{")`, as structured logs hold it.
const char* const k_logged_traceback =
    "Traceback (most recent call last):\n"
    "  File \"/app/handler.py\", line 9, in handle\n"
    "    return json.loads(body)\n"
    "  File \"/usr/lib/python3.11/json/decoder.py\", line 353, in raw_decode\n"
    "    obj, end = self.scan_once(s, idx)\n"
    "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)";

void expect_logged(const Traceback& t, const std::string& layout) {
  ASSERT_FALSE(t.exceptions.empty()) << layout;
  EXPECT_EQ(last(t).error_class, "json.decoder.JSONDecodeError") << layout;
  EXPECT_EQ(last(t).message, "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)") << layout;
  ASSERT_EQ(last(t).frames.size(), 2u) << layout;
  EXPECT_EQ(last(t).frames[1].file, "/usr/lib/python3.11/json/decoder.py") << layout;
  EXPECT_EQ(last(t).frames[1].line, 353) << layout;
  EXPECT_EQ(last(t).frames[1].function, "raw_decode") << layout;
}

// The string's escapes, as json.dumps (`json`) or repr() (`repr`) write them.
std::string escaped(std::string_view text, char quote) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\\' || c == quote) out += std::string("\\") + c;
    else out += c;
  }
  return out;
}

TEST(Traceback, TracebacksLoggedInsideAString) {
  const std::string tb = k_logged_traceback;
  // python-json-logger, structlog's JSONRenderer: a JSON log line.
  expect_logged(parse_traceback("{\"asctime\": \"2026-12-03 14:27:53,679\", \"levelname\": \"ERROR\", \"message\": "
                                "\"request failed\", \"exc_info\": \"" + escaped(tb, '"') + "\"}"),
                "json");
  // The message before it in the same string, and a log prefix.
  expect_logged(parse_traceback("2026-12-03T14:00:00Z app {\"msg\": \"can't parse\\n" + escaped(tb, '"') + "\\n\"}"),
                "json, text before");
  // structlog's KeyValueRenderer: repr() of the string.
  expect_logged(parse_traceback("event='request failed' level='error' exception='" + escaped(tb, '\'') + "'"), "repr");
  // structlog's LogfmtRenderer: a quoted value over several lines.
  std::string logfmt = "event=\"request failed\" level=error exception=\"";
  for (char c : tb) logfmt += c == '"' ? std::string("\\\"") : std::string(1, c);
  expect_logged(parse_traceback(logfmt + "\""), "logfmt");
  // logfmt escapes its quotes only: a source line's `\n` is as written.
  std::string source_n = "Traceback (most recent call last):\n  File \"/a.py\", line 3, in f\n"
                         "    raise ValueError(f\"bad:\\n{x}\")\nValueError: bad:\n1";
  std::string logfmt_n = "event=failed exception=\"";
  for (char c : source_n) logfmt_n += c == '"' ? std::string("\\\"") : std::string(1, c);
  auto n = parse_traceback(logfmt_n + "\"");
  EXPECT_EQ(last(n).message, "bad:\n1");
  ASSERT_EQ(last(n).frames.size(), 1u);
  // JSON logged by a JSON log: two levels of escapes.
  std::string inner = "{\"exc_info\": \"" + escaped(tb, '"') + "\"}";
  expect_logged(parse_traceback("{\"log\": \"" + escaped(inner, '"') + "\", \"stream\": \"stderr\"}"), "json in json");
  // Docker's json-file driver: a JSON object per line of stderr (other
  // objects' lines between them are no part of it).
  std::string docker;
  for (std::size_t at = 0; at < tb.size();) {
    std::size_t nl = std::min(tb.find('\n', at), tb.size());
    docker += "{\"log\":\"" + escaped(tb.substr(at, nl - at) + "\n", '"') + "\",\"stream\":\"stderr\"}\n";
    if (at == 0) docker += "{\"other\":\"Traceback (most recent call last):\\n\"}\n";
    at = nl + 1;
  }
  expect_logged(parse_traceback(docker), "docker");
  // The value pasted alone, without its quotes.
  expect_logged(parse_traceback(escaped(tb, '"')), "unquoted");

  // JSON's escapes: `\/`, a character past U+FFFF as a surrogate pair.
  auto u = parse_traceback("{\"exc\": \"Traceback (most recent call last):\\n  File \\\"\\/app\\/x.py\\\", line 3, in f\\n"
                           "KeyError: 'caf\\u00e9 \\ud83d\\ude00'\"}");
  EXPECT_EQ(last(u).error_class, "KeyError");
  EXPECT_EQ(last(u).message, "'caf\xc3\xa9 \xf0\x9f\x98\x80'");
  ASSERT_EQ(last(u).frames.size(), 1u);
  EXPECT_EQ(last(u).frames[0].file, "/app/x.py");

  // A traceback printed as Python prints it is not read as a string, even
  // with a quote before it on its line.
  auto plain = parse_traceback("log: \"job failed\"\n" + tb);
  expect_logged(plain, "plain");
  // An unclosed string: read to the end.
  expect_logged(parse_traceback("{\"exc_info\": \"" + escaped(tb, '"')), "unclosed");
}

TEST(Traceback, ExceptionLinesLoggedInsideAString) {
  // The message ends where the string does; escapes are read back.
  LineException one;
  ASSERT_TRUE(parse_single_line(
      "{\"level\":\"error\",\"error\":\"json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\",\"ts\":1}", {},
      one));
  EXPECT_EQ(one.error_class, "json.decoder.JSONDecodeError");
  EXPECT_EQ(one.message, "Expecting value: line 1 column 1 (char 0)");
  ASSERT_TRUE(parse_single_line("{\"error\": \"ValueError: invalid literal for int() with base 10: 'x'\"}", {}, one));
  EXPECT_EQ(one.message, "invalid literal for int() with base 10: 'x'");

  const char* repr = "error='ValueError: invalid literal for int() with base 10: \\'x\\'' took=3ms";
  EXPECT_FALSE(parse_single_line(repr, {}, one));  // escapes: parse_traceback reads them
  auto t = parse_traceback(repr);
  EXPECT_EQ(last(t).error_class, "ValueError");
  EXPECT_EQ(last(t).message, "invalid literal for int() with base 10: 'x'");
  auto j = parse_traceback("{\"error\": \"KeyError: \\\"caf\\u00e9\\\"\"}");
  EXPECT_EQ(last(j).error_class, "KeyError");
  EXPECT_EQ(last(j).message, "\"caf\xc3\xa9\"");

  // A quote that does not close leaves the message as printed.
  ASSERT_TRUE(parse_single_line("said \"ValueError: bad", {}, one));
  EXPECT_EQ(one.message, "bad");
}


TEST(Traceback, QuotedExceptionWithoutMessage) {
  LineException one;
  ASSERT_TRUE(parse_single_line("{\"levelname\": \"ERROR\", \"message\": \"EOFError\"}", {}, one));
  EXPECT_EQ(one.error_class, "EOFError");
  EXPECT_EQ(one.message, "");
  // A quoted word that is no exception's name stays text.
  ASSERT_TRUE(parse_single_line("{\"message\": \"Done\"}", {}, one));
  EXPECT_EQ(one.error_class, "");
}


TEST(Traceback, ExceptionsKeptAsJsonData) {
  // structlog's dict_tracebacks: the exception raised last first, then its cause.
  auto s = parse_traceback(
      "{\"event\": \"request failed\", \"exception\": [{\"exc_type\": \"KeyError\", \"exc_value\": \"'wrapped'\", "
      "\"is_cause\": false, \"frames\": [{\"filename\": \"/app/x.py\", \"lineno\": 7, \"name\": \"f\", \"locals\": "
      "{\"filename\": \"not a frame\"}}]}, {\"exc_type\": \"JSONDecodeError\", \"exc_value\": \"Expecting value: line 1 "
      "column 1 (char 0)\", \"is_cause\": true, \"frames\": [{\"filename\": \"/usr/lib/python3.11/json/decoder.py\", "
      "\"lineno\": 355, \"name\": \"raw_decode\"}]}]}");
  ASSERT_EQ(s.exceptions.size(), 2u);
  EXPECT_EQ(s.exceptions[0].error_class, "JSONDecodeError");
  EXPECT_EQ(s.exceptions[0].frames.at(0).line, 355);
  EXPECT_EQ(last(s).error_class, "KeyError");
  EXPECT_EQ(last(s).message, "'wrapped'");
  ASSERT_EQ(last(s).frames.size(), 1u);
  EXPECT_EQ(last(s).frames[0].file, "/app/x.py");
  EXPECT_EQ(last(s).frames[0].function, "f");

  // A Sentry event, after a log prefix: oldest first, the module names the class.
  auto e = parse_traceback(
      "14:00:00 sent {\"level\": \"error\", \"exception\": {\"values\": [{\"module\": \"json.decoder\", \"type\": "
      "\"JSONDecodeError\", \"value\": \"Extra data: line 1 column 5 (char 4)\", \"stacktrace\": {\"frames\": [{\"filename\": "
      "\"json/decoder.py\", \"abs_path\": \"/usr/lib/python3.11/json/decoder.py\", \"function\": \"decode\", \"lineno\": 340}, "
      "{\"filename\": \"app.py\", \"function\": \"main\", \"lineno\": 1e3}]}}, {\"module\": \"builtins\", \"type\": "
      "\"ValueError\", \"value\": \"x\"}]}}");
  ASSERT_EQ(e.exceptions.size(), 2u);
  EXPECT_EQ(e.exceptions[0].error_class, "json.decoder.JSONDecodeError");
  ASSERT_EQ(e.exceptions[0].frames.size(), 2u);
  EXPECT_EQ(e.exceptions[0].frames[0].file, "/usr/lib/python3.11/json/decoder.py");
  EXPECT_EQ(e.exceptions[0].frames[0].line, 340);
  EXPECT_EQ(e.exceptions[0].frames[1].file, "app.py");
  EXPECT_EQ(e.exceptions[0].frames[1].line, 0);  // not an integer: unknown
  EXPECT_EQ(last(e).error_class, "ValueError");
  EXPECT_TRUE(last(e).frames.empty());

  // AWS Lambda's error result: the frames as traceback.format_list prints them.
  auto l = parse_traceback(
      "{\"errorMessage\": \"Expecting value: line 1 column 1 (char 0)\", \"errorType\": \"JSONDecodeError\", "
      "\"requestId\": \"3f2a\", \"stackTrace\": [\"  File \\\"/var/task/app.py\\\", line 5, in handler\\n    return "
      "json.loads(body)\\n\", \"  File \\\"/var/lang/lib/python3.11/json/decoder.py\\\", line 355, in raw_decode\\n\"]}");
  ASSERT_EQ(l.exceptions.size(), 1u);
  EXPECT_EQ(last(l).error_class, "JSONDecodeError");
  EXPECT_EQ(last(l).message, "Expecting value: line 1 column 1 (char 0)");
  ASSERT_EQ(last(l).frames.size(), 2u);
  EXPECT_EQ(last(l).frames[0].file, "/var/task/app.py");
  EXPECT_EQ(last(l).frames[1].line, 355);

  // A Jupyter notebook's error output: IPython's lines, in colour.
  auto n = parse_traceback(
      "{\"cells\": [{\"cell_type\": \"code\", \"outputs\": [{\"ename\": \"JSONDecodeError\", \"evalue\": "
      "\"Expecting value: line 1 column 1 (char 0)\", \"output_type\": \"error\", \"traceback\": [\"\\u001b[1;31m-----"
      "-----\\u001b[0m\", \"\\u001b[1;31mJSONDecodeError\\u001b[0m     Traceback (most recent call last)\", \"Cell "
      "\\u001b[1;32mIn[1], line 2\\u001b[0m\\n\", \"File \\u001b[1;32m/usr/lib/python3.11/json/decoder.py:355\\u001b[0m, "
      "in \\u001b[0;36mJSONDecoder.raw_decode\\u001b[1;34m(self, s, idx)\\u001b[0m\\n\", \"\\u001b[1;31mJSONDecodeError"
      "\\u001b[0m: Expecting value: line 1 column 1 (char 0)\"]}]}]}");
  ASSERT_EQ(n.exceptions.size(), 1u);
  EXPECT_EQ(last(n).error_class, "JSONDecodeError");
  EXPECT_EQ(last(n).message, "Expecting value: line 1 column 1 (char 0)");
  ASSERT_EQ(last(n).frames.size(), 2u);
  EXPECT_EQ(last(n).frames[0].file, "Cell In[1]");
  EXPECT_EQ(last(n).frames[1].file, "/usr/lib/python3.11/json/decoder.py");
  EXPECT_EQ(last(n).frames[1].line, 355);

  // Not such JSON, broken JSON, JSON nested too deep or too long: read as text.
  EXPECT_EQ(last(parse_traceback("{\"exc_type\": 3}")).error_class, "");
  auto broken = parse_traceback(
      "{\"exception\": [{\"exc_type\": \"KeyError\", \"frames\": [{\"filename\": \"/a.py\", \"lineno\": 3}]");
  EXPECT_EQ(last(broken).error_class, "KeyError");  // the quoted name, read in the text
  EXPECT_TRUE(last(broken).frames.empty());
  std::string deep = "{\"exception\": [{\"exc_type\": \"KeyError\", \"frames\": [], \"x\": " + std::string(5u << 20, '[') +
                     std::string(5u << 20, ']') + "}]}";
  auto d = parse_traceback(deep);
  EXPECT_FALSE(d.exceptions.empty());
  std::string wide = "{\"exception\": [{\"exc_type\": \"KeyError\", \"exc_value\": \"k\", \"frames\": [], \"x\": [";
  for (int i = 0; i < 1000000; ++i) wide += "1,";
  wide += "1]}]}";
  auto w = parse_traceback(wide);  // 2 MB: read
  EXPECT_EQ(last(w).error_class, "KeyError");
}

// An exception's line printed before its traceback, which has none of its
// own (AWS Lambda's log lines): one exception with those frames.
TEST(Traceback, ExceptionLineBeforeItsFrames) {
  auto t = parse_traceback(
      "[ERROR] JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
      "Traceback (most recent call last):\n"
      "  File \"/var/task/app.py\", line 5, in handler\n"
      "    return json.loads(body)\n"
      "  File \"/var/lang/lib/python3.11/json/decoder.py\", line 355, in raw_decode\n");
  ASSERT_EQ(t.exceptions.size(), 1u);
  EXPECT_EQ(last(t).error_class, "JSONDecodeError");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].line, 355);
  // The class bare whatever its name, a message over several lines with
  // no log prefix of their own.
  auto bare = parse_traceback(
      "[ERROR] DivisionByZero: x / 0\n"
      "- and more\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3.11/_pydecimal.py\", line 4058, in _raise_error\n");
  ASSERT_EQ(bare.exceptions.size(), 1u);
  EXPECT_EQ(last(bare).error_class, "DivisionByZero");
  EXPECT_EQ(last(bare).message, "x / 0\n- and more");
  EXPECT_EQ(last(bare).frames.size(), 1u);
  // A chain cut short keeps its last traceback apart: the earlier
  // exception has frames of its own.
  auto c = parse_traceback(
      "Traceback (most recent call last):\n"
      "  File \"/a.py\", line 1, in f\n"
      "KeyError: 'k'\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/a.py\", line 3, in f\n");
  ASSERT_EQ(c.exceptions.size(), 2u);
  EXPECT_EQ(last(c).error_class, "");
  EXPECT_EQ(last(c).frames.size(), 1u);
}

// Python's logging with stack_info=True prints the logging call's stack
// after the error: no part of its message.
TEST(Traceback, LoggedStackIsNoPartOfTheMessage) {
  auto t = parse_traceback(
      "ERROR:app:failed\n"
      "Traceback (most recent call last):\n"
      "  File \"/a.py\", line 3, in f\n"
      "ValueError: bad\n"
      "Stack (most recent call last):\n"
      "  File \"/a.py\", line 9, in main\n");
  EXPECT_EQ(last(t).error_class, "ValueError");
  EXPECT_EQ(last(t).message, "bad");
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].line, 3);
  // An error raised while logging: logging's handleError prints the
  // logging call's frames after the traceback, then its message.
  auto e = parse_traceback(
      "--- Logging error ---\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3.11/logging/__init__.py\", line 377, in getMessage\n"
      "    msg = msg % self.args\n"
      "TypeError: %d format: a real number is required, not str\n"
      "Call stack:\n"
      "  File \"/srv/app.py\", line 3, in <module>\n"
      "    log.error(\"value %d\", \"x\")\n"
      "Message: 'value %d'\n"
      "Arguments: ('x',)\n");
  ASSERT_EQ(e.exceptions.size(), 1u);
  EXPECT_EQ(last(e).message, "%d format: a real number is required, not str");
  ASSERT_EQ(last(e).frames.size(), 1u);
  EXPECT_EQ(last(e).frames[0].line, 377);
}

// What stands around a copied error (a fence, a REPL's or a shell's
// prompt) ends its message; a message's own lines that merely look alike
// stay in it.
TEST(Traceback, PromptsAndFencesAroundACopyAreNoPartOfTheMessage) {
  const std::string tb =
      "Traceback (most recent call last):\n"
      "  File \"/a.py\", line 3, in f\n"
      "ValueError: bad\n";
  for (std::string after : {"```", "~~~", ">>> ", ">>>", "In [4]: ", "$ echo $?", "% make",
                            "user@host:~/proj$ ", "(venv) user@host:~/proj$ python3 a.py", "root@box:/# ls",
                            "C:\\Users\\me>python a.py", "PS C:\\Users\\me> python a.py", "bash-5.2$ ",
                            "##[error]Process completed with exit code 1.", "Error: Process completed with exit code 1.",
                            "ERROR: Job failed: exit code 1", "make: *** [Makefile:3: test] Error 1"}) {
    auto t = parse_traceback(tb + after + "\nmore\n");
    EXPECT_EQ(last(t).message, "bad") << after;
    // After a blank line too: a runner's `Error: ...` is no exception.
    auto apart = parse_traceback(tb + "\n" + after + "\n");
    EXPECT_EQ(last(apart).error_class, "ValueError") << after;
  }
  for (std::string line : {"</div>", "# not a prompt", "> a quote", "100% done", "a$ b", "In [x]: y", "<http://x.org/>"}) {
    auto t = parse_traceback(tb + line + "\n");
    EXPECT_EQ(last(t).message, "bad\n" + line) << line;
  }
  // A REPL fed by a pipe prints its prompts before the header, not before
  // the lines after it.
  auto r = parse_traceback(
      ">>> >>> Traceback (most recent call last):\n"
      "  File \"<stdin>\", line 1, in <module>\n"
      "  File \"/usr/lib/python3.11/json/__init__.py\", line 346, in loads\n"
      "    return _default_decoder.decode(s)\n"
      "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
      ">>> \n");
  EXPECT_EQ(last(r).error_class, "json.decoder.JSONDecodeError");
  EXPECT_EQ(last(r).message, "Expecting value: line 1 column 1 (char 0)");
  ASSERT_EQ(last(r).frames.size(), 2u);
  EXPECT_EQ(last(r).frames[1].line, 346);
}

// A traceback's tail copied without its header: the frames are read from
// the first frame line. Frames that no exception ends (logging's stack,
// traceback.print_stack) are no exception's.
TEST(Traceback, TailWithoutTheHeaderKeepsItsFrames) {
  auto t = parse_traceback(
      "  File \"/usr/lib/python3.11/json/decoder.py\", line 355, in raw_decode\n"
      "    raise JSONDecodeError(\"Expecting value\", s, err.value) from None\n"
      "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n");
  ASSERT_EQ(t.exceptions.size(), 1u);
  EXPECT_EQ(last(t).error_class, "json.decoder.JSONDecodeError");
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].line, 355);
  // A script's SyntaxError has no header either.
  auto syntax = parse_traceback(
      "  File \"/srv/app.py\", line 3\n"
      "    def f(\n"
      "         ^\n"
      "SyntaxError: '(' was never closed\n");
  EXPECT_EQ(last(syntax).error_class, "SyntaxError");
  ASSERT_EQ(last(syntax).frames.size(), 1u);
  EXPECT_EQ(last(syntax).frames[0].line, 3);
  // A stack printed after the error, or alone, adds no exception.
  for (std::string after : {"Stack (most recent call last):\n", "", "\n"}) {
    auto s = parse_traceback(
        "ERROR:app:failed\n"
        "Traceback (most recent call last):\n"
        "  File \"/a.py\", line 3, in f\n"
        "ValueError: bad\n" +
        after +
        "  File \"/a.py\", line 9, in main\n"
        "    log.error('failed', stack_info=True)\n"
        "Message: 'x'\n");
    ASSERT_EQ(s.exceptions.size(), 1u) << after;
    EXPECT_EQ(last(s).message, after.empty() ? "bad\n  File \"/a.py\", line 9, in main\n    log.error('failed', stack_info=True)\nMessage: 'x'" : "bad") << after;
    ASSERT_EQ(last(s).frames.size(), 1u) << after;
    EXPECT_EQ(last(s).frames[0].line, 3) << after;
  }
}

// A message's later lines lose a log prefix only when they carry one too.
TEST(Traceback, MessageLinesLoseOnlyARepeatedPrefix) {
  auto t = parse_traceback(
      "2026-12-03 14:00:01 ValueError: first\n"
      "2026-12-03 14:00:02 second\n"
      "- third, longer than the prefix\n");
  EXPECT_EQ(last(t).message, "first\nsecond\n- third, longer than the prefix");
}

}  // namespace
}  // namespace errdex::match
