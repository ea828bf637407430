#pragma once
// From a message template to the record's text fields. Pure functions.
#include <string>

#include "model/throw_site.h"

namespace errdex::scan {

// errorMessage: literal text as is, each interpolation as `{display}`.
std::string template_text(const model::MessageTemplate& t);
// messagePattern: literal text regex-escaped (RE2 syntax), each
// interpolation a lazy group `(.+?)`, or narrower for printf conversions
// (%d → `(-?\d+)`). Unanchored, as in the seed.
std::string template_pattern(const model::MessageTemplate& t);
// True when the pattern has no constant text to match on: such a site can
// only be told by its frames or class.
bool matches_anything(const model::MessageTemplate& t);
// Same question asked of a stored pattern (no template at hand).
bool pattern_matches_anything(const std::string& pattern);
// The slug of record-format.md.
std::string slugify(const std::string& message);

}  // namespace errdex::scan
