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
model::FileFacts scan_javascript(std::string_view source, Dialect dialect);

// Sites that raise an entry of a code-keyed table (ClassDef::code, read
// from `E('ERR_X', msg, Base)` in any file) become what Node throws: class
// Base, the entry's message filled with the site's arguments (util.format's
// `%s` or the message function's parameters), and the code as `code='ERR_X'`
// among the arguments (the record's errorCode). Across the files of one
// scan; a code defined twice keeps its first entry.
void link_code_tables(std::vector<model::FileFacts>& files);

// Cheap pre-check: false when `source` cannot hold a site nor a class.
bool javascript_worth_parsing(std::string_view source);

// Whether `code` parses as JavaScript (as TypeScript when `typescript`)
// without a syntax error: how the analyst checks the code it writes.
bool parses_as_javascript(std::string_view code, bool typescript);

}  // namespace errdex::scan
