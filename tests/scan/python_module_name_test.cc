// A message that shows the module's `__name__` shows the module's name,
// as Python prints it: a module-level `__getattr__` (PEP 562) raises
// `module 'zoneinfo' has no attribute 'x'`, not `module '{__name__}' …`,
// which any module's `__getattr__` would match alike.
#include "scan/python/frontend.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan/template.h"

namespace errdex::scan {
namespace {

using model::FileFacts;
using model::ThrowSite;
using Texts = std::vector<std::string>;

Texts messages(const FileFacts& f) {
  Texts out;
  for (const ThrowSite& s : f.sites) out.push_back(template_text(s.message));
  return out;
}

TEST(PythonModuleName, AMessageShowingTheModulesNameShowsIt) {
  const std::string src =
      "def __getattr__(name):\n"
      "    if name == 'a':\n"
      "        raise AttributeError(f\"module {__name__!r} has no attribute {name!r}\")\n"
      "    if name == 'b':\n"
      "        raise AttributeError(f\"module {__name__} has no attribute {name}\")\n"
      "    if name == 'c':\n"
      "        raise AttributeError(\"module %r has no attribute %r\" % (__name__, name))\n"
      "    if name == 'd':\n"
      "        raise AttributeError(\"{}: {}\".format(__name__, name))\n"
      "    if name == 'e':\n"
      "        raise AttributeError(f\"{__name__:>20}\")\n"
      "    raise AttributeError(f\"{type(name).__name__} {name.__name__}\")\n";
  std::vector<FileFacts> files{scan_python(src), scan_python(src), scan_python(src)};
  link_module_names(files, {true, true, false}, {"pkg.mod", "", "pkg.mod"});
  EXPECT_EQ(messages(files[0]), (Texts{"module 'pkg.mod' has no attribute {name!r}", "module pkg.mod has no attribute {name}",
                                       "module 'pkg.mod' has no attribute {name}", "pkg.mod: {name}",
                                       "{__name__:>20}", "{type(name).__name__} {name.__name__}"}));
  // No module name known, or a file of another language: as written.
  EXPECT_EQ(messages(files[1])[0], "module {__name__!r} has no attribute {name!r}");
  EXPECT_EQ(messages(files[2])[0], "module {__name__!r} has no attribute {name!r}");
  // A message of the name alone is then a message of literals.
  std::vector<FileFacts> alone{scan_python("def f():\n    raise RuntimeError(f'{__name__}')\n")};
  link_module_names(alone, {}, {"zoneinfo"});
  ASSERT_EQ(alone[0].sites.size(), 1u);
  EXPECT_EQ(template_text(alone[0].sites[0].message), "zoneinfo");
  EXPECT_TRUE(alone[0].sites[0].message.from_literals);
}

}  // namespace
}  // namespace errdex::scan
