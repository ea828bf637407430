#pragma once
// Switches read from the process's environment (diagnostics such as
// ERRDEX_CHECK_MEMO), not settings a user must give.
#include <cstdlib>
#include <string_view>

namespace errdex::util {

// Whether the environment variable `name` is set to something other than
// "" or "0".
inline bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string_view(v) != "0";
}

}  // namespace errdex::util
