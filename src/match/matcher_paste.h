#pragma once
// What Matcher::match explains of a pasted text: the exception it asks
// about, read once, before any candidate is looked for. Cold (once per
// match): kept out of matcher.cc's translation unit.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "match/matcher_index.h"
#include "match/traceback.h"

namespace errdex::match::detail {

// The exception to explain. Views point into `one`, `tb` or the text read,
// and `frames` into `tb` or `scratch_frames`: a Paste is filled in place
// and never copied or moved.
struct Paste {
  bool single = false;  // one line, read in place (`one`); else through the traceback parser (`tb`)
  LineException one;
  Traceback tb;
  std::size_t explained = 0;  // of tb.exceptions
  std::string_view error_class, whole;  // as printed: the class, the whole message
  std::string_view message;  // `whole`, or its first part when it is too long to match
  std::string_view last_class;  // the class's last dotted name
  std::uint32_t cls = 0;  // the class's id in the index, 0 none
  bool truncated = false;  // the text or the message was read in part
  const std::vector<Frame>* frames = nullptr;  // outermost first, as matched (never null once read)
  std::vector<Frame> scratch_frames;  // `frames` when they differ from what was printed

  Paste() = default;
  Paste(const Paste&) = delete;
  Paste& operator=(const Paste&) = delete;
};

// Messages longer than this are matched on their first part: a pattern's
// constant text is short, and RE2's time grows with the text.
inline constexpr std::size_t k_max_message = 64u << 10;

// Reads `text` into `p` (default-constructed): a single line (most of what
// is pasted) in place, anything else through parse_traceback, its
// exception to explain chosen and its frames made the ones to match (a
// SyntaxError's place in the compiled text dropped, a frozen module's file
// named). The parser's questions about classes are answered from `m`, and
// the class it settles on is not looked up twice.
void read_paste(const Index& m, std::string_view text, Paste& p);

// Whether a frame's printed statement raises (`raise exc`, `throw err`):
// an exception it hands on was made elsewhere, not below it.
bool raises_itself(std::string_view source);

// Whether a frame's file is JavaScript or TypeScript (node's `[eval]` and
// `node:internal/…` are neither; a browser's `?v=3f2a` is not the file's).
bool js_frame(std::string_view file);

// Whether `name` is a minified build's file (`index.min.js`, `x.min.cjs`),
// which the scan skips; `readable` is then the readable build's name
// beside it (`index.js`, `x.cjs`).
bool minified_name(std::string_view name, std::string& readable);

// The Python version the frames name as their interpreter's
// (python_version_of_path), innermost first; 0 when none does. `parts` is
// working memory.
std::uint32_t python_version_of_frames(const std::vector<Frame>& frames, std::vector<std::string_view>& parts);

}  // namespace errdex::match::detail
