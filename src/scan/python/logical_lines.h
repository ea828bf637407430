#pragma once
// Internal to the Python outline (outline.cc) and its light pass over
// calls and imports (call_facts.cc): a file split into logical lines.
#include <cstdint>
#include <string_view>
#include <vector>

#include "scan/python/outline.h"

namespace errdex::scan {
namespace detail {

// One logical line: a statement head or a whole simple statement, possibly
// spanning physical lines (brackets, triple-quoted strings, backslashes).
struct Logical {
  std::uint32_t first_line = 0;  // 0-based physical lines, inclusive
  std::uint32_t last_line = 0;
  std::uint32_t begin = 0;  // byte range in the source
  std::uint32_t end = 0;
  std::uint32_t indent = 0;  // columns, tabs to multiples of 8
  std::uint32_t text = 0;    // byte offset of the first non-blank character
};

inline bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

inline bool starts_with_word(std::string_view s, std::uint32_t at, std::string_view word) {
  if (s.compare(at, word.size(), word) != 0) return false;
  std::size_t after = at + word.size();
  return after >= s.size() || !is_ident(s[after]);
}

}  // namespace detail

struct PythonLines::Impl {
  std::string_view source;
  std::vector<detail::Logical> ls;
  std::vector<std::uint32_t> line_starts;
  bool ok = false;  // split whole: not too large, no string or bracket left open
};

}  // namespace errdex::scan
