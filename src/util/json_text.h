#pragma once
// JSON text written directly, for the writers that must give the bytes
// nlohmann's dump() gives (the facts cache, record bodies) without building
// its tree first. Pure functions, thread-safe.
#include <string>
#include <string_view>

namespace errdex::util {

// Appends `s` as a JSON string, quotes included, as nlohmann's dump() writes
// it with ensure_ascii off: UTF-8 bytes as they are, `"` and `\` escaped,
// \b \f \n \r \t by name and the other C0 controls as \u00XX (lowercase
// hex), DEL as it is. Returns false, and leaves `out` as it was, when `s`
// is not valid UTF-8 (the caller refuses it or replaces the bad bytes).
bool append_json_string(std::string& out, std::string_view s);

// Appends `items` as a JSON array, each item written by `write(item)`, as
// dump() writes one: no spaces around the commas.
template <class Items, class Write>
void append_json_array(std::string& out, const Items& items, const Write& write) {
  out += '[';
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ',';
    first = false;
    write(item);
  }
  out += ']';
}

}  // namespace errdex::util
