#pragma once
// Checks on Python snippets that the analysts write or receive: does a code
// field parse, which names does it use. Backed by tree-sitter-python; pure
// and thread-safe (one parser per thread).
#include <string>
#include <string_view>
#include <vector>

namespace errdex::analyze {

// True when `code` parses as a Python module with no syntax error and no
// node the parser had to invent. Empty or whitespace-only code is false.
bool parses_as_python(std::string_view code);

// True when `expr` parses as one Python expression.
bool parses_as_expression(std::string_view expr);

struct CodeNames {
  // Identifiers read by the code (attribute names after a dot excluded).
  std::vector<std::string> used;
  // Identifiers the code binds itself: assignment and `for` targets,
  // `as` names, imports, function and class names, parameters.
  std::vector<std::string> bound;
};
// The names of `code`; empty when it does not parse.
CodeNames code_names(std::string_view code);

// The identifiers of `code` in order of first appearance, attribute names
// included (for "does this name occur in the source window").
std::vector<std::string> all_identifiers(std::string_view code);

// Python's keywords, soft keywords and builtin names.
bool is_python_builtin(std::string_view name);

}  // namespace errdex::analyze
