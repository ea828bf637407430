#include "scan/frontend.h"

#include "scan/python/frontend.h"

namespace errdex::scan {
namespace {

class PythonFrontend final : public Frontend {
 public:
  std::string_view language() const override { return "python"; }
  bool worth_parsing(std::string_view source) const override {
    return may_have_sites(source) || may_define_classes(source);
  }
  model::FileFacts scan(std::string_view source) const override { return scan_python(source); }
};

struct Registered {
  std::string_view extension;
  const Frontend* frontend;
};

const Registered* registry(std::size_t& n) {
  static const PythonFrontend python;
  static const Registered k[] = {{".py", &python}};
  n = std::size(k);
  return k;
}

}  // namespace

const Frontend* frontend_for(std::string_view path) {
  std::size_t n = 0;
  const Registered* r = registry(n);
  for (std::size_t i = 0; i < n; ++i)
    if (path.ends_with(r[i].extension)) return r[i].frontend;
  return nullptr;
}

std::vector<std::string> frontend_extensions() {
  std::size_t n = 0;
  const Registered* r = registry(n);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.emplace_back(r[i].extension);
  return out;
}

}  // namespace errdex::scan
