#pragma once
// Python guard conditions decided by literal values: what a test's call
// passes (`parse('x' * 300)`) bound to the raising function's parameters,
// and each guard (`len(s) > 255`, `if not name:`, `mode not in ('r', 'w')`)
// evaluated on them. Only plain literals and a small expression language
// are read; anything else is unknown, never guessed.
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/throw_site.h"

namespace errdex::analyze {

// A Python literal: None, a bool, an int, a float, a str or bytes, or a
// tuple, list or set of literals.
struct PyValue {
  enum class Kind { none, boolean, integer, real, str, bytes, tuple, list, set };
  Kind kind = Kind::none;
  long long i = 0;  // boolean (0/1) and integer
  double f = 0;     // real
  std::string s;    // str and bytes
  std::vector<PyValue> items;
};

// The value of a literal expression (`-1`, `'x' * 300`, `('r', 'w')`,
// `b''`, `None`); empty when it is not one (a name, a call, an f-string).
std::optional<PyValue> literal_value(std::string_view text);

// Parameter name → its literal value; a parameter whose value is not a
// literal is absent.
using Bindings = std::unordered_map<std::string, PyValue>;

// The value of `expression` under `bound` (guard_eval's expression
// language, below); empty when unknown.
std::optional<PyValue> evaluate_value(std::string_view expression, const Bindings& bound);

// Whether `condition` holds for `bound`: comparisons (chained too), `is`
// and `is not`, `in`/`not in`, `not`, `and`/`or`, `len(x)` and
// `isinstance(x, T)` of built-in types, `+`/`-`/`*` on literals, the
// built-ins `int`, `float`, `str`, `bool`, `abs`, `min`, `max`, `tuple`,
// `list` of values they take without raising, `callable` (no literal
// is), `operator.index` of an int,
// and a str's `lower`, `upper`, `strip`, `lstrip`, `rstrip`, `isdigit`,
// `isalpha`, `isalnum`, `isspace` (ASCII text only), `startswith` and
// `endswith`. An attribute of a name is read when `bound` holds it by
// its dotted name (`self.mode`). Empty when it cannot be decided: an
// unbound name, another attribute, another call, a comparison Python would
// refuse.
std::optional<bool> evaluate_condition(std::string_view condition, const Bindings& bound);

// How a site's guards fare under `bound`: every guard holds (true), one
// fails (false), or neither is known. A site without condition guards, or
// with a guard of another kind (`except`, `while`, `match`), is never
// decided true.
std::optional<bool> site_reached(const model::ThrowSite& site, const Bindings& bound);

}  // namespace errdex::analyze
