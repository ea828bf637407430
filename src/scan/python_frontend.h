#pragma once
// The Python frontend: bytes of one .py file in, throw-site facts out.
// Pure and thread-safe (each call uses its own parser).
#include <string_view>

#include "model/throw_site.h"

namespace errdex::scan {

// Finds every `raise`, `warnings.warn(...)` and `assert cond, msg` in
// `source` (UTF-8 Python). Never throws on bad input: a file that does not
// parse yields the sites tree-sitter could still recognise, with
// had_syntax_errors set.
model::FileFacts scan_python(std::string_view source);

// Cheap pre-check: false when `source` cannot contain a throw site (no
// `raise`, `warn` or `assert` bytes), so the caller may skip the parse.
bool may_have_sites(std::string_view source);

}  // namespace errdex::scan
