// What `str.format` is given, shown in its message: text handed to it is
// its words (structlog's `_MISSING.format(who=who + " with `colors=True` on
// Windows", package="colorama")`), any other value an interpolation.
#include "scan/python/frontend.h"

#include <gtest/gtest.h>

#include <string>

#include "scan/template.h"

namespace errdex::scan {
namespace {

std::string message_of(const std::string& src) {
  model::FileFacts f = scan_python(src);
  EXPECT_EQ(f.sites.size(), 1u) << src;
  return f.sites.empty() ? std::string() : template_text(f.sites.front().message);
}

TEST(PythonFormatArguments, TextHandedToFormatIsItsWords) {
  EXPECT_EQ(message_of("_MISSING = '{who} requires the {package} package installed.'\n"
                       "def check(who):\n"
                       "    raise SystemError(_MISSING.format(who=who + ' with colors', package='colorama'))\n"),
            "{who} with colors requires the colorama package installed.");
  EXPECT_EQ(message_of("raise ValueError('{} is not {}'.format(name, 'allowed'))\n"), "{name} is not allowed");
  // Converted or formatted by a spec, it stays the value shown.
  EXPECT_EQ(message_of("raise ValueError('{!r} and {:>8}'.format('a', 'b'))\n"), "{'a'!r} and {'b':>8}");
}

}  // namespace
}  // namespace errdex::scan
