#pragma once
// Internal to the scan stage: JavaScript string-literal grammar,
// independent of the parser. Pure functions.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/throw_site.h"

namespace errdex::scan::javascript {

// The value of one escape sequence as written (`\n`, `\x41`, `\u{1F600}`,
// `\'`, a backslash before a line break), appended to `out` as UTF-8. A
// high surrogate `\uD83D` followed by its low one in `next` joins it into
// one code point; `consumed_next` says so. Lone surrogates become U+FFFD,
// so the text stays valid UTF-8.
void decode_escape(std::string_view escape, std::string_view next, std::string& out, bool& consumed_next);

// Literal text of a string fragment (between escapes), appended as valid
// UTF-8 (invalid bytes become U+FFFD); CRLF and CR become "\n" as in a
// template literal's value.
void append_fragment(std::string_view fragment, std::string& out);

// `util.format`'s template split into literal text and conversions: `%s`,
// `%d`, `%i`, `%f`, `%j`, `%o`, `%O`, `%c` (which prints nothing) and `%%`.
// Each conversion becomes an interpolation of the argument it consumes
// (`args[k]`, or `%s` when there are fewer arguments: Node then prints it
// as written). Arguments past the conversions are printed after a space.
std::vector<model::TemplatePart> format_parts(std::string_view fmt, const std::vector<std::string>& args);

// Whether the identifier at `source[at, at + size)` may be the name a
// function declaration or a variable declarator gives: after `function`,
// `*`, `var`, `let`, `const`, `using`, `,` or a comment, and before `(`,
// `<`, `=`, `:`, `!` or a comment (ASCII whitespace between; any other byte
// around it is let through). A superset, cheap to test: the syntax tree
// decides.
bool may_declare_name(std::string_view source, std::size_t at, std::size_t size);

// Whether the word at `source[at, at + size)` may begin a call's first
// argument, parentheses, `await`, a `<T>` cast or comments aside: after
// `(`, `/`, `>`, `await`, a line break or a byte past ASCII. A superset.
bool may_open_argument(std::string_view source, std::size_t at, std::size_t size);

// An expression as a message's interpolation shows it: comments out,
// blanks folded to one space, none inside brackets' ends or before a
// comma, no trailing comma (`JSON.stringify(\n  name,\n)` is
// `JSON.stringify(name)`); string literals as written.
std::string expression_text(std::string_view expr);

// The names `source` binds to a `new` expression (`const err = new
// Error(…)`, `err = new X(…)`): a superset, read from the text alone,
// each once.
std::vector<std::string_view> names_bound_to_new(std::string_view source);

// Whether the name at `source[at, at + size)` is a call's argument on its
// own (`cb(err)`, `emit('error', err)`, `reject(err, x)`), comments aside:
// after `(` or `,`, before `)` or `,`. A superset.
bool may_be_argument(std::string_view source, std::size_t at, std::size_t size);

// Whether a string literal naming an error code starts at `at`: a quote,
// three or more capitals, digits and `_` (a capital first, one `_` at
// least), the same quote (`'ERR_INVALID_ARG_TYPE'`).
bool is_code_string(std::string_view source, std::size_t at);

// Whether `name` reads as a class: capitalised after any leading `_` or
// `$` (`ValidatorError`, `_Err`, `$ZodError`), not a variable (`err`).
bool names_class(std::string_view name);

// A constructor of JavaScript's or the web platform's values that are no
// errors (`Uint8Array`, `Map`, `Date`, `URL`, `Buffer`, …), as written
// bare or under `globalThis.`/`window.`.
bool builtin_value_class(std::string_view name);

}  // namespace errdex::scan::javascript
