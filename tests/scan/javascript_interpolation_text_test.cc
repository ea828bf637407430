// How an interpolated expression shows in a JavaScript message: as its
// code reads once a formatter's line breaks and comments are gone
// (helmet's `${JSON.stringify(\n  policy,\n)}`, bitcoinjs' comment inside
// a `${…}`), strings as written.
#include "scan/javascript/frontend.h"

#include <gtest/gtest.h>

#include <string>

#include "scan/template.h"

namespace errdex::scan {
namespace {

std::string message_of(const std::string& src) {
  model::FileFacts f = scan_javascript(src, Dialect::typescript);
  EXPECT_EQ(f.sites.size(), 1u) << src;
  return f.sites.empty() ? std::string() : template_text(f.sites.front().message);
}

TEST(JavaScriptInterpolationText, LineBreaksCommentsAndTrailingCommasAreGone) {
  EXPECT_EQ(message_of("throw new Error(\n"
                       "  `Cross-Origin-Opener-Policy does not support the ${JSON.stringify(\n"
                       "    policy,\n"
                       "  )} policy`,\n"
                       ");\n"),
            "Cross-Origin-Opener-Policy does not support the {JSON.stringify(policy)} policy");
  EXPECT_EQ(message_of("throw new Error(`Public key: ${\n"
                       "  // tapInternalKey.toString('hex')\n"
                       "  tapInternalKey && toHex(tapInternalKey) /* hex */\n"
                       "}`);\n"),
            "Public key: {tapInternalKey && toHex(tapInternalKey)}");
  EXPECT_EQ(message_of("throw new Error('bad ' + join(a ,  ' // ( x ) '));\n"), "bad {join(a, ' // ( x ) ')}");
}

}  // namespace
}  // namespace errdex::scan
