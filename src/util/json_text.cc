#include "util/json_text.h"

#include "util/text.h"

namespace errdex::util {
namespace {

// The escape of an ASCII byte, or nullptr when it is written as it is.
const char* escape_of(unsigned char c) {
  static constexpr const char* k_named[] = {"\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005",
                                            "\\u0006", "\\u0007", "\\b",     "\\t",     "\\n",     "\\u000b",
                                            "\\f",     "\\r",     "\\u000e", "\\u000f", "\\u0010", "\\u0011",
                                            "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
                                            "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d",
                                            "\\u001e", "\\u001f"};
  if (c < 0x20) return k_named[c];
  if (c == '"') return "\\\"";
  if (c == '\\') return "\\\\";
  return nullptr;
}

}  // namespace

bool append_json_string(std::string& out, std::string_view s) {
  const std::size_t start = out.size();
  out += '"';
  // Runs of bytes written as they are go out in one append.
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_length_at(s, i);
      if (n == 0) {
        out.resize(start);
        return false;
      }
      i += n;
      continue;
    }
    if (const char* escape = escape_of(c)) {
      out.append(s.substr(run, i - run));
      out += escape;
      run = i + 1;
    }
    ++i;
  }
  out.append(s.substr(run));
  out += '"';
  return true;
}

}  // namespace errdex::util
