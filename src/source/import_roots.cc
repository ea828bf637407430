#include "source/import_roots.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_set>

namespace errdex::source {
namespace {

// "a/b/c.py" -> "a/b"; "c.py" -> "".
std::string_view parent_of(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

std::string_view name_of(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::vector<std::string> import_roots(const std::vector<std::string>& python_paths) {
  // Folders that are packages: they hold an __init__.py.
  std::unordered_set<std::string_view> packages;
  for (const auto& p : python_paths)
    if (name_of(p) == "__init__.py") packages.insert(parent_of(p));
  std::set<std::string> roots{""};
  for (std::string_view pkg : packages) {
    if (pkg.empty()) continue;  // an __init__.py at the top: the top is the root
    std::string_view parent = parent_of(pkg);
    if (!packages.contains(parent)) roots.emplace(parent);
  }
  for (const auto& p : python_paths) {
    std::string_view dir = parent_of(p);
    std::string_view name = name_of(dir);
    if ((name == "src" || name == "lib" || name == "Lib") && !packages.contains(dir)) roots.emplace(dir);
  }
  return {roots.begin(), roots.end()};
}

bool is_test_path(std::string_view path) {
  std::string_view name = name_of(path);
  if (name == "conftest.py" || name.starts_with("test_") || name.ends_with("_test.py")) return true;
  // JavaScript's: `x.test.js`, `x.spec.ts`, tsd's type tests `index.test-d.ts`,
  // and Jest's `__tests__/` and `__mocks__/`.
  if (!name.ends_with(".py") && (name.find(".test.") != std::string_view::npos || name.find(".spec.") != std::string_view::npos ||
                                 name.find(".test-d.") != std::string_view::npos))
    return true;
  // A file named for its tests alone, beside the code it tests: date-fns's
  // `src/isDate/test.ts`, ava's `test.js` at a package's top.
  if (const std::size_t dot = name.find('.'); dot != std::string_view::npos && !name.ends_with(".py")) {
    const std::string_view stem = name.substr(0, dot);
    if (stem == "test" || stem == "tests" || stem == "spec") return true;
  }
  for (std::string_view dir = parent_of(path); !dir.empty(); dir = parent_of(dir)) {
    std::string_view d = name_of(dir);
    if (d == "tests" || d == "test" || d == "testing" || d == "__tests__" || d == "__mocks__") return true;
  }
  return false;
}

}  // namespace errdex::source
