#pragma once
// Frame paths and record paths agree by their ends: an installed file
// (`.../site-packages/transformers/cache_utils.py`, a virtualenv, conda, an
// editable install, a Windows path) maps to the repository's
// `src/transformers/cache_utils.py`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace errdex::match {

// Components of a path split on '/' and '\'; empty ones and "." dropped.
std::vector<std::string_view> path_components(std::string_view path);
// The same into `out` (cleared first), whose memory is reused.
void path_components(std::string_view path, std::vector<std::string_view>& out);

// How many trailing components the two paths have in common.
std::size_t common_suffix(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b);

// How many trailing components the frame's path and the record's path have
// in common, when that is enough to call them the same file: all of the
// record's path, or at least two components. Otherwise 0.
int suffix_agreement(const std::vector<std::string_view>& frame, const std::vector<std::string_view>& record);

// Whether `path` is absolute: `/usr/lib/python3.11`, `C:\\Python311\\Lib`.
bool is_absolute_path(std::string_view path);

// Where an installed frame's module path begins: the index of the first
// component after the last of `site-packages`, `dist-packages`,
// `lib/pythonX.Y` (`lib64`, free-threaded `python3.13t` too), an `.egg`, a
// zipapp (`.pyz`, `.zip`) or, in a Windows path (`windows`: it held a `\`),
// `Lib`. -1 when the path names none, or nothing follows it.
int module_start(const std::vector<std::string_view>& frame, bool windows);

// The Python version a frame's path names as its interpreter's, major *
// 1000 + minor: `lib/python3.11/` (`lib64`, `python3.13t`, a virtualenv's
// `lib/python3.11/site-packages/` too: its packages run on 3.11) or a
// Windows install's `Python311\\Lib`. 0 when it names none, or no minor
// version (`lib/python3/`).
std::uint32_t python_version_of_path(const std::vector<std::string_view>& frame);

// The Python version a revision's name gives, as python_version_of_path
// does: `v3.11.7`, `3.11.7`, `v3.11` are 3011; 0 for any other name.
std::uint32_t python_version_of_ref(std::string_view ref);

// The repository the standard library is stored as (`scan --python`, and
// python/cpython's own revisions): its revisions are Python versions.
inline constexpr std::string_view k_standard_library_repo = "python/cpython";

// The file a frozen module's frame stands for: `<frozen os>` is os.py and
// `<frozen importlib._bootstrap>` importlib/_bootstrap.py, given as an
// installed path (`lib/python3/os.py`) so that module_start() reads its
// module path; so is `/srv/<frozen os>` (Sentry's abs_path joins it to the
// working folder). Nothing for any other file.
std::optional<std::string> frozen_module_file(std::string_view file);

// Bit m (1..63) is set when the record's path without its last m components
// is one of `roots` (source/import_roots.h): its last m components are then
// a module path, `ipaddress.py` of `Lib/ipaddress.py` with the root `Lib`.
std::uint64_t module_lengths(const std::vector<std::string_view>& record, const std::vector<std::string>& roots);

// An npm package's file in a frame path: after the last `node_modules`
// (pnpm's `.pnpm/<pkg>@<ver>/node_modules/<pkg>/…` too), the package
// (`semver`, or `@scope/name` as two components, named `@scope__name` as
// its repository npm/@scope__name is) and the index of the
// first component of the file inside it (`classes/semver.js`). A CDN's URL
// serving the published files (`https://unpkg.com/semver@7.7.3/…`,
// `https://cdn.jsdelivr.net/npm/@scope/name@1.0.0/…`) names them too. False
// when the path holds no `node_modules/<pkg>/<file>` nor such a URL.
bool npm_package_path(const std::vector<std::string_view>& frame, std::string& package, std::size_t& file_start);

// A compiled JavaScript file's TypeScript source: for a frame in an output
// folder (`dist`, `lib`, `build`, `out`, then a module format folder such as
// `esm` or `cjs`), the path inside it (`sub/x.js`) and the source names its
// last component may have had (`x.ts`, `x.tsx` for `.js`; `x.mts` for
// `.mjs`; `x.cts` for `.cjs`). False for any other frame.
struct CompiledFrame {
  std::size_t inside = 0;            // index of the first component inside the output folder
  std::vector<std::string> sources;  // source basenames to look up
};
bool compiled_frame(const std::vector<std::string_view>& frame, CompiledFrame& out);

// Whether `record` (`src/sub/x.ts`, `packages/p/src/sub/x.ts`) is the
// source of `frame`'s compiled file: it ends with the path inside the
// output folder, its last component one of `sources`, under a source
// folder (`src`, `source`, `ts`, `lib`) or the repository's root.
bool compiled_from(const std::vector<std::string_view>& frame, const CompiledFrame& c,
                   const std::vector<std::string_view>& record);

}  // namespace errdex::match
