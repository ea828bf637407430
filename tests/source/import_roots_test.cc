// Import roots from a tree's Python paths: CPython's Lib/, a src/ layout, a
// flat repository, top-level modules with no package beside them.
#include "source/import_roots.h"

#include <gtest/gtest.h>

namespace errdex::source {
namespace {

using Roots = std::vector<std::string>;

TEST(ImportRoots, CPythonLayoutHasLibForItsTopLevelModules) {
  // As `make run` scans the standard library: --prefix Lib.
  Roots r = import_roots({"Lib/ipaddress.py", "Lib/json/__init__.py", "Lib/json/decoder.py", "Lib/test/__init__.py",
                          "Lib/test/test_json/__init__.py", "Lib/test/test_json/test_fail.py",
                          "Tools/scripts/summarize_stats.py"});
  EXPECT_EQ(r, (Roots{"", "Lib"}));
}

TEST(ImportRoots, SrcLayout) {
  EXPECT_EQ(import_roots({"src/pkg/__init__.py", "src/pkg/sub/__init__.py", "src/pkg/sub/x.py", "tests/test_x.py",
                          "setup.py"}),
            (Roots{"", "src"}));
  // A package at the top: the top is its root, and a package's folder is
  // never a root of its own.
  EXPECT_EQ(import_roots({"pkg/__init__.py", "pkg/lib/__init__.py", "pkg/lib/x.py"}), (Roots{""}));
  // Modules alone under src/, no package: src is still where they import from.
  EXPECT_EQ(import_roots({"src/tool.py", "docs/conf.py"}), (Roots{"", "src"}));
  // A repository that is itself a package (an __init__.py at the top).
  EXPECT_EQ(import_roots({"__init__.py", "x.py"}), (Roots{""}));
  EXPECT_EQ(import_roots({}), (Roots{""}));
}

TEST(ImportRoots, EveryTopLevelPackageNamesItsParent) {
  EXPECT_EQ(import_roots({"a/b/pkg1/__init__.py", "c/pkg2/__init__.py", "c/pkg2/inner/__init__.py"}),
            (Roots{"", "a/b", "c"}));
}

TEST(IsTestPath, TestFoldersAndTestFileNames) {
  for (const char* p : {"tests/test_x.py", "tests/data/sample.py", "Lib/test/support/__init__.py", "pkg/testing/x.py",
                        "test/x.py", "test_top.py", "pkg/core_test.py", "conftest.py", "a/b/conftest.py",
                        "src/a.test.ts", "lib/b.spec.js", "typings/index.test-d.ts", "src/__tests__/c.js", "src/__mocks__/fs.js",
                        "src/isDate/test.ts", "test.js", "lib/tests.mjs", "src/spec.tsx"})
    EXPECT_TRUE(is_test_path(p)) << p;
  for (const char* p : {"Lib/unittest/case.py", "pkg/contest.py", "pkg/testsuite.py", "latest/x.py", "Lib/tests.py",
                        "pkg/attest_x.py", "x.py", "", "tests", "src/latest.ts", "src/mocks/http.js", "lib/test-d.ts",
                        "test.py", "src/testing.js", "src/tests-util.ts", "src/spec-reader.js"})
    EXPECT_FALSE(is_test_path(p)) << p;
}

}  // namespace
}  // namespace errdex::source
