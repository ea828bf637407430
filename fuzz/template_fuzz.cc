// Feeds arbitrary bytes to the Python frontend and checks the template
// contract on every site it finds: the pattern compiles, and a template of
// literals only is matched by its own pattern.
#include <re2/re2.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "scan/python_frontend.h"
#include "scan/template.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view src(reinterpret_cast<const char*>(data), size);
  errdex::model::FileFacts facts = errdex::scan::scan_python(src);
  for (const auto& site : facts.sites) {
    std::string text = errdex::scan::template_text(site.message);
    std::string pattern = errdex::scan::template_pattern(site.message);
    std::string slug = errdex::scan::slugify(text);
    if (slug.size() > 48) std::abort();
    RE2::Options opts;
    opts.set_log_errors(false);
    RE2 re("(?s)^(?:" + pattern + ")$", opts);
    if (!re.ok()) {
      std::fprintf(stderr, "pattern does not compile: %s\n%s\n", re.error().c_str(), pattern.c_str());
      std::abort();
    }
    bool literal_only = !site.message.parts.empty();
    for (const auto& p : site.message.parts) literal_only &= p.literal;
    if (literal_only && !RE2::FullMatch(text, re)) {
      std::fprintf(stderr, "template does not match itself:\n%s\n%s\n", text.c_str(), pattern.c_str());
      std::abort();
    }
    if (errdex::scan::matches_anything(site.message) != errdex::scan::pattern_matches_anything(pattern)) {
      std::fprintf(stderr, "matches_anything disagrees with pattern_matches_anything: %s\n", pattern.c_str());
      std::abort();
    }
  }
  return 0;
}
