// Feeds arbitrary bytes to the Python frontend and checks the template
// contract on every message it finds, alternatives included: the pattern
// compiles, and a template of literals only is matched by its own pattern.
#include <re2/re2.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "scan/python/frontend.h"
#include "scan/template.h"

// The contract every message template (a site's own and its alternatives)
// keeps.
static void check(const errdex::model::MessageTemplate& t) {
  std::string text = errdex::scan::template_text(t);
  std::string pattern = errdex::scan::template_pattern(t);
  std::string slug = errdex::scan::slugify(text);
  if (slug.size() > 48) std::abort();
  RE2::Options opts;
  opts.set_log_errors(false);
  RE2 re("(?s)^(?:" + pattern + ")$", opts);
  if (!re.ok()) {
    std::fprintf(stderr, "pattern does not compile: %s\n%s\n", re.error().c_str(), pattern.c_str());
    std::abort();
  }
  bool literal_only = !t.parts.empty();
  for (const auto& p : t.parts) literal_only &= p.literal;
  if (literal_only && !RE2::FullMatch(text, re)) {
    std::fprintf(stderr, "template does not match itself:\n%s\n%s\n", text.c_str(), pattern.c_str());
    std::abort();
  }
  if (errdex::scan::matches_anything(t) != errdex::scan::pattern_matches_anything(pattern)) {
    std::fprintf(stderr, "matches_anything disagrees with pattern_matches_anything: %s\n", pattern.c_str());
    std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view src(reinterpret_cast<const char*>(data), size);
  errdex::model::FileFacts facts = errdex::scan::scan_python(src);
  for (const auto& site : facts.sites) {
    check(site.message);
    for (const auto& alt : site.alternatives) check(alt);
  }
  return 0;
}
