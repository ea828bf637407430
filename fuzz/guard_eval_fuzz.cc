// Feeds arbitrary bytes to the guard evaluator (analyze/guard_eval.h) as a
// test's code, a parameter list, call arguments and a condition: nothing
// crashes, and a value decided twice is decided the same.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "analyze/call_text.h"
#include "analyze/guard_eval.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace errdex::analyze;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  // Four pieces separated by NUL bytes: code, params, callee, condition.
  std::string piece[4];
  for (std::size_t k = 0, at = 0; k < 4 && at <= in.size(); ++k) {
    std::size_t end = in.find('\0', at);
    if (end == std::string_view::npos) end = in.size();
    piece[k] = std::string(in.substr(at, end - at));
    at = end + 1;
  }
  (void)literal_value(piece[0]);
  (void)call_argument_lists(piece[0], piece[2]);
  auto args = call_arguments(piece[0], piece[2]);
  auto bound = bind_call(piece[1], args ? *args : piece[0], true);
  if (!bound) return 0;
  auto a = evaluate_condition(piece[3], *bound);
  auto b = evaluate_condition(piece[3], *bound);
  if (a != b) std::abort();
  // A value and the condition on it agree.
  if (auto v = evaluate_value(piece[3], *bound); v && !a) std::abort();
  return 0;
}
