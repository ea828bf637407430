#include "match/path_suffix.h"

namespace errdex::match {

std::vector<std::string_view> path_components(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t j = path.find_first_of("/\\", i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view part = path.substr(i, j - i);
    if (!part.empty() && part != ".") out.push_back(part);
    i = j + 1;
  }
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
