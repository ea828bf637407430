#pragma once
// Frame paths and record paths agree by their ends: an installed file
// (`.../site-packages/transformers/cache_utils.py`, a virtualenv, conda, an
// editable install, a Windows path) maps to the repository's
// `src/transformers/cache_utils.py`.
#include <string_view>
#include <vector>

namespace errdex::match {

// Components of a path split on '/' and '\'; empty ones and "." dropped.
std::vector<std::string_view> path_components(std::string_view path);
// The same into `out` (cleared first), whose memory is reused.
void path_components(std::string_view path, std::vector<std::string_view>& out);

// How many trailing components the frame's path and the record's path have
// in common, when that is enough to call them the same file: all of the
// record's path, or at least two components. Otherwise 0.
int suffix_agreement(const std::vector<std::string_view>& frame, const std::vector<std::string_view>& record);

}  // namespace errdex::match
