// What a test file binds its names to, read by a light pass over its lines
// (no parse): module-level names, class attributes and `self.x` of methods,
// each function's locals, loops over names, returns, calls and statements.
// The receivers of a test's calls (receiver_typer.h) and its locals
// (test_locals.h) are read from it (scan_python_tests, test_types.cc).
#pragma once

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "scan/python/outline.h"

namespace errdex::scan::python {

// A receiver that stands for more than this many names (a mixin's
// subclasses) says too little: left as written.
constexpr std::size_t k_max_values = 3;
// Calls of one expectation after rewriting.
constexpr std::size_t k_max_calls = 24;

// A character of an identifier.
inline bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// What a name is bound to, as written: `x = Foo(...)` {"Foo", call},
// `x = Foo` {"Foo", alias}; a module loaded by name {"decimal", module}.
struct Value {
  enum Kind { alias, call, module } kind = alias;
  std::string text;
  // The subclass of a mixin whose attribute gave it ("*" for several).
  std::string via;
  // For a call's result with an attribute after it (`make_thing().m`
  // written "make_thing.m"): where the call's name ends in `text`, npos
  // otherwise. The typed call is written with `()` there.
  std::size_t call_end = std::string::npos;
  // For a call bound to a test's own local (`w = Wrapper('x', width=3)`):
  // its argument text, as written; empty when unknown (bound differently
  // twice, an attribute of it set in the test, got some other way).
  std::optional<std::string> args = std::nullopt;
  // For a test's own local: the line of the statement that bound it.
  int line = 0;
};

struct ClassInfo {
  std::vector<std::string> bases;  // as written, dotted names only
  // Class attributes and `self.x = ...` in its methods, first binding
  // kept; a name bound to different things is dropped (`conflicts`).
  std::map<std::string, Value> attrs;
  std::vector<std::string> conflicts;
};

// A call as written in a function's body: its callee (`self.`/`cls.`
// dropped), its arguments' texts, its line and statement.
struct CallSite {
  std::string_view callee;
  std::string_view statement;
  std::size_t open = 0;  // the call's `(` in `statement`
  int line = 0;
  std::uint32_t indent = 0;
};

// A logical line of a function's body: its text (a view of the source,
// a trailing comment included), first line and indent.
struct Statement {
  std::string_view text;
  int line = 0;
  std::uint32_t indent = 0;
};

// What a test file binds (read_bindings).
struct TestFileBindings {
  std::unordered_map<std::string, ClassInfo> classes;  // by qualname
  std::map<std::string, Value> module;                 // module-level names
  // Module-level names bound by one `NAME = VALUE` statement of the top
  // level: the value's text, as written; "" for a name bound more than
  // once or in a block.
  std::map<std::string, std::string> module_texts;
  // Per function ("Cls.test_x", "helper": the outermost function, with
  // its class): its locals and what it returns.
  std::unordered_map<std::string, std::map<std::string, Value>> locals;
  std::unordered_map<std::string, Value> returns;
  std::vector<std::string> bad_returns;  // functions returning different things
  std::vector<std::string> modules;      // modules loaded by name
  // Per function key: its parameters but `self`/`cls`, and the calls of
  // its body (nested functions' included) in order.
  std::unordered_map<std::string, std::vector<std::string>> params;
  std::unordered_map<std::string, std::vector<CallSite>> calls;
  std::vector<std::string> functions;  // keys, in file order
  // Per function key: loop variables over names (`for c in A, B:`).
  std::unordered_map<std::string, std::map<std::string, std::vector<Value>>> loops;
  // Per function key: the statements of its body (nested functions'
  // included), in order, for what a test does to its local between making
  // it and its expectation (steps_on).
  std::unordered_map<std::string, std::vector<Statement>> statements;
};

// `s` without the blanks and line continuations around it.
std::string_view trim(std::string_view s);

// A dotted name at the start of `s` ("self.x", "json.loads"), or "".
std::string_view dotted_prefix(std::string_view s);

// Whether all of `s` is a dotted name.
inline bool is_dotted(std::string_view s) { return !s.empty() && dotted_prefix(s).size() == s.size(); }

// A statement's text without its comments (each runs to its line's end),
// trimmed.
std::string code_of(std::string_view t);

// Whether `s` starts with the word `w` (no identifier character after it).
inline bool starts_with_word(std::string_view s, std::string_view w) {
  return s.starts_with(w) && (s.size() == w.size() || !ident_char(s[w.size()]));
}

// Whether `w` is a keyword a statement or an expression may hold where a
// name could stand (`if`, `not`, `await`, `import`, ...).
bool is_keyword(std::string_view w);

// What the file binds, as read by a pass over its logical lines.
TestFileBindings read_bindings(const PythonLines& lines);

}  // namespace errdex::scan::python
