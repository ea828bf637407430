#pragma once
// Reads a pasted JavaScript error: V8's and Node's stack (`TypeError: msg`
// then `    at fn (file:line:col)` lines, `at async f`, `at new X`,
// anonymous `at file:line:col` frames, `[cause]: …` blocks, the
// `file:line`, source line and caret Node prints above an uncaught error,
// util.inspect's `{ code: 'ERR_X' }` after the frames, AggregateError's
// `[errors]: [ … ]`), Firefox's and Safari's (`fn@file:line:col`), Chrome's
// console (`VM12:1 Uncaught (in promise) TypeError: …`), and the failure
// reports of Jest and Vitest (`❯ fn file:line:col` frames, the test's code
// frame left out of the message). Pure: text in, structure out; linear
// time, AggregateErrors read to a bounded depth.
#include <string_view>

#include "match/traceback.h"

namespace errdex::match {

// Whether `text` holds a JavaScript stack: a line that is a V8 or a
// Firefox frame, and no Python traceback header or `File "…"` frame.
bool looks_like_js_stack(std::string_view text);

// The exceptions of a JavaScript stack into `out.exceptions`, causes first
// and the error thrown last (the order Traceback promises); an
// AggregateError is followed by the errors it holds, the last explained. Frames are
// outermost first, as Python's: V8 prints the innermost first, so they are
// turned around. Node's own frames (`node:internal/…`, `node:fs`,
// `<anonymous>`, `native`) are left out: they are never a site of the
// user's code. Leading `new XError` frames (an error class's constructor
// running `super`) are left out too, so the innermost frame is where the
// error was made. Node's `file:line` header above an uncaught error names
// the throw statement: it becomes the innermost frame, its source line
// the printed one.
void parse_js_stack(std::string_view text, Traceback& out);

}  // namespace errdex::match
