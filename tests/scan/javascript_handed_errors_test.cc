// Errors a JavaScript file makes and hands on without `throw`: to a method
// of its class that throws or emits them, to a stream's `destroy`, and
// error-like objects thrown as literals.
#include "scan/javascript/frontend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "scan/template.h"

namespace errdex::scan {
namespace {

model::FileFacts js(const std::string& src) { return scan_javascript(src, Dialect::javascript); }
model::FileFacts ts(const std::string& src) { return scan_javascript(src, Dialect::typescript); }

using Shown = std::pair<std::string, std::string>;

// The class and message of a site.
Shown shown(const model::ThrowSite& s) { return {s.error_class, template_text(s.message)}; }

// The sites of `f` are these, in order: class and message, and line.
void expect_sites(const model::FileFacts& f, const std::vector<std::pair<Shown, int>>& want) {
  ASSERT_EQ(f.sites.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(shown(f.sites[i]), want[i].first) << i;
    EXPECT_EQ(f.sites[i].line, want[i].second) << i;
  }
}

TEST(JavaScriptHandedErrors, AMethodThatEmitsOrThrowsItsArgument) {
  // formidable's IncomingForm: `_error(err, eventName = "error")` emits what
  // it is given, and every failure goes through `this._error(new …)`.
  auto f = js("class IncomingForm extends EventEmitter {\n"
              "  parse(req) {\n"
              "    req.on('aborted', () => {\n"
              "      this._error(new FormidableError('Request aborted', errors.aborted));\n"
              "    });\n"
              "    if (!this._parser) {\n"
              "      this._error(new FormidableError('uninitialized parser', errors.uninitializedParser));\n"
              "    }\n"
              "    this._fail(new TypeError(`bad length ${this.bytesExpected}`));\n"
              "    this._note(new Error('not an error event'));\n"
              "    this._keep(new Error('kept, not thrown'));\n"
              "  }\n"
              "  _error(err, eventName = 'error') {\n"
              "    if (this.error || this.ended) return;\n"
              "    this.error = err;\n"
              "    this.emit(eventName, err);\n"
              "  }\n"
              "  _fail(e) { throw e; }\n"
              "  _note(e, eventName = 'progress') { this.emit(eventName, e); }\n"
              "  _keep(e) { this.last = e; }\n"
              "}\n");
  // The three handed on, then `_fail`'s own `throw e` (an error handed on).
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(shown(f.sites[0]), (Shown{"FormidableError", "Request aborted"}));
  EXPECT_EQ(f.sites[0].line, 4);
  EXPECT_EQ(template_text(f.sites[1].message), "uninitialized parser");
  EXPECT_EQ(shown(f.sites[2]), (Shown{"TypeError", "bad length {this.bytesExpected}"}));
  EXPECT_TRUE(f.sites[3].reraise);
  EXPECT_EQ(f.sites[3].line, 18);
}

TEST(JavaScriptHandedErrors, AStreamDestroyedWithAnError) {
  // busboy's multipart parser: the file stream ends with an error event.
  auto f = js("function onEnd(fileStream) {\n"
              "  fileStream.destroy(new Error('Unexpected end of file'));\n"
              "  this._bparser.destroy();\n"
              "  other.destroy(reason);\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(shown(f.sites[0]), (Shown{"Error", "Unexpected end of file"}));
}

// tough-cookie's setCookie: `const err = new Error(…)` then
// `promiseCallback.reject(err)`, a deferred promise rejected. The site is
// the error made, at the line it is made on (the one V8's stack names);
// `Promise.reject(err)` and an executor's `reject(err)` alike, with the
// message set on the error before (`err.message = …`). A name bound to no
// new error, or bound in a block beside the call's, and a `reject` handed
// no error, give none.
TEST(JavaScriptHandedErrors, AnErrorMadeAboveAndRejected) {
  auto f = js("function setCookie(cookie, host, promiseCallback, options) {\n"
              "  if (cookie.domain) {\n"
              "    const err = new Error(\n"
              "      `Cookie not in this host's domain. Cookie:${cookie.cdomain()} Request:${host}`\n"
              "    );\n"
              "    return options.ignoreError ? promiseCallback.resolve(undefined) : promiseCallback.reject(err);\n"
              "  }\n"
              "  const bad = new TypeError('bad cookie');\n"
              "  if (cookie.x) return Promise.reject(bad);\n"
              "  const given = options.error;\n"
              "  if (cookie.y) return promiseCallback.reject(given);\n"
              "  promiseCallback.reject('no error');\n"
              "  return new Promise((resolve, reject) => { const e = new RangeError('late'); reject(e); });\n"
              "}\n"
              "function child(msg) {\n"
              "  return new Promise((resolve, reject) => {\n"
              "    switch (msg.cmd) {\n"
              "      case 1: { const err = new Error(); err.message = msg.text; reject(err); break; }\n"
              "    }\n"
              "    try { run(); } catch (err) { reject(err); }\n"
              "  });\n"
              "}\n");
  // The message set on the error before it is rejected counts; the caught
  // `err` of the `catch` is not the `case`'s.
  const std::vector<std::pair<Shown, int>> want = {
      {{"Error", "Cookie not in this host's domain. Cookie:{cookie.cdomain()} Request:{host}"}, 3},
      {{"TypeError", "bad cookie"}, 8},
      {{"RangeError", "late"}, 13},
      {{"Error", "{msg.text}"}, 18}};
  expect_sites(f, want);
}

// Node's callback style (nodemailer): an error made above and handed to a
// callback, also one of a function around the callback that calls it, or
// emitted; a helper's error handed to a callback. One site per making, its
// code set before it is handed on.
TEST(JavaScriptHandedErrors, AnErrorMadeAboveAndHandedToACallbackOrEmitted) {
  auto f = js("class Transport {\n"
              "  send(mail, done) {\n"
              "    if (mail.bad) {\n"
              "      const err = new Error('Can not send mail. Invalid envelope addresses.');\n"
              "      err.code = 'EENVELOPE';\n"
              "      return done(err);\n"
              "    }\n"
              "    if (!mail.body) return done(this._formatError('Empty message', 'EMESSAGE'));\n"
              "    mail.stream.on('end', () => {\n"
              "      const err = new Error('Unexpected socket close');\n"
              "      if (this.listeners) this.emit('error', err); else done(err);\n"
              "    });\n"
              "    const context = new ValidationContext(mail);\n"
              "    done(context);\n"
              "  }\n"
              "  _formatError(message, type) {\n"
              "    const err = new Error(message);\n"
              "    return err;\n"
              "  }\n"
              "}\n"
              "function connect(conn, callback) {\n"
              "  return new Promise((resolve, reject) => {\n"
              "    conn.once('connect', () => { resolve(new PromiseConnection(conn)); });\n"
              "    conn.once('end', () => { callback(new Error('Connection ended early')); });\n"
              "  });\n"
              "}\n");
  const std::vector<std::pair<Shown, int>> want = {{{"Error", "Can not send mail. Invalid envelope addresses."}, 4},
                                                   {{"Error", "Empty message"}, 8},
                                                   {{"Error", "Unexpected socket close"}, 10},
                                                   {{"Error", "Connection ended early"}, 24}};
  expect_sites(f, want);
  ASSERT_FALSE(f.sites.empty());
  EXPECT_NE(std::find(f.sites[0].args.begin(), f.sites[0].args.end(), "code='EENVELOPE'"), f.sites[0].args.end());
}

TEST(JavaScriptHandedErrors, AnErrorLikeObjectThrown) {
  // redux-toolkit's createAsyncThunk: `throw { name, message }`, which its
  // rejected action carries as the error's name and message.
  auto f = js("async function run(conditionResult) {\n"
              "  if (conditionResult === false) {\n"
              "    throw {\n"
              "      name: 'ConditionError',\n"
              "      message: 'Aborted due to condition callback returning false.',\n"
              "    }\n"
              "  }\n"
              "  throw { message: `bad ${conditionResult}` }\n"
              "  throw { code: 1 }\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(shown(f.sites[0]), (Shown{"ConditionError", "Aborted due to condition callback returning false."}));
  EXPECT_EQ(shown(f.sites[1]), (Shown{"", "bad {conditionResult}"}));
  // Neither a name nor a message: the object as written, as before.
  EXPECT_EQ(f.sites[2].error_class, "{ code: 1 }");
}

// postcss: `throw this.input.error('Unclosed block', token)` where another
// file's class `Input` has `error(message, …)` return the CssSyntaxError it
// made under a name, and `Node.error` returns one too: each factory of that
// name makes the same class, so the throw is one. `throw error` of a caught
// `error` calls none.
TEST(JavaScriptHandedErrors, AMethodOfAnotherFileThatReturnsAnErrorMakesTheThrownClass) {
  std::vector<model::FileFacts> files = {
      js("class Input {\n"
         "  error(message, line, opts = {}) {\n"
         "    let result\n"
         "    if (line) result = new CssSyntaxError(message, line, opts.plugin)\n"
         "    else result = new CssSyntaxError(message, 0, opts.plugin)\n"
         "    result.input = { line }\n"
         "    return result\n"
         "  }\n"
         "}\n"
         "module.exports = Input\n"),
      js("class Node {\n"
         "  error(message, opts = {}) {\n"
         "    if (this.source) return this.source.input.error(message, opts)\n"
         "    return new CssSyntaxError(message)\n"
         "  }\n"
         "}\n"),
      js("class Parser {\n"
         "  end(token) {\n"
         "    if (this.current.parent) throw this.input.error('Unclosed block', token[2])\n"
         "    try { this.next() } catch (error) { throw error }\n"
         "  }\n"
         "}\n"),
  };
  link_javascript(files, std::vector<bool>(files.size(), true));
  ASSERT_EQ(files[2].sites.size(), 2u);
  EXPECT_EQ(shown(files[2].sites[0]), (Shown{"CssSyntaxError", "Unclosed block"}));
  EXPECT_NE(files[2].sites[1].error_class, "CssSyntaxError");
}

TEST(JavaScriptHandedErrors, AHelperReturningABuiltinErrorCalledWithoutNew) {
  // protobuf.js: `return RangeError(…)` and `return Error(…)` make errors as
  // `new` does; a parameter with a written default shows the default where
  // the call passes nothing and the call's literal where it passes one.
  auto f = js("function indexOutOfRange(reader, writeLength) {\n"
              "  return RangeError('index out of range: ' + reader.pos + ' + ' + (writeLength || 1) + ' > ' + reader.len);\n"
              "}\n"
              "function illegal(token, name) {\n"
              "  return Error('illegal ' + (name || 'token') + \" '\" + token + \"'\");\n"
              "}\n"
              "function Reader() {}\n"
              "Reader.prototype.skip = function skip(n) {\n"
              "  if (this.pos + n > this.len) throw indexOutOfRange(this, 4);\n"
              "  if (n < 0) throw indexOutOfRange(this);\n"
              "};\n"
              "function parse(t) {\n"
              "  if (!t) throw illegal(t);\n"
              "  throw illegal(t, 'id');\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(shown(f.sites[0]), (Shown{"RangeError", "index out of range: {this.pos} + 4 > {this.len}"}));
  EXPECT_EQ(shown(f.sites[1]), (Shown{"RangeError", "index out of range: {this.pos} + 1 > {this.len}"}));
  EXPECT_EQ(shown(f.sites[2]), (Shown{"Error", "illegal token '{t}'"}));
  EXPECT_EQ(shown(f.sites[3]), (Shown{"Error", "illegal id '{t}'"}));
  // A class of another file called so, assigned and returned, is made the
  // same way as a builtin one.
  auto imported = js("const { ParseError } = require('./errors');\n"
                     "function fail(at) {\n"
                     "  const err = ParseError('unexpected token at ' + at);\n"
                     "  err.pos = at;\n"
                     "  return err;\n"
                     "}\n"
                     "function parse(s) { if (!s) throw fail(0); }\n");
  ASSERT_EQ(imported.sites.size(), 1u);
  EXPECT_EQ(shown(imported.sites[0]), (Shown{"ParseError", "unexpected token at 0"}));
  // A function of the file named like a builtin is read as before.
  auto own = js("function Error(m) { return null; }\nfunction fail(m) { return Error(m); }\nfunction g() { throw fail('x'); }\n");
  ASSERT_EQ(own.sites.size(), 1u);
  EXPECT_NE(own.sites[0].error_class, "Error");
}

// htmlparser2: `this.cbs.onerror?.(new Error(".write() after done!"))`, a
// handler named for errors that the parser was given: a site. Not a value
// of a class not named as an error, nor a handler of another name.
TEST(JavaScriptHandedErrors, AnErrorHandedToAHandlerNamedForErrors) {
  expect_sites(ts("class Parser {\n"
                  "  write(chunk: string) {\n"
                  "    if (this.ended) {\n"
                  "      this.cbs.onerror?.(new Error('.write() after done!'));\n"
                  "      return;\n"
                  "    }\n"
                  "    this.handlers.on_error(new ParseError('bad chunk'));\n"
                  "    this.cbs.onerror(new Token(chunk));\n"
                  "    this.cbs.ontext(new Error('not an error handler'));\n"
                  "  }\n"
                  "}\n"),
               {{{"Error", ".write() after done!"}, 4}, {{"ParseError", "bad chunk"}, 7}});
  // A class named `Error` and a capital is one too (MQTT.js's
  // `ErrorWithReasonCode`, emitted), `Errors` or `Errand` no.
  expect_sites(ts("function handle(client, rc) {\n"
                  "  const err = new ErrorWithReasonCode(`Connection refused: ${rc}`, rc)\n"
                  "  client.emit('error', err)\n"
                  "  const list = new Errors()\n"
                  "  client.cbs.onerror(list)\n"
                  "}\n"),
               {{{"ErrorWithReasonCode", "Connection refused: {rc}"}, 2}});
}

// MQTT.js: `function fatal(e) { … e.code = 'SOCKS'; return e }` thrown as
// `throw fatal(new Error('bad SOCKS URL'))`: what the helper hands back is
// what the call gives it. Not a helper that binds its parameter again.
TEST(JavaScriptHandedErrors, AHelperHandingBackTheErrorItIsGiven) {
  expect_sites(ts("function fatal<T>(e: T): T {\n"
                  "  try {\n"
                  "    if ((e as any).code === undefined) (e as any).code = 'SOCKS'\n"
                  "    return e\n"
                  "  } catch {\n"
                  "    return e\n"
                  "  }\n"
                  "}\n"
                  "const tag = (e) => e\n"
                  "function swap(e) {\n"
                  "  e = new Error('other')\n"
                  "  return e\n"
                  "}\n"
                  "export function parse(url: string) {\n"
                  "  if (!url) throw fatal(new Error('bad SOCKS URL'))\n"
                  "  if (url === 'x') throw swap(new TypeError('never shown'))\n"
                  "  if (url === 'y') throw tag(new RangeError('bad port'))\n"
                  "  const err = new SyntaxError('bad host')\n"
                  "  throw fatal(err)\n"
                  "}\n"),
               {{{"Error", "bad SOCKS URL"}, 15}, {{"Error", "other"}, 16}, {{"RangeError", "bad port"}, 17},
                {{"SyntaxError", "bad host"}, 19}});
}

TEST(JavaScriptHandedErrors, APrototypeMethodThrowsWhatItsSiblingMemberReturns) {
  // `Tokenizer.prototype.expect = function () { throw this.error(…) }`: the
  // `this` of a function assigned as an object's member has that object's
  // other members, here `Tokenizer.prototype.error`.
  auto f = js("function Tokenizer(s) { this.line = 1; }\n"
              "Tokenizer.prototype.error = function error(message) {\n"
              "  return new SyntaxError(message + ' (line ' + this.line + ')');\n"
              "};\n"
              "Tokenizer.prototype.expect = function expect(value) {\n"
              "  throw this.error(\"expected '\" + value + \"'\");\n"
              "};\n"
              "Parser.prototype.fail = function fail(value) {\n"
              "  throw this.error('not a tokenizer');\n"
              "};\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_EQ(shown(f.sites[0]), (Shown{"SyntaxError", "expected '{value}' (line {this.line})"}));
  EXPECT_EQ(f.sites[1].error_class, "this.error");
}

TEST(JavaScriptHandedErrors, OneOfTwoKeptErrorsThrownAgain) {
  // zx's `throw output.cause || output`: an error kept elsewhere, thrown
  // again whatever its class; not a class named by the expression.
  auto f = js("function finalize(output) {\n"
              "  if (output.legacy) throw output.cause || output;\n"
              "  throw output.error ?? DefaultError;\n"
              "}\n");
  ASSERT_EQ(f.sites.size(), 2u);
  EXPECT_TRUE(f.sites[0].reraise);
  EXPECT_EQ(f.sites[0].error_class, "");
  EXPECT_FALSE(f.sites[1].reraise);
}

}  // namespace
// p-timeout: the error is made before the timer, in one branch of a
// conditional, and rejected inside the timer's callback as one branch of
// another; V8's stack names the line it was made on.
TEST(JavaScriptHandedErrors, AnErrorMadeInABranchOfAConditionalAndRejected) {
  auto f = js("export default function pTimeout(promise, milliseconds, message) {\n"
              "  return new Promise((resolve, reject) => {\n"
              "    const timeoutError = message instanceof Error\n"
              "      ? undefined\n"
              "      : new TimeoutError(`Promise timed out after ${milliseconds} milliseconds`);\n"
              "    setTimeout(() => { reject(message instanceof Error ? message : timeoutError); }, milliseconds);\n"
              "    const either = promise ? new Error('a') : new Error('b');\n"
              "    reject(either);\n"
              "  });\n"
              "}\n");
  // A conditional making an error in both branches names no one making.
  expect_sites(f, {{{"TimeoutError", "Promise timed out after {milliseconds} milliseconds"}, 5}});
}

// async-mutex: errors made once as the module loads and rejected by name
// later; every rejection shows the stack of the making.
TEST(JavaScriptHandedErrors, AnErrorMadeAtTheModulesTopLevel) {
  auto f = js("'use strict';\n"
              "exports.E_TIMEOUT = new Error('timeout while waiting for mutex to become available');\n"
              "const E_CANCELED = new Error('request for lock canceled');\n"
              "export const E_LOCKED = new errors.LockError('mutex already locked');\n"
              "const table = new Map();\n"
              "function f() { const local = new Error('not at the top'); return local; }\n");
  expect_sites(f, {{{"Error", "timeout while waiting for mutex to become available"}, 2},
                   {{"Error", "request for lock canceled"}, 3},
                   {{"errors.LockError", "mutex already locked"}, 4}});
}

// readable-stream: an error made only to be handed to a function the file
// does not define, whose value is not used (`errorOrDestroy(stream, new
// ERR_…())`), its class an error's name or one of Node's codes; a value
// handed on is not, nor an error handed to a function of the file that
// keeps it.
TEST(JavaScriptHandedErrors, AnErrorHandedToAFunctionWhoseValueIsNotUsed) {
  auto f = js("function push(stream, state, chunk) {\n"
              "  if (state.ended) {\n"
              "    errorOrDestroy(stream, new ERR_STREAM_PUSH_AFTER_EOF());\n"
              "  } else if (state.bad) {\n"
              "    report(stream, new TypeError('bad chunk'));\n"
              "  }\n"
              "  keep(new Uint8Array(4));\n"
              "  const x = wrap(new Error('used'));\n"
              "  keep(x, new Error('kept'));\n"
              "  return x;\n"
              "}\n"
              "function keep(x, e) { x.last = e; }\n");
  expect_sites(f, {{{"ERR_STREAM_PUSH_AFTER_EOF", ""}, 3}, {{"TypeError", "bad chunk"}, 5}});
}

// p-some rejects the built-in AggregateError, whose message is its second
// argument; bluebird rejects an error made above with its private
// `this._reject(e)`.
TEST(JavaScriptHandedErrors, AggregateErrorsMessageAndAPrivateReject) {
  auto f = js("export default function pSome(iterable, options) {\n"
              "  return new PCancelable((resolve, reject, onCancel) => {\n"
              "    const settle = () => { const e = new AggregateError(errors, 'Too many promises rejected'); reject(e); };\n"
              "  });\n"
              "}\n"
              "SomePromiseArray.prototype._checkOutcome = function() {\n"
              "  if (this.howMany() > this._canPossiblyFulfill()) {\n"
              "    var e = new AggregateError();\n"
              "    this._reject(e);\n"
              "  }\n"
              "};\n");
  expect_sites(f, {{{"AggregateError", "Too many promises rejected"}, 3}, {{"AggregateError", ""}, 8}});
}

}  // namespace errdex::scan
