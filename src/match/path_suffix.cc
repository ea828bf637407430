#include "match/path_suffix.h"

namespace errdex::match {

void path_components(std::string_view path, std::vector<std::string_view>& out) {
  out.clear();
  // One pass over the characters (find_first_of searches its set anew at
  // each one).
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/' && path[i] != '\\') continue;
    std::string_view part = path.substr(begin, i - begin);
    if (!part.empty() && part != ".") out.push_back(part);
    begin = i + 1;
  }
}

std::vector<std::string_view> path_components(std::string_view path) {
  std::vector<std::string_view> out;
  path_components(path, out);
  return out;
}

int suffix_agreement(const std::vector<std::string_view>& frame, const std::vector<std::string_view>& record) {
  std::size_t k = 0;
  while (k < frame.size() && k < record.size() && frame[frame.size() - 1 - k] == record[record.size() - 1 - k]) ++k;
  if (k == 0) return 0;
  if (k == record.size() || k >= 2) return static_cast<int>(k);
  return 0;
}

}  // namespace errdex::match
