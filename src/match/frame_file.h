#pragma once
// How far a traceback frame's path agrees with an indexed file's: by the
// ends of their paths, by the module path after an import root, as the
// repository's installed file, or as a file of an npm package. Asked once
// per file a frame's name may be, not per site: kept out of matcher.cc's
// translation unit.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "match/matcher_index.h"

namespace errdex::match::detail {

// A frame's path, read once per frame.
struct FramePath {
  std::string_view file;                   // as printed
  const std::vector<std::string_view>& parts;  // its components
  std::size_t module_len = 0;              // components of its module path (after `site-packages/`, `lib/python3.11/`); 0 none
  std::uint64_t package = 0;               // word_hash() of the npm package it is under (`node_modules/<pkg>/`); 0 none
  std::size_t package_file_start = 0;      // where the file's path inside that package starts
};

// Reads a frame's path (`parts`: its components): its module path after
// an installed root (site-packages, lib/python3.11), which names a file
// whole when the rest of the file's path is an import root
// (`ipaddress.py` is `Lib/ipaddress.py`, though one component alone is
// never enough by suffix); and the npm package it is under, when the
// index holds that package (of the npm/* repositories only npm/<pkg>
// holds a file under `node_modules/<pkg>/`, at the same path).
FramePath frame_path(const Index& m, std::string_view file, const std::vector<std::string_view>& parts);

// statement_hash() of the function a frame names, read as its dotted
// name's last part; 0 for `<module>`, `<lambda>`, `<genexpr>` and the
// like, which name no def and say nothing. A site in another function is
// not the frame's statement, whatever its text.
std::uint32_t frame_function(std::string_view function);

// How many components of `f` agree with indexed file `file` (0: none). A
// module path agreeing whole with a file under an import root counts all
// the file's components: `ipaddress.py` is `Lib/ipaddress.py`. The
// repository's installed file counts one more than any other repository
// holding the same module path can show; under `node_modules/<pkg>/` only
// npm/<pkg>'s file at the same path agrees, by one more than its length.
int file_agreement(const Index& m, const FramePath& f, std::uint32_t file);

}  // namespace errdex::match::detail
