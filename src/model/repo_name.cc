#include "model/repo_name.h"

#include <algorithm>

namespace errdex::model {

bool is_repo_name(std::string_view s) {
  auto slash = s.find('/');
  if (slash == std::string_view::npos || s.find('/', slash + 1) != std::string_view::npos) return false;
  auto part = [](std::string_view p) { return !p.empty() && p != "." && p != ".."; };
  return part(s.substr(0, slash)) && part(s.substr(slash + 1)) &&
         std::none_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

bool is_github_repo_name(std::string_view s) {
  if (!is_repo_name(s)) return false;
  auto slash = s.find('/');
  auto github = [](std::string_view p) {
    return std::all_of(p.begin(), p.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
             c == '.';
    });
  };
  std::string_view name = s.substr(slash + 1);
  if (name.front() == '@') name.remove_prefix(1);
  return github(s.substr(0, slash)) && !name.empty() && github(name);
}

bool is_ref_name(std::string_view s) {
  return !s.empty() &&
         std::none_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; });
}

}  // namespace errdex::model
