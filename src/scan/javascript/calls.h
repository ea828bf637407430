#pragma once
// The call graph's facts of one JavaScript or TypeScript file, read from
// its whole tree (internal to src/scan/javascript/):
// - FileFacts::functions: each function or method with a name — function
//   declarations, functions and arrows bound to a name (`const f = …`,
//   `X.prototype.f = …`, `exports.f = …`), class methods (constructor,
//   getters and setters too; qualname `Cls.m`), methods of a named object
//   literal (`api.m`; of `module.exports = {…}` just `m`). Its `line` is
//   the function node's first line (a site's function_line). A function
//   inside another (a callback, a closure) is `nested`, qualname
//   `outer.<anonymous>`, and its calls are the outer one's; an anonymous
//   function at the top level (a module wrapper) is no function: the ones
//   it holds are the module's.
// - targets: calls as written, once each (`f`, `this.m`, `ns.f`, `super`,
//   `super.m`, `?.m` for a receiver that is an expression); `new Cls(…)`
//   is a call of `Cls`. assigned: `x = new Cls(…)` ({"x", "Cls"},
//   `this.x` too); the top level's in FileFacts::assigned.
// - class_bases: each class at the top level, with the base it extends.
// - imports (ImportFact, `module` the specifier as written, level 0):
//   `import d from 'm'` {m, "default", d}; `import * as ns` and
//   `const ns = require('m')` {m, "", ns}; `import {a as b}` {m, a, b};
//   `const {a, b: c} = require('m')` {m, a} and {m, b, c};
//   `require('m').y` bound to x {m, y, x}; `export {a as b} from 'm'`
//   {m, a, b}; `export * from 'm'` and `module.exports = require('m')`
//   {m, "*"}.
// - message_calls: calls of a function by name (`f`, `ns.f`) passing a
//   string or a template without substitutions that reads as a message
//   (two words or more), each with the argument's position and its value
//   (decoded, not as written), at most 256 per file.
// - exports: each name the module exports, "name", or "exported=local"
//   when it exports a local under another name (`export default foo`:
//   "default=foo", `module.exports = {parse: parseIt}`: "parse=parseIt").
//   has_exports when there is one.
#include <tree_sitter/api.h>

#include <string_view>

#include "model/throw_site.h"

namespace errdex::scan::javascript_detail {

void read_calls(std::string_view src, const TSLanguage* lang, TSNode root, model::FileFacts& out);

// The file's imports of its top level alone (`import` statements,
// declarations of a `require`), as read_calls reads them: a test file's.
void read_imports(std::string_view src, const TSLanguage* lang, TSNode root, model::FileFacts& out);

}  // namespace errdex::scan::javascript_detail
