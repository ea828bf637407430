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
// `list` of values they take without raising, `operator.index` of an int,
// and a str's `lower`, `upper`, `strip`, `lstrip`, `rstrip`, `isdigit`,
// `isalpha`, `isalnum`, `isspace` (ASCII text only), `startswith` and
// `endswith`. Empty when it cannot be decided: an unbound name, an
// attribute, another call, a comparison Python would refuse.
std::optional<bool> evaluate_condition(std::string_view condition, const Bindings& bound);

// Binds a call's argument text (`10, 20, step=0`) to a `def` parameter list
// (`self, start, stop=None, step=1`), defaults included, `*args` the tuple
// of the extra positionals (when all are literals); `skip_first` drops
// the receiver (`self`, `cls`). Empty when the call does not fit the list
// (too many positionals, an unknown keyword, a parameter given twice or
// one without a default not given) or cannot be read (`*x`/`**x` splats);
// with `misfit`, it says which: true only when the call surely does not
// fit, so Python raises TypeError before the function's body runs.
std::optional<Bindings> bind_call(const std::string& params, std::string_view args, bool skip_first,
                                  bool* misfit = nullptr);

// The argument text of the one call of `callee` (a bare name) in a test's
// code: `callee(...)`, `obj.callee(...)`, or the arguments after it in
// `assertRaises(E, obj.callee, ...)`/`pytest.raises(E, callee, ...)`.
// Empty when the code calls it in none or several places.
std::optional<std::string> call_arguments(std::string_view code, std::string_view callee);

// Each call's argument text as call_arguments finds them, in the order the
// code writes them (`f(1); f(2)`); empty when there is none, or when the
// code names `callee` some other way it cannot follow (handed to a helper).
std::optional<std::vector<std::string>> call_argument_lists(std::string_view code, std::string_view callee);

// How a site's guards fare under `bound`: every guard holds (true), one
// fails (false), or neither is known. A site without condition guards, or
// with a guard of another kind (`except`, `while`, `match`), is never
// decided true.
std::optional<bool> site_reached(const model::ThrowSite& site, const Bindings& bound);

}  // namespace errdex::analyze
