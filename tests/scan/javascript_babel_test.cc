// Messages as Babel compiles them for old runtimes: the template literal
// a package's source wrote, read back from the calls Babel made of it.
#include <gtest/gtest.h>

#include <string>

#include "scan/javascript/frontend.h"
#include "scan/template.h"

namespace errdex::scan {
namespace {

model::FileFacts js(const std::string& src) { return scan_javascript(src, Dialect::javascript); }

// With @babel/runtime-corejs3 (xregexp 5's lib/), `${a} b ${c}` becomes
// `(0, _concat["default"])(_context = "".concat(a, " b ")).call(_context, c)`:
// core-js's concat called on the receiver bound to a temporary, which
// `.call` passes again as its first argument.
TEST(JavaScriptBabel, ConcatThroughCoreJsInstanceHelper) {
  auto f = js(
      "var _concat = _interopRequireDefault(require(\"@babel/runtime-corejs3/core-js-stable/instance/concat\"));\n"
      "function m(rightMatch, a, b) {\n"
      "  var _context3;\n"
      "  var delimSide = rightMatch ? 'right' : 'left';\n"
      "  var errorPos = rightMatch ? a : b;\n"
      "  throw new Error((0, _concat[\"default\"])(_context3 = \"Unbalanced \".concat(delimSide, \" delimiter found at \")).call(_context3, errorPos));\n"
      "}\n"
      "function n(x) {\n"
      "  var _context;\n"
      "  throw new TypeError(_concatInstanceProperty(_context = \"Bad value \".concat(x, \", at \")).call(_context, x.at));\n"
      "}\n"
      "function o(x) { throw new Error(notConcat(x).call(null, 'y')) }\n");
  ASSERT_EQ(f.sites.size(), 3u);
  // What the source's template literal gives (its conditional local read as its texts).
  auto source = js(
      "function m(rightMatch, a, b) {\n"
      "  const delimSide = rightMatch ? 'right' : 'left';\n"
      "  const errorPos = rightMatch ? a : b;\n"
      "  throw new Error(`Unbalanced ${delimSide} delimiter found at ${errorPos}`);\n"
      "}\n");
  ASSERT_EQ(source.sites.size(), 1u);
  EXPECT_EQ(template_text(f.sites[0].message), template_text(source.sites[0].message));
  EXPECT_EQ(template_text(f.sites[0].message), "Unbalanced {rightMatch ? 'right' : 'left'} delimiter found at {errorPos}");
  EXPECT_EQ(template_text(f.sites[1].message), "Bad value {x}, at {x.at}");
  EXPECT_EQ(f.sites[2].message.style, "expression");  // no helper of concat: the call as it is
}

}  // namespace
}  // namespace errdex::scan
