// The frontend a file's name selects, and what the pipeline asks of it.
#include "scan/frontend.h"

#include <gtest/gtest.h>

namespace errdex::scan {
namespace {

TEST(Frontend, ChosenByTheEndOfTheFileName) {
  const Frontend* py = frontend_for("pkg/mod.py");
  ASSERT_NE(py, nullptr);
  EXPECT_EQ(py->language(), "python");
  EXPECT_EQ(frontend_for("Lib/x.py"), py);
  EXPECT_EQ(frontend_for("README.md"), nullptr);
  EXPECT_EQ(frontend_for("x.pyc"), nullptr);
  EXPECT_EQ(frontend_for(""), nullptr);
  EXPECT_EQ(frontend_extensions(), (std::vector<std::string>{".py", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"}));
}

TEST(Frontend, JavaScriptAndTypeScriptByExtensionDeclarationFilesSkipped) {
  for (const char* p : {"a.js", "lib/a.mjs", "a.cjs", "a.jsx"}) {
    ASSERT_NE(frontend_for(p), nullptr) << p;
    EXPECT_EQ(frontend_for(p)->language(), "javascript") << p;
  }
  for (const char* p : {"a.ts", "a.mts", "a.cts"}) {
    ASSERT_NE(frontend_for(p), nullptr) << p;
    EXPECT_EQ(frontend_for(p)->language(), "typescript") << p;
  }
  ASSERT_NE(frontend_for("App.tsx"), nullptr);
  EXPECT_EQ(frontend_for("App.tsx")->language(), "tsx");
  EXPECT_EQ(frontend_for("index.d.ts"), nullptr);
  EXPECT_EQ(frontend_for("types/x.d.mts"), nullptr);
  EXPECT_EQ(frontend_for("a.json"), nullptr);
  EXPECT_EQ(frontend_for("dist/x.min.js"), nullptr);
}

TEST(Frontend, PythonSaysWhatIsWorthParsingAndScansIt) {
  const Frontend* py = frontend_for("m.py");
  ASSERT_NE(py, nullptr);
  EXPECT_FALSE(py->worth_parsing("x = 1\n"));
  const std::string src = "def f(x):\n    if x < 0:\n        raise ValueError(f\"bad {x}\")\n";
  ASSERT_TRUE(py->worth_parsing(src));
  auto facts = py->scan(src);
  ASSERT_EQ(facts.sites.size(), 1u);
  EXPECT_EQ(facts.sites[0].error_class, "ValueError");
  EXPECT_EQ(facts.sites[0].line, 3);
  EXPECT_EQ(facts.sites[0].function, "f");
}

}  // namespace
}  // namespace errdex::scan
