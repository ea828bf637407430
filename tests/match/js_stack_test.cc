// JavaScript stacks as test runners, browsers and Node print them. Each
// input is real output (Jest 30, Vitest 4, Node 20, tsc 5.9 with and
// without --enable-source-maps) unless its comment says otherwise; the
// real Jest and Vitest runs are in npm_accuracy_test.cc.
#include <gtest/gtest.h>

#include "match/js_stack.h"
#include "match/traceback.h"

namespace errdex::match {
namespace {

const ExceptionBlock& last(const Traceback& t) { return t.exceptions.back(); }

TEST(JsStack, JestFailureLeavesTheCodeFrameOutOfTheMessage) {
  auto t = parse_traceback(
      "FAIL ./semver.test.js\n"
      "  \xE2\x9C\x95 parses a version (8 ms)\n"
      "\n"
      "  \xE2\x97\x8F parses a version\n"
      "\n"
      "    TypeError: Invalid Version: 1.2\n"
      "\n"
      "      1 | const semver = require('semver');\n"
      "      2 | test('parses a version', () => {\n"
      "    > 3 |   expect(new semver.SemVer('1.2').major).toBe(1);\n"
      "        |          ^\n"
      "      4 | });\n"
      "      5 |\n"
      "\n"
      "      at new SemVer (node_modules/semver/classes/semver.js:40:13)\n"
      "      at Object.<anonymous> (semver.test.js:3:10)\n"
      "\n"
      "Test Suites: 1 failed, 1 total\n"
      "Tests:       1 failed, 1 total\n");
  ASSERT_EQ(t.exceptions.size(), 1u);
  EXPECT_EQ(last(t).error_class, "TypeError");
  EXPECT_EQ(last(t).message, "Invalid Version: 1.2");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].file, "node_modules/semver/classes/semver.js");
  EXPECT_EQ(last(t).frames[1].line, 40);
  EXPECT_EQ(last(t).frames[1].function, "new SemVer");
}

TEST(JsStack, VitestFramesAroundItsCodeFrame) {
  auto t = parse_traceback(
      " RUN  v4.1.12 /tmp/rt\n"
      "\n"
      " \xE2\x9D\xAF semver.spec.mjs (1 test | 1 failed) 16ms\n"
      "   \xC3\x97 parses a version 15ms\n"
      "\n"
      "\xE2\x8E\xAF\xE2\x8E\xAF Failed Tests 1 \xE2\x8E\xAF\xE2\x8E\xAF\n"
      "\n"
      " FAIL  semver.spec.mjs > parses a version\n"
      "TypeError: Invalid Version: 1.2\n"
      " \xE2\x9D\xAF new SemVer node_modules/semver/classes/semver.js:40:13\n"
      " \xE2\x9D\xAF semver.spec.mjs:4:10\n"
      "      2| import semver from 'semver';\n"
      "      3| test('parses a version', () => {\n"
      "      4|   expect(new semver.SemVer('1.2').major).toBe(1);\n"
      "       |          ^\n"
      "      5| });\n"
      "      6|\n"
      " \xE2\x9D\xAF runTest node_modules/@vitest/runner/dist/index.js:9:3\n"
      "\n"
      "\xE2\x8E\xAF\xE2\x8E\xAF[1/1]\xE2\x8E\xAF\n");
  ASSERT_EQ(t.exceptions.size(), 1u);
  EXPECT_EQ(last(t).error_class, "TypeError");
  EXPECT_EQ(last(t).message, "Invalid Version: 1.2");
  // The frame after the code frame is read too (made up: Vitest hides its
  // own frames; a library's would be printed there).
  ASSERT_EQ(last(t).frames.size(), 3u);
  EXPECT_EQ(last(t).frames[0].file, "node_modules/@vitest/runner/dist/index.js");
  EXPECT_EQ(last(t).frames[2].file, "node_modules/semver/classes/semver.js");
  EXPECT_EQ(last(t).frames[2].line, 40);
  EXPECT_EQ(last(t).frames[2].function, "new SemVer");
  EXPECT_EQ(last(t).frames[1].function, "");
}

// `throw "URI too long"`: Node prints its header, the value as it is and a
// hint to trace it; no class and no frames but the header's.
TEST(JsStack, AValueThrownThatIsNoError) {
  auto t = parse_traceback(
      "/srv/app/lib/parse.js:3\n"
      "    throw \"URI too long\";\n"
      "    ^\n"
      "URI too long\n"
      "(Use `node --trace-uncaught ...` to show where the exception was thrown)\n"
      "\n"
      "Node.js v20.20.2\n");
  ASSERT_FALSE(t.exceptions.empty());
  EXPECT_EQ(last(t).error_class, "");
  EXPECT_EQ(last(t).message, "URI too long");
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].file, "/srv/app/lib/parse.js");
  EXPECT_EQ(last(t).frames[0].line, 3);
}

// liquidjs 10.31 under `node -e`: its error's stack starts with the
// message and the template's place, a caret of its own under it, before
// the `ParseError: …` line; then it appends the stack of the error it
// wraps (`From Error: …`). The message's `line:1, col:1` is no `file:line`
// of Node's header: the header is the one at the top, naming `throw err`.
TEST(JsStack, AMessageEndingInLineAndColumnIsNoHeader) {
  auto t = parse_traceback(
      "/app/node_modules/liquidjs/dist/liquid.node.js:3189\n"
      "                    throw err;\n"
      "                    ^\n"
      "\n"
      "tag {% if a %} not closed, line:1, col:1\n"
      ">> 1| {% if a %}\n"
      "      ^\n"
      "ParseError: tag {% if a %} not closed, line:1, col:1\n"
      "    at Parser.parseToken (/app/node_modules/liquidjs/dist/liquid.node.js:3211:19)\n"
      "    at Parser.parseTokens (/app/node_modules/liquidjs/dist/liquid.node.js:3183:37)\n"
      "    at [eval]:2:18\n"
      "From Error: tag {% if a %} not closed\n"
      "    at ParseStream.<anonymous> (/app/node_modules/liquidjs/dist/liquid.node.js:4889:38)\n"
      "    at new IfTag (/app/node_modules/liquidjs/dist/liquid.node.js:4890:14)\n"
      "\n"
      "Node.js v20.20.2\n");
  ASSERT_FALSE(t.exceptions.empty());
  EXPECT_EQ(last(t).error_class, "ParseError");
  EXPECT_EQ(last(t).message, "tag {% if a %} not closed, line:1, col:1");
  ASSERT_GE(last(t).frames.size(), 2u);
  const Frame& innermost = last(t).frames.back();
  EXPECT_EQ(innermost.file, "/app/node_modules/liquidjs/dist/liquid.node.js");
  EXPECT_EQ(innermost.line, 3189);
  EXPECT_EQ(innermost.source, "throw err;");
  for (const Frame& f : last(t).frames) EXPECT_EQ(f.file.find(' '), std::string::npos) << f.file;
}

TEST(JsStack, ChromeConsole) {
  // Chrome's console as copied: the link to where it was logged, then
  // `Uncaught (in promise)`; a CDN's URL and a dev server's query string.
  auto t = parse_traceback(
      "VM42:1 Uncaught (in promise) TypeError: Invalid Version: 1.2\n"
      "    at new SemVer (https://unpkg.com/semver@7.7.3/classes/semver.js:40:13)\n"
      "    at load (http://localhost:5173/src/app.js?t=1712:3:9)\n"
      "    at <anonymous>:1:1\n");
  EXPECT_EQ(last(t).error_class, "TypeError");
  EXPECT_EQ(last(t).message, "Invalid Version: 1.2");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[0].file, "http://localhost:5173/src/app.js");
  EXPECT_EQ(last(t).frames[1].file, "https://unpkg.com/semver@7.7.3/classes/semver.js");
  auto plain = parse_traceback("Uncaught TypeError: x is not a function\n    at f (app.js:3:5)\n");
  EXPECT_EQ(last(plain).error_class, "TypeError");
  EXPECT_EQ(last(plain).message, "x is not a function");
}

TEST(JsStack, AggregateErrorsAreExplainedLast) {
  // Node 20's uncaught rejection of Promise.any.
  auto t = parse_traceback(
      "node:internal/process/promises:391\n"
      "    triggerUncaughtException(err, true /* fromPromise */);\n"
      "    ^\n"
      "\n"
      "[AggregateError: All promises were rejected] {\n"
      "  [errors]: [\n"
      "    Error: first\n"
      "        at [eval]:1:61\n"
      "        at runScriptInThisContext (node:internal/vm:209:10)\n"
      "        at node:internal/main/eval_string:51:3,\n"
      "    TypeError: Invalid Version: 1.2\n"
      "        at new SemVer (/work/js2/node_modules/semver/classes/semver.js:40:13)\n"
      "        at [eval]:1:92\n"
      "        at node:internal/main/eval_string:51:3\n"
      "  ]\n"
      "}\n"
      "\n"
      "Node.js v20.20.2\n");
  ASSERT_EQ(t.exceptions.size(), 3u);
  EXPECT_EQ(t.exceptions[0].error_class, "AggregateError");
  EXPECT_EQ(t.exceptions[0].message, "All promises were rejected");
  EXPECT_EQ(t.exceptions[1].error_class, "Error");
  EXPECT_EQ(t.exceptions[1].message, "first");
  EXPECT_EQ(last(t).error_class, "TypeError");
  EXPECT_EQ(last(t).message, "Invalid Version: 1.2");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].file, "/work/js2/node_modules/semver/classes/semver.js");
}

TEST(JsStack, AggregateErrorWithFramesAndBracketedItems) {
  // An AggregateError made by the user's code has frames; an item with
  // none prints in brackets; a rejected string is no error.
  auto t = parse_traceback(
      "AggregateError: 2 checks failed\n"
      "    at check (/app/src/check.js:12:9) {\n"
      "  [errors]: [\n"
      "    [Error: disk full],\n"
      "    'plain string',\n"
      "    RangeError: Invalid port: eighty\n"
      "        at parsePort (/app/src/config.js:8:11)\n"
      "  ]\n"
      "}\n");
  ASSERT_EQ(t.exceptions.size(), 3u);
  EXPECT_EQ(t.exceptions[0].error_class, "AggregateError");
  EXPECT_EQ(t.exceptions[0].message, "2 checks failed");
  ASSERT_EQ(t.exceptions[0].frames.size(), 1u);
  EXPECT_EQ(t.exceptions[0].frames[0].line, 12);
  EXPECT_EQ(t.exceptions[1].error_class, "Error");
  EXPECT_EQ(t.exceptions[1].message, "disk full");
  EXPECT_EQ(last(t).error_class, "RangeError");
  ASSERT_EQ(last(t).frames.size(), 1u);
  EXPECT_EQ(last(t).frames[0].file, "/app/src/config.js");
}

TEST(JsStack, AggregateErrorsNestedPastTheDepthLimitDoNotCrash) {
  std::string text = "AggregateError: outer\n    at f (/a.js:1:1) {\n";
  for (int i = 0; i < 5000; ++i) text += "  [errors]: [\n    AggregateError: inner\n        at g (/b.js:2:2) {\n";
  auto t = parse_traceback(text);
  EXPECT_FALSE(t.exceptions.empty());
}

TEST(JsStack, TypeScriptSourceMappedPaths) {
  // `node --enable-source-maps dist/main.js` after tsc --sourceMap.
  auto t = parse_traceback(
      "/tmp/js2_ts/src/config.ts:8\n"
      "    throw new RangeError(`Invalid port: ${text}`);\n"
      "    ^\n"
      "\n"
      "\n"
      "RangeError: Invalid port: eighty\n"
      "    at parsePort (/tmp/js2_ts/src/config.ts:8:11)\n"
      "    at Object.<anonymous> (/tmp/js2_ts/src/main.ts:3:22)\n"
      "    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n"
      "    at node:internal/main/run_main_module:28:49\n"
      "\n"
      "Node.js v20.20.2\n");
  EXPECT_EQ(last(t).error_class, "RangeError");
  EXPECT_EQ(last(t).message, "Invalid port: eighty");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].file, "/tmp/js2_ts/src/config.ts");
  EXPECT_EQ(last(t).frames[1].line, 8);
  EXPECT_EQ(last(t).frames[1].source, "throw new RangeError(`Invalid port: ${text}`);");
}

TEST(JsStack, TypeScriptDistPaths) {
  // The same without --enable-source-maps: tsc's output under dist/.
  auto t = parse_traceback(
      "/tmp/js2_ts/dist/config.js:7\n"
      "        throw new RangeError(`Invalid port: ${text}`);\n"
      "        ^\n"
      "\n"
      "RangeError: Invalid port: eighty\n"
      "    at parsePort (/tmp/js2_ts/dist/config.js:7:15)\n"
      "    at Object.<anonymous> (/tmp/js2_ts/dist/main.js:4:36)\n"
      "    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n");
  EXPECT_EQ(last(t).message, "Invalid port: eighty");
  ASSERT_EQ(last(t).frames.size(), 2u);
  EXPECT_EQ(last(t).frames[1].file, "/tmp/js2_ts/dist/config.js");
  EXPECT_EQ(last(t).frames[1].line, 7);
  EXPECT_EQ(last(t).frames[1].source, "throw new RangeError(`Invalid port: ${text}`);");
}

}  // namespace
}  // namespace errdex::match
