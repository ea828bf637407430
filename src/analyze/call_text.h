#pragma once
// A Python call as a test writes it, read from its text: the argument
// lists of a callee's calls in a test's code (`f(1); obj.f(2)`,
// `assertRaises(E, f, 3)`), and one bound to a `def` parameter list, each
// parameter to its literal value (guard_eval.h) where it is one.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/guard_eval.h"

namespace errdex::analyze {

// Calls `at(i, c, depth)` for each character of `s` from `from` on that is
// outside a string literal, `depth` counting the brackets open after it
// (an opening one included, a closing one not); stops when `at` says so.
template <class At>
void walk_code(std::string_view s, std::size_t from, const At& at) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = from; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    if (at(i, c, depth)) return;
  }
}

// Binds a call's argument text (`10, 20, step=0`) to a `def` parameter list
// (`self, start, stop=None, step=1`), defaults included, `*args` the tuple
// of the extra positionals (when all are literals); `skip_first` drops
// the receiver (`self`, `cls`). Empty when the call does not fit the list
// (too many positionals, an unknown keyword, a parameter given twice or
// one without a default not given) or cannot be read (`*x`/`**x` splats);
// with `misfit`, it says which: true only when the call surely does not
// fit, so Python raises TypeError before the function's body runs.
// With `scope`, an argument is evaluated on what the caller's names hold
// there (`_check(name, 0)` inside a function whose `name` is known);
// defaults stay literals.
std::optional<Bindings> bind_call(const std::string& params, std::string_view args, bool skip_first,
                                  bool* misfit = nullptr, const Bindings* scope = nullptr);

// The argument text of the one call of `callee` (a bare name) in a test's
// code: `callee(...)`, `obj.callee(...)`, or the arguments after it in
// `assertRaises(E, obj.callee, ...)`/`pytest.raises(E, callee, ...)`.
// Empty when the code calls it in none or several places.
std::optional<std::string> call_arguments(std::string_view code, std::string_view callee);

// Each call's argument text as call_arguments finds them, in the order the
// code writes them (`f(1); f(2)`); empty when there is none, or when the
// code names `callee` some other way it cannot follow (handed to a helper).
std::optional<std::vector<std::string>> call_argument_lists(std::string_view code, std::string_view callee);

}  // namespace errdex::analyze
