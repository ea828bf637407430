#include "match/frame_file.h"

#include <string>

#include "match/excerpt.h"
#include "match/path_suffix.h"

namespace errdex::match::detail {
namespace {

// Whether the frame's path is one of the roots its record's repository was
// installed at, followed by the record's path or by its module path (the
// record's path after one of its repository's import roots). `parts` are
// the frame path's components.
bool installed_here(const Index& m, std::string_view frame_file, const std::vector<std::string_view>& parts,
                    std::uint32_t file) {
  const auto& roots = m.installed[m.file_installed[file]];
  const auto& rec = m.file_parts[file];
  for (const auto& r : roots) {
    if (r.components >= parts.size() || !frame_file.starts_with(r.root)) continue;
    const char next = frame_file.size() > r.root.size() ? frame_file[r.root.size()] : '\0';
    if (next != '/' && next != '\\') continue;
    const std::size_t k = parts.size() - r.components;
    if (common_suffix(parts, rec) >= k && (k == rec.size() || (k < 64 && ((m.module_mask[file] >> k) & 1))))
      return true;
  }
  return false;
}

}  // namespace

FramePath frame_path(const Index& m, std::string_view file, const std::vector<std::string_view>& parts) {
  const int start = module_start(parts, file.find('\\') != std::string_view::npos);
  const std::size_t module_len = start < 0 ? 0 : parts.size() - static_cast<std::size_t>(start);
  std::string package;
  std::size_t package_file_start = 0;
  const std::uint64_t package_hash = npm_package_path(parts, package, package_file_start) ? m.indexed_package(package) : 0;
  return FramePath{file, parts, module_len, package_hash, package_file_start};
}

std::uint32_t frame_function(std::string_view function) {
  if (auto dot = function.rfind('.'); dot != std::string_view::npos) function.remove_prefix(dot + 1);
  return function.empty() || function.front() == '<' ? 0 : statement_hash(function);
}

int file_agreement(const Index& m, const FramePath& f, std::uint32_t file) {
  const auto& rec = m.file_parts[file];
  const auto& parts = f.parts;
  int agree;
  if (f.module_len > 0 && f.module_len < 64 && ((m.module_mask[file] >> f.module_len) & 1) &&
      common_suffix(parts, rec) >= f.module_len)
    agree = static_cast<int>(rec.size());
  else
    agree = suffix_agreement(parts, rec);
  if (agree > 0 && m.file_installed[file] != 0 && installed_here(m, f.file, parts, file)) agree = static_cast<int>(rec.size()) + 1;
  if (f.package != 0 && m.file_package[file] != 0) {
    const std::size_t in_package = parts.size() - f.package_file_start;
    const bool same = m.file_package[file] == f.package && rec.size() == in_package && common_suffix(parts, rec) >= in_package;
    agree = same ? static_cast<int>(rec.size()) + 1 : 0;
  }
  return agree;
}

}  // namespace errdex::match::detail
