// Texts a JavaScript message shows that its first argument does not
// write: a constant imported from another file of the repository
// (link_javascript_imported_constants), the text after a status code, a
// constructor's texts,
// what callers of a method give for its parameter inside a message
// (link_javascript_caller_messages).
#include "scan/javascript/frontend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "scan/template.h"
#include "scan/tree_walk.h"

namespace errdex::scan {
namespace {

model::FileFacts ts(const std::string& src) { return scan_javascript(src, Dialect::typescript); }

// The messages of a file's sites, in order.
std::vector<std::string> messages(const model::FileFacts& f) {
  std::vector<std::string> out;
  for (const model::ThrowSite& s : f.sites) out.push_back(template_text(s.message));
  return out;
}

using Texts = std::vector<std::string>;

// Files named by their paths, as the link passes take them.
std::pair<std::vector<model::FileFacts>, std::vector<std::string>> split(
    std::vector<std::pair<std::string, model::FileFacts>> in) {
  std::pair<std::vector<model::FileFacts>, std::vector<std::string>> out;
  for (auto& [path, facts] : in) {
    out.second.push_back(path);
    out.first.push_back(std::move(facts));
  }
  return out;
}

// ioredis: `export const CONNECTION_CLOSED_ERROR_MSG = "Connection is
// closed."` in utils/index.ts, `reject(new Error(CONNECTION_CLOSED_ERROR_MSG))`
// where a file imports it; through `require`, a namespace import and
// `exports.X` alike, each from the file its import names (TWICE is 'b' of
// ./other, not 'a' of ./utils). A `let` (which may change), a text with an
// escape and a package's export stay names.
TEST(JavaScriptImportedTexts, AConstantImportedFromAnotherFileIsItsText) {
  std::vector<std::pair<std::string, model::FileFacts>> in = {
      {"lib/utils/index.ts", ts("export const CONNECTION_CLOSED_ERROR_MSG = \"Connection is closed.\";\n"
                                "export let CHANGING = 'first';\n"
                                "export const TWICE = 'a';\n"
                                "export const ESCAPED = 'tab\\there';\n"
                                "export function f() { throw new Error('own'); }\n")},
      {"lib/other.ts", ts("export const TWICE = 'b';\n")},
      {"lib/errors.js", scan_javascript("exports.TIMEOUT = 'Command timed out';\n"
                                        "const LOCAL = 'Only here';\n"
                                        "function g() { throw new Error(LOCAL); }\n",
                                        Dialect::javascript)},
      {"lib/Redis.ts", ts("import { CONNECTION_CLOSED_ERROR_MSG, CHANGING, ESCAPED } from './utils';\n"
                          "import * as errors from './errors';\n"
                          "import { MSG } from 'some-package';\n"
                          "const { TWICE } = require('./other');\n"
                          "export function connect(x) {\n"
                          "  if (x === 1) return Promise.reject(new Error(CONNECTION_CLOSED_ERROR_MSG));\n"
                          "  if (x === 2) throw new Error('Failed: ' + errors.TIMEOUT);\n"
                          "  if (x === 3) throw new Error(CHANGING);\n"
                          "  if (x === 4) throw new Error(ESCAPED);\n"
                          "  if (x === 5) throw new Error(MSG);\n"
                          "  throw new Error(TWICE);\n"
                          "}\n")},
  };
  auto [files, paths] = split(std::move(in));
  link_javascript_imported_constants(files, std::vector<bool>(files.size(), true), paths);
  EXPECT_EQ(messages(files[3]), (Texts{"Connection is closed.", "Failed: Command timed out", "{CHANGING}", "{ESCAPED}",
                                       "{MSG}", "b"}));
  EXPECT_EQ(messages(files[2]), (Texts{"Only here"}));
}

// inversify's CommonJS build, as tsc writes it: `const ERROR_MSGS =
// __importStar(require("../constants/error_msgs"))` (a namespace import)
// and `exports.X = 'Invalid Container constructor argument. Container
// options ' + 'must be an object.'` (a long text split over lines), thrown
// as `new Error(ERROR_MSGS.X)`; Babel's `_interopRequireWildcard` alike. A
// piece that is no text, or holds an escape, leaves the name.
TEST(JavaScriptImportedTexts, ANamespaceImportCompiledToCommonJsReadsTheModulesTexts) {
  const auto js = [](const char* src) { return scan_javascript(src, Dialect::javascript); };
  std::vector<std::pair<std::string, model::FileFacts>> in = {
      {"lib/constants/error_msgs.js", js("\"use strict\";\n"
                                         "exports.NOT_AN_OBJECT = exports.NO_SNAPSHOT = void 0;\n"
                                         "exports.NO_SNAPSHOT = 'No snapshot available to restore.';\n"
                                         "exports.NOT_AN_OBJECT = 'Invalid Container constructor argument. Container options ' +\n"
                                         "    'must be an object.';\n"
                                         "exports.WITH_NAME = 'Bad name ' + name;\n"
                                         "exports.ESCAPED = 'Bad ' + 'tab\\there';\n")},
      {"lib/container/container.js", js("\"use strict\";\n"
                                        "const ERROR_MSGS = __importStar(require(\"../constants/error_msgs\"));\n"
                                        "const babel = _interopRequireWildcard(require(\"../constants/error_msgs\"));\n"
                                        "class Container {\n"
                                        "  constructor(options) {\n"
                                        "    if (typeof options !== 'object') throw new Error(ERROR_MSGS.NOT_AN_OBJECT);\n"
                                        "    if (options.x) throw new Error(babel.NO_SNAPSHOT);\n"
                                        "    if (options.y) throw new Error(ERROR_MSGS.WITH_NAME);\n"
                                        "    throw new Error(ERROR_MSGS.ESCAPED);\n"
                                        "  }\n"
                                        "}\n")},
  };
  auto [files, paths] = split(std::move(in));
  link_javascript_imported_constants(files, std::vector<bool>(files.size(), true), paths);
  EXPECT_EQ(messages(files[1]), (Texts{"Invalid Container constructor argument. Container options must be an object.",
                                       "No snapshot available to restore.", "{ERROR_MSGS.WITH_NAME}", "{ERROR_MSGS.ESCAPED}"}));
}

// body-parser: `throw createError(415, 'content encoding unsupported', {…})`
// (http-errors' factory, from a package): a status code is no message, the
// text after it is. A class constructed so, or a code alone, is left as
// it was.
// A message table, `const MESSAGES = { badInput: '…' }`: an entry shows its
// text in the file (the table bound once, the entry not set on the way)
// and in a file importing the table by name.
TEST(JavaScriptImportedTexts, AnEntryOfAMessageTableIsItsText) {
  std::vector<std::pair<std::string, model::FileFacts>> in = {
      {"lib/messages.js", scan_javascript("const MESSAGES = {\n"
                                          "  badInput: 'The input is not valid',\n"
                                          "  count: 3,\n"
                                          "};\n"
                                          "function f(x) { throw new TypeError(MESSAGES.badInput); }\n"
                                          "function g(x) {\n"
                                          "  let m = { text: 'first' };\n"
                                          "  if (x) m = { text: 'second' };\n"
                                          "  throw new Error(m.text);\n"
                                          "}\n"
                                          "module.exports = { MESSAGES };\n",
                                          Dialect::javascript)},
      {"lib/use.js", scan_javascript("const { MESSAGES } = require('./messages');\n"
                                     "function h(x) {\n"
                                     "  if (x) throw new TypeError(MESSAGES.badInput);\n"
                                     "  throw new RangeError(MESSAGES.count);\n"
                                     "}\n",
                                     Dialect::javascript)},
  };
  auto [files, paths] = split(std::move(in));
  EXPECT_EQ(messages(files[0]), (Texts{"The input is not valid", "{m.text}"}));
  link_javascript_imported_constants(files, std::vector<bool>(files.size(), true), paths);
  EXPECT_EQ(messages(files[1]), (Texts{"The input is not valid", "{MESSAGES.count}"}));
}

// A table indexed by a key known only when it runs (punycode's `function
// error(type) { throw new RangeError(errors[type]); }`): each text entry,
// the first the message, the others its variants; a written key, its
// entry. Not a table bound twice.
TEST(JavaScriptImportedTexts, ATableIndexedByAParameterShowsEachEntry) {
  auto f = scan_javascript("const errors = {\n"
                           "  'overflow': 'Overflow: input needs wider integers to process',\n"
                           "  'not-basic': 'Illegal input >= 0x80 (not a basic code point)',\n"
                           "  limit: 36,\n"
                           "};\n"
                           "function error(type) { throw new RangeError(errors[type]); }\n"
                           "function named() { throw new RangeError(errors['not-basic']); }\n"
                           "function twice(x) {\n"
                           "  let m = { a: 'first' };\n"
                           "  if (x) m = { a: 'second' };\n"
                           "  throw new Error(m[x]);\n"
                           "}\n",
                           Dialect::javascript);
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(template_text(f.sites[0].message), "Overflow: input needs wider integers to process");
  ASSERT_EQ(f.sites[0].alternatives.size(), 1u);
  EXPECT_EQ(template_text(f.sites[0].alternatives[0]), "Illegal input >= 0x80 (not a basic code point)");
  EXPECT_EQ(template_text(f.sites[1].message), "Illegal input >= 0x80 (not a basic code point)");
  EXPECT_TRUE(f.sites[1].alternatives.empty());
  EXPECT_EQ(template_text(f.sites[2].message), "{m[x]}");
}

// archiver's `function ArchiverError(code, data) { this.message =
// ERROR_CODES[code] || code; … }` and multer's class calling
// `super(errorMessages[code])`, raised in other files as `new
// ArchiverError('QUEUECLOSED')`: the table's entry for the key written; a
// key the table lacks shows as itself, and one not written may be any
// entry.
TEST(JavaScriptImportedTexts, AConstructorLookingItsMessageUpByItsArgument) {
  std::vector<model::FileFacts> files = {
      scan_javascript("const ERROR_CODES = {\n"
                      "  ABORTED: 'archive was aborted',\n"
                      "  QUEUECLOSED: 'queue closed',\n"
                      "};\n"
                      "function ArchiverError(code, data) {\n"
                      "  Error.captureStackTrace(this, this.constructor);\n"
                      "  this.message = ERROR_CODES[code] || code;\n"
                      "  this.code = code;\n"
                      "}\n"
                      "util.inherits(ArchiverError, Error);\n"
                      "const errorMessages = { LIMIT_PART_COUNT: 'Too many parts' };\n"
                      "class MulterError extends Error {\n"
                      "  constructor(code, field) {\n"
                      "    super(errorMessages[code]);\n"
                      "    this.code = code;\n"
                      "  }\n"
                      "}\n"
                      "module.exports = { ArchiverError, MulterError };\n",
                      Dialect::javascript),
      scan_javascript("const { ArchiverError, MulterError } = require('./error');\n"
                      "function f(x, code) {\n"
                      "  if (x === 1) throw new ArchiverError('QUEUECLOSED');\n"
                      "  if (x === 2) throw new ArchiverError('NOSUCHCODE');\n"
                      "  if (x === 3) throw new MulterError('LIMIT_PART_COUNT', 'f');\n"
                      "  throw new ArchiverError(code);\n"
                      "}\n",
                      Dialect::javascript),
  };
  link_javascript(files, std::vector<bool>(files.size(), true));
  const auto& sites = files[1].sites;
  ASSERT_EQ(sites.size(), 4u);
  EXPECT_EQ(messages(files[1]), (Texts{"queue closed", "NOSUCHCODE", "Too many parts", "{code}"}));
  EXPECT_TRUE(sites[0].alternatives.empty());
  std::vector<std::string> any;
  for (const auto& a : sites[3].alternatives) any.push_back(template_text(a));
  EXPECT_EQ(any, (Texts{"archive was aborted", "queue closed"}));
}

TEST(JavaScriptImportedTexts, TheTextAfterAStatusCodeIsTheMessage) {
  auto f = scan_javascript(
      "const createError = require('http-errors');\n"
      "function read(encoding, n) {\n"
      "  if (n === 1) throw createError(415, 'content encoding unsupported', { encoding });\n"
      "  if (n === 2) throw createError(415, 'unsupported content encoding \"' + encoding + '\"');\n"
      "  if (n === 3) throw new HttpError(404, 'Not Found');\n"
      "  throw createError(500);\n"
      "}\n",
      Dialect::javascript);
  EXPECT_EQ(messages(f), (Texts{"content encoding unsupported", "unsupported content encoding \"{encoding}\"",
                                "{404}", "{500}"}));
}

// acorn: `pp.raise = function (pos, message) { message += " (" + …` in
// location.js, called as `this.raise(this.start, "Unexpected token")` by
// the functions other files assign to `Parser.prototype`: each caller's
// text takes the parameter's place in each form of the message (with and
// without ` in {this.sourceFile}`). So does a class method whose message
// starts with its parameter, from a file importing the class. Not a file
// with a `raise` of its own, nor one sharing no import with the helper's;
// not a parameter the guard tests.
TEST(JavaScriptImportedTexts, AMethodsCallersTextTakesTheParametersPlaceInTheMessage) {
  std::vector<std::pair<std::string, model::FileFacts>> in = {
      {"src/location.js", scan_javascript("import {Parser} from './state.js'\n"
                                          "const pp = Parser.prototype\n"
                                          "pp.raise = function(pos, message) {\n"
                                          "  let loc = getLineInfo(this.input, pos)\n"
                                          "  message += ' (' + loc.line + ')'\n"
                                          "  if (this.sourceFile) message += ' in ' + this.sourceFile\n"
                                          "  let err = new SyntaxError(message)\n"
                                          "  throw err\n"
                                          "}\n"
                                          "pp.local = function() { this.raise(this.start, 'Local text here') }\n",
                                          Dialect::javascript)},
      {"src/state.js", scan_javascript("export class Parser {\n"
                                       "  fail(message, pos) { throw new RangeError(message + ' at ' + pos) }\n"
                                       "  check(mode) {\n"
                                       "    if (!this.input) this.fail('Nothing to read here', 0)\n"
                                       "    if (mode === 'strict mode') throw new Error('Bad mode ' + mode)\n"
                                       "  }\n"
                                       "}\n"
                                       "export function checkMode(mode) { if (mode === 'strict mode') throw new Error('Bad mode ' + mode) }\n"
                                       "checkMode('lax mode here')\n",
                                       Dialect::javascript)},
      {"src/statement.js", scan_javascript("import {Parser} from './state.js'\n"
                                           "const pp = Parser.prototype\n"
                                           "pp.parseThing = function() {\n"
                                           "  if (this.type !== 1) this.raise(this.start, 'Unexpected token here')\n"
                                           "  if (this.type === 2) this.raise(this.start, `Bad escape ${this.x} in name`)\n"
                                           "  if (this.type === 3) this.fail('Another file fails here', 1)\n"
                                           "}\n",
                                           Dialect::javascript)},
      {"src/other.js", scan_javascript("import {Parser} from './state.js'\n"
                                       "class Other { raise(p, m) { log(m) } go() { this.raise(1, 'Its own raise method') } }\n",
                                       Dialect::javascript)},
      {"src/far.js", scan_javascript("function g() { this.raise(1, 'Shares no import here') }\n", Dialect::javascript)},
  };
  auto [files, paths] = split(std::move(in));
  link_javascript_caller_messages(files, std::vector<bool>(files.size(), true), paths);
  auto alternatives = [](const model::ThrowSite& s) {
    Texts out;
    for (const auto& t : s.alternatives) out.push_back(template_text(t));
    return out;
  };
  ASSERT_EQ(files[0].sites.size(), 1u);
  EXPECT_EQ(template_text(files[0].sites[0].message), "{message} ({loc.line}) in {this.sourceFile}");
  EXPECT_EQ(alternatives(files[0].sites[0]),
            (Texts{"{message} ({loc.line})", "Local text here ({loc.line}) in {this.sourceFile}",
                   "Local text here ({loc.line})", "Unexpected token here ({loc.line}) in {this.sourceFile}",
                   "Unexpected token here ({loc.line})", "Bad escape {this.x} in name ({loc.line}) in {this.sourceFile}",
                   "Bad escape {this.x} in name ({loc.line})"}));
  ASSERT_EQ(files[1].sites.size(), 3u);
  EXPECT_EQ(alternatives(files[1].sites[0]), (Texts{"Nothing to read here at {pos}", "Another file fails here at {pos}"}));
  EXPECT_EQ(alternatives(files[1].sites[1]), Texts{});
  EXPECT_EQ(alternatives(files[1].sites[2]), Texts{});
}

// acorn's `pp.raiseRecoverable = pp.raise`: calls of the other name in
// other files reach the method's site too; an alias on another object
// reaches nothing.
TEST(JavaScriptImportedTexts, CallsOfAMethodsOtherNameGiveTheirTexts) {
  std::vector<std::pair<std::string, model::FileFacts>> in = {
      {"src/location.js", scan_javascript("import {Parser} from './state.js'\n"
                                          "const pp = Parser.prototype\n"
                                          "pp.raise = function(pos, message) {\n"
                                          "  message += ' (' + pos + ')'\n"
                                          "  throw new SyntaxError(message)\n"
                                          "}\n"
                                          "pp.raiseRecoverable = pp.raise\n"
                                          "other.warn = pp.raise\n",
                                          Dialect::javascript)},
      {"src/state.js", scan_javascript("export class Parser {}\n", Dialect::javascript)},
      {"src/statement.js", scan_javascript("import {Parser} from './state.js'\n"
                                           "const pp = Parser.prototype\n"
                                           "pp.parseThing = function() {\n"
                                           "  if (this.type === 1) this.raiseRecoverable(this.start, 'Recoverable text here')\n"
                                           "  if (this.type === 2) this.warn(this.start, 'Not the same object')\n"
                                           "}\n",
                                           Dialect::javascript)},
  };
  auto [files, paths] = split(std::move(in));
  link_javascript_caller_messages(files, std::vector<bool>(files.size(), true), paths);
  ASSERT_EQ(files[0].sites.size(), 1u);
  Texts alternatives;
  for (const auto& t : files[0].sites[0].alternatives) alternatives.push_back(template_text(t));
  EXPECT_EQ(alternatives, (Texts{"Recoverable text here ({pos})"}));
}

// terser's `croak(msg, line, col)` calls `js_error(msg, …)`, which throws,
// and `token_error(token, msg)` calls `croak(msg, …)`: their callers' texts
// are the site's variants, in its file; arktype's `throwParseError =
// message => throwError(message, ParseError)` is called by other files,
// whose texts count too. A caller that changes the parameter first hands
// on no text of its callers.
TEST(JavaScriptImportedTexts, CallsOfAFunctionHandingItsParameterOnGiveTheirTexts) {
  std::vector<std::pair<std::string, model::FileFacts>> in = {
      {"src/errors.ts", scan_javascript("export const throwError = (message: string, ctor = Error) => {\n"
                                        "  throw new ctor(message)\n"
                                        "}\n"
                                        "export const throwParseError = (message: string) => throwError(message, Error)\n"
                                        "function croak(msg, line) { throwError(msg, Error) }\n"
                                        "function tokenError(token, msg) { croak(msg, token.line) }\n"
                                        "function changed(msg) { msg = msg.trim(); croak(msg, 0) }\n"
                                        "function parse(s) {\n"
                                        "  if (!s) croak('Unexpected end of input', 1)\n"
                                        "  tokenError(s, `Unexpected token ${s}`)\n"
                                        "  changed('Not this one')\n"
                                        "}\n",
                                        Dialect::typescript)},
      {"src/scope.ts", scan_javascript("import {throwParseError} from './errors.ts'\n"
                                       "export function resolve(name: string) {\n"
                                       "  throwParseError(`A scope named ${name} already exists`)\n"
                                       "}\n",
                                       Dialect::typescript)},
  };
  auto [files, paths] = split(std::move(in));
  link_javascript_caller_messages(files, std::vector<bool>(files.size(), true), paths);
  ASSERT_EQ(files[0].sites.size(), 1u);
  Texts alternatives;
  for (const auto& t : files[0].sites[0].alternatives) alternatives.push_back(template_text(t));
  std::sort(alternatives.begin(), alternatives.end());
  EXPECT_EQ(alternatives, (Texts{"A scope named {name} already exists", "Unexpected end of input", "Unexpected token {s}"}));
}

// ky's ForceRetryError: `super(options?.code ? `Forced retry: ${options.code}`
// : 'Forced retry', …)` shows either text; the first is the message, the
// other a variant. A choice with a side that is no text stays unread.
TEST(JavaScriptImportedTexts, AConstructorChoosingBetweenTwoTextsShowsEach) {
  auto f = ts("export class ForceRetryError extends KyError {\n"
              "  constructor(options?: ForceRetryOptions) {\n"
              "    const cause = options?.cause ? options.cause : undefined;\n"
              "    super(options?.code ? `Forced retry: ${options.code}` : 'Forced retry', cause ? {cause} : undefined);\n"
              "  }\n"
              "}\n"
              "export class Other extends Error {\n"
              "  constructor(options) { super(options ? options.text : 'No text given'); }\n"
              "}\n"
              "export function retry(x) {\n"
              "  if (x.force) throw new ForceRetryError(x.options);\n"
              "  throw new Other(x.options);\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(template_text(f.sites[0].message), "Forced retry: {x.options.code}");
  ASSERT_EQ(f.sites[0].alternatives.size(), 1u);
  EXPECT_EQ(template_text(f.sites[0].alternatives[0]), "Forced retry");
  EXPECT_EQ(template_text(f.sites[1].message), "{x.options}");
}

}  // namespace
}  // namespace errdex::scan
