// Feeds arbitrary bytes to the traceback parser and checks its contract:
// always at least one exception, messages trimmed, frame lines non-negative.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "match/traceback.h"

namespace {
bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto known = [](std::string_view c) { return c == "error" || c == "Empty"; };
  errdex::match::Traceback t = errdex::match::parse_traceback(text, known);
  if (t.exceptions.empty()) std::abort();
  for (const auto& e : t.exceptions) {
    if (!e.message.empty() && (blank(e.message.front()) || blank(e.message.back()))) std::abort();
    if (e.message.size() > text.size()) std::abort();
    for (const auto& f : e.frames)
      if (f.line < 0) std::abort();
  }
  return 0;
}
