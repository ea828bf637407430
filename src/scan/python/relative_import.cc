#include "scan/python/relative_import.h"

namespace errdex::scan::python {

std::string resolve_relative_import(std::string_view package, int level, std::string_view module, char sep) {
  if (level == 0) return std::string(module);
  for (int up = 1; up < level; ++up) {
    const auto last = package.rfind(sep);
    package = last == std::string_view::npos ? std::string_view() : package.substr(0, last);
  }
  if (module.empty()) return std::string(package);
  if (package.empty()) return std::string(module);
  std::string out(package);
  out += sep;
  out += module;
  return out;
}

}  // namespace errdex::scan::python
