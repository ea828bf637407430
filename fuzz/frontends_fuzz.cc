// Feeds arbitrary bytes to every frontend the pipeline asks, in every way
// it asks: a file's sites (scan), a test file read as evidence
// (scan_tests: expectations, typed receivers), a test file giving records
// too (scan_with_tests), a file read for the call graph only (scan_calls),
// and the pre-checks. The first byte chooses the frontend (Python,
// JavaScript, TypeScript, TSX); the rest is the file. Nothing may crash,
// hang or read out of bounds, and every site and expectation must stand on
// a line of the file.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "scan/frontend.h"

namespace {

void check_lines(const errdex::model::FileFacts& facts, std::string_view src) {
  std::size_t lines = 1;
  for (char c : src) lines += c == '\n';
  for (const auto& s : facts.sites)
    if (s.line < 1 || static_cast<std::size_t>(s.line) > lines) {
      std::fprintf(stderr, "site at line %d of a %zu-line file\n", s.line, lines);
      std::abort();
    }
  for (const auto& e : facts.expectations)
    if (e.line < 1 || static_cast<std::size_t>(e.line) > lines) {
      std::fprintf(stderr, "expectation at line %d of a %zu-line file\n", e.line, lines);
      std::abort();
    }
  // What a function or the module binds: on a line of the file, bounded.
  auto check_bindings = [&](const std::vector<errdex::model::Binding>& bs, std::size_t cap) {
    for (const auto& b : bs)
      if (b.line < 1 || static_cast<std::size_t>(b.line) > lines || b.loop < 0 || b.name.empty()) {
        std::fprintf(stderr, "binding of '%s' at line %d of a %zu-line file\n", b.name.c_str(), b.line, lines);
        std::abort();
      }
    if (bs.size() > cap) std::abort();
  };
  for (const auto& fn : facts.functions) check_bindings(fn.bindings, errdex::model::FunctionCalls::k_max_bindings);
  check_bindings(facts.module_bindings, 1024);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const k_paths[] = {"test_x.py", "x.test.js", "x.test.ts", "x.test.tsx"};
  const errdex::scan::Frontend* frontend = errdex::scan::frontend_for(k_paths[data[0] % 4]);
  if (!frontend) std::abort();
  std::string_view src(reinterpret_cast<const char*>(data) + 1, size - 1);
  (void)frontend->worth_parsing(src);
  check_lines(frontend->scan(src), src);
  check_lines(frontend->scan_tests(src), src);
  check_lines(frontend->scan_with_tests(src), src);
  check_lines(frontend->scan_calls(src), src);
  return 0;
}
