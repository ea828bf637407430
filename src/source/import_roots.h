#pragma once
// Where a repository's Python modules are imported from. An installed file
// (`.../site-packages/pkg/x.py`, `.../lib/python3.11/ipaddress.py`) carries
// its module path (`pkg/x.py`, `ipaddress.py`); the repository holds the same
// file under an import root (`src/pkg/x.py`, `Lib/ipaddress.py`). Knowing the
// roots, a frame's module path names one repository file, and a top-level
// module (one component) is no weaker a match than a package's module.
#include <string>
#include <string_view>
#include <vector>

namespace errdex::source {

// The import roots of a tree from the paths of its Python files ('/'-
// separated, as recorded: with the scan's prefix), sorted, no duplicates:
// - "" (the repository's top), always;
// - the parent of each top-level package (a folder with `__init__.py` whose
//   parent has none): `Lib` for CPython, `src` for a src layout;
// - a folder named `src`, `lib` or `Lib` that holds modules directly and is
//   not itself a package (top-level modules without any package beside).
std::vector<std::string> import_roots(const std::vector<std::string>& python_paths);

// True for a repository's own test code, whose raises are evidence of an
// error, not errors a user meets: a file under a folder named `tests`,
// `test` or `testing` (data beside the tests too), and `test_*.py`,
// `*_test.py` and `conftest.py` anywhere. `path` is '/'-separated, as
// recorded (with the scan's prefix).
bool is_test_path(std::string_view path);

}  // namespace errdex::source
