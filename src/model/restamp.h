#pragma once
// A record's JSON carried to another revision without serialising it again.
// A record analyzed at one revision and kept at the next differs only in
// what it owes to the revision (analyze::stamp): githubUrl, analyzedSha,
// analyzedAt and analysis.at.
#include <optional>
#include <string>
#include <string_view>

#include "model/error_record.h"

namespace errdex::model {

// to_json(to), made from `from_json` == to_json(from) by replacing the four
// stamped values, when `from` and `to` are equal in every other field;
// nullopt otherwise (or when from_json is not to_json(from)'s shape), and
// the caller serialises `to` itself. `to` is compared by lending it
// `from`'s stamp for the comparison: it is as it was on return, and only
// it is touched, so calls on different `to` may run at once.
std::optional<std::string> restamp_json(std::string_view from_json, const ErrorRecord& from, ErrorRecord& to);

}  // namespace errdex::model
