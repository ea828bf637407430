// The class a raise names through its instance: `raise self.X(...)` where
// the class body (or a base's in the file) says `X = SomeError` raises
// SomeError, which is what Python prints.
#include "scan/python/frontend.h"

#include <gtest/gtest.h>

#include <cstddef>
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

// `raise errors[0]`, `raise self._exc`, `for r in replies: raise r`: an
// exception made elsewhere and kept, raised whatever its class; the
// expression is no class a traceback names. A module's lower-case class
// (`socket.error`) and a capitalised attribute stay classes.
TEST(PythonRaisedClass, AnExceptionKeptInACollectionAttributeOrLoopIsRaisedAgain) {
  model::FileFacts f = scan_python(
      "import socket\n"
      "def first(errors):\n"
      "    raise errors[0][1]\n"
      "class Queue:\n"
      "    def get(self):\n"
      "        raise self._exc\n"
      "def wait(outcome):\n"
      "    raise outcome.error\n"
      "def check(replies):\n"
      "    for i, r in enumerate(replies):\n"
      "        if i:\n"
      "            raise r\n"
      "def call(f):\n"
      "    res, failed = f()\n"
      "    if failed:\n"
      "        raise res\n"
      "def closed():\n"
      "    raise socket.error\n"
      "class Case:\n"
      "    def fail(self):\n"
      "        raise self.failureException\n");
  ASSERT_EQ(f.sites.size(), 7u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(f.sites[i].error_class, "") << f.sites[i].raised_text;
    EXPECT_TRUE(f.sites[i].reraise) << f.sites[i].raised_text;
  }
  EXPECT_EQ(f.sites[5].error_class, "socket.error");
  EXPECT_EQ(f.sites[6].error_class, "self.failureException");
}

// `if isinstance(error, ConnectionError): raise error`: the exception held
// is of the class the test names, the one a traceback prints (or a
// subclass). Not when the test is on something else, names several
// classes, or any exception.
TEST(PythonRaisedClass, AnExceptionHeldTestedForOneClassHasThatClass) {
  model::FileFacts f = scan_python(
      "def read(self):\n"
      "    error = self.parse_error(b)\n"
      "    if isinstance(error, errors.ConnectionError):\n"
      "        raise error\n"
      "def each(replies):\n"
      "    for r in replies:\n"
      "        if isinstance(r, ResponseError):\n"
      "            raise r\n"
      "def other(a, b):\n"
      "    if isinstance(b, KeyError):\n"
      "        raise a\n"
      "def several(e):\n"
      "    if isinstance(e, (KeyError, IndexError)):\n"
      "        raise e\n"
      "def any_one(e):\n"
      "    if isinstance(e, Exception):\n"
      "        raise e\n");
  ASSERT_EQ(f.sites.size(), 5u);
  EXPECT_EQ(f.sites[0].error_class, "errors.ConnectionError");
  EXPECT_EQ(f.sites[1].error_class, "ResponseError");
  for (std::size_t i = 2; i < 5; ++i) EXPECT_EQ(f.sites[i].error_class, "") << f.sites[i].raised_text;
}

}  // namespace
}  // namespace errdex::scan
