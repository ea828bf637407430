#pragma once
// Guard conditions read as Python source: cleaned to one line, taken apart
// (a comparison, a call, its arguments), negated, put in words, and
// combined over a site's leading guards. What the static analyst
// (static_prose.h) and the lints write from.
#include <optional>
#include <string>
#include <vector>

#include "model/throw_site.h"

namespace errdex::analyze {

// A guard condition as one line of Python: line continuations (a backslash
// left before a collapsed newline) removed outside strings.
std::string clean_condition(const std::string& raw);

// `(x)` → `x` when the parentheses wrap the whole expression.
std::string strip_parens(std::string c);

// One top-level comparison `lhs op rhs`, if the condition is exactly that.
struct Comparison {
  std::string lhs, op, rhs;
};
std::optional<Comparison> comparison(const std::string& c);

// The call `name(args)` when the condition is exactly one call, optionally
// negated: `not isinstance(x, int)` → {true, "isinstance", "x, int"}.
struct CallCond {
  bool negated = false;
  std::string fn, args;
};
std::optional<CallCond> call_condition(std::string c);

// Splits top-level arguments "x, (int, float)" → {"x", "(int, float)"}.
std::vector<std::string> split_args(const std::string& args);

// "int" → "an int", "(int, float)" → "one of int, float".
std::string type_phrase(std::string t);

// The reaching condition in words, or "" when no plain reading exists.
std::string gloss(const std::string& cond);

// What makes the error go away, from the reaching condition; "" if nothing
// better than "make the condition false" can be said.
std::string remedy(const std::string& cond);

// A guard that tests a condition (if, elif, while, assert, or the else of
// one), not an except or a match.
bool is_condition_guard(const model::Guard& g);

// Parameter names of a `def` parameter list's source text ("self, x: int = 1,
// *args"), without self/cls, `*`, `/`, annotations and defaults.
std::vector<std::string> parameter_names(const std::string& params);

// The guard condition negated as Python source: `a != b` → `a == b`,
// `not x` → `x`, `x is None` → `x is not None`, else `not (cond)`.
std::string negate_condition(const std::string& cond);

// The ways the site is reached and avoided, from its leading condition
// guards (if/elif/else/while/assert; up to four): `reach` holds when the
// site runs, `ok` is its negation. Empty when there is no such guard.
struct Conditions {
  std::string reach;
  std::string ok;
  std::vector<std::string> names;  // every name the guards read
  int count = 0;
};
Conditions site_conditions(const model::ThrowSite& s);

}  // namespace errdex::analyze
