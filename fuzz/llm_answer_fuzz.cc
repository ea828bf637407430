// An LLM server's answer is outside input: any bytes as the assistant
// message either leave the record's fields as they were or replace them
// with values that pass validation (code fields parse as Python).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "analyze/llm_analyst.h"
#include "analyze/python_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string content(reinterpret_cast<const char*>(data), size);
  errdex::model::ErrorRecord r;
  r.source_code = "def f(n):\n    if n < 0:\n        raise ValueError(n)\n";
  r.example_fix = "# before\nf(-1)\n\n# after\nf(1)";
  r.validation_code = "if n >= 0:\n    f(n)";
  std::vector<std::string> rejected;
  auto accepted = errdex::analyze::apply_llm_answer(content, r, rejected);
  if (accepted.empty() && r.example_fix != "# before\nf(-1)\n\n# after\nf(1)") std::abort();
  if (!errdex::analyze::parses_as_python(r.example_fix)) std::abort();
  if (r.validation_code && !errdex::analyze::parses_as_python(*r.validation_code)) std::abort();
  if (r.type_guard && !errdex::analyze::parses_as_python(*r.type_guard)) std::abort();
  if (r.try_catch_pattern && !errdex::analyze::parses_as_python(*r.try_catch_pattern)) std::abort();
  (void)errdex::analyze::parse_llm_url(content);
  return 0;
}
