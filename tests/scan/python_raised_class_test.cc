// The class a raise names through its instance: `raise self.X(...)` where
// the class body (or a base's in the file) says `X = SomeError` raises
// SomeError, which is what Python prints.
#include "scan/python/frontend.h"

#include <gtest/gtest.h>

#include <string>

#include "scan/template.h"

namespace errdex::scan {
namespace {

TEST(PythonRaisedClass, AClassAttributeNamingAClass) {
  model::FileFacts f = scan_python(
      "class TestCase(object):\n"
      "    failureException = AssertionError\n"
      "    def assertFalse(self, expr, msg=None):\n"
      "        if expr:\n"
      "            raise self.failureException('%s is not false' % expr)\n"
      "class Mine(TestCase):\n"
      "    def check(self):\n"
      "        raise self.failureException('in a subclass')\n"
      "class Errors:\n"
      "    error = errors.ParseError\n"
      "    def parse(self):\n"
      "        raise cls.error('dotted')\n"
      // Not a class: a factory method, a value set on the instance, a
      // lower-case value.
      "class Tokenizer:\n"
      "    def error(self, msg):\n"
      "        return ValueError(msg)\n"
      "    def next(self):\n"
      "        raise self.error('bad token')\n"
      "class Settable:\n"
      "    exc = KeyError\n"
      "    def __init__(self, exc):\n"
      "        self.exc = exc\n"
      "    def go(self):\n"
      "        raise self.exc('given')\n"
      "class Lower:\n"
      "    make = make_error\n"
      "    def go(self):\n"
      "        raise self.make('lower')\n");
  ASSERT_EQ(f.sites.size(), 6u);
  EXPECT_EQ(f.sites[0].error_class, "AssertionError");
  EXPECT_EQ(template_text(f.sites[0].message), "{expr} is not false");
  EXPECT_EQ(f.sites[1].error_class, "AssertionError");
  EXPECT_EQ(f.sites[2].error_class, "errors.ParseError");
  EXPECT_EQ(f.sites[3].error_class, "ValueError");  // the method's return, resolve_helper's
  EXPECT_EQ(f.sites[4].error_class, "self.exc");
  EXPECT_EQ(f.sites[5].error_class, "self.make");
}

}  // namespace
}  // namespace errdex::scan
