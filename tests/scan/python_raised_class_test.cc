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

// The same in a class long enough for the outline to blank its body on
// the first read (kombu's `MessageStateError = MessageStateError` above
// a few dozen methods): the body is read again for the attribute.
TEST(PythonRaisedClass, AClassAttributeTheOutlineBlankedIsReadAgain) {
  std::string padding;
  for (int i = 0; i < 60; ++i)
    padding += "    def helper" + std::to_string(i) + "(self, value):\n        return value + " + std::to_string(i) + "\n";
  model::FileFacts f = scan_python(
      "from .exceptions import MessageStateError\n"
      "class Message:\n"
      "    MessageStateError = MessageStateError\n"
      "    LimitExceeded = errors.LimitExceeded\n" +
      padding +
      "    def ack(self):\n"
      "        if self.acknowledged:\n"
      "            raise self.MessageStateError('Message already acknowledged')\n"
      "        raise self.LimitExceeded(self.limit)\n"
      "    def other(self):\n"
      "        helper = 1\n"
      "        raise self.Missing('no such attribute')\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].error_class, "MessageStateError");
  EXPECT_EQ(f.sites[1].error_class, "errors.LimitExceeded");
  EXPECT_EQ(f.sites[2].error_class, "self.Missing");
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

// `except retry_errors: raise` where `retry_errors` is a local or a
// parameter (a tuple of classes made elsewhere), or a lower-case attribute
// (`except self.connection_errors:`): the class raised again is not known,
// and not the name (a parameter's default class is). A class the clause
// names, a module's in lower case (`socket.timeout`) or one the file
// defines in lower case (imaplib's `self.abort`) among them, stays the
// class.
TEST(PythonRaisedClass, ABareRaiseUnderAClauseCatchingWhatANameHoldsHasNoClass) {
  model::FileFacts f = scan_python(
      "import socket\n"
      "def retry(fun, catch=(KeyError,)):\n"
      "    retry_errors = conn.recoverable_errors\n"
      "    try:\n"
      "        fun()\n"
      "    except retry_errors:\n"
      "        raise\n"
      "    except catch as exc:\n"
      "        raise\n"
      "class Channel:\n"
      "    def listen(self):\n"
      "        try:\n"
      "            self.read()\n"
      "        except self.connection_errors:\n"
      "            raise\n"
      "        except socket.timeout:\n"
      "            raise\n"
      "        except errors.ChannelError:\n"
      "            raise\n"
      "        except self.abort:\n"
      "            raise\n"
      "    class abort(Exception):\n"
      "        pass\n"
      "def make_reader(conn, error=socket.error):\n"
      "    def read():\n"
      "        try:\n"
      "            conn.drain()\n"
      "        except error:\n"
      "            raise\n"
      "    return read\n");
  ASSERT_EQ(f.sites.size(), 7u);
  EXPECT_EQ(f.sites[5].error_class, "self.abort");  // a class the file defines in lower case
  EXPECT_EQ(f.sites[6].error_class, "socket.error");  // the parameter's default
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(f.sites[i].error_class, "") << f.sites[i].line;
    EXPECT_TRUE(f.sites[i].reraise) << f.sites[i].line;
  }
  EXPECT_EQ(f.sites[3].error_class, "socket.timeout");
  EXPECT_EQ(f.sites[4].error_class, "errors.ChannelError");
}

// six's `def reraise(tp, value, tb): raise value.with_traceback(tb)`: the
// exception the parameter holds, raised again, not a class named
// `value.with_traceback`; one the function made keeps its class.
TEST(PythonRaisedClass, AHeldExceptionRaisedWithATracebackIsRaisedAgain) {
  model::FileFacts f = scan_python(
      "def reraise(tp, value, tb=None):\n"
      "    if value.__traceback__ is not tb:\n"
      "        raise value.with_traceback(tb)\n"
      "    raise value\n"
      "def wrap(tb):\n"
      "    err = LoadError('cannot load')\n"
      "    raise err.with_traceback(tb)\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].error_class, "");
  EXPECT_TRUE(f.sites[0].reraise);
  EXPECT_EQ(f.sites[2].error_class, "LoadError");
  EXPECT_EQ(template_text(f.sites[2].message), "cannot load");
}

// An exception an object holds, raised again: an item of `sys.exc_info()`
// with its traceback, a future's stored outcome. Its class is not known
// here; neither the subscript nor the method is a class, nor the
// traceback a message.
TEST(PythonRaisedClass, AnExceptionAnObjectHoldsRaisedAgainHasNoClass) {
  model::FileFacts f = scan_python(
      "def run(self, fut, exc_info):\n"
      "    if exc_info:\n"
      "        raise exc_info[1].with_traceback(exc_info[2])\n"
      "    if self.info:\n"
      "        raise self.info.error.with_traceback(None)\n"
      "    if fut.done():\n"
      "        raise fut.exception()\n"
      "    raise self.last_attempt.result()\n");
  ASSERT_EQ(f.sites.size(), 4u);
  for (const model::ThrowSite& s : f.sites) {
    EXPECT_EQ(s.error_class, "") << s.line;
    EXPECT_TRUE(s.reraise) << s.line;
    EXPECT_EQ(template_text(s.message), "") << s.line;
  }
}

// A function named for making errors, handed the class to make first
// (`raise self.parse_error(UnexpectedCharError, char)`), raises that class;
// its first argument is not the message. A factory the file resolves, a
// first argument that is not a class, or a function not named so, are
// left as they were.
TEST(PythonRaisedClass, AnErrorFactoryGivenAClassRaisesThatClass) {
  model::FileFacts f = scan_python(
      "from .exceptions import UnexpectedCharError, errors\n"
      "class Parser:\n"
      "    def make(self, msg):\n"
      "        return ValueError(msg)\n"
      "    def parse(self, char):\n"
      "        if char == '=':\n"
      "            raise self.parse_error(UnexpectedCharError, char)\n"
      "        if char == '[':\n"
      "            raise self._src.create_exc(errors.EmptyKey)\n"
      "        if char == ']':\n"
      "            raise self.parse_error(UNEXPECTED, char)\n"
      "        if char == ',':\n"
      "            raise self.make('bad comma')\n"
      "        raise self.build(Unknown, char)\n");
  ASSERT_EQ(f.sites.size(), 5u);
  EXPECT_EQ(f.sites[0].error_class, "UnexpectedCharError");
  EXPECT_EQ(template_text(f.sites[0].message), "");
  EXPECT_EQ(f.sites[1].error_class, "errors.EmptyKey");
  EXPECT_EQ(f.sites[2].error_class, "self.parse_error");
  EXPECT_EQ(f.sites[3].error_class, "ValueError");
  EXPECT_EQ(template_text(f.sites[3].message), "bad comma");
  EXPECT_EQ(f.sites[4].error_class, "self.build");
}

// voluptuous: `raise (self.cls or er.Invalid)(self.msg)` raises the class
// named when none is given; `raise error if self.msg is None else
// AnyInvalid(self.msg, path=path)` raises the error made here or one caught
// before, and what this site makes is AnyInvalid.
TEST(PythonRaisedClass, AClassChosenOrElseADefault) {
  model::FileFacts f = scan_python(
      "from voluptuous import error as er\n"
      "class Msg:\n"
      "    def __call__(self, v):\n"
      "        try:\n"
      "            return self._schema(v)\n"
      "        except er.Invalid as e:\n"
      "            raise (self.cls or er.Invalid)(self.msg)\n"
      "class Any:\n"
      "    def _exec(self, funcs, v, path=None):\n"
      "        error = None\n"
      "        for func in funcs:\n"
      "            try:\n"
      "                return func(v)\n"
      "            except er.Invalid as e:\n"
      "                error = e\n"
      "        raise error if self.msg is None else AnyInvalid(self.msg, path=path)\n"
      "def both(kwargs):\n"
      "    raise (Deprecated('nested') if 'nested' in kwargs else Unknown('Unknown argument(s): ' + str(kwargs)))\n"
      "def lower(a):\n"
      "    raise (a or make_error)('x')\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_EQ(f.sites[0].error_class, "er.Invalid");
  EXPECT_EQ(template_text(f.sites[0].message), "{self.msg}");
  EXPECT_EQ(f.sites[1].error_class, "AnyInvalid");
  EXPECT_EQ(template_text(f.sites[1].message), "{self.msg}");
  // Two errors made here, or a default that names no class: as written.
  EXPECT_EQ(f.sites[2].error_class.substr(0, 11), "Deprecated(");
  EXPECT_EQ(f.sites[3].error_class, "(a or make_error)");
}

// itsdangerous: `raise t.cast(BadSignature, last_exception)` (typing's
// cast, for the type checker) raises again the exception a loop kept, as
// the class it names; not `t.cast` of another module, nor a cast given
// other than two values.
TEST(PythonRaisedClass, ACastRaisesTheValueAsTheTypeItNames) {
  model::FileFacts f = scan_python(
      "import typing as t\n"
      "from typing import cast\n"
      "import shapes\n"
      "def loads(s, signers):\n"
      "    last_exception = None\n"
      "    for signer in signers:\n"
      "        try:\n"
      "            return signer.unsign(s)\n"
      "        except BadSignature as err:\n"
      "            last_exception = err\n"
      "    if s:\n"
      "        raise t.cast(BadSignature, last_exception)\n"
      "    if signers:\n"
      "        raise cast('BadTimeSignature', last_exception)\n"
      "    raise shapes.cast(Error, 'given three', 3)\n");
  ASSERT_EQ(f.sites.size(), 3u);
  EXPECT_EQ(f.sites[0].error_class, "BadSignature");
  EXPECT_TRUE(f.sites[0].reraise);
  EXPECT_EQ(template_text(f.sites[0].message), "");
  EXPECT_EQ(f.sites[1].error_class, "BadTimeSignature");
  EXPECT_TRUE(f.sites[1].reraise);
  EXPECT_NE(f.sites[2].error_class, "Error");
}

TEST(PythonRaisedClass, AMessageSetOnTheCaughtExceptionBeforeItIsRaisedAgain) {
  // `e.args = (f"…", *e.args[1:]); raise`: Python prints the first item of
  // the args set, as JavaScript's `err.message = …; throw err` shows it.
  model::FileFacts f = scan_python(
      "def load(path):\n"
      "    try:\n"
      "        return parse(path)\n"
      "    except ValueError as e:\n"
      "        e.args = (f'{path}: {e.args[0]}', *e.args[1:])\n"
      "        raise\n"
      "def read(name):\n"
      "    try:\n"
      "        return open(name)\n"
      "    except OSError as err:\n"
      "        err.args = ('could not read %s' % name,) + err.args[1:]\n"
      "        raise err\n"
      // Not set on the path to the raise, not the caught name, not a tuple.
      "def other(name):\n"
      "    try:\n"
      "        return open(name)\n"
      "    except OSError as err:\n"
      "        if name:\n"
      "            err.args = ('only sometimes',)\n"
      "        raise\n"
      "def kept(name):\n"
      "    try:\n"
      "        return open(name)\n"
      "    except OSError as err:\n"
      "        other.args = ('not the caught one',)\n"
      "        err.args = err.args + ('x',)\n"
      "        raise\n");
  ASSERT_EQ(f.sites.size(), 4u);
  EXPECT_TRUE(f.sites[0].reraise);
  EXPECT_EQ(f.sites[0].error_class, "ValueError");
  EXPECT_EQ(template_text(f.sites[0].message), "{path}: {e.args[0]}");
  EXPECT_EQ(f.sites[1].error_class, "OSError");
  EXPECT_EQ(template_text(f.sites[1].message), "could not read {name}");
  EXPECT_EQ(template_text(f.sites[2].message), "");
  EXPECT_EQ(template_text(f.sites[3].message), "");
}

}  // namespace
}  // namespace errdex::scan
