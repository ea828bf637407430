#pragma once
// Where a relative import (`from ..b import c`) leads, read off the place
// it is written in: shared by the scanner's linking across files
// (link.cc, over paths) and the call graph (analyze/call_graph.cc, over
// dotted module names).
#include <string>
#include <string_view>

namespace errdex::scan::python {

// The module an import of `level` leading dots names, written in a module
// of `package` (the package itself for its `__init__`): `package` with its
// last `level - 1` parts dropped, then `module` ("" for `from .. import
// x`); parts are separated by `sep`, '.' between a module name's parts,
// '/' between a path's folders. Dots past the top drop everything: `module`
// is then the answer. Level 0 is an absolute import: `module` as written.
// `resolve_relative_import("a/x", 2, "b", '/')` is "a/b".
std::string resolve_relative_import(std::string_view package, int level, std::string_view module, char sep);

}  // namespace errdex::scan::python
