// The JavaScript/TypeScript frontend on small sources: each kind of site,
// each way a message is written, and input that is not JavaScript at all.
#include "scan/javascript/frontend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "scan/conditional_text.h"
#include "scan/python/frontend.h"
#include "scan/template.h"

namespace errdex::scan {
namespace {

model::FileFacts js(const std::string& src) { return scan_javascript(src, Dialect::javascript); }

TEST(JavaScriptFrontend, ThrowNewWithTemplateLiteral) {
  auto f = js("class SemVer {\n  constructor (version) {\n    if (typeof version !== 'string') {\n"
              "      throw new TypeError(`Invalid version. Must be a string. Got type \"${typeof version}\".`)\n"
              "    }\n  }\n}\n");
  ASSERT_EQ(f.sites.size(), 1u);
  const auto& s = f.sites[0];
  EXPECT_EQ(s.kind, "raise");
  EXPECT_EQ(s.error_class, "TypeError");
  EXPECT_EQ(s.line, 4);
  EXPECT_EQ(s.function, "constructor");
  EXPECT_EQ(s.class_name, "SemVer");
  EXPECT_EQ(template_text(s.message), "Invalid version. Must be a string. Got type \"{typeof version}\".");
  ASSERT_EQ(s.guards.size(), 1u);
  EXPECT_EQ(s.guards[0].kind, "if");
  EXPECT_EQ(s.guards[0].condition, "typeof version !== 'string'");
}

TEST(JavaScriptFrontend, ConcatenationEscapesAndCallWithoutNew) {
  auto f = js("function ms(val) {\n  throw Error('val is not a non-empty string or a valid number. val=' +\n"
              "    JSON.stringify(val) + '\\n\\u00e9')\n}\n");
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(f.sites[0].error_class, "Error");
  EXPECT_EQ(f.sites[0].message.style, "concat");
  EXPECT_EQ(template_text(f.sites[0].message),
            "val is not a non-empty string or a valid number. val={JSON.stringify(val)}\n\xc3\xa9");
  EXPECT_EQ(f.sites[0].function, "ms");
}

TEST(JavaScriptFrontend, ErrorMadeEarlierWithCodeAndRethrowOfCaught) {
  auto f = js("const parse = (s) => {\n  const msg = 'bad input: ' + s\n  const err = new RangeError(msg)\n"
              "  err.code = 'ERR_BAD'\n  throw err\n}\n"
              "function g() { try { h() } catch (e) { throw e } }\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(f.sites[0].error_class, "RangeError");
  EXPECT_EQ(f.sites[0].line, 5);
  EXPECT_EQ(f.sites[0].function, "parse");
  EXPECT_EQ(template_text(f.sites[0].message), "bad input: {s}");
  EXPECT_EQ(f.sites[0].message.style, "variable");
  ASSERT_FALSE(f.sites[0].args.empty());
  EXPECT_EQ(f.sites[0].args.back(), "code='ERR_BAD'");
  EXPECT_TRUE(f.sites[1].reraise);
  EXPECT_EQ(f.sites[1].error_class, "");
}

// `err.message = \`…${err.message}\`; throw err`: the caught error (or one
// made above) thrown with a message the function wrote, as ejs and many
// loaders do. The last such assignment before the throw, in a block the
// throw is in, is its message, and `+=` adds to the message it had; one in
// a branch of its own leaves the message as it was.
TEST(JavaScriptFrontend, AMessageSetBeforeTheThrowIsTheMessageThrown) {
  auto f = js("function load(file) {\n"
              "  try { return read(file) } catch (err) {\n"
              "    err.message = `Cannot load config ${file}: ${err.message}`\n"
              "    throw err\n"
              "  }\n"
              "}\n"
              "function render(name, line) {\n"
              "  const err = new SyntaxError('unexpected token')\n"
              "  err.message = name + ':' + line + ' ' + err.message\n"
              "  throw err\n"
              "}\n"
              "function maybe(file, quiet) {\n"
              "  try { return read(file) } catch (err) {\n"
              "    if (!quiet) { err.message = 'In ' + file + ': ' + err.message }\n"
              "    throw err\n"
              "  }\n"
              "}\n"
              "function at(where) {\n"
              "  try { step() } catch (e) {\n"
              "    e.message += ` (at ${where})`\n"
              "    throw e\n"
              "  }\n"
              "  const err = new Error('stopped')\n"
              "  err.message += '!'\n"
              "  throw err\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 5u);
  EXPECT_TRUE(f.sites[0].reraise);
  EXPECT_EQ(f.sites[0].error_class, "");
  EXPECT_EQ(template_text(f.sites[0].message), "Cannot load config {file}: {err.message}");
  EXPECT_EQ(f.sites[1].error_class, "SyntaxError");
  EXPECT_EQ(template_text(f.sites[1].message), "{name}:{line} {err.message}");
  EXPECT_TRUE(f.sites[2].reraise);
  EXPECT_EQ(template_text(f.sites[2].message), "");
  EXPECT_EQ(template_text(f.sites[3].message), "{e.message} (at {where})");
  EXPECT_EQ(template_text(f.sites[4].message), "stopped!");
}

// A callback's error parameter thrown (`if (err) throw err`) is an error
// handed on, of whatever class it has: no class named after the parameter.
// One the function makes itself is still read.
TEST(JavaScriptFrontend, AGivenErrorThrownIsHandedOn) {
  auto f = js("function h() {\n"
              "  fs.readFile('x', (err, data) => {\n"
              "    if (err) throw err\n"
              "  })\n"
              "}\n"
              "function g(err) {\n"
              "  err = new RangeError('made here')\n"
              "  throw err\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(f.sites[0].error_class, "");
  EXPECT_TRUE(f.sites[0].reraise);
  EXPECT_EQ(f.sites[1].error_class, "RangeError");
  EXPECT_FALSE(f.sites[1].reraise);
}

// An error got from elsewhere and thrown (`const err = doc.validateSync()`,
// a `let firstError` a callback set, `throw result.error`) is handed on:
// no class named after the variable. One made by `new` in the function
// around it (a `.catch` callback's closure), or by a helper of the file,
// is read; a capitalised name stays a class.
TEST(JavaScriptFrontend, AnErrorGotFromElsewhereIsHandedOn) {
  auto f = js("function a(doc) {\n"
              "  const err = doc.validateSync()\n"
              "  if (err != null) throw err\n"
              "}\n"
              "async function b(items) {\n"
              "  let firstError = null\n"
              "  await run(items, (e) => { firstError = e })\n"
              "  if (firstError) throw firstError\n"
              "}\n"
              "function c(schema, data) {\n"
              "  const result = schema.safeParse(data)\n"
              "  throw result.error\n"
              "}\n"
              "function d(args) {\n"
              "  const error = new ZodError([])\n"
              "  return parse(args).catch((e) => {\n"
              "    error.addIssue(e)\n"
              "    throw error\n"
              "  })\n"
              "}\n"
              "function invalid(name) { return new TypeError(`invalid ${name}`) }\n"
              "function e(x) {\n"
              "  const problem = invalid('option')\n"
              "  throw problem\n"
              "}\n"
              "function g() { throw Errors.TIMEOUT }\n"
              "function h() { throw AbortSignalError }\n"
              "Query.prototype.exec = function() { if (this.error()) throw this.error() }\n"
              "function k(q) { throw q[kUpdateError] }\n"
              "function m(q) { throw q.makeError('bad') }\n");
  ASSERT_EQ(f.sites.size(), 10u);
  for (int i : {0, 1, 2, 7, 8}) {
    EXPECT_EQ(f.sites[i].error_class, "") << i;
    EXPECT_TRUE(f.sites[i].reraise) << i;
  }
  EXPECT_EQ(f.sites[3].error_class, "ZodError");
  EXPECT_FALSE(f.sites[3].reraise);
  EXPECT_EQ(f.sites[4].error_class, "TypeError");
  EXPECT_EQ(template_text(f.sites[4].message), "invalid option");
  EXPECT_EQ(f.sites[5].error_class, "Errors.TIMEOUT");
  EXPECT_EQ(f.sites[6].error_class, "AbortSignalError");
  EXPECT_FALSE(f.sites[6].reraise);
  EXPECT_EQ(f.sites[9].error_class, "q.makeError");
  EXPECT_EQ(template_text(f.sites[9].message), "bad");
}

// `throw "URI too long"` throws a string: Node prints it with no class.
TEST(JavaScriptFrontend, AThrownStringIsAMessageWithoutClass) {
  auto f = js("function parse(str) {\n  if (str.length > 8000) throw \"URI too long\";\n"
              "  if (!str) throw `empty input at ${str}`\n}\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(f.sites[0].error_class, "");
  EXPECT_EQ(template_text(f.sites[0].message), "URI too long");
  EXPECT_FALSE(f.sites[0].reraise);
  EXPECT_EQ(f.sites[1].error_class, "");
  EXPECT_EQ(template_text(f.sites[1].message), "empty input at {str}");
}

// `new Ctor(…)` where `Ctor` is a choice with a class to fall back on
// (`props.ErrorConstructor || ValidatorError`), or `new (opts.Err ??
// ParseError)(…)`: that class.
TEST(JavaScriptFrontend, AConstructorChosenWithAFallbackIsTheFallbackClass) {
  auto f = js("function v(props) {\n"
              "  const ErrorConstructor = props.ErrorConstructor || ValidatorError\n"
              "  throw new ErrorConstructor('validation failed')\n"
              "}\n"
              "function p(opts) { throw new (opts.Err ?? errors.ParseError)('bad input') }\n"
              "function q(opts) { throw new (opts.Err ?? makeError)('bad') }\n"
              "const r = (Err) => (opts) => { throw new (opts.Err ?? Err)('bad') }\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(f.sites[0].error_class, "ValidatorError");
  EXPECT_EQ(template_text(f.sites[0].message), "validation failed");
  EXPECT_EQ(f.sites[1].error_class, "errors.ParseError");
  EXPECT_EQ(f.sites[2].error_class, "(opts.Err ?? makeError)");
  EXPECT_EQ(f.sites[3].error_class, "(opts.Err ?? Err)");
}

TEST(JavaScriptFrontend, RejectionsCallbacksEmitAndWarnings) {
  auto f = js("function load(p, cb) {\n"
              "  if (!p) return cb(new TypeError('path required'))\n"
              "  return new Promise((resolve, reject) => {\n"
              "    reject(new Error(`cannot load ${p}`))\n"
              "  })\n}\n"
              "async function f() { return Promise.reject(new SyntaxError('nope')) }\n"
              "stream.emit('error', new Error('closed'))\n"
              "process.emitWarning('old api', 'DeprecationWarning')\n"
              "list.push(new Error('not a site'))\n");
  ASSERT_EQ(f.sites.size(), 5u);
  EXPECT_EQ(f.sites[0].error_class, "TypeError");
  EXPECT_EQ(f.sites[0].line, 2);
  EXPECT_EQ(template_text(f.sites[1].message), "cannot load {p}");
  EXPECT_EQ(f.sites[1].line, 4);
  EXPECT_EQ(f.sites[2].error_class, "SyntaxError");
  EXPECT_EQ(template_text(f.sites[3].message), "closed");
  EXPECT_EQ(f.sites[4].kind, "warn");
  EXPECT_EQ(f.sites[4].error_class, "DeprecationWarning");
}

// An error handed to a function that throws it when no callback was
// given: a function of the file throwing its first parameter, or a
// variable holding such a function or the caller's callback. A function
// that only stores what it is given is not a site.
TEST(JavaScriptFrontend, AnErrorHandedToAFunctionThatThrowsIt) {
  auto f = js("function sign(payload, callback) {\n"
              "  function failure(err) {\n"
              "    if (callback) return callback(err)\n"
              "    throw err\n"
              "  }\n"
              "  if (!payload) return failure(new Error('payload is required'))\n"
              "}\n"
              "function verify(token, callback) {\n"
              "  let done\n"
              "  if (callback) { done = callback } else {\n"
              "    done = function (err, data) { if (err) throw err; return data }\n"
              "  }\n"
              "  getKey(token, function (err, key) {\n"
              "    if (!key) return done(new TokenError('jwt malformed'))\n"
              "  })\n"
              "}\n"
              "function keep(err) { errors.push(err) }\n"
              "keep(new Error('not a site'))\n");
  std::vector<std::string> made;  // the sites of an error made here (not the `throw err`s)
  for (const auto& site : f.sites)
    if (!site.error_class.empty())
      made.push_back(std::to_string(site.line) + " " + site.error_class + ": " + template_text(site.message));
  EXPECT_EQ(made, (std::vector<std::string>{"6 Error: payload is required", "14 TokenError: jwt malformed"}));
}

TEST(JavaScriptFrontend, HelperReturningTheErrorIsReadThrough) {
  auto f = js("function invalid(name) { return new TypeError(`invalid ${name}`) }\n"
              "function check(x) { if (!x) throw invalid('option') }\n");
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(f.sites[0].error_class, "TypeError");
  EXPECT_EQ(template_text(f.sites[0].message), "invalid option");
  EXPECT_EQ(f.sites[0].line, 2);
}

// sequelize's dialects throw `this.formatError(err)`, a method of the
// query class returning the error it builds: read through as a function's.
// Not in a plain function (its `this` is its own) nor an object literal's
// method, and not a method of another class.
TEST(JavaScriptFrontend, AMethodOfItsClassReturningTheErrorIsReadThrough) {
  auto f = js("class Query {\n"
              "  formatError(err) {\n"
              "    if (err.code === '23505') { return new UniqueConstraintError({ parent: err }) }\n"
              "    return new DatabaseError(`query failed: ${err.message}`)\n"
              "  }\n"
              "  async run(sql) {\n"
              "    try { await this.client.query(sql) } catch (error) { throw this.formatError(error) }\n"
              "    return rows.map(r => { if (!r) throw this.formatError(r); return r })\n"
              "  }\n"
              "  other() { function inner() { throw this.formatError(1) } }\n"
              "}\n"
              "class Elsewhere { run() { throw this.formatError(2) } }\n"
              "const o = { formatError() { return new Error('x') }, run() { throw this.formatError(3) } }\n");
  ASSERT_EQ(f.sites.size(), 5u);
  for (int i : {0, 1}) {
    EXPECT_EQ(f.sites[i].error_class, "DatabaseError") << i;
    EXPECT_EQ(template_text(f.sites[i].message), "query failed: {err.message}") << i;
  }
  for (int i : {2, 3, 4}) EXPECT_EQ(f.sites[i].error_class, "this.formatError") << i;
}

// Errors built from an options object (sequelize's `new
// UniqueConstraintError({ message, errors, cause: err })`): the `message`
// property is the message, written out or shorthand for a local; options
// without one give no message, not the object's text.
TEST(JavaScriptFrontend, AnOptionsObjectsMessageIsTheMessage) {
  auto f = js("function a(err) {\n"
              "  const message = `Validation error on ${err.table}`\n"
              "  throw new UniqueConstraintError({ message, errors, cause: err })\n"
              "}\n"
              "function b() { throw new ValidationError({ 'message': 'bad input', code: 3 }) }\n"
              "function c(err) { throw new ForeignKeyConstraintError({ cause: err, fields: null }) }\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(template_text(f.sites[0].message), "Validation error on {err.table}");
  EXPECT_EQ(template_text(f.sites[1].message), "bad input");
  EXPECT_TRUE(f.sites[2].message.parts.empty());
  EXPECT_EQ(f.sites[2].error_class, "ForeignKeyConstraintError");
}

// json5's parser throws `invalidChar(read())`, whose two returns go through
// `syntaxError(message)`, which makes the SyntaxError: the class and both
// messages are read through the two helpers, the unconditional return
// first; an arrow's body is its return.
TEST(JavaScriptFrontend, AHelperReturningAnotherHelpersErrorIsReadThrough) {
  auto f = js("function invalidChar (c) {\n"
              "  if (c === undefined) { return syntaxError(`JSON5: invalid end of input at ${line}:${column}`) }\n"
              "  return syntaxError(`JSON5: invalid character '${formatChar(c)}' at ${line}:${column}`)\n"
              "}\n"
              "function syntaxError (message) {\n"
              "  const err = new SyntaxError(message)\n  err.lineNumber = line\n  return err\n}\n"
              "const fail = (what) => new RangeError(what)\n"
              "function lex () { throw invalidChar(read()) }\n"
              "function value () { throw fail('no value') }\n"
              "function loop (n) { return loop(n) }\n"
              "function never () { throw loop(1) }\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].error_class, "SyntaxError");
  // The return the function falls through to is the usual message.
  EXPECT_EQ(template_text(f.sites[0].message), "JSON5: invalid character '{formatChar(c)}' at {line}:{column}");
  EXPECT_TRUE(f.sites[0].message.from_literals);
  ASSERT_EQ(f.sites[0].alternatives.size(), 1u);
  EXPECT_EQ(template_text(f.sites[0].alternatives[0]), "JSON5: invalid end of input at {line}:{column}");
  EXPECT_EQ(f.sites[1].error_class, "RangeError");
  EXPECT_EQ(template_text(f.sites[1].message), "no value");
  EXPECT_TRUE(f.sites[1].message.from_literals);
  EXPECT_EQ(f.sites[2].error_class, "loop") << "a function returning itself is no helper";
}

// axios's fetch adapter: `throw Object.assign(new AxiosError(…), {cause})`
// throws the AxiosError; `throw AxiosError.from(err, code)` is the class's
// factory. A builtin namespace's method is no factory.
TEST(JavaScriptFrontend, ObjectAssignAndClassFactoriesThrowTheirClass) {
  auto f = js("function fail (err, config) {\n"
              "  if (err.name === 'TypeError') {\n"
              "    throw Object.assign(new AxiosError('Network Error', AxiosError.ERR_NETWORK, config), {cause: err})\n"
              "  }\n"
              "  if (config.strict) throw AxiosError.from(err, err && err.code, config)\n"
              "  throw JSON.parse(config.reply)\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].error_class, "AxiosError");
  EXPECT_EQ(template_text(f.sites[0].message), "Network Error");
  EXPECT_EQ(f.sites[1].error_class, "AxiosError");
  EXPECT_EQ(f.sites[2].error_class, "JSON.parse");
}

// knex's runner: `throw Object.assign(cancelError, {…})` throws the error
// the name holds: made before (its class and message), or got from
// elsewhere (handed on); never a class named `Object.assign`.
TEST(JavaScriptFrontend, ObjectAssignOfANameThrowsWhatTheNameHolds) {
  auto f = js("async function run (query, err) {\n"
              "  const cancelError = new KnexTimeoutError('Defined query timeout exceeded')\n"
              "  if (query.cancel) throw Object.assign(cancelError, {sql: query.sql})\n"
              "  throw Object.assign(err, {sql: query.sql})\n"
              "}\n"
              "function timeout (error, ms) {\n"
              "  throw Object.assign(error, {message: `Defined query timeout of ${ms}ms exceeded`, ms})\n"
              "}\n"
              "class R { fail () { throw Object.assign(this.lastError, {retry: false}) } }\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(f.sites[0].error_class, "KnexTimeoutError");
  EXPECT_EQ(template_text(f.sites[0].message), "Defined query timeout exceeded");
  EXPECT_EQ(f.sites[1].error_class, "");
  EXPECT_TRUE(f.sites[1].reraise);
  EXPECT_EQ(f.sites[2].error_class, "");
  EXPECT_EQ(template_text(f.sites[2].message), "Defined query timeout of {ms}ms exceeded");
  EXPECT_EQ(f.sites[3].error_class, "");
  EXPECT_TRUE(f.sites[3].reraise);
}

// mocha's lib/errors.js: functions that make an error and return it
// (`var err = new TypeError(message); err.code = …; return err`, or hand on
// another's), exported for the files that throw what they return: the
// thrown class is the error's, its message the function's argument. A
// function returning no error, or named as a class, is no factory.
TEST(JavaScriptFrontend, AnotherFilesErrorFactoryThrowsWhatItReturns) {
  std::vector<model::FileFacts> files;
  files.push_back(js("function createInvalidArgumentTypeError(message, argument, expected) {\n"
                     "  var err = new TypeError(message);\n"
                     "  err.code = 'ERR_MOCHA_INVALID_ARG_TYPE';\n"
                     "  return err;\n"
                     "}\n"
                     "function createMissingArgumentError(message, argument, expected) {\n"
                     "  return createInvalidArgumentTypeError(message, argument, expected);\n"
                     "}\n"
                     "exports.createForbidden = function (mocha) {\n"
                     "  return new Error(`.only forbidden by ${mocha}`);\n"
                     "};\n"
                     "function formatError(e) { return e.message + '!' }\n"
                     "module.exports = { createInvalidArgumentTypeError, createMissingArgumentError };\n"));
  files.push_back(js("const { createMissingArgumentError, createForbidden } = require('./errors');\n"
                     "function lookup(filepath, extensions) {\n"
                     "  if (!extensions) throw createMissingArgumentError(`Argument '${extensions}' required`, 'extensions', 'array');\n"
                     "  throw createForbidden(filepath);\n"
                     "}\n"
                     "function other(e) { throw formatError(e) }\n"));
  ASSERT_EQ(files[0].classes.size(), 3u);
  EXPECT_TRUE(files[0].classes[0].factory);
  EXPECT_EQ(files[0].classes[0].bases, std::vector<std::string>{"TypeError"});
  EXPECT_EQ(files[0].classes[1].name, "createMissingArgumentError");
  EXPECT_EQ(files[0].classes[2].name, "createForbidden");
  link_javascript(files, {true, true});
  const auto& s = files[1].sites;
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].error_class, "TypeError");
  EXPECT_EQ(template_text(s[0].message), "Argument '{extensions}' required");
  EXPECT_EQ(s[1].error_class, "Error");
  EXPECT_EQ(template_text(s[1].message), ".only forbidden by {filepath}");
  EXPECT_EQ(s[2].error_class, "formatError");
}

// ky's `const invalidSchemaMessage = '…'` at the top of the module, thrown
// in a method: the message is the constant's. Not when a parameter or a
// local of an enclosing function holds the name, nor when the module
// assigns it twice.
TEST(JavaScriptFrontend, AModuleConstantIsTheMessageAFunctionThrows) {
  auto f = js("const invalidSchemaMessage = 'The `schema` argument must follow the spec';\n"
              "let changing = 'first';\n"
              "changing = 'second';\n"
              "class Ky {\n"
              "  validate (schema) {\n"
              "    if (!schema) throw new TypeError(invalidSchemaMessage);\n"
              "    throw new Error(changing);\n"
              "  }\n"
              "}\n"
              "function shadow (invalidSchemaMessage) { throw new TypeError(invalidSchemaMessage) }\n"
              "function outer () {\n"
              "  const invalidSchemaMessage = 'local';\n"
              "  return () => { throw new RangeError(invalidSchemaMessage) }\n"
              "}\n"
              "export default function check () { throw new TypeError(invalidSchemaMessage) }\n");
  ASSERT_EQ(f.sites.size(), 5u);
  EXPECT_EQ(template_text(f.sites[4].message), "The `schema` argument must follow the spec");
  EXPECT_EQ(template_text(f.sites[0].message), "The `schema` argument must follow the spec");
  EXPECT_TRUE(f.sites[0].message.from_literals);
  EXPECT_FALSE(f.sites[1].message.from_literals);
  EXPECT_EQ(template_text(f.sites[2].message), "{invalidSchemaMessage}");
  EXPECT_EQ(template_text(f.sites[3].message), "local");
}

TEST(JavaScriptFrontend, ErrorClassesWithBasesAndTheirMessages) {
  auto f = js("class AppError extends Error {}\n"
              "class InvalidVersion extends AppError {\n"
              "  constructor(v) { super(`Invalid Version: ${v}`) }\n}\n"
              "function p(x) { throw new InvalidVersion(x) }\n");
  ASSERT_EQ(f.classes.size(), 2u);
  EXPECT_EQ(f.classes[0].name, "AppError");
  EXPECT_EQ(f.classes[0].bases, std::vector<std::string>{"Error"});
  EXPECT_EQ(f.classes[1].bases, std::vector<std::string>{"AppError"});
  ASSERT_EQ(f.sites.size(), 1u);
  // What the constructor gives `super` is the message, not the argument.
  EXPECT_EQ(template_text(f.sites[0].message), "Invalid Version: {x}");
  EXPECT_TRUE(f.sites[0].alternatives.empty());
}

TEST(JavaScriptFrontend, MethodsAndPrototypeAssignmentsNameTheFunction) {
  auto f = js("Foo.prototype.bar = function () { throw new Error('a') }\n"
              "const o = { baz: () => { throw new Error('b') } }\n"
              "class K { #m() { throw new Error('c') } static s() { throw new Error('d') } }\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(f.sites[0].function, "bar");
  EXPECT_EQ(f.sites[1].function, "baz");
  EXPECT_EQ(f.sites[2].function, "#m");
  EXPECT_EQ(f.sites[3].function, "s");
  EXPECT_EQ(f.sites[3].class_name, "K");
}

TEST(JavaScriptFrontend, TypeScriptAndTsx) {
  auto t = scan_javascript("export class E extends Base<T> implements I {}\n"
                           "function f(x: number, y?: string): never {\n"
                           "  throw new E(`bad ${x as number}`) as unknown as Error\n}\n"
                           "const c = <T,>(v: T) => { throw new Error(<string>'cast') }\n",
                           Dialect::typescript);
  ASSERT_EQ(t.classes.size(), 1u);
  EXPECT_EQ(t.classes[0].bases, std::vector<std::string>{"Base"});
  ASSERT_EQ(t.sites.size(), 2u);
  EXPECT_EQ(t.sites[0].error_class, "E");
  EXPECT_EQ(t.sites[0].function_params, "x: number, y?: string");
  EXPECT_EQ(template_text(t.sites[0].message), "bad {x as number}");
  EXPECT_EQ(template_text(t.sites[1].message), "cast");
  auto x = scan_javascript("export const A = () => { if (!ok) throw new Error('no'); return <div>{ok}</div> }\n", Dialect::tsx);
  ASSERT_EQ(x.sites.size(), 1u);
  EXPECT_FALSE(x.had_syntax_errors);
}

TEST(JavaScriptFrontend, FormatCalls) {
  auto f = js("const util = require('util')\nfunction f(a, n) { throw new Error(util.format('bad %s at %i%%', a, n)) }\n");
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(template_text(f.sites[0].message), "bad {a} at {n}%");
  EXPECT_EQ(template_pattern(f.sites[0].message), "bad (.+?) at (-?\\d+)%");
}

TEST(JavaScriptFrontend, BabelConcatCalls) {
  // Babel compiles `${x}` templates to String.prototype.concat.
  auto f = js("function a(input) { throw new TypeError(\"Expected a string but received a \".concat(input, \" here\")) }\n"
              "function b(x) { throw new Error(x.concat('!')) }\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(template_text(f.sites[0].message), "Expected a string but received a {input} here");
  EXPECT_EQ(f.sites[1].message.style, "expression");
}

TEST(JavaScriptFrontend, MessagesBuiltWithPlusEquals) {
  // path-to-regexp's PathError: a parameter, one conditional append, one
  // on every path. The message with the conditional text, and without it.
  auto f = js("class PathError extends TypeError {\n"
              "  constructor(message, originalPath) {\n"
              "    let text = message;\n"
              "    if (originalPath) text += `: ${originalPath}`;\n"
              "    text += `; visit https://x.test for info`;\n"
              "    super(text);\n  }\n}\n"
              "function p(s) { throw new PathError(`Missing name at ${s.i}`, s.path) }\n"
              "function q(n) {\n  let m = 'bad value ' + n;\n  if (n < 0) m += ' (negative)';\n  else m += ' (too big)';\n"
              "  m += '!';\n  throw new RangeError(m);\n}\n");
  ASSERT_EQ(f.classes.size(), 1u);
  ASSERT_EQ(f.classes[0].display.size(), 2u);
  EXPECT_EQ(template_text(f.classes[0].display[0]), "{message}: {originalPath}; visit https://x.test for info");
  EXPECT_EQ(template_text(f.classes[0].display[1]), "{message}; visit https://x.test for info");
  ASSERT_EQ(f.sites.size(), 2u);
  std::vector<std::string> shown{template_text(f.sites[0].message)};
  for (const auto& a : f.sites[0].alternatives) shown.push_back(template_text(a));
  EXPECT_NE(std::find(shown.begin(), shown.end(), "Missing name at {s.i}: {s.path}; visit https://x.test for info"), shown.end());
  EXPECT_NE(std::find(shown.begin(), shown.end(), "Missing name at {s.i}; visit https://x.test for info"), shown.end());
  // An if/else appending on both branches is one interpolation; the
  // variant leaves the branch out.
  EXPECT_EQ(template_text(f.sites[1].message), "bad value {n}{m}!");
  ASSERT_EQ(f.sites[1].alternatives.size(), 1u);
  EXPECT_EQ(template_text(f.sites[1].alternatives[0]), "bad value {n}!");
}

TEST(JavaScriptFrontend, CodeKeyedTables) {
  // Node's lib/internal/errors.js shape: E(code, message, Base) entries in
  // one file, `new ERR_X(…)` / `new codes.ERR_X(…)` in others.
  std::vector<model::FileFacts> files;
  files.push_back(js("const codes = {}\nfunction E(code, message, Base) { codes[code] = makeClass(code, message, Base) }\n"
                     "E('ERR_STREAM_DESTROYED', 'Cannot call %s after a stream was destroyed', Error)\n"
                     "E('ERR_INVALID_ARG_TYPE', (name, actual) => `The \"${name}\" argument must be a string. Received ${actual}`,\n"
                     "  TypeError)\n"
                     "E('ERR_OUT_OF_RANGE', function (name, range) { return 'The value of \"' + name + '\" is out of range. It must be ' + range }, RangeError, Error)\n"
                     "E('NOT A CODE', 'x', Error)\nE('ERR_NO_BASE', 'x', notAClass)\n"
                     "module.exports = { codes }\n"));
  files.push_back(js("const { codes: { ERR_STREAM_DESTROYED }, codes } = require('./errors')\n"
                     "function w(s, cb) {\n  if (s.destroyed) throw new ERR_STREAM_DESTROYED('write')\n"
                     "  if (typeof s.path !== 'string') throw new codes.ERR_INVALID_ARG_TYPE('path', s.path)\n"
                     "  if (s.n > 9) cb(new codes.ERR_OUT_OF_RANGE('n', '<= 9'))\n"
                     "  throw new ERR_STREAM_DESTROYED()\n}\n"));
  ASSERT_EQ(files[0].classes.size(), 3u);
  EXPECT_EQ(files[0].classes[0].code, "ERR_STREAM_DESTROYED");
  EXPECT_EQ(files[0].classes[1].bases, std::vector<std::string>{"TypeError"});
  ASSERT_EQ(files[1].sites.size(), 4u);
  link_javascript(files, {true, true});
  const auto& s = files[1].sites;
  EXPECT_EQ(s[0].error_class, "Error");
  EXPECT_EQ(template_text(s[0].message), "Cannot call write after a stream was destroyed");
  EXPECT_EQ(s[0].args.back(), "code='ERR_STREAM_DESTROYED'");
  EXPECT_EQ(s[1].error_class, "TypeError");
  EXPECT_EQ(template_text(s[1].message), "The \"path\" argument must be a string. Received {s.path}");
  EXPECT_EQ(s[2].error_class, "RangeError");
  EXPECT_EQ(template_text(s[2].message), "The value of \"n\" is out of range. It must be <= 9");
  // No arguments: util.format is not called, the template shows as is.
  EXPECT_EQ(template_text(s[3].message), "Cannot call %s after a stream was destroyed");
  // Another language's files are not JavaScript's.
  std::vector<model::FileFacts> python = {files[0], js("throw new ERR_STREAM_DESTROYED('x')\n")};
  link_javascript(python, {true, false});
  EXPECT_EQ(python[1].sites[0].error_class, "ERR_STREAM_DESTROYED");
}

// @fastify/error's `createError(code, message, statusCode = 500, Base =
// Error)`, as fastify's lib/errors.js calls it: a status before the class,
// or no class at all.
TEST(JavaScriptFrontend, CodeKeyedTablesWithAStatusCode) {
  std::vector<model::FileFacts> files;
  files.push_back(js("const createError = require('@fastify/error')\n"
                     "const codes = {\n"
                     "  FST_ERR_NOT_FOUND: createError('FST_ERR_NOT_FOUND', 'Not Found', 404),\n"
                     "  FST_ERR_QSP_NOT_FN: createError('FST_ERR_QSP_NOT_FN', \"querystringParser should be a function, got '%s'\", 500, TypeError),\n"
                     "  FST_ERR_STARTED: createError('FST_ERR_STARTED', 'Fastify instance is already listening. %s'),\n"
                     "  FST_ERR_ODD: createError('FST_ERR_ODD', 'x', 500, 'notAClass')\n"
                     "}\nmodule.exports = codes\n"));
  files.push_back(js("const { FST_ERR_QSP_NOT_FN, FST_ERR_STARTED } = require('./errors')\n"
                     "function f(o) {\n  if (typeof o.qsp !== 'function') throw new FST_ERR_QSP_NOT_FN(typeof o.qsp)\n"
                     "  throw new FST_ERR_STARTED('Cannot add route')\n}\n"));
  ASSERT_EQ(files[0].classes.size(), 3u);
  EXPECT_EQ(files[0].classes[0].bases, std::vector<std::string>{"Error"});
  link_javascript(files, {true, true});
  const auto& s = files[1].sites;
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].error_class, "TypeError");
  EXPECT_EQ(template_text(s[0].message), "querystringParser should be a function, got '{typeof o.qsp}'");
  EXPECT_EQ(s[1].error_class, "Error");
  EXPECT_EQ(template_text(s[1].message), "Fastify instance is already listening. Cannot add route");
}

// Node's assert module throws `AssertionError [ERR_ASSERTION]: msg` when a
// check fails (koa: `assert(Number.isInteger(code), 'status code must be a
// number')`): a site where the file requires or imports it, with the
// check as an assertion's guard. Another function named assert, a check
// without a message (Node writes its own) and an error object given in
// its place are not read.
TEST(JavaScriptFrontend, NodeAssertCallsAreSites) {
  auto f = js("const assert = require('node:assert')\n"
              "function status(code) {\n"
              "  assert(Number.isInteger(code), 'status code must be a number')\n"
              "  assert.ok(code >= 100, `invalid status code: ${code}`)\n"
              "  assert.strictEqual(typeof code, 'number', 'not a number')\n"
              "  assert(code)\n"
              "  assert(code, new TypeError('bad'))\n"
              "  assert.deepEqual(code, 1, 'left out')\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].kind, "assert");
  EXPECT_EQ(f.sites[0].error_class, "AssertionError");
  EXPECT_EQ(template_text(f.sites[0].message), "status code must be a number");
  ASSERT_FALSE(f.sites[0].guards.empty());
  EXPECT_EQ(f.sites[0].guards[0].kind, "assert");
  EXPECT_EQ(f.sites[0].guards[0].condition, "Number.isInteger(code)");
  EXPECT_EQ(template_text(f.sites[1].message), "invalid status code: {code}");
  EXPECT_EQ(f.sites[2].guards[0].condition, "typeof code === 'number'");
  EXPECT_EQ(f.sites[2].function, "status");
  auto esm = js("import assert from 'assert'\nexport function f(x) { assert(x > 0, 'x must be positive') }\n");
  ASSERT_EQ(esm.sites.size(), 1u);
  // A function of its own named assert is not Node's.
  EXPECT_TRUE(js("function assert(c, m) { if (!c) console.log(m) }\nassert(1 > 2, 'no')\n").sites.empty());
}

// ajv's `class MissingRefError extends Error {}` sets no name: Node prints an
// uncaught one, and console.error one, as `MissingRefError: …` (`PathError
// [TypeError]: …` for a base of another name), what a user sees, and only
// its `stack` and toString() as `Error: …`, which matching reads as the
// site's class too. The site keeps the class as written.
TEST(JavaScriptFrontend, AClassThatDoesNotNameItselfKeepsItsName) {
  std::vector<model::FileFacts> files;
  files.push_back(js("class PathError extends TypeError { constructor(m) { super(m) } }\n"
                     "class Named extends Error { constructor(m) { super(m); this.name = 'Named' } }\n"
                     "class Field extends RangeError { name = 'Field' }\n"
                     "class Deep extends PathError {}\nclass Lib extends SomeLibError {}\n"
                     "function Old(m) {}\nclass Proto extends Error {}\nProto.prototype.name = 'Proto'\n"
                     "export default class MissingRefError extends Error {}\n"));
  files.push_back(js("function f() {\n  throw new PathError('a')\n  throw new Named('b')\n  throw new Field('c')\n"
                     "  throw new Deep('d')\n  throw new Lib('e')\n  throw new Proto('f')\n"
                     "  throw new MissingRefError('g')\n}\n"));
  link_javascript(files, {true, true});
  std::vector<std::string> got;
  for (const auto& s : files[1].sites) got.push_back(s.error_class);
  EXPECT_EQ(got, (std::vector<std::string>{"PathError", "Named", "Field", "Deep", "Lib", "Proto", "MissingRefError"}));
  EXPECT_EQ(files[1].sites[0].raised_text, "new PathError('a')");
}

// decimal.js: `invalidArgument = decimalError + 'Invalid argument: '`,
// thrown as `invalidArgument + p + ': ' + v`. The names a long
// concatenation starts with are read however deep the `+` nests.
TEST(JavaScriptFrontend, AMessageVariableBuiltFromAnotherIsReadInALongConcatenation) {
  auto f = js("var decimalError = '[DecimalError] ',\n"
              "    invalidArgument = decimalError + 'Invalid argument: ';\n"
              "function config(p, v) {\n"
              "  throw Error(invalidArgument + p + ': ' + v + ' (' + typeof v + ')');\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(template_text(f.sites[0].message), "[DecimalError] Invalid argument: {p}: {v} ({typeof v})");
}

// A package ships its classes in every build (luxon's `src/errors.js` and
// the bundle `build/node/luxon.js`): definitions alike are one class,
// definitions that differ say nothing.
TEST(JavaScriptFrontend, AClassEveryBuildDefinesAlikeShowsItsMessage) {
  std::vector<model::FileFacts> files;
  const std::string errors =
      "class LuxonError extends Error {}\n"
      "class InvalidUnitError extends LuxonError { constructor(unit) { super(`Invalid unit ${unit}`) } }\n"
      "class Twice extends Error { constructor(m) { super(`twice: ${m}`) } }\n";
  files.push_back(js(errors));
  files.push_back(js(errors));
  files.push_back(js("class Twice extends Error { constructor(m) { super(m); this.name = 'Twice' } }\n"));
  files.push_back(js("function f(u) {\n  throw new InvalidUnitError(u)\n  throw new Twice('t')\n}\n"));
  link_javascript(files, {true, true, true, true});
  ASSERT_EQ(files[3].sites.size(), 2u);
  EXPECT_EQ(files[3].sites[0].error_class, "InvalidUnitError");
  EXPECT_EQ(template_text(files[3].sites[0].message), "Invalid unit {u}");
  EXPECT_EQ(files[3].sites[1].error_class, "Twice");
  EXPECT_NE(template_text(files[3].sites[1].message), "twice: t");
}

// TypeORM defines one error class per file: a site in another file shows
// what the class's constructor gives `super` (or sets as `this.message`),
// filled with the site's arguments; a class without a constructor of its
// own shows its base's; a name two files define is left as it is.
TEST(JavaScriptFrontend, AClassOfAnotherFileShowsItsMessage) {
  std::vector<model::FileFacts> files;
  files.push_back(js("export class DriverPackageNotInstalledError extends TypeORMError {\n"
                     "  constructor(driverName, packageName) {\n"
                     "    super(`${driverName} package has not been found installed. Please run \"npm install ${packageName}\".`)\n"
                     "  }\n}\n"));
  files.push_back(js("export class EntityMetadataNotFoundError extends TypeORMError {\n"
                     "  constructor(target) {\n    super()\n    this.message = `No metadata for \"${target}\" was found.`\n  }\n}\n"
                     "export class EntityMissing extends EntityMetadataNotFoundError {}\n"
                     "export class Twice extends Error { constructor(a) { super(`one ${a}`) } }\n"));
  files.push_back(js("export class Twice extends Error { constructor(a) { super(`two ${a}`) } }\n"
                     "export class TimeoutError extends Error {\n"
                     "  constructor(request) { super(`Request timed out: ${request.method} ${request.url}`) }\n}\n"));
  files.push_back(js("function load(entity) {\n"
                     "  throw new DriverPackageNotInstalledError('SQLite', 'sqlite3')\n"
                     "  throw new EntityMetadataNotFoundError(entity)\n"
                     "  throw new EntityMissing(entity)\n"
                     "  throw new Twice('x')\n"
                     "  throw new TimeoutError(this.request)\n}\n"));
  link_javascript(files, {true, true, true, true});
  const auto& sites = files[3].sites;
  ASSERT_EQ(sites.size(), 5u);
  // A parameter's property is the argument's.
  EXPECT_EQ(template_text(sites[4].message), "Request timed out: {this.request.method} {this.request.url}");
  // Python's linking leaves JavaScript's sites and classes to it: run after
  // it, as a scan runs them, it changes nothing here.
  link_class_displays(files, {false, false, false, false});
  EXPECT_EQ(template_text(sites[0].message), "SQLite package has not been found installed. Please run \"npm install sqlite3\".");
  EXPECT_EQ(template_text(sites[4].message), "Request timed out: {this.request.method} {this.request.url}");
  EXPECT_EQ(template_text(sites[0].message), "SQLite package has not been found installed. Please run \"npm install sqlite3\".");
  EXPECT_EQ(template_text(sites[1].message), "No metadata for \"{entity}\" was found.");
  EXPECT_EQ(template_text(sites[2].message), "No metadata for \"{entity}\" was found.");
  EXPECT_EQ(template_text(sites[3].message), "x");
}

TEST(JavaScriptFrontend, BadInputNeverCrashes) {
  std::string deep(200000, '(');
  deep += "throw new Error('x')";
  EXPECT_NO_FATAL_FAILURE(js(deep));
  std::string nested;
  for (int i = 0; i < 20000; ++i) nested += "function f(){ if (a) {";
  nested += "throw new Error('deep')";
  auto f = js(nested);
  EXPECT_TRUE(f.had_syntax_errors);
  std::string bytes;
  for (int i = 0; i < 4096; ++i) bytes.push_back(static_cast<char>((i * 131) & 0xff));
  bytes += "throw new Error('\\uD800 \xff')";
  auto b = js(bytes);
  for (const auto& s : b.sites)
    for (const auto& p : s.message.parts) EXPECT_TRUE(p.text.find('\xff') == std::string::npos);
  std::string plus = "throw new Error('a'";
  for (int i = 0; i < 50000; ++i) plus += " + 'a'";
  plus += ")";
  EXPECT_EQ(js(plus).sites.size(), 1u);
}

// The helper is found from its name's places in the text: declarations
// written with comments, line breaks, generics or a type are found; a
// name in a string or a template's code is not a declaration.
TEST(JavaScriptFrontend, HelpersDeclaredInEveryShapeAreReadThrough) {
  auto f = js("let /* c */ mk1 /* d */ = function (y) { return new RangeError(y + ' one'); };\n"
              "var q = 1, mk2 = async function* (z) { return new SyntaxError('two'); };\n"
              "function\nmk3\n(w) { return new TypeError(`three ${w}`); }\n"
              "const s = `${function mk4() { return new Error('in a template'); }}`, t = 'function mk4() {}';\n"
              "function use(a) {\n  if (a) throw mk1(a);\n  if (a > 1) throw mk2(a);\n  if (a > 2) throw mk3(a);\n"
              "  throw mk4(a);\n}\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(f.sites[0].error_class, "RangeError");
  EXPECT_EQ(template_text(f.sites[0].message), "{a} one");
  EXPECT_EQ(f.sites[1].error_class, "SyntaxError");
  EXPECT_EQ(f.sites[2].error_class, "TypeError");
  EXPECT_EQ(template_text(f.sites[2].message), "three {a}");
  EXPECT_EQ(f.sites[3].error_class, "mk4");
  auto t = scan_javascript("function mk<T>(a: T): Error { return new TypeError(`bad ${a}`); }\n"
                           "const mk2: (x: number) => Error = (x) => new RangeError('r');\n"
                           "export function use(a: number) { if (a) throw mk(a); }\n",
                           Dialect::typescript);
  ASSERT_EQ(t.sites.size(), 1u);
  EXPECT_EQ(t.sites[0].error_class, "TypeError");
}

// The walk enters only subtrees that may hold a site: an error handed to a
// callback is found behind comments, parentheses, `await` and a cast, and
// a code table's entry whatever its base is named.
TEST(JavaScriptFrontend, CallbackErrorsBehindCommentsAndCastsAreSites) {
  auto f = js("function a(x, cb) { cb(/* c */ new Error('block')); }\n"
              "function b(x, cb) { cb( // why\n  new TypeError('line')); }\n"
              "async function c(x, cb) { cb(await new RangeError('awaited')); }\n"
              "function d(x, cb) { cb((new Error('paren'))); }\n"
              "function g(x, cb) { cb(renewed); cb(x.new); }\n"
              "E('ERR_SOME_THING', 'thing %s', FooException);\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(template_text(f.sites[0].message), "block");
  EXPECT_EQ(template_text(f.sites[1].message), "line");
  EXPECT_EQ(template_text(f.sites[2].message), "awaited");
  EXPECT_EQ(template_text(f.sites[3].message), "paren");
  ASSERT_EQ(f.classes.size(), 1u);
  EXPECT_EQ(f.classes[0].code, "ERR_SOME_THING");
  auto t = scan_javascript("function a(x: number, cb: (e: Error) => void) { cb(<Error>new Error('cast')); }\n",
                           Dialect::typescript);
  ASSERT_EQ(t.sites.size(), 1u);
  EXPECT_EQ(template_text(t.sites[0].message), "cast");
}

// ajv's `class MissingRefError extends Error { constructor(resolver, baseId,
// ref, msg) { super(msg || `can't resolve reference ${ref} from id
// ${baseId}`) } }` in another file: a call passing `msg` shows it (a
// template written at the call), one that does not shows the default text,
// never the first argument.
TEST(JavaScriptFrontend, AConstructorsMessageParameterOrItsDefaultText) {
  std::vector<model::FileFacts> files;
  files.push_back(scan_javascript("export default class MissingRefError extends Error {\n"
                                  "  constructor(resolver, baseId, ref, msg) {\n"
                                  "    super(msg || `can't resolve reference ${ref} from id ${baseId}`)\n"
                                  "    this.missingRef = resolveUrl(resolver, baseId, ref)\n"
                                  "  }\n"
                                  "}\n",
                                  Dialect::typescript));
  files.push_back(scan_javascript("import MissingRefError from './ref_error'\n"
                                  "export function parse(self, ref) {\n"
                                  "  if (!self.schema[ref]) throw new MissingRefError(self.opts.uriResolver, '', ref, `No definition ${ref}`)\n"
                                  "}\n"
                                  "export function other(it, ref) {\n"
                                  "  throw new MissingRefError(it.opts.uriResolver, it.baseId, ref)\n"
                                  "}\n",
                                  Dialect::typescript));
  ASSERT_EQ(files[0].classes.size(), 1u);
  ASSERT_EQ(files[0].classes[0].display.size(), 2u);
  link_javascript(files, {true, true});
  const auto& s = files[1].sites;
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(template_text(s[0].message), "No definition {ref}");
  EXPECT_TRUE(s[0].alternatives.empty());
  EXPECT_EQ(template_text(s[1].message), "can't resolve reference {ref} from id {it.baseId}");
}

// axios's `formatMessage(opt, ' has been removed')`, a function of the file
// returning text: the message is that text with the call's arguments in
// place of the parameters. Not a function returning an error, nor one
// with several returns, nor one calling itself.
TEST(JavaScriptFrontend, AFunctionReturningTextIsTheMessage) {
  auto f = js("function transitional(validator, version) {\n"
              "  function formatMessage(opt, desc) {\n"
              "    return 'Transitional option \\'' + opt + '\\'' + desc;\n"
              "  }\n"
              "  return (value, opt) => {\n"
              "    throw new AxiosError(formatMessage(opt, ' has been removed'), 'ERR_DEPRECATED');\n"
              "  };\n"
              "}\n"
              "const msg = (name) => `bad option ${name} given`;\n"
              "function a(x) { throw new Error(msg(x)) }\n"
              "function mk(x) { return new Error(`made ${x}`) }\n"
              "function b(x) { throw new TypeError(mk(x)) }\n"
              "function two(x) { if (x) return 'one text'; return 'other text' }\n"
              "function c(x) { throw new Error(two(x)) }\n"
              "function rec(n) { return rec(n - 1) }\n"
              "function d(x) { throw new Error(rec(x)) }\n");
  ASSERT_EQ(f.sites.size(), 5u);
  EXPECT_EQ(template_text(f.sites[0].message), "Transitional option '{opt}' has been removed");
  EXPECT_EQ(template_text(f.sites[1].message), "bad option {x} given");
  EXPECT_EQ(template_text(f.sites[2].message), "{mk(x)}");
  EXPECT_EQ(template_text(f.sites[3].message), "{two(x)}");
  EXPECT_EQ(template_text(f.sites[4].message), "{rec(x)}");
}

// A minified `throw n = !1, t` throws the comma's last operand.
TEST(JavaScriptFrontend, ACommaThrowsItsLastOperand) {
  auto f = js("function f(n, t) { if (n) throw n = !1, t; throw (a(), new RangeError('out of range')) }\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(f.sites[0].raised_text, "t");
  EXPECT_EQ(f.sites[1].error_class, "RangeError");
  EXPECT_EQ(template_text(f.sites[1].message), "out of range");
}

// `function invariant(condition, error) { if (!condition) throw new
// Error(error) }`: the throw's message is what the file's calls pass —
// each text passed is an alternative, the message stays the parameter. A
// parameter reassigned in the function, a call passing no text, or a
// method of the same name are not read so.
TEST(JavaScriptFrontend, AThrowOfAParameterShowsWhatTheFilesCallsPass) {
  auto f = js("function invariant(condition, error) {\n"
              "  if (!condition) throw new Error(error);\n"
              "}\n"
              "function range(start, step) {\n"
              "  invariant(step !== 0, 'Cannot step a Range by 0');\n"
              "  invariant(start !== undefined, 'You must define a start value, got ' + start);\n"
              "  invariant(start > 0, message);\n"
              "  invariant(start > 0, 'Cannot step a Range by 0');\n"
              "  other.invariant(start > 0, 'Not this one at all');\n"
              "}\n"
              "const check = (ok, text) => { if (!ok) throw new TypeError(text) };\n"
              "check(false, `Expected a number here`);\n"
              "function renamed(ok, text) { text = 'x' + text; if (!ok) throw new Error(text) }\n"
              "renamed(false, 'Never shown as passed');\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(template_text(f.sites[0].message), "{error}");
  std::vector<std::string> alts;
  for (const auto& a : f.sites[0].alternatives) alts.push_back(template_text(a));
  EXPECT_EQ(alts, (std::vector<std::string>{"Cannot step a Range by 0", "You must define a start value, got {start}"}));
  ASSERT_EQ(f.sites[1].alternatives.size(), 1u);
  EXPECT_EQ(template_text(f.sites[1].alternatives[0]), "Expected a number here");
  for (const auto& a : f.sites[2].alternatives) EXPECT_NE(template_text(a), "xNever shown as passed");
}

// graphql-js's `devAssert(condition, message)` in its own file, called
// `devAssert(config.name, 'Must provide name.')` by the files importing
// it: the throw shows what they pass (a template's and a concatenation's
// expressions as interpolations; one word of text is no message).
TEST(JavaScriptFrontend, AThrowOfAParameterShowsWhatOtherFilesPassThroughTheirImports) {
  std::vector<std::pair<std::string, model::FileFacts>> in = {
      {"src/jsutils/devAssert.ts",
       scan_javascript("export function devAssert(condition: unknown, message: string): void {\n"
                       "  if (!condition) {\n    throw new Error(message);\n  }\n}\n",
                       Dialect::typescript)},
      {"src/type/definition.ts",
       scan_javascript("import { devAssert } from '../jsutils/devAssert';\n"
                       "export function define(config) {\n"
                       "  devAssert(config.name, 'Must provide name.');\n"
                       "  devAssert(config.fields, `Fields must be given, \\u0022here\\u0022`);\n"
                       "  devAssert(config.x, `Not with ${config.x} inside`);\n"
                       "  devAssert(config.t, 'Expected ' + inspect(config.t) + ' to be a type.');\n"
                       "  devAssert(config.u, 'Expected ' + config.u);\n"
                       "  devAssert(config.v, `${config.v}`);\n"
                       "  devAssert('The condition is not the message', config.y);\n"
                       "}\n",
                       Dialect::typescript)},
      {"src/b.js", js("import * as util from './jsutils/devAssert.js';\nutil.devAssert(x, 'Through the namespace import');\n")},
      {"src/c.js", js("const { devAssert: check } = require('./jsutils/devAssert');\ncheck(x, 'Through a renamed require');\n")},
      {"src/d.js", js("import { devAssert } from './other/devAssert';\ndevAssert(x, 'Another module of that name');\n")},
      {"src/e.js", js("devAssert(x, 'Not imported here at all');\n")},
      {"src/jsutils/invariant.js", js("export default function invariant(cond, msg) {\n  if (!cond) throw new Error(msg);\n}\n")},
      {"src/g.js", js("import inv from './jsutils/invariant';\ninv(x, 'Through the default export');\n")},
      {"lib/index.js", js("module.exports = function (ok, text) { if (!ok) throw new Error(text) };\n")},
  };
  std::vector<model::FileFacts> files;
  std::vector<std::string> paths;
  for (auto& [path, facts] : in) {
    paths.push_back(path);
    files.push_back(std::move(facts));
  }
  ASSERT_EQ(files[0].sites.size(), 1u);
  EXPECT_EQ(files[0].sites[0].message_param, "message");
  EXPECT_EQ(files[0].sites[0].message_param_position, 1);
  link_javascript_caller_messages(files, std::vector<bool>(files.size(), true), paths);
  auto alternatives = [](const model::ThrowSite& s) {
    std::vector<std::string> out;
    for (const auto& t : s.alternatives) out.push_back(template_text(t));
    return out;
  };
  EXPECT_EQ(template_text(files[0].sites[0].message), "{message}");
  EXPECT_EQ(alternatives(files[0].sites[0]),
            (std::vector<std::string>{"Must provide name.", "Fields must be given, \"here\"", "Not with {config.x} inside",
                                      "Expected {inspect(config.t)} to be a type.", "Through the namespace import",
                                      "Through a renamed require"}));
  ASSERT_EQ(files[6].sites.size(), 1u);
  EXPECT_EQ(alternatives(files[6].sites[0]), (std::vector<std::string>{"Through the default export"}));
  // Not a language the pass is told to read: nothing.
  files[0].sites[0].alternatives.clear();
  link_javascript_caller_messages(files, std::vector<bool>(files.size(), false), paths);
  EXPECT_TRUE(files[0].sites[0].alternatives.empty());
}

// `throw new Error(msg || 'Assertion failed')` in an assert helper: the
// message is the parameter (what the callers pass), the text a variant.
TEST(JavaScriptFrontend, AThrownParameterOrADefaultTextIsTheParameterWithTheTextAVariant) {
  auto f = js("function assert(cond, msg) {\n  if (!cond) throw new Error(msg || 'Assertion failed');\n}\n"
              "function invariant(condition, message) {\n"
              "  if (!condition) throw new Error(message != null ? message : 'Unexpected invariant triggered.');\n"
              "}\n"
              "function check(ok, text) {\n  if (!ok) throw new TypeError(text == null ? `Check failed here` : text);\n}\n"
              "function other(ok, text) {\n  if (!ok) throw new Error(name || 'Not a parameter');\n}\n"
              "assert(x > 0, 'x must be positive here');\n"
              "invariant(x < 10, 'x must be below ten');\n"
              "check(x !== 5, 'five is not allowed');\n");
  ASSERT_EQ(f.sites.size(), 4u);
  auto shown = [](const model::ThrowSite& s) {
    std::vector<std::string> out{template_text(s.message)};
    for (const auto& a : s.alternatives) out.push_back(template_text(a));
    return out;
  };
  EXPECT_EQ(shown(f.sites[0]), (std::vector<std::string>{"{msg}", "Assertion failed", "x must be positive here"}));
  EXPECT_EQ(f.sites[0].message_param, "msg");
  EXPECT_EQ(shown(f.sites[1]),
            (std::vector<std::string>{"{message}", "Unexpected invariant triggered.", "x must be below ten"}));
  EXPECT_EQ(shown(f.sites[2]), (std::vector<std::string>{"{text}", "Check failed here", "five is not allowed"}));
  // A name that is no parameter is the expression it was.
  EXPECT_EQ(shown(f.sites[3]), (std::vector<std::string>{"{name || 'Not a parameter'}"}));
}

// A class's method throwing its parameter (a parser's `fail(msg, lineno)
// { throw new TemplateError(msg, lineno) }`, or `throw this.error(msg)`
// through a method returning the error): what the class's other methods
// pass as `this.fail('…')` are the alternatives. Not another class's
// method of the same name, nor a call on another object.
TEST(JavaScriptFrontend, AMethodThrowingItsParameterShowsWhatItsClassPasses) {
  auto f = js("class TemplateError extends Error {}\n"
              "class Parser {\n"
              "  error(msg, lineno) { return new TemplateError(msg) }\n"
              "  fail(msg, lineno) { throw this.error(msg, lineno) }\n"
              "  parseFor() {\n"
              "    if (!this.tok) this.fail('expected variable name in for loop', 3);\n"
              "    if (!this.in) this.fail('expected \"in\" keyword for loop, got ' + this.tok.value);\n"
              "    other.fail('not this parser at all');\n"
              "  }\n"
              "}\n"
              "class Compiler {\n"
              "  fail(msg, lineno) { throw new TemplateError(msg) }\n"
              "  compile(node) { this.fail('Cannot compile node: ' + node.typename) }\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 2u);
  auto alternatives = [](const model::ThrowSite& s) {
    std::vector<std::string> out;
    for (const auto& a : s.alternatives) out.push_back(template_text(a));
    return out;
  };
  EXPECT_EQ(template_text(f.sites[0].message), "{msg}");
  EXPECT_EQ(alternatives(f.sites[0]), (std::vector<std::string>{"expected variable name in for loop",
                                                                "expected \"in\" keyword for loop, got {this.tok.value}"}));
  EXPECT_EQ(alternatives(f.sites[1]), (std::vector<std::string>{"Cannot compile node: {node.typename}"}));
}

// undici's webidl: `webidl.errors.exception = function (message) { return
// new TypeError(`${message.header}: ${message.message}`) }`, a factory
// a namespace object holds, given an object literal; another
// (`conversionFailed`) hands on its result. A throw of either, in the
// file and in another, is a TypeError whose message takes the object's
// values; a same-named member of another object is not the factory.
TEST(JavaScriptFrontend, AFactoryANamespaceHoldsIsReadWithItsObjectArgument) {
  std::vector<model::FileFacts> files;
  files.push_back(js("const webidl = { errors: {} }\n"
                     "webidl.errors.exception = function (message) {\n"
                     "  return new TypeError(`${message.header}: ${message.message}`)\n"
                     "}\n"
                     "webidl.errors.conversionFailed = function (opts) {\n"
                     "  const message = `${opts.argument} could not be converted.`\n"
                     "  return webidl.errors.exception({ header: opts.prefix, message })\n"
                     "}\n"
                     "webidl.illegalConstructor = function () {\n"
                     "  throw webidl.errors.exception({ header: 'TypeError', message: 'Illegal constructor' })\n"
                     "}\n"
                     "module.exports = { webidl }\n"));
  files.push_back(js("const { webidl } = require('./webidl')\n"
                     "function add(request) {\n"
                     "  if (!request) throw webidl.errors.conversionFailed({ prefix: 'Cache.add', argument: 'Argument 1' })\n"
                     "  if (request.bad) throw webidl.errors.exception({ header: 'Cache.add', message: `Bad ${request.url}.` })\n"
                     "  throw other.errors.exception({ header: 'Elsewhere', message: 'Not the factory' })\n"
                     "}\n"));
  link_javascript(files, {true, true});
  ASSERT_EQ(files[0].sites.size(), 1u);
  EXPECT_EQ(files[0].sites[0].error_class, "TypeError");
  EXPECT_EQ(template_text(files[0].sites[0].message), "TypeError: Illegal constructor");
  ASSERT_EQ(files[1].sites.size(), 3u);
  EXPECT_EQ(files[1].sites[0].error_class, "TypeError");
  EXPECT_EQ(template_text(files[1].sites[0].message), "Cache.add: Argument 1 could not be converted.");
  EXPECT_EQ(files[1].sites[1].error_class, "TypeError");
  EXPECT_EQ(template_text(files[1].sites[1].message), "Cache.add: Bad {request.url}.");
  EXPECT_EQ(files[1].sites[2].error_class, "other.errors.exception");
  EXPECT_EQ(template_text(files[1].sites[2].message), "Not the factory");
}

// TypeScript's CommonJS output of `export const NOT_FOUND = '…'` assigns
// `exports.NOT_FOUND = void 0` first, in a chain with the other exports,
// then the text: a throw of `exports.NOT_FOUND` shows the text.
TEST(JavaScriptFrontend, AnExportedConstantIsReadThroughExports) {
  auto f = js("\"use strict\";\n"
              "exports.Cron = exports.LOOP_LIMIT = exports.OUT_OF_SPAN = void 0;\n"
              "exports.OUT_OF_SPAN = 'Out of the time span range';\n"
              "exports.LOOP_LIMIT = 'Invalid expression, loop limit exceeded';\n"
              "class Cron {\n"
              "  next() {\n"
              "    if (this.a) throw new Error(exports.OUT_OF_SPAN);\n"
              "    if (this.b) throw new Error(exports.LOOP_LIMIT);\n"
              "    throw new Error(other.LOOP_LIMIT);\n"
              "  }\n"
              "}\n"
              "exports.Cron = Cron;\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(template_text(f.sites[0].message), "Out of the time span range");
  EXPECT_EQ(template_text(f.sites[1].message), "Invalid expression, loop limit exceeded");
  EXPECT_EQ(template_text(f.sites[2].message), "{other.LOOP_LIMIT}");
}

// A test file's expectations: what each expects (classes, a regex of the
// message: a string as a substring, an object's `message` whole) and the
// calls it runs; the test's titles joined as Jest prints them.
TEST(JavaScriptFrontend, ATestFilesExpectationsAreRead) {
  auto f = scan_javascript_tests(
      "describe('Options', () => {\n"
      "  it(`rejects ${kind}`, async () => {\n"
      "    await expect(got('x')).rejects.toThrow('Unsupported protocol');\n"
      "    expect(() => new Options({ retry: 1 })).to.throw(RangeError, /noise (is|was)/i);\n"
      "    assert.throws(() => { opts.merge(null); }, { name: 'TypeError', message: 'Bad (value).' });\n"
      "    assert.throws(() => parse(''), 'only the assertion says this');\n"
      "    await expect(load()).to.be.rejectedWith(errors.LoadError);\n"
      "    expect(() => parse('')).not.toThrow();\n"
      "  });\n"
      "});\n",
      Dialect::typescript);
  ASSERT_EQ(f.expectations.size(), 5u);
  const auto& a = f.expectations[0];
  EXPECT_EQ(a.test, "Options › rejects ${kind}");
  EXPECT_EQ(a.line, 3);
  EXPECT_EQ(a.match, "Unsupported protocol");
  EXPECT_EQ(a.calls, (std::vector<std::string>{"got"}));
  EXPECT_EQ(f.expectations[1].classes, (std::vector<std::string>{"RangeError"}));
  EXPECT_EQ(f.expectations[1].match, "(?i)noise (is|was)");
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"Options"}));
  EXPECT_EQ(f.expectations[2].classes, (std::vector<std::string>{"TypeError"}));
  EXPECT_EQ(f.expectations[2].match, "^Bad \\(value\\)\\.$");
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"opts.merge"}));
  EXPECT_TRUE(f.expectations[3].match.empty());
  EXPECT_EQ(f.expectations[4].classes, (std::vector<std::string>{"errors.LoadError"}));
  EXPECT_EQ(f.expectations[4].calls, (std::vector<std::string>{"load"}));
}

// An error class written as a constructor function, as older code does
// (mathjs's `function IndexError(index, min, max) { this.message = 'Index
// out of range (' + this.index + …` and `IndexError.prototype = new
// RangeError()`): a throw of it shows the texts it sets as `this.message`,
// its parameters (and what it keeps of them on `this`) filled with the
// call's arguments, here and in a file that imports it. A function setting
// no message, or made from no error, is no class.
TEST(JavaScriptFrontend, AnErrorClassWrittenAsAConstructorFunction) {
  std::vector<model::FileFacts> files;
  files.push_back(js("function IndexError (index, max) {\n"
                     "  this.index = index\n"
                     "  if (this.index < 0) {\n"
                     "    this.message = 'Index out of range (' + this.index + ' < 0)'\n"
                     "  } else {\n"
                     "    this.message = 'Index out of range (' + index + ' > ' + (max - 1) + ')'\n"
                     "  }\n"
                     "}\n"
                     "IndexError.prototype = new RangeError()\n"
                     "IndexError.prototype.name = 'IndexError'\n"
                     "function Point (x) { this.x = x; this.message = 'point ' + x }\n"
                     "function get (a, i) {\n"
                     "  if (i >= a.length) throw new IndexError(i, a.length)\n"
                     "  if (!a) throw new Point(i)\n"
                     "}\n"
                     "module.exports = { IndexError }\n"));
  files.push_back(js("const { IndexError } = require('./errors')\n"
                     "function at (list, n) {\n"
                     "  if (n < 0) throw new IndexError(n)\n"
                     "}\n"));
  link_javascript(files, {true, true});
  ASSERT_EQ(files[0].sites.size(), 2u);
  EXPECT_EQ(template_text(files[0].sites[0].message), "Index out of range ({i} < 0)");
  ASSERT_EQ(files[0].sites[0].alternatives.size(), 1u);
  EXPECT_EQ(template_text(files[0].sites[0].alternatives[0]), "Index out of range ({i} > {max - 1})");
  EXPECT_EQ(template_text(files[0].sites[1].message), "{i}");
  ASSERT_EQ(files[1].sites.size(), 1u);
  EXPECT_EQ(files[1].sites[0].error_class, "IndexError");
  EXPECT_EQ(template_text(files[1].sites[0].message), "Index out of range ({n} < 0)");
}

// mathjs's DimensionError: a side of a choice that is a parameter shows
// the parameter (`Array.isArray(actual) ? '[' + … + ']' : actual`), and
// `this.relation || '!='` the text when the call leaves it out.
TEST(JavaScriptFrontend, AConstructorFunctionsChoiceOfAParameterShowsIt) {
  auto f = js("function DimensionError (actual, expected, relation) {\n"
              "  this.relation = relation\n"
              "  this.message = 'Dimension mismatch (' + (Array.isArray(actual) ? ('[' + actual.join(', ') + ']') : actual) +\n"
              "    ' ' + (this.relation || '!=') + ' ' + expected + ')'\n"
              "}\n"
              "DimensionError.prototype = Object.create(RangeError.prototype)\n"
              "function f (a, b) {\n"
              "  if (a.length !== b.length) throw new DimensionError(a.length, b.length)\n"
              "  if (a.length > 3) throw new DimensionError(a.length, 3, '>')\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(template_text(f.sites[0].message), "Dimension mismatch ({a.length} != {b.length})");
  EXPECT_EQ(template_text(f.sites[1].message), "Dimension mismatch ({a.length} > 3)");
}

TEST(JavaScriptFrontend, ALocalHoldingAConditionalBetweenTextsIsEachText) {
  // undici's webidl conversionFailed: `${plural}` of a constant holding one
  // of two texts, as `+ plural` already read.
  auto f = js("function conversionFailed (opts) {\n"
              "  const plural = opts.types.length === 1 ? '' : ' one of'\n"
              "  const message = `${opts.argument} could not be converted to` +\n"
              "    `${plural}: ${opts.types.join(', ')}.`\n"
              "  throw new TypeError(message)\n"
              "}\n"
              "function late (n) {\n"
              "  let unit = n === 1 ? 'item' : 'items'\n"
              "  if (n > 9) unit = 'lots'\n"
              "  throw new RangeError(`too many ${unit}`)\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 2u);
  std::vector<std::string> shown;
  for (const model::MessageTemplate& t : conditional_texts(f.sites[0].message)) shown.push_back(template_text(t));
  EXPECT_EQ(shown, (std::vector<std::string>{"{opts.argument} could not be converted to: {opts.types.join(', ')}.",
                                             "{opts.argument} could not be converted to one of: {opts.types.join(', ')}."}));
  // Changed on the way to the throw: not its one value.
  EXPECT_EQ(conditional_texts(f.sites[1].message).size(), 1u);
  EXPECT_EQ(template_text(f.sites[1].message), "too many {unit}");
}

TEST(JavaScriptFrontend, AThrownConcatenationOfTextIsAString) {
  // jQuery's Sizzle (vendored by lodash's firebug-lite): a string thrown,
  // no class; its text, not the expression as a class.
  auto f = js("function filter(expr, old) {\n"
              "  if (expr == old) throw \"Syntax error, unrecognized expression: \" + expr;\n"
              "  if (!expr) throw prefix + suffix;\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(f.sites[0].error_class, "");
  EXPECT_EQ(template_text(f.sites[0].message), "Syntax error, unrecognized expression: {expr}");
  // Two values added: what they hold is not known to be text.
  EXPECT_EQ(f.sites[1].error_class, "prefix + suffix");
}

TEST(JavaScriptFrontend, AFunctionHandedABuiltInValueIsNoErrorCallback) {
  // lodash's equalByTag: `equalFunc` is a parameter, handed typed arrays
  // to compare; `callback` is handed an error.
  auto f = js("function equalByTag(object, other, equalFunc, callback) {\n"
              "  if (!equalFunc(new Uint8Array(object), new Uint8Array(other))) return false;\n"
              "  if (!callback) return equalFunc(new globalThis.Map(), new Date());\n"
              "  callback(new TypeError('not comparable'));\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(f.sites[0].error_class, "TypeError");
  EXPECT_EQ(template_text(f.sites[0].message), "not comparable");
}

}  // namespace
}  // namespace errdex::scan
