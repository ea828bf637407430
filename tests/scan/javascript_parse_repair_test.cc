// TypeScript that tree-sitter's grammar misreads and the frontend parses
// again with the line breaks TypeScript itself reads as member ends.
#include "scan/javascript/frontend.h"

#include <gtest/gtest.h>

#include <string>

#include "scan/template.h"

namespace errdex::scan {
namespace {

TEST(JavaScriptParseRepair, AGenericCallSignatureLineDoesNotHideTheClassBelow) {
  // zx's `PipeMethod`: a generic call signature on its own line after
  // another member reads as a comparison with it, and the error swallowed
  // every method of the class below.
  const std::string src =
      "type PipeMethod = {\n"
      "  (dest: TemplateStringsArray, ...args: any[]): ProcessPromise\n"
      "  <D extends Writable>(dest: D): PromisifiedStream<D>\n"
      "  <D extends ProcessPromise>(dest: D): D\n"
      "}\n"
      "\n"
      "export class ProcessPromise extends Promise<ProcessOutput> {\n"
      "  abort(reason?: string) {\n"
      "    if (this.isSettled()) throw new Fail('Too late to abort the process.')\n"
      "  }\n"
      "}\n";
  auto f = scan_javascript(src, Dialect::typescript);
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(f.sites[0].line, 9);
  EXPECT_EQ(f.sites[0].error_class, "Fail");
  EXPECT_EQ(template_text(f.sites[0].message), "Too late to abort the process.");
  // A comparison continued on the next line parses as written: the second
  // parse is kept only when it reads more of the file.
  auto g = scan_javascript("function f(a: number, b: number) {\n  if (a\n    < b) throw new RangeError(`a below b`)\n}\n",
                           Dialect::typescript);
  ASSERT_EQ(g.sites.size(), 1u);
  EXPECT_EQ(g.sites[0].error_class, "RangeError");
}

}  // namespace
}  // namespace errdex::scan
