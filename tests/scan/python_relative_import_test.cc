#include "scan/python/relative_import.h"

#include <gtest/gtest.h>

namespace errdex::scan::python {
namespace {

TEST(RelativeImport, AbsoluteImportIsTheModuleAsWritten) {
  EXPECT_EQ(resolve_relative_import("a/x", 0, "os/path", '/'), "os/path");
  EXPECT_EQ(resolve_relative_import("a.x", 0, "os.path", '.'), "os.path");
}

TEST(RelativeImport, OneDotIsThePackageItself) {
  EXPECT_EQ(resolve_relative_import("gunicorn/http", 1, "errors", '/'), "gunicorn/http/errors");
  EXPECT_EQ(resolve_relative_import("gunicorn.http", 1, "errors", '.'), "gunicorn.http.errors");
}

TEST(RelativeImport, EachFurtherDotDropsAPart) {
  EXPECT_EQ(resolve_relative_import("a/x", 2, "b", '/'), "a/b");
  EXPECT_EQ(resolve_relative_import("a.x.y", 3, "b.c", '.'), "a.b.c");
}

TEST(RelativeImport, NoModuleIsThePackageReached) {
  EXPECT_EQ(resolve_relative_import("a.x", 1, "", '.'), "a.x");
  EXPECT_EQ(resolve_relative_import("a/x", 2, "", '/'), "a");
}

TEST(RelativeImport, DotsPastTheTopLeaveTheModule) {
  EXPECT_EQ(resolve_relative_import("a", 3, "b", '.'), "b");
  EXPECT_EQ(resolve_relative_import("", 1, "b", '/'), "b");
  EXPECT_EQ(resolve_relative_import("", 2, "", '.'), "");
}

}  // namespace
}  // namespace errdex::scan::python
