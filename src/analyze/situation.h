#pragma once
// The sentences commonSituations is written from when the code says no more
// than where the check sits: one read off the shape of a check of one
// parameter, and the fallback by the error's category.
#include <string>
#include <string_view>
#include <vector>

#include "analyze/condition.h"

namespace errdex::analyze {

// Where users meet a check of one parameter (`cond`, its one leading
// guard, reading one of `params`), read off the check's shape: a negated
// isinstance, a `not in`, an `is None`, a comparison with a number, a `!=`
// between two computed values. `entry` is what the user calls, in
// backticks. "" when the shape says nothing specific (or `cond` combines
// more than one guard).
std::string situation_from(const Conditions& cond, const std::vector<std::string>& params, const std::string& entry);

// The sentence commonSituations falls back to when the code says no more
// than the error's category (`error_type`, as ErrorRecord::error_type):
// "Passing a value out of range or inconsistent with the rest to `f(x)`."
// `entry` is what the user calls, in backticks.
std::string category_situation(std::string_view error_type, std::string_view entry);
// Whether `text` is exactly one such sentence, for any entry: it says
// nothing a more specific sentence beside it would not.
bool is_category_situation(std::string_view text);

}  // namespace errdex::analyze
