// Test links (issue 29, item 2): which of the sites a test reaches it is
// linked to, on small repositories of real shape scanned in memory.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "analyze/analyst.h"
#include "analyze/call_graph.h"
#include "analyze/evidence.h"
#include "analyze/js_call_graph.h"
#include "scan/frontend.h"

namespace errdex::analyze {
namespace {

// A repository of code and test files, scanned, analyzed and linked as
// `errdex scan` does it.
struct Linked {
  std::vector<std::string> paths;
  std::vector<std::string> sources;
  std::vector<model::FileFacts> facts;
  std::vector<model::ThrowSite> sites;
  std::vector<model::ErrorRecord> records;

  // The linked tests of the record whose message starts with `message`,
  // as "name@line".
  std::vector<std::string> tests_of(const std::string& message) const {
    std::vector<std::string> out;
    for (const auto& r : records)
      if (r.error_message.rfind(message, 0) == 0)
        for (const auto& t : r.evidence.tests) out.push_back(t.name + "@" + std::to_string(t.line_number));
    return out;
  }
};

Linked link(const std::map<std::string, std::string>& code, const std::map<std::string, std::string>& tests) {
  Linked l;
  for (const auto& [p, s] : code) {
    l.paths.push_back(p);
    l.sources.push_back(s);
    l.facts.push_back(scan::frontend_for(p)->scan(s));
  }
  for (const auto& [p, s] : tests) {
    l.paths.push_back(p);
    l.sources.push_back(s);
    l.facts.push_back(scan::frontend_for(p)->scan_tests(s));
  }
  ClassIndex classes;
  for (std::size_t i = 0; i < code.size(); ++i) classes.add(l.paths[i], l.facts[i].classes);
  std::vector<FileFactsAt> all, code_only;
  for (std::size_t i = 0; i < l.paths.size(); ++i) {
    all.push_back({&l.paths[i], &l.facts[i]});
    if (i < code.size()) code_only.push_back({&l.paths[i], &l.facts[i]});
  }
  for (std::size_t i = 0; i < code.size(); ++i) {
    FileContext ctx{"acme/app", l.paths[i], std::string(40, 'a'), "", "2026-01-01T00:00:00.000Z", l.sources[i],
                    &classes, nullptr};
    for (auto& r : analyze_file(ctx, l.facts[i].sites)) l.records.push_back(std::move(r));
    for (const auto& s : l.facts[i].sites) l.sites.push_back(s);
  }
  const CallGraph graph(code_only, {""});
  link_tests(all, l.sites, l.records, classes, graph);
  std::vector<FileFactsAt> js_code;
  for (const auto& f : code_only)
    if (is_javascript_path(*f.path)) js_code.push_back(f);
  const JsCallGraph js_graph(js_code);
  link_javascript_tests(all, l.sites, l.records, classes, &js_graph);
  return l;
}

// Lib/graphlib.py's shape: the test's regex spells the message with the
// value it passed (`node 2`) where the template interpolates (`{node!r}`).
// It agrees with the template whose words it fits, a value standing for
// each interpolation, not with the one whose words differ; nor does a regex
// whose only words fall in interpolations.
TEST(EvidenceLinks, ARegexWithValuesFitsTheTemplateItsWordsSpell) {
  auto l = link({{"pkg/graph.py",
                  "class TopologicalSorter:\n"
                  "    def done(self, *nodes):\n"
                  "        for node in nodes:\n"
                  "            if node not in self._info:\n"
                  "                raise ValueError(f\"node {node!r} was not added using add()\")\n"
                  "            if self._ready is None:\n"
                  "                raise ValueError(f\"node {node!r} was not passed out (still not ready)\")\n"
                  "    def add(self, node, pred):\n"
                  "        if node == pred:\n"
                  "            raise ValueError(f\"{node} is {pred}\")\n"}},
                {{"tests/test_graph.py",
                  "import unittest\n"
                  "from pkg import graph\n"
                  "class TestSort(unittest.TestCase):\n"
                  "    def test_done(self):\n"
                  "        ts = graph.TopologicalSorter()\n"
                  "        with self.assertRaisesRegex(ValueError, 'node 2 was not passed out'):\n"
                  "            ts.done(2)\n"
                  "    def test_other_words(self):\n"
                  "        ts = graph.TopologicalSorter()\n"
                  "        with self.assertRaisesRegex(ValueError, 'node 2 was never seen here'):\n"
                  "            ts.done(2)\n"
                  "    def test_values_only(self):\n"
                  "        ts = graph.TopologicalSorter()\n"
                  "        with self.assertRaisesRegex(ValueError, 'abcdef is ghijkl'):\n"
                  "            ts.add('abcdef', 'ghijkl')\n"}});
  ASSERT_EQ(l.records.size(), 3u);
  EXPECT_EQ(l.tests_of("node {node!r} was not passed out"), (std::vector<std::string>{"TestSort.test_done@6"}));
  EXPECT_TRUE(l.tests_of("node {node!r} was not added").empty());
  EXPECT_TRUE(l.tests_of("{node} is {pred}").empty());
}

// Without a regex, a test whose nearest site of its class is inside a
// callee, with three more sites of the class below it, names none of them:
// which one its inputs hit is a guess. A site in the function the test
// calls itself, or a regex, still says which.
TEST(EvidenceLinks, ARegexLessTestDeepInASubsystemNamesNoSite) {
  const std::string conf =
      "def _parse_one(x):\n"
      "    if not x:\n"
      "        raise ValueError('empty item')\n"
      "    if x == '?':\n"
      "        raise ValueError('unknown item')\n"
      "    if x == '!':\n"
      "        raise ValueError('bang item')\n"
      "    return x\n"
      "def _parse(text):\n"
      "    if text is None:\n"
      "        raise ValueError('no text given')\n"
      "    return [_parse_one(t) for t in text]\n"
      "def load(text):\n"
      "    return _parse(text)\n"
      "def check(text):\n"
      "    if text == '':\n"
      "        raise ValueError('blank text')\n"
      "    return _parse(text)\n";
  auto l = link({{"pkg/conf.py", conf}}, {{"tests/test_conf.py",
                                           "import unittest\n"
                                           "from pkg.conf import load, check\n"
                                           "class ConfTest(unittest.TestCase):\n"
                                           "    def test_load_none(self):\n"
                                           "        self.assertRaises(ValueError, load, None)\n"
                                           "    def test_check_blank(self):\n"
                                           "        self.assertRaises(ValueError, check, '')\n"
                                           "    def test_load_none_regex(self):\n"
                                           "        self.assertRaisesRegex(ValueError, 'no text', load, None)\n"}});
  ASSERT_EQ(l.records.size(), 5u);
  EXPECT_EQ(l.tests_of("no text given"), (std::vector<std::string>{"ConfTest.test_load_none_regex@9"}));
  EXPECT_EQ(l.tests_of("blank text"), (std::vector<std::string>{"ConfTest.test_check_blank@7"}));
  EXPECT_TRUE(l.tests_of("empty item").empty());

  // With two sites below, the nearest one is still linked.
  std::string two = conf;
  two.replace(two.find("    if x == '!':\n        raise ValueError('bang item')\n"),
              std::string("    if x == '!':\n        raise ValueError('bang item')\n").size(), "");
  l = link({{"pkg/conf.py", two}}, {{"tests/test_conf.py",
                                     "import unittest\n"
                                     "from pkg.conf import load\n"
                                     "class ConfTest(unittest.TestCase):\n"
                                     "    def test_load_none(self):\n"
                                     "        self.assertRaises(ValueError, load, None)\n"}});
  EXPECT_EQ(l.tests_of("no text given"), (std::vector<std::string>{"ConfTest.test_load_none@5"}));
}

// Without a regex, a test that expects only a base of the class a site
// raises (`OSError` for a `FileNotFoundError`) and reaches other sites of
// the base (`_read`'s OSError below) could be met by any of them, or by C
// code's raise of the base: it names no site, whatever its name says
// (`store` is in the message). The class itself, a regex, or a site alone
// of the base in what the test reaches (`close_store`) still says which.
TEST(EvidenceLinks, ARegexLessTestOfABaseClassAmongOthersNamesNoSite) {
  auto l = link({{"pkg/store.py",
                  "class StoreError(ValueError):\n"
                  "    pass\n"
                  "def _read(path):\n"
                  "    if path == '-':\n"
                  "        raise OSError('cannot read stdin here')\n"
                  "    return path\n"
                  "def open_store(path):\n"
                  "    if not path:\n"
                  "        raise FileNotFoundError('no store at the path given')\n"
                  "    return _read(path)\n"
                  "def close_store(handle):\n"
                  "    if handle is None:\n"
                  "        raise StoreError('no handle to close')\n"}},
                {{"tests/test_store.py",
                  "import unittest\n"
                  "from pkg.store import open_store, close_store\n"
                  "class StoreTest(unittest.TestCase):\n"
                  "    def test_base_store(self):\n"
                  "        self.assertRaises(OSError, open_store, self.missing)\n"
                  "    def test_itself_store(self):\n"
                  "        self.assertRaises(FileNotFoundError, open_store, '')\n"
                  "    def test_base_regex(self):\n"
                  "        self.assertRaisesRegex(OSError, 'no store at', open_store, '')\n"
                  "    def test_close(self):\n"
                  "        self.assertRaises(ValueError, close_store, None)\n"}});
  ASSERT_EQ(l.records.size(), 3u);
  EXPECT_EQ(l.tests_of("no store"),
            (std::vector<std::string>{"StoreTest.test_itself_store@7", "StoreTest.test_base_regex@9"}));
  EXPECT_EQ(l.tests_of("no handle"), (std::vector<std::string>{"StoreTest.test_close@11"}));
  EXPECT_TRUE(l.tests_of("cannot read").empty());
}

// Lib/inspect.py's Signature._bind shape: a regex that two sites of the
// function both spell agrees with both, but one statement raises once: it
// names neither, unless the call's literal arguments say which one runs
// (`(1, 2, 3)` meets the first guard; a name says nothing).
TEST(EvidenceLinks, ARegexTwoSitesSpellNamesNeither) {
  auto l = link({{"pkg/sig.py",
                  "def bind(args, kwargs):\n"
                  "    if len(args) > 2:\n"
                  "        raise TypeError('too many positional arguments')\n"
                  "    if kwargs and len(args) > 1:\n"
                  "        raise TypeError('too many positional arguments with keywords')\n"
                  "    if 'x' in kwargs:\n"
                  "        raise TypeError('unexpected keyword argument x')\n"}},
                {{"tests/test_sig.py",
                  "import unittest\n"
                  "from pkg.sig import bind\n"
                  "class SigTest(unittest.TestCase):\n"
                  "    def test_many(self):\n"
                  "        self.assertRaisesRegex(TypeError, 'too many positional', bind, (1, 2, 3), {})\n"
                  "    def test_keyword(self):\n"
                  "        self.assertRaisesRegex(TypeError, 'unexpected keyword', bind, (), {'x': 1})\n"
                  "    def test_many_named(self):\n"
                  "        self.assertRaisesRegex(TypeError, 'too many positional', bind, ARGS, {})\n"}});
  ASSERT_EQ(l.records.size(), 3u);
  EXPECT_EQ(l.tests_of("too many positional arguments"), (std::vector<std::string>{"SigTest.test_many@5"}));
  EXPECT_EQ(l.tests_of("unexpected keyword"), (std::vector<std::string>{"SigTest.test_keyword@7"}));
}

// Without a regex, the nearest site of the class a test reaches is only a
// guess when it is not all the test reaches of its class: it is in a
// callee (`parse` → `_read_header`), or another site of the class is below
// it (`load`'s own check, then `_parse`'s). The test says which when a word
// of its name (`test_parse_short_header`) or of its code (`None`, `data=`)
// is in the site's message or guards, or its literals are decided to reach
// it (`parse(b'')` meets `len(data) < 4`: LiteralsFollowedIntoTheHelper...).
TEST(EvidenceLinks, AnAmbiguousSiteNeedsAWitness) {
  auto l = link({{"pkg/fmt.py",
                  "def _read_header(data):\n"
                  "    if len(data) < 4:\n"
                  "        raise ValueError('header too short')\n"
                  "    return data[:4]\n"
                  "def parse(data):\n"
                  "    return _read_header(data)\n"
                  "def _parse(text):\n"
                  "    if not text.isdigit():\n"
                  "        raise ValueError('digits only')\n"
                  "    return int(text)\n"
                  "def load(text):\n"
                  "    if text is None:\n"
                  "        raise ValueError('no text given')\n"
                  "    return _parse(text)\n"
                  "def only(text):\n"
                  "    if not text:\n"
                  "        raise ValueError('empty text')\n"
                  "    return text\n"}},
                {{"tests/test_fmt.py",
                  "import unittest\n"
                  "from pkg.fmt import parse, load, only\n"
                  "class FmtTest(unittest.TestCase):\n"
                  "    def test_parse_empty(self):\n"
                  "        self.assertRaises(ValueError, parse, self.empty)\n"
                  "    def test_parse_short_header(self):\n"
                  "        self.assertRaises(ValueError, parse, b'')\n"
                  "    def test_parse_keyword(self):\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            parse(data=b'')\n"
                  "    def test_load_bad(self):\n"
                  "        self.assertRaises(ValueError, load, 5)\n"
                  "    def test_load_none(self):\n"
                  "        self.assertRaises(ValueError, load, None)\n"
                  "    def test_only(self):\n"
                  "        self.assertRaises(ValueError, only, '')\n"}});
  ASSERT_EQ(l.records.size(), 4u);
  EXPECT_EQ(l.tests_of("header too short"),
            (std::vector<std::string>{"FmtTest.test_parse_short_header@7", "FmtTest.test_parse_keyword@9"}));
  EXPECT_EQ(l.tests_of("no text given"), (std::vector<std::string>{"FmtTest.test_load_none@14"}));
  EXPECT_TRUE(l.tests_of("digits only").empty());
  // Alone of its class in what the test reaches: no witness needed.
  EXPECT_EQ(l.tests_of("empty text"), (std::vector<std::string>{"FmtTest.test_only@16"}));
}

// tornado's template.py and click's types.py shape: a helper raises the
// text its callers pass (`self.raise_parse_error("{% break %} outside
// {% for %} block")`), which the record keeps as its message's variants.
// A test without a regex witnesses the helper's site by a word of its name
// ("break") that only a variant holds, as it would one of the message:
// the nearest site of the class the test reaches, with another below it.
TEST(EvidenceLinks, AWordOfAMessageVariantWitnessesTheSite) {
  auto l = link({{"pkg/template.py",
                  "class ParseError(Exception):\n"
                  "    pass\n"
                  "class Reader:\n"
                  "    def raise_parse_error(self, msg):\n"
                  "        raise ParseError(msg)\n"
                  "    def parse(self, text):\n"
                  "        if text.startswith('{% break'):\n"
                  "            self.raise_parse_error('{% break %} outside {% for %} block')\n"
                  "        if text.startswith('{% end'):\n"
                  "            self.raise_parse_error('extra {% end %} block')\n"
                  "        return self._check(text)\n"
                  "    def _check(self, text):\n"
                  "        return self._body(text)\n"
                  "    def _body(self, text):\n"
                  "        if not text:\n"
                  "            raise ParseError('empty template')\n"
                  "        return text\n"}},
                {{"tests/test_template.py",
                  "import unittest\n"
                  "from pkg.template import ParseError, Reader\n"
                  "class TemplateTest(unittest.TestCase):\n"
                  "    def test_break_in_apply(self):\n"
                  "        with self.assertRaises(ParseError):\n"
                  "            Reader().parse(self.source)\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_EQ(l.tests_of("{msg}"), (std::vector<std::string>{"TemplateTest.test_break_in_apply@5"}));
  EXPECT_TRUE(l.tests_of("empty template").empty());
}

// Lib/asyncio/base_events.py's shape: `run_until_complete` raises below a
// call that may raise the class as well. A test calling it through its
// receiver `self.loop` names no site by that: "loop" is in the message,
// but the word is what the test calls on, not what it does wrong (a word
// of its name still witnesses).
TEST(EvidenceLinks, AReceiversNameWitnessesNoSite) {
  auto l = link({{"pkg/loop.py",
                  "class EventLoop:\n"
                  "    def run_until_complete(self, fut):\n"
                  "        if not fut.done or self.stopping:\n"
                  "            raise RuntimeError('Event loop stopped before Future completed.')\n"
                  "        return self._result_of(fut)\n"
                  "    def _result_of(self, fut):\n"
                  "        if fut.cancelled:\n"
                  "            raise RuntimeError('future cancelled')\n"
                  "        return fut.result\n"}},
                {{"tests/test_loop.py",
                  "import unittest\n"
                  "from pkg.loop import EventLoop\n"
                  "class LoopTest(unittest.TestCase):\n"
                  "    def setUp(self):\n"
                  "        self.loop = EventLoop()\n"
                  "    def test_pending(self):\n"
                  "        self.assertRaises(RuntimeError, self.loop.run_until_complete, self.fut)\n"
                  "    def test_stopped(self):\n"
                  "        self.assertRaises(RuntimeError, self.loop.run_until_complete, self.fut)\n"
                  "    def test_run_self(self):\n"
                  "        self.assertRaises(RuntimeError, self.loop.run_until_complete, self.fut)\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  // Nor does `self` in a test's name (`test_write_to_self`): every guard
  // on an instance reads it.
  EXPECT_EQ(l.tests_of("Event loop stopped"), (std::vector<std::string>{"LoopTest.test_stopped@9"}));
}

// Lib/smtplib.py's and Lib/asyncio/base_events.py's shape: a method first
// calls a helper of its class that raises the class the test expects
// (`self._check_open()`, itself through `self._state()`), then raises it
// itself. Which of the two the test meets its literals do not say (the
// instance's state decides the helper's), so the site below the call is
// no link; one whose helper call comes after it still is.
TEST(EvidenceLinks, AHelperCalledAboveTheSiteMayRaiseFirst) {
  auto l = link({{"pkg/conn.py",
                  "class Conn:\n"
                  "    def send(self, data):\n"
                  "        self._check_open()\n"
                  "        if not data:\n"
                  "            raise ValueError('nothing to send')\n"
                  "        return len(data)\n"
                  "    def write(self, data):\n"
                  "        if not data:\n"
                  "            raise ValueError('nothing to write')\n"
                  "        self._check_open()\n"
                  "        return len(data)\n"
                  "    def _check_open(self):\n"
                  "        self._state()\n"
                  "    def _state(self):\n"
                  "        if self.closed:\n"
                  "            raise ValueError('I/O operation on closed connection')\n"}},
                {{"tests/test_conn.py",
                  "import unittest\n"
                  "from pkg.conn import Conn\n"
                  "class ConnTest(unittest.TestCase):\n"
                  "    def test_send_empty(self):\n"
                  "        c = Conn()\n"
                  "        self.assertRaises(ValueError, c.send, b'')\n"
                  "    def test_write_empty(self):\n"
                  "        c = Conn()\n"
                  "        self.assertRaises(ValueError, c.write, b'')\n"}});
  ASSERT_EQ(l.records.size(), 3u);
  EXPECT_TRUE(l.tests_of("nothing to send").empty());
  EXPECT_EQ(l.tests_of("nothing to write"), (std::vector<std::string>{"ConnTest.test_write_empty@9"}));
}

// Lib/base64.py's shape: `decode` converts its argument with a helper that
// raises ValueError for a str, then raises its own. The test's literals are
// run through the helper's guards: bytes cannot meet `if isinstance(s,
// str):`, so the helper does not raise first and the site is linked; a str
// may, and that test stays a guess.
TEST(EvidenceLinks, ATestsLiteralsSayTheHelperAboveCannotRaise) {
  auto l = link({{"pkg/codec.py",
                  "def _as_bytes(s):\n"
                  "    if isinstance(s, str):\n"
                  "        raise ValueError('string argument should contain only ASCII characters')\n"
                  "    return s\n"
                  "def decode(b, strict=False):\n"
                  "    b = _as_bytes(b)\n"
                  "    if strict:\n"
                  "        raise ValueError('strict decoding is not supported')\n"
                  "    return b\n"}},
                {{"tests/test_codec.py",
                  "import unittest\n"
                  "from pkg import codec\n"
                  "class CodecTest(unittest.TestCase):\n"
                  "    def test_strict_bytes(self):\n"
                  "        self.assertRaises(ValueError, codec.decode, b'x', strict=True)\n"
                  "    def test_strict_str(self):\n"
                  "        self.assertRaises(ValueError, codec.decode, 'x', strict=True)\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_EQ(l.tests_of("strict decoding"), (std::vector<std::string>{"CodecTest.test_strict_bytes@5"}));
}

// Lib/asyncio/runners.py's shape: `Runner.run` catches CancelledError and
// re-raises it with a bare `raise`. A test calling `run` itself meets it
// there; one whose call reaches `run` only further down (`main` → `run`)
// says nothing of where the exception began, nor that its path goes
// through that `try`: no link.
TEST(EvidenceLinks, ABareReraiseInACalleeIsAGuess) {
  auto l = link({{"pkg/runner.py",
                  "class Cancelled(Exception):\n"
                  "    pass\n"
                  "def run(task):\n"
                  "    try:\n"
                  "        return task()\n"
                  "    except Cancelled:\n"
                  "        raise\n"
                  "def main(task):\n"
                  "    return run(task)\n"}},
                {{"tests/test_runner.py",
                  "import unittest\n"
                  "from pkg.runner import run, main, Cancelled\n"
                  "class RunnerTest(unittest.TestCase):\n"
                  "    def test_run_cancelled(self):\n"
                  "        self.assertRaises(Cancelled, run, self.cancel)\n"
                  "    def test_main_cancelled(self):\n"
                  "        self.assertRaises(Cancelled, main, self.cancel)\n"}});
  ASSERT_EQ(l.records.size(), 1u);
  EXPECT_EQ(l.tests_of(""), (std::vector<std::string>{"RunnerTest.test_run_cancelled@5"}));
}

// Lib/asyncio/unix_events.py's shape: the test makes the coroutine before
// its expectation and runs it inside (`coro = loop.create_server(...)`,
// then `run_until_complete(coro)`). The coroutine function's body runs
// there: linked. A plain function's body ran when the test called it,
// before the expectation: no link.
TEST(EvidenceLinks, ACoroutineMadeBeforeTheExpectationRunsInIt) {
  auto l = link({{"pkg/loop.py",
                  "class Loop:\n"
                  "    def run_until_complete(self, coro):\n"
                  "        return coro\n"
                  "    async def create_server(self, path=None, sock=None):\n"
                  "        if path is None and sock is None:\n"
                  "            raise ValueError('path was not specified, and no sock specified')\n"
                  "    def make_handle(self, path=None):\n"
                  "        if path is None:\n"
                  "            raise ValueError('no path for the handle')\n"}},
                {{"tests/test_loop.py",
                  "import unittest\n"
                  "from pkg.loop import Loop\n"
                  "class LoopTest(unittest.TestCase):\n"
                  "    def setUp(self):\n"
                  "        self.loop = Loop()\n"
                  "    def test_server_nopath(self):\n"
                  "        coro = self.loop.create_server(None)\n"
                  "        with self.assertRaisesRegex(ValueError, 'path was not specified'):\n"
                  "            self.loop.run_until_complete(coro)\n"
                  "    def test_handle_nopath(self):\n"
                  "        h = self.loop.make_handle('x')\n"
                  "        with self.assertRaisesRegex(ValueError, 'no path'):\n"
                  "            self.loop.run_until_complete(h)\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_EQ(l.tests_of("path was not specified"), (std::vector<std::string>{"LoopTest.test_server_nopath@8"}));
  EXPECT_TRUE(l.tests_of("no path for the handle").empty());
}

// Lib/hmac.py's shape: `new` hands its arguments to the class's
// constructor. The test's literals are followed into `__init__` as into
// any helper: `digestmod='sha256'` fails `if not digestmod:`, so that
// test is no link of it (its name's word `digestmod` notwithstanding);
// leaving it out picks the site.
TEST(EvidenceLinks, LiteralsFollowedIntoAConstructor) {
  auto l = link({{"pkg/mac.py",
                  "class MAC:\n"
                  "    def __init__(self, key, digestmod=''):\n"
                  "        if not digestmod:\n"
                  "            raise TypeError(\"Missing required parameter 'digestmod'.\")\n"
                  "        self.key = key\n"
                  "def new(key, digestmod=''):\n"
                  "    return MAC(key, digestmod)\n"}},
                {{"tests/test_mac.py",
                  "import unittest\n"
                  "from pkg.mac import new\n"
                  "class MacTest(unittest.TestCase):\n"
                  "    def test_new_with_str_key(self):\n"
                  "        with self.assertRaises(TypeError):\n"
                  "            new('key', digestmod='sha256')\n"
                  "    def test_new_without_mode(self):\n"
                  "        self.assertRaises(TypeError, new, b'key')\n"}});
  ASSERT_EQ(l.records.size(), 1u);
  EXPECT_EQ(l.tests_of("Missing required"), (std::vector<std::string>{"MacTest.test_new_without_mode@8"}));
}

// Lib/subprocess.py's shape: `Popen._execute_child` is defined once for
// Windows and once for POSIX; which body a call runs depends on the
// platform, so a site in either is no link. A property's getter and
// setter share their name without being a redefinition.
TEST(EvidenceLinks, AFunctionDefinedTwiceIsAGuess) {
  auto l = link({{"pkg/proc.py",
                  "import sys\n"
                  "class Popen:\n"
                  "    if sys.platform == 'win32':\n"
                  "        def _execute_child(self, args):\n"
                  "            if not args:\n"
                  "                raise FileNotFoundError('shell not found')\n"
                  "    else:\n"
                  "        def _execute_child(self, args):\n"
                  "            return args\n"
                  "    @property\n"
                  "    def mode(self):\n"
                  "        return self._mode\n"
                  "    @mode.setter\n"
                  "    def mode(self, value):\n"
                  "        if value not in ('r', 'w'):\n"
                  "            raise ValueError('mode must be r or w')\n"
                  "        self._mode = value\n"}},
                {{"tests/test_proc.py",
                  "import unittest\n"
                  "from pkg.proc import Popen\n"
                  "class ProcTest(unittest.TestCase):\n"
                  "    def test_no_args(self):\n"
                  "        p = Popen()\n"
                  "        self.assertRaises(FileNotFoundError, p._execute_child, [])\n"
                  "    def test_bad_mode(self):\n"
                  "        p = Popen()\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            p.mode = 'x'\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_TRUE(l.tests_of("shell not found").empty());
  EXPECT_EQ(l.tests_of("mode must be"), (std::vector<std::string>{"ProcTest.test_bad_mode@9"}));
}

// Lib/urllib/request.py's and importlib.metadata's shapes: a test that
// assigns a property of an instance reaches its setter and what the setter
// calls, one that deletes it its deleter, one that assigns any attribute
// of a class defining `__setattr__` that method; a read reaches the getter
// alone (not the setter's sites), and reading a plain method or assigning
// on the class itself links nothing.
TEST(EvidenceLinks, AttributeAccessesReachThePropertysAccessors) {
  auto l = link({{"pkg/req.py",
                  "class Request:\n"
                  "    def __init__(self, url):\n"
                  "        self._url = url\n"
                  "    @property\n"
                  "    def full_url(self):\n"
                  "        if self._url is None:\n"
                  "            raise AttributeError('url unset')\n"
                  "        return self._url\n"
                  "    @full_url.setter\n"
                  "    def full_url(self, url):\n"
                  "        if url is None:\n"
                  "            raise AttributeError('url is None')\n"
                  "        self._url = url\n"
                  "        self._parse()\n"
                  "    @full_url.deleter\n"
                  "    def full_url(self):\n"
                  "        raise TypeError('cannot delete the url')\n"
                  "    def _parse(self):\n"
                  "        raise ValueError('unknown url type')\n"
                  "    def method(self):\n"
                  "        raise KeyError('no method')\n"
                  "class Frozen:\n"
                  "    def __setattr__(self, name, value):\n"
                  "        raise AttributeError('frozen object')\n"}},
                {{"tests/test_req.py",
                  "import unittest\n"
                  "from pkg.req import Request, Frozen\n"
                  "class T(unittest.TestCase):\n"
                  "    def setUp(self):\n"
                  "        self.r = Request(None)\n"
                  "    def test_set_unknown_url(self):\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            self.r.full_url = 'nourl'\n"
                  "    def test_del(self):\n"
                  "        r = Request('x')\n"
                  "        with self.assertRaises(TypeError):\n"
                  "            del r.full_url\n"
                  "    def test_read(self):\n"
                  "        self.assertRaises(AttributeError, getattr, self.r, 'full_url')\n"
                  "    def test_frozen(self):\n"
                  "        f = Frozen()\n"
                  "        with self.assertRaises(AttributeError):\n"
                  "            f.name = 'x'\n"
                  "    def test_method(self):\n"
                  "        with self.assertRaises(KeyError):\n"
                  "            self.r.method\n"
                  "    def test_class(self):\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            Request.full_url = 'x'\n"}});
  EXPECT_EQ(l.tests_of("unknown url type"), (std::vector<std::string>{"T.test_set_unknown_url@7"}));
  EXPECT_EQ(l.tests_of("cannot delete"), (std::vector<std::string>{"T.test_del@11"}));
  EXPECT_EQ(l.tests_of("url unset"), (std::vector<std::string>{"T.test_read@14"}));
  EXPECT_TRUE(l.tests_of("url is None").empty());
  EXPECT_EQ(l.tests_of("frozen object"), (std::vector<std::string>{"T.test_frozen@17"}));
  EXPECT_TRUE(l.tests_of("no method").empty());
}

// A receiver typed by what a function returns (`r = make_reader(...)`,
// the function of the repository returning `Reader(...)`, or a local it
// bound to one), and a class body's `x = property(getx, setx)`: the test
// reaches the method or accessor of that class. A function decorated by
// something that may replace it (`@_SpecialForm`) says nothing by its
// returns, nor does a function read without a call (`make_reader.mode`).
TEST(EvidenceLinks, ReturnedInstancesAndPropertyCallsReachTheirMethods) {
  auto l = link({{"pkg/reader.py",
                  "class Reader:\n"
                  "    def __init__(self, path):\n"
                  "        self.path = path\n"
                  "    def read(self, n):\n"
                  "        if n < 0:\n"
                  "            raise ValueError('negative size')\n"
                  "        return ''\n"
                  "    def close(self):\n"
                  "        raise OSError('already closed')\n"
                  "    def _get_mode(self):\n"
                  "        return 'r'\n"
                  "    def _set_mode(self, mode):\n"
                  "        if mode not in ('r', 'w'):\n"
                  "            raise KeyError('unknown mode')\n"
                  "    mode = property(_get_mode, _set_mode)\n"
                  "def make_reader(path):\n"
                  "    r = Reader(path)\n"
                  "    return r\n"
                  "@special\n"
                  "def Special(path):\n"
                  "    return Reader(path)\n"}},
                {{"tests/test_reader.py",
                  "import unittest\n"
                  "from pkg.reader import make_reader, Special\n"
                  "class T(unittest.TestCase):\n"
                  "    def test_negative(self):\n"
                  "        r = make_reader('x')\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            r.read(-1)\n"
                  "    def test_mode(self):\n"
                  "        r = make_reader('x')\n"
                  "        with self.assertRaises(KeyError):\n"
                  "            r.mode = 'x'\n"
                  "    def test_special(self):\n"
                  "        s = Special('x')\n"
                  "        with self.assertRaises(KeyError):\n"
                  "            s.mode = 'x'\n"
                  "    def test_attribute(self):\n"
                  "        with self.assertRaises(KeyError):\n"
                  "            make_reader.mode = 'x'\n"}});
  EXPECT_EQ(l.tests_of("negative size"), (std::vector<std::string>{"T.test_negative@6"}));
  EXPECT_EQ(l.tests_of("unknown mode"), (std::vector<std::string>{"T.test_mode@10"}));
}

// Calling an instance runs its class's `__call__` (diffusers' `pipe =
// self.pipeline_class(**components); pipe(**inputs)`), found up its bases;
// a class attribute of the test class gives the instance too, and so does
// a method of it bound to its name again (`pipe = pipe.to(device)`).
// Calling a name bound to a function's result that is no instance of a
// repository class names nothing.
TEST(EvidenceLinks, CallingAnInstanceRunsItsCallMethod) {
  auto l = link({{"pkg/pipelines/base.py",
                  "class Base:\n"
                  "    def to(self, device):\n"
                  "        return self\n"
                  "    def __call__(self, mask=None):\n"
                  "        self.check(mask)\n"},
                 {"pkg/pipelines/pipe.py",
                  "from .base import Base\n"
                  "class Pipe(Base):\n"
                  "    def check(self, mask):\n"
                  "        if mask is None:\n"
                  "            raise ValueError('a mask must be given')\n"
                  "def make_text():\n"
                  "    return 'x'\n"
                  "class Other:\n"
                  "    def __call__(self):\n"
                  "        raise KeyError('other was called')\n"}},
                {{"tests/test_pipe.py",
                  "import unittest\n"
                  "from pkg.pipelines.pipe import Pipe, make_text\n"
                  "class PipeTests(unittest.TestCase):\n"
                  "    pipeline_class = Pipe\n"
                  "    def test_no_mask(self):\n"
                  "        pipe = self.pipeline_class()\n"
                  "        with self.assertRaisesRegex(ValueError, 'mask must be given'):\n"
                  "            pipe()\n"
                  "    def test_no_mask_direct(self):\n"
                  "        pipe = Pipe()\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            pipe(mask=None)\n"
                  "    def test_text(self):\n"
                  "        t = make_text()\n"
                  "        with self.assertRaises(KeyError):\n"
                  "            t()\n"
                  "    def test_moved(self):\n"
                  "        pipe = self.pipeline_class()\n"
                  "        pipe = pipe.to('cpu')\n"
                  "        with self.assertRaisesRegex(ValueError, 'mask must be given'):\n"
                  "            pipe()\n"}});
  EXPECT_EQ(l.tests_of("a mask must be given"),
            (std::vector<std::string>{"PipeTests.test_no_mask@7", "PipeTests.test_no_mask_direct@11",
                                      "PipeTests.test_moved@20"}));
  EXPECT_TRUE(l.tests_of("other was called").empty());
}

// A method guessed by name (`self.queue.put`, the receiver set at run
// time) is linked only in a module the test file is about: its name says
// so with `test_`, `_test`, `_tests` around it and leading underscores
// (Lib/test/_test_multiprocessing.py, string_tests.py), not another's.
TEST(EvidenceLinks, TestFileNamesAroundTheirSubject) {
  const std::string code =
      "class Queue:\n"
      "    def put(self, item):\n"
      "        raise ValueError('queue is closed')\n";
  const std::string test =
      "import unittest\n"
      "class _TestQueue(unittest.TestCase):\n"
      "    def test_put(self):\n"
      "        with self.assertRaises(ValueError):\n"
      "            self.queue.put(1)\n";
  for (const char* path : {"tests/_test_queues.py", "tests/queues_tests.py", "tests/test_queues.py"})
    EXPECT_EQ(link({{"pkg/queues.py", code}}, {{path, test}}).tests_of("queue is closed"),
              (std::vector<std::string>{"_TestQueue.test_put@4"}))
        << path;
  EXPECT_TRUE(link({{"pkg/queues.py", code}}, {{"tests/_test_other.py", test}}).tests_of("queue is closed").empty());
}

TEST(EvidenceLinks, ATestsOwnCallThatCannotReachTheRaiseIsNoLink) {
  auto l = link({{"pkg/hm.py",
                  "class HMAC:\n"
                  "    def __init__(self, key, msg=None, digestmod=''):\n"
                  "        if not digestmod:\n"
                  "            raise TypeError(\"Missing required parameter 'digestmod'.\")\n"
                  "        self.key = key\n"
                  "    @classmethod\n"
                  "    def from_float(cls, f):\n"
                  "        if not isinstance(f, float):\n"
                  "            raise TypeError('argument must be a float')\n"
                  "        return f\n"
                  "    def ratio(self):\n"
                  "        if self.key is None:\n"
                  "            raise OverflowError('cannot convert to a ratio')\n"
                  "        return 1\n"}},
                {{"tests/test_hm.py",
                  "import unittest\n"
                  "from pkg.hm import HMAC\n"
                  "class HmacTest(unittest.TestCase):\n"
                  "    def test_no_digestmod(self):\n"
                  "        with self.assertRaises(TypeError):\n"
                  "            HMAC(b'key')\n"
                  "    def test_str_key(self):\n"
                  "        with self.assertRaises(TypeError):\n"
                  "            HMAC('key', digestmod='sha256')\n"
                  "    def test_from_int(self):\n"
                  "        with self.assertRaises(TypeError):\n"
                  "            HMAC.from_float(1)\n"
                  "    def test_named_parameters(self):\n"
                  "        with self.assertRaises(TypeError):\n"
                  "            HMAC.from_float(1.1, context=None)\n"
                  "    def test_ratio(self):\n"
                  "        self.assertRaises(OverflowError, HMAC.ratio, HMAC(None, digestmod='md5'))\n"}});
  // The literals passed fail `if not digestmod:`: the TypeError is another's.
  EXPECT_EQ(l.tests_of("Missing required"), (std::vector<std::string>{"HmacTest.test_no_digestmod@5"}));
  // `from_float` takes no `context`: Python refuses the call itself.
  EXPECT_EQ(l.tests_of("argument must be a float"), (std::vector<std::string>{"HmacTest.test_from_int@11"}));
  // A method named through its class takes its instance as an argument.
  EXPECT_EQ(l.tests_of("cannot convert"), (std::vector<std::string>{"HmacTest.test_ratio@17"}));
}

TEST(EvidenceLinks, ARegexClassOfOneCharacterIsThatCharacter) {
  auto l = link({{"pkg/send.py",
                  "class Loop:\n"
                  "    def sendfile(self, sock, file):\n"
                  "        if sock is None:\n"
                  "            raise RuntimeError(f'syscall sendfile is not available for socket {sock!r}')\n"
                  "        return self._native(sock, file)\n"
                  "    def _native(self, sock, file):\n"
                  "        if file is None:\n"
                  "            raise RuntimeError('os.sendfile() is not available')\n"
                  "        return 0\n"}},
                {{"tests/test_send.py",
                  "import unittest\n"
                  "from pkg.send import Loop\n"
                  "class SendTest(unittest.TestCase):\n"
                  "    def test_not_available(self):\n"
                  "        with self.assertRaisesRegex(RuntimeError, 'os[.]sendfile[(][)] is not available'):\n"
                  "            Loop().sendfile(1, None)\n"}});
  // The regex's text is "os.sendfile() is not available", not only
  // " is not available", which the other message also holds.
  EXPECT_TRUE(l.tests_of("syscall sendfile").empty());
  EXPECT_EQ(l.tests_of("os.sendfile()"), (std::vector<std::string>{"SendTest.test_not_available@5"}));
}

// A test calling a public function that hands its values on to the
// helper that raises: the test's literals bound to the function's
// parameters, through what it assigns, then to the helper's call
// (`_check(name, len(name) + limit)`) pick one of the helper's sites; a
// lone site the literals are decided to reach needs no other witness;
// followed down a few calls. A helper called in a block of the function
// may not run: nothing picked.
TEST(EvidenceLinks, LiteralsFollowedIntoTheHelperACallHandsThemTo) {
  auto l = link({{"pkg/codec.py",
                  "def _check(name, size):\n"
                  "    if not name:\n"
                  "        raise ValueError('empty name')\n"
                  "    if size > 255:\n"
                  "        raise ValueError('name too long')\n"
                  "def encode(name, limit=0):\n"
                  "    name = name.strip()\n"
                  "    _check(name, len(name) + limit)\n"
                  "    return name.encode()\n"
                  "def _verify(data, size):\n"
                  "    if not data:\n"
                  "        raise ValueError('no data')\n"
                  "    if size > 9:\n"
                  "        raise ValueError('data too long')\n"
                  "def decode(data, strict=True):\n"
                  "    if strict:\n"
                  "        _verify(data, len(data))\n"
                  "    return data\n"
                  "def load(path, mode='r'):\n"
                  "    return _open(path, mode)\n"
                  "def _open(path, mode):\n"
                  "    if mode not in ('r', 'w'):\n"
                  "        raise ValueError('unsupported')\n"
                  "    return path\n"
                  "def dump(obj, fmt='json'):\n"
                  "    return _dump_to(obj, fmt.lower())\n"
                  "def _dump_to(obj, fmt):\n"
                  "    _check_format(fmt)\n"
                  "    return obj\n"
                  "def _check_format(fmt):\n"
                  "    if fmt not in ('json', 'yaml'):\n"
                  "        raise ValueError('unknown format')\n"}},
                {{"tests/test_codec.py",
                  "import unittest\n"
                  "from pkg import codec\n"
                  "class CodecTest(unittest.TestCase):\n"
                  "    def test_encode_blank(self):\n"
                  "        self.assertRaises(ValueError, codec.encode, '   ')\n"
                  "    def test_encode_huge(self):\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            codec.encode('x' * 200, limit=100)\n"
                  "    def test_decode_nothing(self):\n"
                  "        self.assertRaises(ValueError, codec.decode, '')\n"
                  "    def test_load_rejects(self):\n"
                  "        self.assertRaises(ValueError, codec.load, 'p', 'x')\n"
                  "    def test_load_read(self):\n"
                  "        self.assertRaises(ValueError, codec.load, 'p', 'r')\n"
                  "    def test_dump_xml(self):\n"
                  "        self.assertRaises(ValueError, codec.dump, {}, fmt='XML')\n"
                  "    def test_dump_yaml(self):\n"
                  "        self.assertRaises(ValueError, codec.dump, {}, 'YAML')\n"}});
  EXPECT_EQ(l.tests_of("empty name"), (std::vector<std::string>{"CodecTest.test_encode_blank@5"}));
  EXPECT_EQ(l.tests_of("name too long"), (std::vector<std::string>{"CodecTest.test_encode_huge@7"}));
  EXPECT_TRUE(l.tests_of("no data").empty());
  EXPECT_TRUE(l.tests_of("data too long").empty());
  EXPECT_EQ(l.tests_of("unsupported"), (std::vector<std::string>{"CodecTest.test_load_rejects@12"}));
  // Two calls down: `dump` → `_dump_to` → `_check_format`. `'YAML'` passes
  // the check: no link, though the test's name holds a word of its guard.
  EXPECT_EQ(l.tests_of("unknown format"), (std::vector<std::string>{"CodecTest.test_dump_xml@16"}));
}

// What the test does to the instance between making it and its
// expectation: each method it calls run on the instance's state (`close()`
// sets `self.closed = True`, `set_mode('w')` its parameter), each attribute
// it sets taken; a method that calls another on `self`, or an instance
// passed to a call, leaves unknown what they may change.
TEST(EvidenceLinks, TheTestsStepsSetTheInstanceState) {
  auto l = link({{"pkg/conn.py",
                  "class Conn:\n"
                  "    def __init__(self, host):\n"
                  "        self.host = host\n"
                  "        self.closed = False\n"
                  "        self.mode = 'r'\n"
                  "    def close(self):\n"
                  "        self.closed = True\n"
                  "    def reopen(self):\n"
                  "        self._reset()\n"
                  "    def _reset(self):\n"
                  "        self.closed = False\n"
                  "    def set_mode(self, mode):\n"
                  "        self.mode = mode\n"
                  "    def send(self, data):\n"
                  "        if self.closed:\n"
                  "            raise OSError('connection closed')\n"
                  "        if self.mode != 'w':\n"
                  "            raise OSError('not in write mode')\n"
                  "        if not data:\n"
                  "            raise OSError('nothing to send')\n"
                  "        return len(data)\n"}},
                {{"tests/test_conn.py",
                  "import unittest\n"
                  "from pkg.conn import Conn\n"
                  "def use(c):\n"
                  "    pass\n"
                  "class ConnTest(unittest.TestCase):\n"
                  "    def test_send_closed(self):\n"
                  "        c = Conn('h')\n"
                  "        c.close()\n"
                  "        self.assertRaises(OSError, c.send, b'x')\n"
                  "    def test_send_read_only(self):\n"
                  "        c = Conn('h')\n"
                  "        self.assertRaises(OSError, c.send, b'x')\n"
                  "    def test_send_empty(self):\n"
                  "        c = Conn('h')\n"
                  "        c.set_mode('w')\n"
                  "        self.assertRaises(OSError, c.send, b'')\n"
                  "    def test_send_empty_set(self):\n"
                  "        c = Conn('h')\n"
                  "        c.mode = 'w'\n"
                  "        self.assertRaises(OSError, c.send, b'')\n"
                  "    def test_send_reopened(self):\n"
                  "        c = Conn('h')\n"
                  "        c.close()\n"
                  "        c.reopen()\n"
                  "        c.set_mode('w')\n"
                  "        self.assertRaises(OSError, c.send, b'')\n"
                  "    def test_send_passed(self):\n"
                  "        c = Conn('h')\n"
                  "        c.close()\n"
                  "        use(c)\n"
                  "        self.assertRaises(OSError, c.send, b'x')\n"}});
  EXPECT_EQ(l.tests_of("connection closed"), (std::vector<std::string>{"ConnTest.test_send_closed@9"}));
  // `close()` is never called: `closed` is what `__init__` set.
  EXPECT_EQ(l.tests_of("not in write mode"), (std::vector<std::string>{"ConnTest.test_send_read_only@12"}));
  // Not test_send_reopened: `reopen()` runs `_reset()`, which changes `closed`.
  EXPECT_EQ(l.tests_of("nothing to send"),
            (std::vector<std::string>{"ConnTest.test_send_empty@16", "ConnTest.test_send_empty_set@20"}));
}

}  // namespace
}  // namespace errdex::analyze

namespace errdex::analyze {
namespace {

// Lib/random.py's and Lib/pathlib.py's shape: a test reaches several sites
// of its class in one function; its call's literal arguments, bound to the
// parameters, meet one site's guards and fail those above it, so that one
// is linked. Literals that meet none, a guard above the pick the literals
// cannot decide, or a parameter rebound above the guards link nothing.
TEST(EvidenceLinks, LiteralArgumentsPickOneSiteAmongSeveral) {
  auto l = link({{"pkg/rnd.py",
                  "class Random:\n"
                  "    def randrange(self, start, stop=None, step=1):\n"
                  "        if stop is None:\n"
                  "            if start > 0:\n"
                  "                return start\n"
                  "            raise ValueError('empty range for randrange()')\n"
                  "        width = stop - start\n"
                  "        if step == 1:\n"
                  "            return width\n"
                  "        if step == 0:\n"
                  "            raise ValueError('zero step for randrange()')\n"
                  "        raise ValueError('empty range in randrange')\n"
                  "    def name(self, name, mode='r'):\n"
                  "        if not name:\n"
                  "            raise ValueError('no name')\n"
                  "        if mode not in ('r', 'w'):\n"
                  "            raise ValueError('bad mode')\n"
                  "        if len(name) > 255:\n"
                  "            raise ValueError('name too long')\n"
                  "        return name\n"
                  "    def state(self, n):\n"
                  "        if self.closed:\n"
                  "            raise ValueError('closed')\n"
                  "        if n < 0:\n"
                  "            raise ValueError('negative n')\n"
                  "    def rebinds(self, k):\n"
                  "        k = abs(k)\n"
                  "        if k < 0:\n"
                  "            raise ValueError('negative k')\n"
                  "        if k > 9:\n"
                  "            raise ValueError('large k')\n"}},
                {{"tests/test_rnd.py",
                  "import unittest\n"
                  "from pkg.rnd import Random\n"
                  "class RandomTest(unittest.TestCase):\n"
                  "    def test_zero_step(self):\n"
                  "        r = Random()\n"
                  "        self.assertRaises(ValueError, r.randrange, 10, 20, 0)\n"
                  "    def test_empty(self):\n"
                  "        r = Random()\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            r.name('')\n"
                  "    def test_mode(self):\n"
                  "        r = Random()\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            r.name('abc', mode='x')\n"
                  "    def test_long(self):\n"
                  "        r = Random()\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            r.name('x' * 300)\n"
                  "    def test_nothing_met(self):\n"
                  "        r = Random()\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            r.name('abc')\n"
                  "    def test_state(self):\n"
                  "        r = Random()\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            r.state(-1)\n"
                  "    def test_rebound(self):\n"
                  "        r = Random()\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            r.rebinds(-1)\n"}});
  EXPECT_EQ(l.tests_of("zero step"), (std::vector<std::string>{"RandomTest.test_zero_step@6"}));
  EXPECT_TRUE(l.tests_of("empty range").empty());
  EXPECT_EQ(l.tests_of("no name"), (std::vector<std::string>{"RandomTest.test_empty@9"}));
  EXPECT_EQ(l.tests_of("bad mode"), (std::vector<std::string>{"RandomTest.test_mode@13"}));
  EXPECT_EQ(l.tests_of("name too long"), (std::vector<std::string>{"RandomTest.test_long@17"}));
  // `self.closed` above `n < 0` is unknown: no pick.
  EXPECT_TRUE(l.tests_of("negative n").empty());
  EXPECT_TRUE(l.tests_of("closed").empty());
  // `k = abs(k)` rebinds the parameter above both guards: 1 meets neither.
  EXPECT_TRUE(l.tests_of("negative k").empty());
  EXPECT_TRUE(l.tests_of("large k").empty());
}

// The guards read what the function computes from its parameters above
// them (`n = len(name)`, `step = operator.index(step)`), the module's
// constants (`kind == SINK`, `kind not in KINDS`), and follow a test that
// calls the function twice. A rebind the evaluator cannot follow (in a
// loop around the site, `x.append(...)`) leaves the name unknown; a loop
// that starts below the site does not.
TEST(EvidenceLinks, LocalsConstantsAndSeveralCallsPickOneSite) {
  auto l = link({{"pkg/steps.py",
                  "import operator\n"
                  "SINK = '--'\n"
                  "KINDS = ('ff', 'f-', SINK)\n"
                  "def add(cmd, kind):\n"
                  "    if kind not in KINDS:\n"
                  "        raise ValueError('bad kind')\n"
                  "    if kind == SINK:\n"
                  "        raise ValueError('sink first')\n"
                  "    if not cmd.strip():\n"
                  "        raise ValueError('empty command')\n"
                  "def name(name, step=1):\n"
                  "    n = len(name)\n"
                  "    step = operator.index(step)\n"
                  "    if n > 8:\n"
                  "        raise ValueError('name too long')\n"
                  "    if step <= 0:\n"
                  "        raise ValueError('step not positive')\n"
                  "    for i in range(step):\n"
                  "        name = name + '!'\n"
                  "    return name\n"
                  "def mode(mode=None, items=()):\n"
                  "    if mode is None:\n"
                  "        mode = 'r'\n"
                  "    if mode not in ('r', 'w'):\n"
                  "        raise ValueError('bad mode')\n"
                  "    if len(items) > 2:\n"
                  "        raise ValueError('too many items')\n"
                  "def grow(items):\n"
                  "    while True:\n"
                  "        if len(items) > 2:\n"
                  "            raise ValueError('grown too far')\n"
                  "        if not items:\n"
                  "            raise ValueError('nothing to grow')\n"
                  "        items = items + [1]\n"}},
                {{"tests/test_steps.py",
                  "import unittest\n"
                  "from pkg import steps\n"
                  "class StepsTest(unittest.TestCase):\n"
                  "    def test_kind(self):\n"
                  "        self.assertRaises(ValueError, steps.add, 'ls', 'xx')\n"
                  "    def test_sink(self):\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            steps.add('ls', '--')\n"
                  "    def test_empty(self):\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            steps.add('ls', 'ff')\n"
                  "            steps.add('  ', 'ff')\n"
                  "    def test_long(self):\n"
                  "        self.assertRaises(ValueError, steps.name, 'x' * 9)\n"
                  "    def test_step(self):\n"
                  "        self.assertRaises(ValueError, steps.name, 'x', step=0)\n"
                  "    def test_mode(self):\n"
                  "        self.assertRaises(ValueError, steps.mode, 'x')\n"
                  "    def test_items(self):\n"
                  "        self.assertRaises(ValueError, steps.mode, 'r', (1, 2, 3))\n"
                  "    def test_grow(self):\n"
                  "        self.assertRaises(ValueError, steps.grow, [])\n"}});
  EXPECT_EQ(l.tests_of("bad kind"), (std::vector<std::string>{"StepsTest.test_kind@5"}));
  EXPECT_EQ(l.tests_of("sink first"), (std::vector<std::string>{"StepsTest.test_sink@7"}));
  // The first call meets no guard; the second is the one that raises.
  EXPECT_EQ(l.tests_of("empty command"), (std::vector<std::string>{"StepsTest.test_empty@10"}));
  EXPECT_EQ(l.tests_of("name too long"), (std::vector<std::string>{"StepsTest.test_long@14"}));
  EXPECT_EQ(l.tests_of("step not positive"), (std::vector<std::string>{"StepsTest.test_step@16"}));
  // `mode = 'r'` in the block of `if mode is None:`, which the test's
  // mode decides (AnIfsBlockRunsOrNotAsTheTestsValuesDecideItsCondition):
  // 'x' fails the mode check, 'r' passes it to the items check.
  EXPECT_EQ(l.tests_of("bad mode"), (std::vector<std::string>{"StepsTest.test_mode@18"}));
  EXPECT_EQ(l.tests_of("too many items"), (std::vector<std::string>{"StepsTest.test_items@20"}));
  // `items = items + [1]` further down the loop around both sites.
  EXPECT_TRUE(l.tests_of("grown too far").empty());
  EXPECT_TRUE(l.tests_of("nothing to grow").empty());
}

// Each module's constants are its own, though two modules name one alike
// and the tests of both are linked in one pass (the constants are read
// once per file and kept for the pass).
TEST(EvidenceLinks, EachModulesConstantsAreItsOwn) {
  auto module = [](const std::string& name, const std::string& sink) {
    return "SINK = '" + sink + "'\n"
           "def add(kind):\n"
           "    if kind == SINK:\n"
           "        raise ValueError('" + name + " sink')\n"
           "    if kind == 'x':\n"
           "        raise ValueError('" + name + " x')\n";
  };
  auto test = [](const std::string& name, const std::string& kind) {
    return "import unittest\n"
           "from pkg import " + name + "\n"
           "class AddTest(unittest.TestCase):\n"
           "    def test_add(self):\n"
           "        self.assertRaises(ValueError, " + name + ".add, '" + kind + "')\n";
  };
  auto l = link({{"pkg/alpha.py", module("alpha", "--")}, {"pkg/beta.py", module("beta", "++")}},
                {{"tests/test_alpha.py", test("alpha", "--")}, {"tests/test_beta.py", test("beta", "++")}});
  EXPECT_EQ(l.tests_of("alpha sink"), (std::vector<std::string>{"AddTest.test_add@5"}));
  EXPECT_TRUE(l.tests_of("alpha x").empty());
  EXPECT_EQ(l.tests_of("beta sink"), (std::vector<std::string>{"AddTest.test_add@5"}));
  EXPECT_TRUE(l.tests_of("beta x").empty());
}

// A method's guards on `self.x` decided from what the class's `__init__`
// set it to, run on the test's constructor call (`b = Buffer(3, 'r')`
// earlier in the test, or `Buffer(2, mode='w').read()` in its code).
// Unknown when another method changes it (`close()` sets `closed`, `push`
// appends to `items`), when the test sets it itself (`b.size = 10`), or
// when `__init__` calls a base's.
TEST(EvidenceLinks, InstanceStateFromTheConstructorPicksOneSite) {
  auto l = link({{"pkg/buffers.py",
                  "class Buffer:\n"
                  "    def __init__(self, size, mode='r'):\n"
                  "        self.size = size\n"
                  "        self.mode = mode\n"
                  "        self.items = []\n"
                  "    def push(self, item):\n"
                  "        if self.mode != 'w':\n"
                  "            raise ValueError('not writable')\n"
                  "        if len(self.items) >= self.size:\n"
                  "            raise ValueError('buffer full')\n"
                  "        self.items.append(item)\n"
                  "    def peek(self, n):\n"
                  "        if n > self.size:\n"
                  "            raise ValueError('beyond the end')\n"
                  "        if n < 0:\n"
                  "            raise ValueError('negative offset')\n"
                  "    def read(self):\n"
                  "        if self.mode == 'w':\n"
                  "            raise ValueError('write-only')\n"
                  "        if self.size == 0:\n"
                  "            raise ValueError('empty buffer')\n"
                  "class Conn:\n"
                  "    def __init__(self, host):\n"
                  "        self.host = host\n"
                  "        self.closed = False\n"
                  "    def close(self):\n"
                  "        self.closed = True\n"
                  "    def send(self, data):\n"
                  "        if self.closed:\n"
                  "            raise OSError('connection closed')\n"
                  "        if not data:\n"
                  "            raise OSError('nothing to send')\n"
                  "class Base:\n"
                  "    pass\n"
                  "class Sized(Base):\n"
                  "    def __init__(self, limit):\n"
                  "        super().__init__()\n"
                  "        self.limit = limit\n"
                  "    def take(self, n):\n"
                  "        if n > self.limit:\n"
                  "            raise ValueError('over the limit')\n"
                  "        if n < self.floor:\n"
                  "            raise ValueError('under the floor')\n"}},
                {{"tests/test_buffers.py",
                  "import unittest\n"
                  "from pkg.buffers import Buffer, Conn, Sized\n"
                  "class BufferTest(unittest.TestCase):\n"
                  "    def test_push_read_only(self):\n"
                  "        b = Buffer(3, 'r')\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            b.push(1)\n"
                  "    def test_read_empty(self):\n"
                  "        b = Buffer(0)\n"
                  "        self.assertRaises(ValueError, b.read)\n"
                  "    def test_read_write_only(self):\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            Buffer(2, mode='w').read()\n"
                  "    def test_peek_past(self):\n"
                  "        b = Buffer(2)\n"
                  "        self.assertRaises(ValueError, b.peek, 5)\n"
                  "    def test_peek_resized(self):\n"
                  "        b = Buffer(2)\n"
                  "        b.size = 10\n"
                  "        self.assertRaises(ValueError, b.peek, 5)\n"
                  "    def test_send_closed(self):\n"
                  "        c = Conn('h')\n"
                  "        c.close()\n"
                  "        with self.assertRaises(OSError):\n"
                  "            c.send(b'x')\n"
                  "    def test_take(self):\n"
                  "        s = Sized(3)\n"
                  "        self.assertRaises(ValueError, s.take, 5)\n"}});
  EXPECT_EQ(l.tests_of("not writable"), (std::vector<std::string>{"BufferTest.test_push_read_only@6"}));
  EXPECT_TRUE(l.tests_of("buffer full").empty());
  EXPECT_EQ(l.tests_of("empty buffer"), (std::vector<std::string>{"BufferTest.test_read_empty@10"}));
  EXPECT_EQ(l.tests_of("write-only"), (std::vector<std::string>{"BufferTest.test_read_write_only@12"}));
  // `b.size = 10` in the test: what Buffer(2) set is no longer known.
  EXPECT_EQ(l.tests_of("beyond the end"), (std::vector<std::string>{"BufferTest.test_peek_past@16"}));
  EXPECT_TRUE(l.tests_of("negative offset").empty());
  // `close()` before `send` sets `closed` (TheTestsStepsSetTheInstanceState).
  EXPECT_EQ(l.tests_of("connection closed"), (std::vector<std::string>{"BufferTest.test_send_closed@24"}));
  EXPECT_TRUE(l.tests_of("nothing to send").empty());
  // A base's `__init__` may set `limit` too.
  EXPECT_TRUE(l.tests_of("over the limit").empty());
}

// Lib/copyreg.py's shape: `pickle` raises TypeError for a reduction
// function that cannot be called, then hands `constructor_ob` to
// `constructor`, which raises it for a constructor. A test passing a
// callable reduction function and "not a callable" as the constructor
// names "callable", which both messages hold: the word does not say which
// raise the test meets, and the nearer one is not linked. A word only one
// message holds ("reduction") still witnesses it.
TEST(EvidenceLinks, AWitnessWordTheDeeperSitesHoldTooSaysNothing) {
  auto l = link({{"pkg/reg.py",
                  "def pickle(ob_type, pickle_function, constructor_ob=None):\n"
                  "    if not callable(pickle_function):\n"
                  "        raise TypeError('reduction functions must be callable')\n"
                  "    if constructor_ob is not None:\n"
                  "        constructor(constructor_ob)\n"
                  "def constructor(obj):\n"
                  "    if not callable(obj):\n"
                  "        raise TypeError('constructors must be callable')\n"}},
                {{"tests/test_reg.py",
                  "import unittest\n"
                  "from pkg import reg\n"
                  "class RegTest(unittest.TestCase):\n"
                  "    def test_noncallable_constructor(self):\n"
                  "        self.assertRaises(TypeError, reg.pickle, type(1), int, 'not a callable')\n"
                  "    def test_bad_reduction(self):\n"
                  "        self.assertRaises(TypeError, reg.pickle, type(1), self.reduction)\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_EQ(l.tests_of("reduction functions must be callable"),
            (std::vector<std::string>{"RegTest.test_bad_reduction@7"}));
}

// Lib/email/headerregistry.py's shape: `Address.__init__` raises
// ValueError when the parser leaves text over, then raises the parser's
// first defect, an object whose class is not known. A test without a
// regex may meet either: the ValueError is not linked. A test whose
// literals reach a raise above it (`username` and `addr_spec` both given)
// meets that one first: linked.
TEST(EvidenceLinks, ARaiseOfUnknownClassInTheFunctionMakesAGuess) {
  auto l = link({{"pkg/address.py",
                  "def parse(text):\n"
                  "    return text, '', []\n"
                  "class Address:\n"
                  "    def __init__(self, username=None, addr_spec=None):\n"
                  "        if addr_spec is not None:\n"
                  "            if username:\n"
                  "                raise TypeError('addr_spec given with a username')\n"
                  "            a_s, rest, defects = parse(addr_spec)\n"
                  "            if rest:\n"
                  "                raise ValueError('only part of the address could be parsed')\n"
                  "            if defects:\n"
                  "                raise defects[0]\n"}},
                {{"tests/test_address.py",
                  "import unittest\n"
                  "from pkg.address import Address\n"
                  "class AddressTest(unittest.TestCase):\n"
                  "    def test_space_in_address(self):\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            Address(addr_spec='bad name@example.com')\n"
                  "    def test_both_given(self):\n"
                  "        with self.assertRaises(TypeError):\n"
                  "            Address('foo', addr_spec='foo@example.com')\n"}});
  EXPECT_TRUE(l.tests_of("only part of the address could be parsed").empty());
  EXPECT_EQ(l.tests_of("addr_spec given with a username"), (std::vector<std::string>{"AddressTest.test_both_given@8"}));
}

// Lib/gzip.py's shape: `GzipFile.write` first calls
// `self._check_not_closed()`, which its base class in another file
// (`_compression.BaseStream`) defines and which raises ValueError on a
// closed file, then raises its own ValueError. A test without a regex may
// meet the helper's: a guess. `read` calls no helper: linked.
TEST(EvidenceLinks, AHelperOfABaseClassInAnotherFileRaisesFirst) {
  auto l = link({{"pkg/_stream.py",
                  "class BaseStream:\n"
                  "    def _check_not_closed(self):\n"
                  "        if self.closed:\n"
                  "            raise ValueError('I/O operation on closed file')\n"},
                 {"pkg/zfile.py",
                  "from pkg._stream import BaseStream\n"
                  "class ZFile(BaseStream):\n"
                  "    def __init__(self):\n"
                  "        self.fileobj = None\n"
                  "        self.closed = False\n"
                  "    def write(self, data):\n"
                  "        self._check_not_closed()\n"
                  "        if self.fileobj is None:\n"
                  "            raise ValueError('write() on closed ZFile object')\n"
                  "    def read(self):\n"
                  "        if self.fileobj is None:\n"
                  "            raise ValueError('read() on closed ZFile object')\n"}},
                {{"tests/test_zfile.py",
                  "import unittest\n"
                  "from pkg.zfile import ZFile\n"
                  "class ZFileTest(unittest.TestCase):\n"
                  "    def test_write_closed(self):\n"
                  "        f = ZFile()\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            f.write(b'')\n"
                  "    def test_read_closed(self):\n"
                  "        f = ZFile()\n"
                  "        with self.assertRaises(ValueError):\n"
                  "            f.read()\n"}});
  ASSERT_EQ(l.records.size(), 3u);
  EXPECT_TRUE(l.tests_of("write() on closed ZFile object").empty());
  EXPECT_EQ(l.tests_of("read() on closed ZFile object"), (std::vector<std::string>{"ZFileTest.test_read_closed@10"}));
}

// A function with two sites of one class, told apart by its argument.
constexpr const char* k_parse_py =
    "def parse(text):\n"
    "    if not text:\n"
    "        raise ValueError('empty text')\n"
    "    if len(text) > 10:\n"
    "        raise ValueError('text too long')\n"
    "    return text\n";

// Lib/distutils' shape: the test binds its argument to a local first
// (`exts = 'foo'`, then `assertRaises(E, cmd.check, exts)`). The local's
// literal is what the call passes, and picks the site its guards lead to;
// a local the test binds again in a nested block holds no one value.
TEST(EvidenceLinks, ATestsLocalBoundToALiteralIsReadAsItsValue) {
  auto l = link({{"pkg/parse.py", k_parse_py}},
                {{"tests/test_parse.py",
                  "import unittest\n"
                  "from pkg.parse import parse\n"
                  "class ParseTest(unittest.TestCase):\n"
                  "    def test_long(self):\n"
                  "        text = 'x' * 20  # longer than allowed\n"
                  "        self.assertRaises(ValueError, parse, text)\n"
                  "    def test_maybe_empty(self):\n"
                  "        text = 'x' * 20\n"
                  "        if self.flag:\n"
                  "            text = ''\n"
                  "        self.assertRaises(ValueError, parse, text)\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_EQ(l.tests_of("text too long"), (std::vector<std::string>{"ParseTest.test_long@6"}));
  EXPECT_TRUE(l.tests_of("empty text").empty());
}

// The test module's constant as an argument (Lib/test/test_asyncio/
// test_waitfor.py's `_EPSILON = 0.01`, then `wait_for(t, timeout=_EPSILON)`):
// read as its value, it picks a site, or says the call misses one.
TEST(EvidenceLinks, ATestModulesConstantIsReadAsItsValue) {
  auto l = link({{"pkg/parse.py", std::string(k_parse_py) +
                  "def wait(task, timeout):\n"
                  "    if timeout <= 0:\n"
                  "        raise TimeoutError('no time left')\n"
                  "    return task\n"}},
                {{"tests/test_parse.py",
                  "import unittest\n"
                  "from pkg.parse import parse, wait\n"
                  "TOO_LONG = 'x' * 20\n"
                  "EPSILON = 0.01\n"
                  "class ParseTest(unittest.TestCase):\n"
                  "    def test_long(self):\n"
                  "        self.assertRaises(ValueError, parse, TOO_LONG)\n"
                  "    def test_wait(self):\n"
                  "        with self.assertRaises(TimeoutError):\n"
                  "            wait(self.slow, timeout=EPSILON)\n"}});
  ASSERT_EQ(l.records.size(), 3u);
  EXPECT_EQ(l.tests_of("text too long"), (std::vector<std::string>{"ParseTest.test_long@7"}));
  EXPECT_TRUE(l.tests_of("empty text").empty());
  // 0.01 fails `timeout <= 0`: the TimeoutError comes from elsewhere.
  EXPECT_TRUE(l.tests_of("no time left").empty());
}

// A loop over written-out items around the expectation (`for bad in (...):
// with self.subTest(...): assertRaises(...)`): its first round runs the
// call with the first item. Not when an `if` in the loop may skip it.
TEST(EvidenceLinks, ALoopsFirstItemIsReadAsTheLoopVariablesValue) {
  auto l = link({{"pkg/parse.py", k_parse_py}},
                {{"tests/test_parse.py",
                  "import unittest\n"
                  "from pkg.parse import parse\n"
                  "class ParseTest(unittest.TestCase):\n"
                  "    def test_long(self):\n"
                  "        for text in ('x' * 20, 'y' * 30):\n"
                  "            with self.subTest(text=text):\n"
                  "                self.assertRaises(ValueError, parse, text)\n"
                  "    def test_maybe_empty(self):\n"
                  "        for text in ('x' * 20, ''):\n"
                  "            if not text:\n"
                  "                self.assertRaises(ValueError, parse, text)\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_EQ(l.tests_of("text too long"), (std::vector<std::string>{"ParseTest.test_long@7"}));
  EXPECT_TRUE(l.tests_of("empty text").empty());
}

// Lib/ipaddress.py's and Lib/subprocess.py's shape: a default filled in
// the block of an `if` (`if mode is None: mode = 'r'`). The test's values
// decide the `if`: its block runs (`mode` is 'r' below it) or not (`mode`
// keeps the test's value), and the site below is decided on that.
TEST(EvidenceLinks, AnIfsBlockRunsOrNotAsTheTestsValuesDecideItsCondition) {
  auto l = link({{"pkg/files.py",
                  "def open_file(name, mode=None):\n"
                  "    if mode is None:\n"
                  "        mode = 'r'\n"
                  "    if mode not in ('r', 'w'):\n"
                  "        raise ValueError('invalid mode')\n"
                  "    if not name:\n"
                  "        raise ValueError('empty name')\n"
                  "    return name\n"}},
                {{"tests/test_files.py",
                  "import unittest\n"
                  "from pkg.files import open_file\n"
                  "class FilesTest(unittest.TestCase):\n"
                  "    def test_bad_mode(self):\n"
                  "        self.assertRaises(ValueError, open_file, 'x', 'q')\n"
                  "    def test_empty_name(self):\n"
                  "        self.assertRaises(ValueError, open_file, '')\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_EQ(l.tests_of("invalid mode"), (std::vector<std::string>{"FilesTest.test_bad_mode@5"}));
  EXPECT_EQ(l.tests_of("empty name"), (std::vector<std::string>{"FilesTest.test_empty_name@7"}));
}

// Lib/asyncio/base_events.py's shape: the test makes the coroutine first
// (`coro = loop.create_connection(..., server_hostname='x')`) and runs it
// in its expectation. A coroutine function's body runs when awaited, with
// the arguments of the call that made it: they pick the site.
TEST(EvidenceLinks, ACoroutineMadeBeforeTheExpectationIsReadWithItsArguments) {
  auto l = link({{"pkg/loop.py",
                  "class Loop:\n"
                  "    async def create_connection(self, factory, host=None, port=None, *, ssl=None,\n"
                  "                                server_hostname=None):\n"
                  "        if server_hostname is not None and not ssl:\n"
                  "            raise ValueError('server_hostname is only meaningful with ssl')\n"
                  "        if server_hostname is None and ssl:\n"
                  "            raise ValueError('you must set server_hostname when using ssl without a host')\n"
                  "        return factory\n"
                  "    def run_until_complete(self, fut):\n"
                  "        return fut\n"}},
                {{"tests/test_loop.py",
                  "import unittest\n"
                  "from pkg.loop import Loop\n"
                  "class LoopTest(unittest.TestCase):\n"
                  "    def test_no_ssl_server_hostname(self):\n"
                  "        loop = Loop()\n"
                  "        coro = loop.create_connection(object, 'python.org', 80,\n"
                  "                                      server_hostname='python.org')\n"
                  "        self.assertRaises(ValueError, loop.run_until_complete, coro)\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_EQ(l.tests_of("server_hostname is only meaningful"),
            (std::vector<std::string>{"LoopTest.test_no_ssl_server_hostname@8"}));
  EXPECT_TRUE(l.tests_of("you must set").empty());
}

// Lib/_pydecimal.py's shape: the sites are in `__new__`, which a test
// calls by the class's name (`Decimal((1, 0))`) as it calls `__init__`:
// the call's literals pick the site.
TEST(EvidenceLinks, ASiteInNewIsPickedByTheConstructorCallsLiterals) {
  auto l = link({{"pkg/dec.py",
                  "class Dec:\n"
                  "    def __new__(cls, value='0'):\n"
                  "        if isinstance(value, (list, tuple)):\n"
                  "            if len(value) != 3:\n"
                  "                raise ValueError('Invalid tuple size in creation of Dec')\n"
                  "            if not (isinstance(value[0], int) and value[0] in (0, 1)):\n"
                  "                raise ValueError('Invalid sign in the tuple')\n"
                  "        return object.__new__(cls)\n"}},
                {{"tests/test_dec.py",
                  "import unittest\n"
                  "from pkg.dec import Dec\n"
                  "class DecTest(unittest.TestCase):\n"
                  "    def test_tuple_size(self):\n"
                  "        self.assertRaises(ValueError, Dec, (1, 0))\n"
                  "    def test_tuple_sign(self):\n"
                  "        self.assertRaises(ValueError, Dec, (2, (1,), 0))\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_EQ(l.tests_of("Invalid tuple size"), (std::vector<std::string>{"DecTest.test_tuple_size@5"}));
  EXPECT_EQ(l.tests_of("Invalid sign"), (std::vector<std::string>{"DecTest.test_tuple_sign@7"}));
}

// Lib/bz2.py's shape: `BZ2File(f, 'rx')` is decided not to reach the
// compresslevel check, and the mode check cannot be read (its branches
// rebind `mode`). With every other site of the function ruled out, the one
// left is linked as a lone site would be. A call that reaches neither
// rules out nothing; one whose literals reach the first picks it.
TEST(EvidenceLinks, TheOneSiteTheCallsLiteralsDoNotRuleOutIsLeft) {
  auto l = link({{"pkg/arch.py",
                  "class Archive:\n"
                  "    def __init__(self, filename, mode='r', compresslevel=9):\n"
                  "        if not (1 <= compresslevel <= 9):\n"
                  "            raise ValueError('compresslevel must be between 1 and 9')\n"
                  "        if mode in ('', 'r', 'rb'):\n"
                  "            mode = 'rb'\n"
                  "        elif mode in ('w', 'wb'):\n"
                  "            mode = 'wb'\n"
                  "        else:\n"
                  "            raise ValueError('Invalid mode: %r' % (mode,))\n"
                  "        self.mode = mode\n"}},
                {{"tests/test_arch.py",
                  "import unittest\n"
                  "from pkg.arch import Archive\n"
                  "class ArchiveTest(unittest.TestCase):\n"
                  "    def test_bad_args(self):\n"
                  "        self.assertRaises(ValueError, Archive, 'f', 'rx')\n"
                  "    def test_level(self):\n"
                  "        self.assertRaises(ValueError, Archive, 'f', 'w', 0)\n"
                  "    def test_unknown(self):\n"
                  "        self.assertRaises(ValueError, Archive, 'f', 'r', level)\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_EQ(l.tests_of("Invalid mode"), (std::vector<std::string>{"ArchiveTest.test_bad_args@5"}));
  EXPECT_EQ(l.tests_of("compresslevel must be"), (std::vector<std::string>{"ArchiveTest.test_level@7"}));
}

// JavaScript: Jest's, Chai's and Node's expectations, linked by the
// functions their calls name and the message they give; without a call
// graph, a message one statement throws is linked wherever the test
// reaches it from, and without a message only plain calls of a function.
TEST(EvidenceLinks, JavaScriptTestsLinkByTheFunctionTheyCallAndTheirMessage) {
  auto l = link({{"src/parse.js",
                  "function parse(text) {\n"
                  "  if (text === '') throw new SyntaxError('Unexpected end of input');\n"
                  "  if (text[0] === '}') throw new SyntaxError(`Unexpected token ${text[0]}`);\n"
                  "  return text;\n"
                  "}\n"
                  "function run(text) { return parse(text.trim()); }\n"
                  "function check(n) {\n"
                  "  if (n < 0) throw new RangeError('Expected a positive number of retries');\n"
                  "}\n"
                  "class Store {\n"
                  "  get(key) { if (!key) throw new TypeError('A key is required for this store'); }\n"
                  "}\n"
                  "module.exports = { parse, run, check, Store };\n"},
                 {"src/other.js",
                  "function load(x) { if (!x) throw new Error('Nothing to load from here'); }\n"
                  "function save(x) { if (!x) throw new Error('Nothing to load from here'); }\n"}},
                {{"test/parse.test.js",
                  "const { parse, run, check, Store } = require('../src/parse');\n"
                  "describe('parse', () => {\n"
                  "  it('rejects an empty text', () => {\n"
                  "    expect(() => parse('')).toThrow('Unexpected end of input');\n"
                  "  });\n"
                  "  it('rejects a brace', () => {\n"
                  "    expect(() => run('}')).toThrow(/Unexpected token \\}/);\n"
                  "  });\n"
                  "  it('parses text', () => {\n"
                  "    expect(() => parse('x')).not.toThrow('Unexpected end of input');\n"
                  "  });\n"
                  "});\n"
                  "test('retries', () => {\n"
                  "  expect(() => check(-1)).to.throw(RangeError);\n"
                  "});\n"
                  "test('a key', () => {\n"
                  "  const s = new Store();\n"
                  "  expect(() => s.get()).toThrow(TypeError);\n"
                  "});\n"
                  "test('nothing', () => {\n"
                  "  assert.throws(() => load(0), /Nothing to load/);\n"
                  "  assert.throws(() => store(0), /Nothing to load/);\n"
                  "});\n"
                  "expect(() => check(-2)).toThrow();\n"}});
  EXPECT_EQ(l.tests_of("Unexpected end of input"), (std::vector<std::string>{"parse › rejects an empty text@4"}));
  // The trigger names the test as Jest does, and what it runs.
  for (const auto& r : l.records)
    if (r.error_message == "Unexpected end of input")
      EXPECT_TRUE(r.trigger_scenarios.starts_with(
          "The test \"parse › rejects an empty text\" (test/parse.test.js) throws it on purpose: `parse('')`."))
          << r.trigger_scenarios;
  // `run` has no site: the message names the one statement.
  EXPECT_EQ(l.tests_of("Unexpected token"), (std::vector<std::string>{"parse › rejects a brace@7"}));
  EXPECT_EQ(l.tests_of("Expected a positive"), (std::vector<std::string>{"retries@14"}));
  // A method without a message: not by its name (any class may have a
  // `get`), but through the call graph, `s` being bound to `new Store()`.
  EXPECT_EQ(l.tests_of("A key is required"), (std::vector<std::string>{"a key@18"}));
  // The function named throws it; a call of a function with no site, where
  // two functions throw the message, links neither.
  std::vector<std::string> loads;
  for (const auto& r : l.records)
    if (r.error_message.starts_with("Nothing to load"))
      for (const auto& t : r.evidence.tests) loads.push_back(r.file_path + ":" + std::to_string(r.line_number) + "@" + std::to_string(t.line_number));
  EXPECT_EQ(loads, (std::vector<std::string>{"src/other.js:1@21"}));
  std::size_t expectations = 0;
  for (const auto& f : l.facts) expectations += f.expectations.size();
  // `.not`, and an expectation outside any test, are not read.
  EXPECT_EQ(expectations, 6u);
}

// JavaScript through the call graph: a test's call of an imported function
// (ESM `import`, TypeScript's `.js` for `.ts`) reaches the throw in a
// helper it calls, which no name of the test names. (A link by name, here
// by the message one statement throws, comes first.)
TEST(EvidenceLinks, AJavaScriptTestReachesAThrowThroughAnImportedFunction) {
  auto l = link({{"src/parser.ts",
                  "function readToken(text: string) {\n"
                  "  if (text.startsWith('#')) throw new SyntaxError(`Unexpected character: ${text[0]}`);\n"
                  "  return text;\n"
                  "}\n"
                  "export function parse(text: string) {\n"
                  "  return readToken(text.trim());\n"
                  "}\n"}},
                {{"test/parser.test.ts",
                  "import { parse } from '../src/parser.js';\n"
                  "describe('parse', () => {\n"
                  "  it('rejects a hash', () => {\n"
                  "    expect(() => parse('#x')).toThrow(SyntaxError);\n"
                  "  });\n"
                  "  it('rejects a hash, said so', () => {\n"
                  "    expect(() => parse('#y')).toThrow(/Unexpected character/);\n"
                  "  });\n"
                  "});\n"}});
  ASSERT_EQ(l.records.size(), 1u);
  EXPECT_EQ(l.tests_of("Unexpected character"),
            (std::vector<std::string>{"parse › rejects a hash, said so@7", "parse › rejects a hash@4"}));
}

// A method called on a local the test bound to `new Cls(…)` (required with
// destructuring): Cls's method, and what it calls on `this`. A local of
// another class's instance, or one bound twice, types nothing.
TEST(EvidenceLinks, AJavaScriptTestReachesAThrowThroughAMethodOfItsNewInstance) {
  auto l = link({{"lib/lexer.js",
                  "class Lexer {\n"
                  "  constructor(source) { this.source = source; }\n"
                  "  advance() { return this.readNext(); }\n"
                  "  readNext() {\n"
                  "    if (!this.source) throw new RangeError('Reached the end of the source');\n"
                  "  }\n"
                  "}\n"
                  "class Printer {\n"
                  "  advance() { return 1; }\n"
                  "}\n"
                  "module.exports = { Lexer, Printer };\n"}},
                {{"test/lexer.test.js",
                  "const { Lexer, Printer } = require('../lib/lexer');\n"
                  "it('stops at the end', () => {\n"
                  "  const lexer = new Lexer('');\n"
                  "  expect(() => lexer.advance()).toThrow(RangeError);\n"
                  "});\n"
                  "it('prints', () => {\n"
                  "  const lexer = new Printer();\n"
                  "  expect(() => lexer.advance()).toThrow(RangeError);\n"
                  "});\n"
                  "it('is bound twice', () => {\n"
                  "  let lexer = new Printer();\n"
                  "  if (x) lexer = new Lexer('');\n"
                  "  expect(() => lexer.advance()).toThrow(RangeError);\n"
                  "});\n"}});
  ASSERT_EQ(l.records.size(), 1u);
  EXPECT_EQ(l.tests_of("Reached the end"), (std::vector<std::string>{"stops at the end@4"}));
}

// What the graph reaches must agree with the test: a message that no site
// reached throws links none, one that a site reached throws picks it among
// several; without a message, two sites reached of the class expected are
// two guesses, and a throw of unknown class reached may be the one met.
TEST(EvidenceLinks, AJavaScriptTestReachingSeveralThrowsNeedsItsMessage) {
  auto l = link({{"src/validate.js",
                  "function checkName(v) {\n"
                  "  if (typeof v.name !== 'string') throw new TypeError('The name must be a string');\n"
                  "}\n"
                  "function checkAge(v) {\n"
                  "  if (typeof v.age !== 'number') throw new TypeError('The age must be a number');\n"
                  "}\n"
                  "function checkAll(v) {\n"
                  "  checkName(v);\n"
                  "  checkAge(v);\n"
                  "}\n"
                  "function rethrow(v) {\n"
                  "  try { return JSON.parse(v); } catch (err) { throw err; }\n"
                  "}\n"
                  "function checkRaw(v) {\n"
                  "  rethrow(v);\n"
                  "  if (v === '') throw new TypeError('The raw text is empty here');\n"
                  "}\n"
                  "function checkOne(v) { checkName(v); }\n"
                  "exports.checkAll = checkAll;\n"
                  "exports.checkOne = checkOne;\n"
                  "exports.checkRaw = checkRaw;\n"}},
                {{"test/validate.test.js",
                  "const validate = require('../src/validate');\n"
                  "test('two checks', () => {\n"
                  "  expect(() => validate.checkAll({})).toThrow(TypeError);\n"
                  "});\n"
                  "test('the age', () => {\n"
                  "  expect(() => validate.checkAll({name: 'x'})).toThrow(/age/);\n"
                  "});\n"
                  "test('another message', () => {\n"
                  "  expect(() => validate.checkOne({})).toThrow('must be positive');\n"
                  "});\n"
                  "test('raw', () => {\n"
                  "  expect(() => validate.checkRaw('')).toThrow(TypeError);\n"
                  "});\n"}});
  EXPECT_TRUE(l.tests_of("The name must be").empty());
  EXPECT_EQ(l.tests_of("The age must be"), (std::vector<std::string>{"the age@6"}));
  EXPECT_TRUE(l.tests_of("The raw text").empty());
}

// graphql-js's shapes: through the graph a message must fit a site
// closely (not with an interpolation standing for most of the test's
// words: `"bad-name"` is not the `{name}` of `Names must start with …`),
// and fit no site the walk did not reach: GraphQLID's `serialize`, made
// from a config object, is not reached from `toAst`, which the message
// fits as well as the enum's that is reached. A bundle's copy of the site
// (`assertName$1`, as rollup renames) is no other site; a throw at a
// module's top level is one.
TEST(EvidenceLinks, AJavaScriptTestsMessageFitsTheSiteItReachesClosely) {
  auto l = link({{"src/name.js",
                  "function assertName(name) {\n"
                  "  if (/[^a-z-]/.test(name)) throw new Error(`Names must only contain letters but \"${name}\" does not.`);\n"
                  "  if (name[0] === '-') throw new Error(`Names must start with a letter but \"${name}\" does not.`);\n"
                  "}\n"
                  "function makeType(config) { return assertName(config.name); }\n"
                  "exports.makeType = makeType;\n"},
                 {"dist/name.js",
                  "function assertName$1(name) {\n"
                  "  if (/[^a-z-]/.test(name)) throw new Error(`Names must only contain letters but \"${name}\" does not.`);\n"
                  "}\n"},
                 {"src/scalars.js",
                  "function serializeId(value) {\n"
                  "  throw new TypeError(`ID cannot represent value: ${value}`);\n"
                  "}\n"
                  "function serializeEnum(value) {\n"
                  "  throw new TypeError(`Enum \"${value.name}\" cannot represent value: ${value}`);\n"
                  "}\n"
                  "function toAst(value) { return serializeEnum(value); }\n"
                  "function checkConfig(c) { if (!c) throw new TypeError('The config must be an object'); }\n"
                  "function build(c) { return checkConfig(c); }\n"
                  "exports.serializeId = serializeId;\n"
                  "exports.toAst = toAst;\n"
                  "exports.build = build;\n"},
                 {"src/env.js",
                  "if (typeof process === 'undefined') throw new TypeError('No config in this environment');\n"}},
                {{"test/name.test.js",
                  "const { makeType } = require('../src/name');\n"
                  "const { toAst, build } = require('../src/scalars');\n"
                  "it('rejects a name', () => {\n"
                  "  expect(() => makeType({name: 'Bad!'})).toThrow('Names must only contain letters but \"Bad!\" does not.');\n"
                  "});\n"
                  "it('rejects an id', () => {\n"
                  "  expect(() => toAst(false)).toThrow('ID cannot represent value: false');\n"
                  "});\n"
                  "it('rejects a config', () => {\n"
                  "  expect(() => build(null)).toThrow(/config/);\n"
                  "});\n"}});
  ASSERT_EQ(l.records.size(), 7u);
  // A throw at a module's top level that the message fits is another site.
  EXPECT_TRUE(l.tests_of("The config must").empty());
  EXPECT_EQ(l.tests_of("Names must only"), (std::vector<std::string>{"rejects a name@4"}));
  EXPECT_TRUE(l.tests_of("Names must start").empty());
  EXPECT_TRUE(l.tests_of("Enum").empty());
  EXPECT_TRUE(l.tests_of("ID cannot").empty());
}

// Without a message, a walk cut short by its depth bound may have left out
// a second site of the class: the one site it reached is not linked.
TEST(EvidenceLinks, AJavaScriptWalkCutShortLinksNoSiteWithoutAMessage) {
  std::string code = "function step0(x) {\n  if (x === 0) throw new TypeError('The first step fails on zero');\n  return step1(x);\n}\n";
  for (int i = 1; i < 12; ++i)
    code += "function step" + std::to_string(i) + "(x) { return step" + std::to_string(i + 1) + "(x); }\n";
  code += "function step12(x) { if (x < 0) throw new TypeError('The last step fails below zero'); }\n"
          "function run(x) { return step0(x); }\n"
          "exports.run = run;\n";
  auto l = link({{"src/steps.js", code}},
                {{"test/steps.test.js",
                  "const { run } = require('../src/steps');\n"
                  "it('fails', () => {\n"
                  "  expect(() => run(0)).toThrow(TypeError);\n"
                  "});\n"}});
  ASSERT_EQ(l.records.size(), 2u);
  EXPECT_TRUE(l.tests_of("The first step").empty());
}

}  // namespace
}  // namespace errdex::analyze
