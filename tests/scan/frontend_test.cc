// The frontend a file's name selects, and what the pipeline asks of it.
#include "scan/frontend.h"

#include <gtest/gtest.h>

#include <algorithm>

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

// A minified bundle committed under a plain name (lodash's
// `vendor/underscore/underscore-min.js`, Yarn's release) is not parsed: its
// records would be excerpts of one line of thousands of characters. The
// same code formatted, and a file of a few long lines, are.
TEST(Frontend, JavaScriptMinifiedCodeIsNotWorthParsing) {
  const Frontend* js = frontend_for("vendor/underscore-min.js");
  ASSERT_NE(js, nullptr);
  std::string formatted, minified;
  for (int i = 0; i < 400; ++i) {
    const std::string fn = "function f" + std::to_string(i) + "(x) {\n  if (x < 0) {\n    throw new RangeError('bad " +
                           std::to_string(i) + "');\n  }\n  return x;\n}\n";
    formatted += fn;
    for (char c : fn) minified += c == '\n' ? ' ' : c;
  }
  EXPECT_TRUE(js->worth_parsing(formatted));
  EXPECT_EQ(js->scan(formatted).sites.size(), 400u);
  EXPECT_FALSE(js->worth_parsing(minified));
  EXPECT_FALSE(js->worth_parsing(minified + "\n" + minified));
  // Short: read whatever its lines.
  EXPECT_TRUE(js->worth_parsing("throw new Error('" + std::string(2000, 'x') + "');"));
}

// A test file that gives records too (--include-tests): its sites, the
// tests' expectations, and the module a test loads with its accelerator
// blocked (`import_fresh_module`), which the file's imports do not name;
// an import both read is listed once.
TEST(Frontend, ATestFileWithItsRecordsKeepsWhatTheTestsRead) {
  const Frontend* py = frontend_for("test_dec.py");
  ASSERT_NE(py, nullptr);
  const std::string src =
      "import unittest\n"
      "from test.support.import_helper import import_fresh_module\n"
      "P = import_fresh_module('decimal', blocked=['_decimal'])\n"
      "def check(x):\n"
      "    if x < 0:\n"
      "        raise ValueError('negative')\n"
      "class T(unittest.TestCase):\n"
      "    decimal = P\n"
      "    def test_a(self):\n"
      "        with self.assertRaises(ValueError):\n"
      "            self.decimal.Context(prec=-1)\n";
  auto facts = py->scan_with_tests(src);
  ASSERT_EQ(facts.sites.size(), 1u);
  EXPECT_EQ(facts.sites[0].error_class, "ValueError");
  ASSERT_EQ(facts.expectations.size(), 1u);
  EXPECT_EQ(facts.expectations[0].calls, (std::vector<std::string>{"decimal.Context"}));
  auto count = [&](const std::string& module, const std::string& alias) {
    return std::count_if(facts.imports.begin(), facts.imports.end(), [&](const model::ImportFact& i) {
      return i.module == module && i.alias == alias && i.name.empty();
    });
  };
  EXPECT_EQ(count("decimal", "decimal"), 1);
  EXPECT_EQ(count("unittest", ""), 1);
  // What scan alone gives has no expectation and no module loaded fresh.
  auto plain = py->scan(src);
  EXPECT_TRUE(plain.expectations.empty());
  EXPECT_EQ(std::count_if(plain.imports.begin(), plain.imports.end(),
                          [](const model::ImportFact& i) { return i.alias == "decimal"; }),
            0);
}

}  // namespace
}  // namespace errdex::scan
