// Test files read as evidence (scan_python_tests): the machine's own
// standard library tests, and hostile input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "scan/python/frontend.h"
#include "support/process.h"

namespace errdex::scan {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const model::TestExpectation* at_line(const model::FileFacts& f, int line) {
  for (const auto& e : f.expectations)
    if (e.line == line) return &e;
  return nullptr;
}

int line_of(const std::string& text, const std::string& needle) {
  auto at = text.find(needle);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

// Lib/test/test_textwrap.py: the call form (`assertRaises(ValueError, wrap,
// text, 0)`) and the context manager, each with its test and its calls.
TEST(PythonExpectations, StandardLibraryTextwrapTests) {
  std::string src = read(testing::python_stdlib() + "/test/test_textwrap.py");
  ASSERT_FALSE(src.empty()) << "the standard library's Lib/test is needed";
  auto facts = scan_python_tests(src);
  EXPECT_TRUE(facts.sites.empty());
  int call_line = line_of(src, "self.assertRaises(ValueError, wrap, text, 0)");
  ASSERT_GT(call_line, 0);
  const auto* e = at_line(facts, call_line);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->kind, "raises");
  EXPECT_EQ(e->classes, std::vector<std::string>{"ValueError"});
  EXPECT_EQ(e->test, "WrapTestCase.test_bad_width");
  EXPECT_EQ(e->code, "self.assertRaises(ValueError, wrap, text, 0)");
  ASSERT_FALSE(e->calls.empty());
  EXPECT_EQ(e->calls[0], "wrap");
  EXPECT_TRUE(e->match.empty());
  // The with form: its body's calls, its lines as the code.
  auto with = std::find_if(facts.expectations.begin(), facts.expectations.end(),
                           [](const auto& x) { return x.code.starts_with("with self.assertRaises(ValueError):"); });
  ASSERT_NE(with, facts.expectations.end());
  EXPECT_NE(with->code.find('\n'), std::string::npos);
  EXPECT_FALSE(with->calls.empty());
  // A test file's own helpers are no way users get to a raise: not indexed.
  EXPECT_TRUE(facts.functions.empty());
}

TEST(PythonExpectations, PytestRaisesMatchAndWarnsAndRegexForms) {
  const char* src =
      "import pytest\n"
      "from pkg import parse, Parser\n"
      "\n"
      "def test_bad():\n"
      "    x = 1\n"
      "    with pytest.raises((ValueError, KeyError), match=r\"bad \\d+\" \"th\"):\n"
      "        parse(x)\n"
      "\n"
      "class TestP:\n"
      "    def test_warn(self):\n"
      "        with pytest.warns(DeprecationWarning):\n"
      "            Parser().old()\n"
      "    def test_regex(self):\n"
      "        self.assertRaisesRegex(TypeError, 'an int', lambda: self.mod.parse('x'))\n"
      "    def test_fstring(self):\n"
      "        with pytest.raises(ValueError, match=f'{x}'):\n"
      "            parse(1)\n"
      "    def test_unused(self):\n"
      "        cm = self.assertRaises(ValueError)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 4u);
  const auto& a = f.expectations[0];
  EXPECT_EQ(a.test, "test_bad");
  EXPECT_EQ(a.classes, (std::vector<std::string>{"ValueError", "KeyError"}));
  EXPECT_EQ(a.match, "bad \\d+th");
  EXPECT_EQ(a.calls, std::vector<std::string>{"parse"});
  EXPECT_EQ(a.line, 6);
  EXPECT_EQ(a.code, "with pytest.raises((ValueError, KeyError), match=r\"bad \\d+\" \"th\"):\n    parse(x)");
  const auto& w = f.expectations[1];
  EXPECT_EQ(w.kind, "warns");
  EXPECT_EQ(w.test, "TestP.test_warn");
  // `Parser().old()`: the method by its name, and the constructor.
  EXPECT_EQ(w.calls, (std::vector<std::string>{"old", "Parser"}));
  const auto& r = f.expectations[2];
  EXPECT_EQ(r.match, "an int");
  EXPECT_EQ(r.calls, std::vector<std::string>{"mod.parse"});
  // An f-string regex is not a literal: the class alone is expected.
  EXPECT_TRUE(f.expectations[3].match.empty());
}

// numpy.testing's and SQLAlchemy's helpers (call and `with` forms, the
// message as the second argument); in a `with` body only the last
// statement that runs is what raises: earlier ones prepare it, and a
// trailing `self.fail(...)` never runs.
TEST(PythonExpectations, AssertRaisesHelpersAndTheStatementThatRaises) {
  const char* src =
      "from sqlalchemy.testing import assert_raises_message, expect_raises_message\n"
      "\n"
      "class SessionTest(fixtures.TestBase):\n"
      "    def test_flush(self):\n"
      "        assert_raises_message(exc.InvalidRequestError, 'already flushing', sess.flush, obj)\n"
      "    def test_ctx(self):\n"
      "        with expect_raises_message(exc.ArgumentError, \"Class object expected\"):\n"
      "            q = make_query(1)\n"
      "            q.filter(x)\n"
      "            self.fail('no error')\n"
      "    def test_np(self):\n"
      "        np.testing.assert_raises(ValueError, np.reshape, a, -2)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 3u);
  EXPECT_EQ(f.expectations[0].match, "already flushing");
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"sess.flush"}));
  EXPECT_EQ(f.expectations[1].test, "SessionTest.test_ctx");
  EXPECT_EQ(f.expectations[1].match, "Class object expected");
  // `q` is bound to `make_query(1)`'s result: named by it (the call graph
  // resolves it when it is a class, else guesses `filter` as before).
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"make_query().filter"}));
  EXPECT_EQ(f.expectations[2].classes, (std::vector<std::string>{"ValueError"}));
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"np.reshape"}));
}

// What a test's receivers stand for (test_types.cc): `self.x` bound in
// `setUp`, a local bound to a constructor's result.
TEST(PythonTestTypes, SetUpAttributesAndLocalsNameTheirClass) {
  const char* src =
      "from json import JSONDecoder\n"
      "class T(unittest.TestCase):\n"
      "    def setUp(self):\n"
      "        self.dec = JSONDecoder(strict=False)\n"
      "        '''a string that looks like code:\n"
      "        self.dec = Other()\n"
      "        '''\n"
      "    def test_a(self):\n"
      "        self.assertRaises(ValueError, self.dec.decode, '[')\n"
      "    def test_b(self):\n"
      "        d = JSONDecoder(\n"
      "            strict=True)\n"
      "        with self.assertRaises(ValueError):\n"
      "            d.raw_decode('x')\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 2u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"JSONDecoder().decode"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"JSONDecoder().raw_decode"}));
}

// A name a `with` statement binds to what a call's result enters (`with
// zipfile.ZipFile(f, 'w') as zf:`, several items, a one-line body) is that
// call's result, as a local bound to it is; one bound to something else
// (`as cm` of a name, `as (a, b)`) stays as written.
TEST(PythonTestTypes, AWithStatementsNameIsItsCallsResult) {
  const char* src =
      "import zipfile, bz2\n"
      "class T(unittest.TestCase):\n"
      "    def test_a(self):\n"
      "        with zipfile.ZipFile(TESTFN, 'w') as zf, open(p, \"rb\") as fp:\n"
      "            self.assertRaises(ValueError, zf.open, 'x', 'q')\n"
      "        with bz2.BZ2File(TESTFN) as f: self.assertRaises(ValueError, f.write, b'')\n"
      "        with lock as held, make() as (a, b):\n"
      "            self.assertRaises(RuntimeError, held.release)\n"
      "            self.assertRaises(RuntimeError, a.run)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 4u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"zipfile.ZipFile().open"}));
  EXPECT_EQ(f.expectations[0].constructions, (std::vector<std::string>{"zipfile.ZipFile(TESTFN, 'w')"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"bz2.BZ2File().write"}));
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"held.release"}));
  EXPECT_EQ(f.expectations[3].calls, (std::vector<std::string>{"a.run"}));
}

// A local the test bound to a call's result before its expectation and
// hands to a call in it (`coro = self.loop.create_server(...)`, then
// `run_until_complete(coro)`): the call is written awaited, for the call
// graph to follow when it is a coroutine function's. A local only read
// (`c.value`) or handed on inside an expression is not, nor one the
// expectation calls (`assertRaises(E, o)`: its `__call__`).
TEST(PythonTestTypes, ALocalHandedToTheExpectationsCallIsAwaited) {
  const char* src =
      "import asyncio\n"
      "class T(unittest.TestCase):\n"
      "    def setUp(self):\n"
      "        self.loop = asyncio.new_event_loop()\n"
      "    def test_a(self):\n"
      "        coro = self.loop.create_server(None, path=None)\n"
      "        n = len('x')\n"
      "        self.assertRaises(ValueError, self.loop.run_until_complete, coro)\n"
      "    def test_b(self):\n"
      "        c = make(1)\n"
      "        o = Foo()\n"
      "        with self.assertRaises(ValueError):\n"
      "            asyncio.run(wrap(c.value, [c]))\n"
      "        self.assertRaises(TypeError, o)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 3u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"asyncio.new_event_loop().run_until_complete",
                                                               "asyncio.new_event_loop().create_server.__await__"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"asyncio.run", "wrap", "make().value.__get__"}));
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"Foo().__call__"}));
}

// A class attribute set in the mixin's subclasses (`decimal = P`), a local
// alias of it, and a module loaded with its C accelerator blocked: the
// Python module, bound as `import decimal as decimal`; the subclass that
// loads only the accelerator (`fresh=['_decimal']`) adds nothing, and the
// test is named by the subclass that typed it.
TEST(PythonTestTypes, MixinAttributesAndModulesLoadedFresh) {
  const char* src =
      "from test.support.import_helper import import_fresh_module\n"
      "C = import_fresh_module('decimal', fresh=['_decimal'])\n"
      "P = import_fresh_module('decimal',\n"
      "                        blocked=['_decimal'])\n"
      "class ConstructionTest:\n"
      "    def test_a(self):\n"
      "        Decimal = self.decimal.Decimal\n"
      "        self.assertRaises(TypeError, Decimal, [])\n"
      "        with self.assertRaises(ValueError):\n"
      "            self.decimal.Context(prec=-1)\n"
      "class CConstructionTest(ConstructionTest, unittest.TestCase):\n"
      "    decimal = C\n"
      "class PyConstructionTest(ConstructionTest, unittest.TestCase):\n"
      "    decimal = P\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 2u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"decimal.Decimal"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"decimal.Context"}));
  // Typed by the Python subclass alone: named as the runner names it.
  EXPECT_EQ(f.expectations[0].test, "PyConstructionTest.test_a");
  EXPECT_EQ(f.expectations[1].test, "PyConstructionTest.test_a");
  auto fresh = std::find_if(f.imports.begin(), f.imports.end(), [](const model::ImportFact& i) {
    return i.module == "decimal" && i.alias == "decimal" && i.name.empty();
  });
  EXPECT_NE(fresh, f.imports.end());
}

// Helpers' results (a method of the test class, a module-level factory),
// a class attribute aliasing a class, calling an instance (its
// `__call__`); and what stays as written: a name bound to two different
// things, a `self.x` set in a closure, a recursive helper.
TEST(PythonTestTypes, HelpersResultsAndWhatStaysUnknown) {
  const char* src =
      "def make():\n"
      "    return store.Store(1)\n"
      "def loop():\n"
      "    return loop()\n"
      "class T(unittest.TestCase):\n"
      "    klass = mod.Sock\n"
      "    def make_s(self):\n"
      "        return self.klass()\n"
      "    def setUp(self):\n"
      "        self.x = A()\n"
      "        def later():\n"
      "            self.y = B()\n"
      "    def tearDown(self):\n"
      "        self.x = B()\n"
      "    def test_a(self):\n"
      "        s = self.make_s()\n"
      "        self.assertRaises(OSError, s.recv, 1)\n"
      "        f = make()\n"
      "        self.assertRaises(KeyError, f.get, 'x')\n"
      "        self.assertRaises(ValueError, self.x.run)\n"
      "        o = Foo()\n"
      "        self.assertRaises(TypeError, o)\n"
      "        self.assertRaises(TypeError, self.y.go)\n"
      "        r = loop()\n"
      "        self.assertRaises(TypeError, r.go)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 6u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"mod.Sock().recv"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"store.Store().get"}));
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"x.run"}));
  EXPECT_EQ(f.expectations[3].calls, (std::vector<std::string>{"Foo().__call__"}));
  EXPECT_EQ(f.expectations[4].calls, (std::vector<std::string>{"y.go"}));
  EXPECT_EQ(f.expectations[5].calls, (std::vector<std::string>{"r.go"}));
}

// A receiver bound to a call's result is written with the call
// (`make_reader().read`, `urlparse().port.__get__`), so the call graph can
// tell an instance a function returns from the function's own attribute
// (`make_reader.close` stays as written); a name bound to a class or
// module is not.
TEST(PythonTestTypes, ACallsResultIsWrittenWithTheCall) {
  const char* src =
      "from pkg import make_reader, urlparse\n"
      "import asyncio\n"
      "class T(unittest.TestCase):\n"
      "    def test_a(self):\n"
      "        r = make_reader('x')\n"
      "        self.assertRaises(ValueError, r.read, -1)\n"
      "        u = urlparse('http://h:x')\n"
      "        with self.assertRaises(ValueError):\n"
      "            u.port\n"
      "        cm = asyncio.timeout(1)\n"
      "        with self.assertRaises(RuntimeError):\n"
      "            cm.__enter__()\n"
      "        self.assertRaises(OSError, make_reader.close)\n"
      "        k = asyncio.Queue\n"
      "        self.assertRaises(OSError, k.get)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 5u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"make_reader().read"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"urlparse().port.__get__"}));
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"asyncio.timeout().__enter__"}));
  EXPECT_EQ(f.expectations[3].calls, (std::vector<std::string>{"make_reader.close"}));
  EXPECT_EQ(f.expectations[4].calls, (std::vector<std::string>{"asyncio.Queue.get"}));
}

// A module bound by any loader given its name as a literal
// (`import_deprecated("pipes")`, `__import__('json')`) is that module; a
// loader given no literal binds nothing known.
TEST(PythonTestTypes, ModulesLoadedByAnyLoaderByName) {
  const char* src =
      "from test.support.warnings_helper import import_deprecated\n"
      "pipes = import_deprecated(\"pipes\")\n"
      "js = __import__('json')\n"
      "other = import_deprecated(name)\n"
      "class T(unittest.TestCase):\n"
      "    def test_a(self):\n"
      "        t = pipes.Template()\n"
      "        self.assertRaises(ValueError, t.append, 'x', 'xx')\n"
      "        self.assertRaises(ValueError, js.loads, '[')\n"
      "        self.assertRaises(ValueError, other.run)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 3u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"pipes.Template().append"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"json.loads"}));
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"other.run"}));
  for (const char* m : {"pipes", "json"})
    EXPECT_NE(std::find_if(f.imports.begin(), f.imports.end(),
                           [&](const model::ImportFact& i) { return i.module == m && i.alias == m; }),
              f.imports.end())
        << m;
}

// A helper of the test file given as the callable or called in the body
// (`self.make_nrc(...)`, a module-level `load(...)`) stands for the calls
// of its own body, typed in its scope (its locals, helpers it calls, up to
// two levels); the calls on its parameters and the test machinery
// (`assert*`, `fail*`, `addCleanup`) are not followed. Lib/test/test_netrc.py's
// shape.
TEST(PythonTestTypes, HelpersOfTheTestFileStandForTheirCalls) {
  const char* src =
      "import netrc, os\n"
      "def load(text):\n"
      "    p = netrc.Parser()\n"
      "    return p.parse(text)\n"
      "class NetrcTestCase(unittest.TestCase):\n"
      "    def make_nrc(self, test_data, mode='w'):\n"
      "        with open(temp_filename, mode) as fp:\n"
      "            fp.write(test_data)\n"
      "        self.addCleanup(os.unlink, temp_filename)\n"
      "        return netrc.netrc(temp_filename)\n"
      "    def check(self, data, fn):\n"
      "        self.assertEqual(fn(data), 1)\n"
      "        return self.make_nrc(data)\n"
      "    def test_a(self):\n"
      "        self.assertRaises(netrc.NetrcParseError, self.make_nrc, 'machine')\n"
      "        with self.assertRaises(ValueError):\n"
      "            load('x')\n"
      "        with self.assertRaises(KeyError):\n"
      "            self.check('y', len)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 3u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"open", "open().write", "netrc.netrc"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"netrc.Parser", "netrc.Parser().parse"}));
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"open", "open().write", "netrc.netrc"}));
}

// An expectation in a helper (Lib/test/test_statistics.py's
// `assertCoerceRaises(self, A, B)`, a helper taking the class and the
// callable) is one expectation per test that calls it, at most three, named
// by the test, at the test's call, its parameters replaced by the caller's
// arguments. A helper whose class and calls take nothing from its
// parameters and which gives no regex would name one site for every caller:
// it gives none.
TEST(PythonTestTypes, ExpectationsInAHelperBelongToTheTestsCallingIt) {
  const char* src =
      "import statistics, json\n"
      "class Base(unittest.TestCase):\n"
      "    def assert_fails(self, exc, func, *args):\n"
      "        with self.assertRaises(exc):\n"
      "            func(*args)\n"
      "    def assert_fixed(self, data):\n"
      "        self.assertRaises(TypeError, statistics._coerce, data)\n"
      "    def assert_message(self, data):\n"
      "        self.assertRaisesRegex(TypeError, 'cannot coerce', statistics._coerce, data)\n"
      "class CoerceTest(Base):\n"
      "    def test_one(self):\n"
      "        self.assert_fails(ValueError, json.loads, '[')\n"
      "    def test_two(self):\n"
      "        self.assert_fails(\n"
      "            exc=KeyError, func=self.decoder.decode)\n"
      "        self.assert_fixed((int, str))\n"
      "        self.assert_message((int, str))\n"
      "    def helper(self):\n"
      "        self.assert_fails(OSError, os.open)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 3u);
  const auto& one = f.expectations[0];
  EXPECT_EQ(one.test, "CoerceTest.test_one");
  EXPECT_EQ(one.classes, (std::vector<std::string>{"ValueError"}));
  EXPECT_EQ(one.calls, (std::vector<std::string>{"json.loads"}));
  EXPECT_EQ(one.line, 12);
  EXPECT_EQ(one.code, "self.assert_fails(ValueError, json.loads, '[')");
  const auto& two = f.expectations[1];
  EXPECT_EQ(two.test, "CoerceTest.test_two");
  EXPECT_EQ(two.classes, (std::vector<std::string>{"KeyError"}));
  EXPECT_EQ(two.calls, (std::vector<std::string>{"decoder.decode"}));
  EXPECT_EQ(two.code, "self.assert_fails(\n    exc=KeyError, func=self.decoder.decode)");
  const auto& regex = f.expectations[2];
  EXPECT_EQ(regex.test, "CoerceTest.test_two");
  EXPECT_EQ(regex.match, "cannot coerce");
  EXPECT_EQ(regex.calls, (std::vector<std::string>{"statistics._coerce"}));
}

// A loop over names (`for cls in LWPCookieJar, MozillaCookieJar:`, Lib/test/
// test_http_cookiejar.py) binds its variable to each; over anything else,
// or more than three, to nothing known.
TEST(PythonTestTypes, LoopVariablesOverNamesStandForEach) {
  const char* src =
      "from http.cookiejar import LWPCookieJar, MozillaCookieJar\n"
      "class T(unittest.TestCase):\n"
      "    def test_a(self):\n"
      "        for jar_class in LWPCookieJar, MozillaCookieJar:\n"
      "            c = jar_class()\n"
      "            self.assertRaises(LoadError, c.load, 'f')\n"
      "        for k in (A, B, C, D):\n"
      "            self.assertRaises(LoadError, k.load, 'f')\n"
      "        for m in [x.y, f(1)]:\n"
      "            self.assertRaises(LoadError, m.load, 'f')\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 3u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"LWPCookieJar().load", "MozillaCookieJar().load"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"k.load"}));
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"m.load"}));
}

// A class the test file defines: its method runs the calls of its body when
// it defines it, else its base's; calling the class runs its base's
// constructor (and its own `__init__`'s calls).
TEST(PythonTestTypes, ClassesOfTheTestFileRunTheirBasesMethods) {
  const char* src =
      "import logging\n"
      "class Handler(logging.Handler):\n"
      "    def __init__(self):\n"
      "        logging.Handler.__init__(self)\n"
      "        self.prepare()\n"
      "    def emit(self, record):\n"
      "        fmt = logging.Formatter()\n"
      "        fmt.format(record)\n"
      "class T(unittest.TestCase):\n"
      "    def test_a(self):\n"
      "        h = Handler()\n"
      "        self.assertRaises(ValueError, h.flush)\n"
      "        self.assertRaises(ValueError, h.emit, None)\n"
      "        self.assertRaises(ValueError, Handler)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 3u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"logging.Handler.flush"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"logging.Formatter", "logging.Formatter().format"}));
  EXPECT_EQ(f.expectations[2].calls,
            (std::vector<std::string>{"logging.Handler.__init__", "prepare", "logging.Handler"}));
}

// The code's lines but blank and comment-only ones, which the outline
// blanks (it keeps logical lines only).
std::string without_comment_lines(const std::string& code) {
  std::string out;
  std::istringstream in(code);
  for (std::string line; std::getline(in, line);) {
    auto at = line.find_first_not_of(" \t");
    if (at == std::string::npos || line[at] == '#') continue;
    out += line + "\n";
  }
  return out;
}

std::vector<std::string> describe(const model::FileFacts& f) {
  std::vector<std::string> out;
  for (const auto& e : f.expectations) {
    std::string d = e.kind + "|" + e.test + "|" + std::to_string(e.line) + "|" + e.match + "|" +
                    without_comment_lines(e.code) + "|";
    for (const auto& c : e.classes) d += c + ",";
    d += "|";
    for (const auto& c : e.calls) d += c + ",";
    out.push_back(std::move(d));
  }
  return out;
}

// Every test file of the machine's standard library: the outline (only the
// tests, and of their compound statements only the parts, that hold an
// expectation) and the search by name find what a walk of the whole
// file's every node finds.
TEST(PythonExpectations, SameAsWholeParseOnTheStandardLibraryTests) {
  std::size_t files = 0, expectations = 0, differing = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::python_stdlib() + "/test")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".py") continue;
    std::string src = read(entry.path().string());
    if (!may_have_expectations(src)) continue;
    ++files;
    auto fast = describe(scan_python_tests(src));
    auto whole = describe(scan_python_tests_whole(src));
    expectations += whole.size();
    if (fast != whole && differing++ < 10) {
      ADD_FAILURE() << entry.path() << ": " << fast.size() << " expectations fast, " << whole.size() << " whole";
      for (std::size_t i = 0; i < std::min(fast.size(), whole.size()); ++i)
        if (fast[i] != whole[i]) {
          ADD_FAILURE() << "  fast:  " << fast[i] << "\n  whole: " << whole[i];
          break;
        }
    }
  }
  std::printf("%zu files, %zu expectations, %zu files differ\n", files, expectations, differing);
  EXPECT_GT(expectations, 5000u);
  EXPECT_EQ(differing, 0u);
}

// A compound statement of a test keeps its heads and the statements that
// hold an expectation; the others are blanked (a `pass` where a body
// would be empty), lines unchanged.
TEST(PythonExpectations, CompoundStatementsKeepOnlyWhatExpects) {
  const std::string src =
      "class T:\n"
      "    def test_a(self):\n"
      "        for x in range(3):\n"
      "            prepare(x)\n"
      "            with self.assertRaises(ValueError):\n"
      "                parse(x)\n"
      "        try:\n"
      "            cleanup()\n"
      "        except OSError:\n"
      "            self.assertRaises(OSError, close, x)\n";
  auto fast = scan_python_tests(src);
  EXPECT_EQ(describe(fast), describe(scan_python_tests_whole(src)));
  ASSERT_EQ(fast.expectations.size(), 2u);
  EXPECT_FALSE(fast.had_syntax_errors);
  EXPECT_EQ(fast.expectations[0].test, "T.test_a");
  EXPECT_EQ(fast.expectations[0].line, 5);
  EXPECT_EQ(fast.expectations[0].calls, std::vector<std::string>{"parse"});
  EXPECT_EQ(fast.expectations[1].line, 10);
  EXPECT_EQ(fast.expectations[1].calls, std::vector<std::string>{"close"});
}

// Bad input never crashes: nesting the grammar cannot take, bytes that are
// not Python, an expectation with no arguments.
TEST(PythonExpectations, HostileInputGivesNothingAndDoesNotCrash) {
  std::string deep = "def test_x(self):\n";
  for (int i = 1; i < 400; ++i) deep += std::string(static_cast<std::size_t>(i), ' ') + "if x:\n";
  deep += std::string(400, ' ') + "self.assertRaises(ValueError, f)\n";
  EXPECT_TRUE(scan_python_tests(deep).expectations.empty());
  EXPECT_TRUE(scan_python_tests("def test_a(:\n  self.assertRaises(\n").expectations.empty());
  EXPECT_TRUE(scan_python_tests("def test_a(self):\n    self.assertRaises()\n").expectations.empty());
  EXPECT_TRUE(scan_python_tests(std::string("\0\xff\xfe raises( \"\"\"", 16)).expectations.empty());
}

// A subscript the test expects to raise calls its receiver's item method,
// typed like any call: a `setUp` attribute's class, a local's; by where it
// stands, `__getitem__`, `__setitem__` or `__delitem__`. A subscript of an
// untyped name stays as written, and of a call's result names nothing.
TEST(PythonTestTypes, SubscriptsCallTheReceiversItemMethods) {
  const char* src =
      "import mailbox\n"
      "from email.message import Message\n"
      "class T(unittest.TestCase):\n"
      "    def setUp(self):\n"
      "        self.box = mailbox.Maildir('x')\n"
      "    def test_get(self):\n"
      "        with self.assertRaises(KeyError):\n"
      "            self.box['missing']\n"
      "    def test_set_del(self):\n"
      "        msg = Message()\n"
      "        with self.assertRaises(TypeError):\n"
      "            msg[1] = 2\n"
      "        with self.assertRaises(KeyError):\n"
      "            del msg['x'], other['y']\n"
      "        self.assertRaises(IndexError, lambda: data[3])\n"
      "        with self.assertRaises(KeyError):\n"
      "            make()['k']\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 5u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"mailbox.Maildir().__getitem__"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"Message().__setitem__"}));
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"Message().__delitem__", "other.__delitem__"}));
  EXPECT_EQ(f.expectations[3].calls, (std::vector<std::string>{"data.__getitem__"}));
  EXPECT_EQ(f.expectations[4].calls, (std::vector<std::string>{"make"}));
}

// An attribute the test expects to raise is read, assigned or deleted
// through its descriptor method (`__get__`, `__set__`, `__delete__`),
// after the calls, and with `getattr`/`setattr`/`delattr` given its name;
// kept only on a receiver typed as an instance (a `setUp` attribute or a
// local bound to a call's result), not on a class, an untyped name or
// `self`. A method called is a call, and the callable form's arguments,
// read before the expectation holds, add no access.
TEST(PythonTestTypes, AttributeAccessesOfInstancesAreDescriptorCalls) {
  const char* src =
      "from urllib.request import Request\n"
      "class T(unittest.TestCase):\n"
      "    def setUp(self):\n"
      "        self.req = Request('http://x')\n"
      "    def test_set(self):\n"
      "        with self.assertRaises(ValueError):\n"
      "            self.req.full_url = 'bad'\n"
      "    def test_read_del(self):\n"
      "        r = Request('x')\n"
      "        with self.assertRaises(AttributeError):\n"
      "            r.selector.strip()\n"
      "        with self.assertRaises(TypeError):\n"
      "            del r.data\n"
      "        with self.assertRaises(TypeError):\n"
      "            r.timeout += 1\n"
      "    def test_builtins(self):\n"
      "        self.assertRaises(AttributeError, setattr, self.req, 'host', 1)\n"
      "        self.assertRaises(AttributeError, f, self.req.type)\n"
      "        with self.assertRaises(AttributeError):\n"
      "            getattr(self.req, 'origin')\n"
      "    def test_not_instances(self):\n"
      "        with self.assertRaises(ValueError):\n"
      "            Request.full_url = 'x'\n"
      "        with self.assertRaises(ValueError):\n"
      "            other.full_url = 'x'\n"
      "        with self.assertRaises(ValueError):\n"
      "            self.value = 3\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 9u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"Request().full_url.__set__"}));
  EXPECT_EQ(f.expectations[1].calls, (std::vector<std::string>{"Request().selector.strip", "Request().selector.__get__"}));
  EXPECT_EQ(f.expectations[2].calls, (std::vector<std::string>{"Request().data.__delete__"}));
  EXPECT_EQ(f.expectations[3].calls, (std::vector<std::string>{"Request().timeout.__get__", "Request().timeout.__set__"}));
  EXPECT_EQ(f.expectations[4].calls, (std::vector<std::string>{"setattr", "Request().host.__set__"}));
  EXPECT_EQ(f.expectations[5].calls, (std::vector<std::string>{"f"}));
  EXPECT_EQ(f.expectations[6].calls, (std::vector<std::string>{"getattr", "Request().origin.__get__"}));
  // A class's attribute, an untyped name's: only what a call names.
  EXPECT_TRUE(f.expectations[7].calls.empty());
  EXPECT_TRUE(f.expectations[8].calls.empty());
}


// The call, with its arguments, that made a test's local its calls are
// made on (`b = Buffer(3, mode='w')`): not when the test sets an attribute
// of it, binds it twice to different calls, or it is its class's (setUp's).
TEST(PythonTestTypes, ATestsLocalKeepsItsConstructorsArguments) {
  const char* src =
      "from pkg import Buffer, make_buffer\n"
      "class T(unittest.TestCase):\n"
      "    def setUp(self):\n"
      "        self.shared = Buffer(9)\n"
      "    def test_a(self):\n"
      "        b = Buffer(3, mode='w')\n"
      "        self.assertRaises(ValueError, b.read)\n"
      "    def test_b(self):\n"
      "        b = Buffer(3)\n"
      "        b.size = 0\n"
      "        self.assertRaises(ValueError, b.read)\n"
      "    def test_c(self):\n"
      "        b = Buffer(1)\n"
      "        b = Buffer(2)\n"
      "        self.assertRaises(ValueError, b.read)\n"
      "    def test_d(self):\n"
      "        b = make_buffer(1)\n"
      "        self.assertRaises(ValueError, b.read)\n"
      "        self.assertRaises(ValueError, self.shared.read)\n"
      "    def test_e(self):\n"
      "        b = Buffer(1)\n"
      "        b.items[0] == 1\n"
      "        self.assertRaises(ValueError, b.read)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 6u);
  EXPECT_EQ(f.expectations[0].calls, (std::vector<std::string>{"Buffer().read"}));
  EXPECT_EQ(f.expectations[0].constructions, (std::vector<std::string>{"Buffer(3, mode='w')"}));
  EXPECT_EQ(f.expectations[0].instance_steps, (std::vector<std::vector<std::string>>{{}}));
  // The attribute set is a step of its own (InstanceStepsBeforeTheExpectation).
  EXPECT_EQ(f.expectations[1].constructions, (std::vector<std::string>{"Buffer(3)"}));
  EXPECT_EQ(f.expectations[1].instance_steps, (std::vector<std::vector<std::string>>{{"size = 0"}}));
  EXPECT_TRUE(f.expectations[2].constructions.empty());
  // The call that made it, whatever it is; setUp's instance is not the test's own.
  EXPECT_EQ(f.expectations[3].constructions, (std::vector<std::string>{"make_buffer(1)"}));
  EXPECT_TRUE(f.expectations[4].constructions.empty());
  EXPECT_EQ(f.expectations[5].constructions, (std::vector<std::string>{"Buffer(1)"}));
  EXPECT_EQ(f.expectations[5].instance_steps, (std::vector<std::vector<std::string>>{{"?"}}));
}

// What a test does to its local between making it and its expectation:
// method calls on it and attribute sets, in order, with their arguments;
// any other use ends the steps with "?" (what it holds is unknown).
TEST(PythonTestTypes, InstanceStepsBeforeTheExpectation) {
  const char* src =
      "from pkg import Conn\n"
      "class T(unittest.TestCase):\n"
      "    def test_a(self):\n"
      "        c = Conn('h')  # a connection\n"
      "        c.open('w', size=3)\n"
      "        c.mode = 'r'  # read-only\n"
      "        self.assertEqual(len(x), 1)\n"
      "        c.close()\n"
      "        with self.assertRaises(OSError):\n"
      "            c.send(b'x')\n"
      "        c.reopen()\n"
      "    def test_b(self):\n"
      "        c = Conn('h')\n"
      "        c.close()\n"
      "        use(c)\n"
      "        c.flush()\n"
      "        self.assertRaises(OSError, c.send, b'x')\n"
      "    def test_c(self):\n"
      "        c = Conn('h')\n"
      "        if x:\n"
      "            c.close()\n"
      "        self.assertRaises(OSError, c.send, b'x')\n"
      "    def test_d(self):\n"
      "        c = Conn('h')\n"
      "        c.buf.append(1)\n"
      "        self.assertRaises(OSError, c.send, b'x')\n"
      "    def test_e(self):\n"
      "        c = Conn('h')\n"
      "        c.peer = c\n"
      "        self.assertRaises(OSError, c.send, b'x')\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 5u);
  EXPECT_EQ(f.expectations[0].constructions, (std::vector<std::string>{"Conn('h')"}));
  EXPECT_EQ(f.expectations[0].instance_steps,
            (std::vector<std::vector<std::string>>{{"open('w', size=3)", "mode = 'r'", "close()"}}));
  EXPECT_EQ(f.expectations[1].instance_steps, (std::vector<std::vector<std::string>>{{"close()", "?"}}));
  EXPECT_EQ(f.expectations[2].instance_steps, (std::vector<std::vector<std::string>>{{"?"}}));
  EXPECT_EQ(f.expectations[3].instance_steps, (std::vector<std::vector<std::string>>{{"?"}}));
  EXPECT_EQ(f.expectations[4].instance_steps, (std::vector<std::vector<std::string>>{{"?"}}));
}

// A test's own locals its expectation names, with the value they hold
// there: every binding of the name is `NAME = VALUE` at the top of the
// test's body, the last before the expectation counts, and a list is not
// changed in place nor handed on before it. A comment after the value is
// not part of it.
TEST(PythonTestTypes, LocalsTheExpectationNamesWithTheirValues) {
  const char* src =
      "from pkg import check\n"
      "class T(unittest.TestCase):\n"
      "    def test_a(self):\n"
      "        exts = 'foo'  # not a list\n"
      "        self.assertRaises(ValueError, check, exts)\n"
      "        exts = [('bar', 'foo', 'bar'), 'foo']\n"
      "        self.assertRaises(ValueError, check, exts, strict=True)\n"
      "    def test_b(self):\n"
      "        n = 3\n"
      "        for n in range(2):\n"
      "            pass\n"
      "        self.assertRaises(ValueError, check, n)\n"
      "    def test_c(self):\n"
      "        items = [1]\n"
      "        items.append(2)\n"
      "        k = 1\n"
      "        k += 1\n"
      "        self.assertRaises(ValueError, check, items, k)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 4u);
  using Locals = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(f.expectations[0].locals, (Locals{{"exts", "'foo'"}}));
  EXPECT_EQ(f.expectations[1].locals, (Locals{{"exts", "[('bar', 'foo', 'bar'), 'foo']"}}));
  EXPECT_TRUE(f.expectations[2].locals.empty());
  EXPECT_TRUE(f.expectations[3].locals.empty());
}

TEST(PythonTestTypes, ATestModulesConstantIsReadAsTheValueOfANameTheTestDoesNotBind) {
  const char* src =
      "from pkg import check\n"
      "EPSILON = 0.01\n"
      "BAD = ['x']\n"
      "TWICE = 1\n"
      "TWICE = 2\n"
      "if True:\n"
      "    MAYBE = 3\n"
      "class T(unittest.TestCase):\n"
      "    def test_a(self):\n"
      "        self.assertRaises(ValueError, check, EPSILON, BAD, TWICE, MAYBE)\n"
      "    def test_b(self):\n"
      "        EPSILON = 5\n"
      "        self.assertRaises(ValueError, check, EPSILON)\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 2u);
  using Locals = std::vector<std::pair<std::string, std::string>>;
  // A list any test may change, a name bound twice or in a block: not read.
  EXPECT_EQ(f.expectations[0].locals, (Locals{{"EPSILON", "0.01"}}));
  // The test's own binding wins.
  EXPECT_EQ(f.expectations[1].locals, (Locals{{"EPSILON", "5"}}));
}

TEST(PythonTestTypes, ALoopOverWrittenItemsAroundTheExpectationGivesItsFirstItem) {
  const char* src =
      "from pkg import check\n"
      "class T(unittest.TestCase):\n"
      "    def test_a(self):\n"
      "        for bad in ('x', 'y'):\n"
      "            with self.subTest(bad=bad):\n"
      "                with self.assertRaises(ValueError):\n"
      "                    check(bad)\n"
      "    def test_b(self):\n"
      "        for method in ['GET', 'PUT']:\n"
      "            if method == 'PUT':\n"
      "                self.assertRaises(ValueError, check, method)\n"
      "    def test_c(self):\n"
      "        for m in 'a', 'b':\n"
      "            if not m:\n"
      "                continue\n"
      "            self.assertRaises(ValueError, check, m)\n"
      "    def test_d(self):\n"
      "        for m in 'a', 'b':\n"
      "            self.assertRaises(ValueError, check, m)\n"
      "        for m in ('c',):\n"
      "            pass\n";
  auto f = scan_python_tests(src);
  ASSERT_EQ(f.expectations.size(), 4u);
  using Locals = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(f.expectations[0].locals, (Locals{{"bad", "'x'"}}));
  // The first round may skip the expectation.
  EXPECT_TRUE(f.expectations[1].locals.empty());
  EXPECT_TRUE(f.expectations[2].locals.empty());
  // Bound again by another loop.
  EXPECT_TRUE(f.expectations[3].locals.empty());
}

}  // namespace
}  // namespace errdex::scan
