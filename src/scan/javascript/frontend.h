#pragma once
// The JavaScript and TypeScript frontend: bytes of one .js/.ts file in,
// throw-site facts out. Pure and thread-safe (each thread has its parsers).
#include <string_view>
#include <vector>

#include "model/throw_site.h"

namespace errdex::scan {

// Which grammar reads the file: TypeScript reads `<T>x` as a cast, where
// TSX and JavaScript read JSX.
enum class Dialect { javascript, typescript, tsx };

// Finds every throw site in `source` (UTF-8): `throw new X(…)`, `throw X(…)`,
// `throw err` where `err` was made earlier in the function with `new X(…)`
// (its `err.code = 'E…'` gives the error code), `throw helper(…)` where the
// file's `helper` returns `new X(…)`, `Promise.reject(new X(…))`,
// `reject(new X(…))`, a callback or `emit('error', …)` handed `new X(…)`.
// Messages are read from string and template literals (`${expr}` is an
// interpolation named after the expression), `+` concatenation,
// `util.format`'s `%s`, and message variables of the function. Classes
// that extend another are listed (ClassDef) with their bases. Never throws
// on bad input; nesting is walked without recursion and expressions are
// read to a bounded depth.
// With the call graph's facts (functions, imports, exports, classes'
// bases) of the whole file, as scan_javascript_calls reads them.
model::FileFacts scan_javascript(std::string_view source, Dialect dialect);

// The call graph's facts alone, of a file that holds no site: each named
// function's calls as written, the file's imports and exports (the forms
// are listed in scan/javascript/calls.h).
model::FileFacts scan_javascript_calls(std::string_view source, Dialect dialect);

// A test file's expectations that a call throws (FileFacts::expectations,
// no sites): `expect(fn).toThrow(x)` and `.toThrowError`, `expect(promise)
// .rejects.toThrow(x)`, Chai's `expect(fn).to.throw(Class, text)` and
// `.rejectedWith`, Node's `assert.throws(fn, expected)` and
// `assert.rejects`, ava's `t.throws`; not under `.not`. What is expected:
// classes (a capitalised name, an object's `name`), and `match`, a regex
// the message holds (a regex literal; a string as a substring, for Jest
// and Chai; an object's `message`, whole). What runs: the calls of the
// function or promise given, as written (`parse`, `lexer.advance`, `Lexer`
// for `new Lexer(…)`). The test is the `describe`/`it`/`test` titles
// around it joined by " › "; an expectation outside an `it` or `test` is
// left out. A local a call is made on (`p.parse`), bound once to `new
// Parser(…)` where the expectation sees it, is in its `locals` as
// {"p", "new Parser"}. With expectations, the file's imports (the forms of
// scan/javascript/calls.h), which the calls are resolved through.
model::FileFacts scan_javascript_tests(std::string_view source, Dialect dialect);

// What JavaScript prints, across the files of one scan (`javascript[i]`:
// file i is JavaScript or TypeScript; the others are left alone):
// - a site raising an entry of a code-keyed table (ClassDef::code, read from
//   `E('ERR_X', msg, Base)` in any file) becomes what Node throws: class
//   Base, the entry's message filled with the site's arguments (util.format's
//   `%s` or the message function's parameters), and the code as
//   `code='ERR_X'` among its arguments (the record's errorCode); a code
//   defined twice keeps its first entry;
// - a site raising a class another file defines with a display shows it
//   (offer_display);
// - a site raising a class of the repository keeps that class, also when
//   the class never names itself (`class MissingRefError extends Error {}`):
//   Node prints an uncaught error, and console.error one, by its class
//   (`MissingRefError: …`, `PathError [TypeError]: …`); only its `stack`
//   and toString() say its base (`Error: …`), which matching reads as the
//   site's class too (matcher.h).
void link_javascript(std::vector<model::FileFacts>& files, const std::vector<bool>& javascript);

// A throw of a parameter of a function (`export function devAssert(condition,
// message) { … throw new Error(message) }`, ThrowSite::message_param) shows,
// as alternatives, the texts other files pass for it where they import the
// function from its file (`import { devAssert } from '../jsutils/devAssert'`,
// `import * as u from './util'` then `u.devAssert(…)`, `const { devAssert } =
// require('./devAssert')`; `./x.js` for `x.ts`, `./x` for `x/index.js`):
// `devAssert(config.name, 'Must provide name.')` gives "Must provide name.".
// A name several files define so is left alone, and a site keeps at most 64
// alternatives. `paths` are the files' paths in the repository.
void link_javascript_caller_messages(std::vector<model::FileFacts>& files, const std::vector<bool>& javascript,
                                     const std::vector<std::string>& paths);

// A message that shows a name another file of the repository exports as a
// text (`export const CONNECTION_CLOSED_ERROR_MSG = "Connection is
// closed."`, `exports.X = '…'`), imported by the raising file (`import {
// CONNECTION_CLOSED_ERROR_MSG } from "./utils"`, `const { X } =
// require('./errors')`, `errors.X` of `import * as errors`), shows that
// text: the module's top-level `const` bound once to a plain string
// (FileFacts::module_bindings). Run before link_javascript, which fills
// displays with the sites' arguments. `paths` as for
// link_javascript_caller_messages.
void link_javascript_imported_constants(std::vector<model::FileFacts>& files, const std::vector<bool>& javascript,
                                        const std::vector<std::string>& paths);

// A site raising class `c`, which formats its message (ClassDef::display:
// what its constructor gives `super` or sets as `this.message`), shows
// that message, its parameters filled with the site's arguments in order.
void offer_display(const model::ClassDef& c, model::ThrowSite& site);

// Cheap pre-check: false when `source` cannot hold a site nor a class.
bool javascript_worth_parsing(std::string_view source);

// Whether `source` is minified code (a bundle committed without `.min.` in
// its name, such as lodash's `underscore-min.js`): lines of thousands of
// characters, which the scan does not read and lists as skipped.
bool javascript_minified(std::string_view source);

// Whether `code` parses as JavaScript (as TypeScript when `typescript`)
// without a syntax error: how the analyst checks the code it writes.
bool parses_as_javascript(std::string_view code, bool typescript);

}  // namespace errdex::scan
