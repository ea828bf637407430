// The call graph (analyze/call_graph.h) on small Python trees written here:
// each kind of import, self.method through a base class, constructors,
// recursion, the fan-out bound, `__all__` and private modules.
#include "analyze/call_graph.h"

#include <gtest/gtest.h>

#include <map>

#include "scan/frontend.h"
#include "scan/python/outline.h"

namespace errdex::analyze {
namespace {

// A tree of Python files scanned as the pipeline does (every file read for
// its calls, sites where there are any).
class Tree {
 public:
  explicit Tree(std::map<std::string, std::string> files) : m_sources(std::move(files)) {
    for (const auto& [path, src] : m_sources) {
      m_paths.push_back(path);
      m_facts.push_back(scan::frontend_for(path)->scan(src));
    }
    std::vector<FileFactsAt> at;
    for (std::size_t i = 0; i < m_paths.size(); ++i) at.push_back({&m_paths[i], &m_facts[i]});
    graph = std::make_unique<CallGraph>(at, std::vector<std::string>{""});
  }

  // The node of the site raising `cls` in `path`.
  int raising(const std::string& path, const std::string& cls) const {
    for (std::size_t i = 0; i < m_paths.size(); ++i)
      if (m_paths[i] == path)
        for (const auto& s : m_facts[i].sites)
          if (s.error_class == cls) return graph->node_of(path, s);
    return -2;
  }

  std::unique_ptr<CallGraph> graph;

 private:
  std::map<std::string, std::string> m_sources;
  std::vector<std::string> m_paths;
  std::vector<model::FileFacts> m_facts;
};

std::vector<std::vector<std::string>> chains(const std::vector<model::EntryPoint>& eps) {
  std::vector<std::vector<std::string>> out;
  for (const auto& e : eps) {
    EXPECT_FALSE(e.chain.empty());
    if (!e.chain.empty()) EXPECT_EQ(e.name, e.chain.front());
    out.push_back(e.chain);
  }
  return out;
}

using Chains = std::vector<std::vector<std::string>>;

Tree sample() {
  return Tree({
      {"pkg/__init__.py",
       "from .core import load, Loader as L\n"
       "from . import util\n"
       "import pkg.helpers as H\n"
       "__all__ = ['load', 'L', 'util', 'dump']\n"
       "def dump(x):\n"
       "    return H.write(x)\n"
       "def hidden_by_all(x):\n"
       "    return H.write(x)\n"
       "def _hidden():\n"
       "    return load('x')\n"},
      {"pkg/core.py",
       "from pkg.util import check\n"
       "__all__ = ['load', 'Loader']\n"
       "class Base:\n"
       "    def validate(self, v):\n"
       "        if v < 0:\n"
       "            raise ValueError('negative')\n"
       "        return v\n"
       "class Loader(Base):\n"
       "    def __init__(self, strict=True):\n"
       "        if not isinstance(strict, bool):\n"
       "            raise TypeError('strict must be a bool')\n"
       "        self.strict = strict\n"
       "    def read(self, v):\n"
       "        return self.validate(v)\n"
       "def load(v):\n"
       "    ld = Loader()\n"
       "    return ld.read(v)\n"
       "def _private_entry(v):\n"
       "    return check(v)\n"},
      {"pkg/util.py",
       "def check(v):\n"
       "    if not v:\n"
       "        raise KeyError('empty')\n"
       "    return v\n"
       "def walk(n):\n"
       "    if n == 0:\n"
       "        raise RuntimeError('bottom')\n"
       "    return walk(n - 1)\n"},
      {"pkg/helpers.py",
       "def write(x):\n"
       "    return _emit(x)\n"
       "def _emit(x):\n"
       "    def inner():\n"
       "        raise OSError('cannot write')\n"
       "    return inner()\n"},
      {"pkg/_private.py",
       "from pkg.util import check\n"
       "def public_name(v):\n"
       "    return check(v)\n"},
      {"pkg/cli.py",
       "import pkg.util\n"
       "def run(v):\n"
       "    return pkg.util.check(v)\n"},
      {"pkg/fan.py",
       "class A:\n"
       "    def frob(self):\n"
       "        raise LookupError('a')\n"
       "class B:\n"
       "    def frob(self):\n"
       "        return 1\n"
       "class C:\n"
       "    def frob(self):\n"
       "        return 2\n"
       "def use(obj):\n"
       "    return obj.frob()\n"
       "class D:\n"
       "    def only_here(self):\n"
       "        raise IndexError('d')\n"
       "def use_d(obj):\n"
       "    return obj.only_here()\n"},
  });
}

TEST(CallGraph, SelfMethodThroughABaseAndAllLimitsThePublicNames) {
  Tree t = sample();
  int validate = t.raising("pkg/core.py", "ValueError");
  ASSERT_GE(validate, 0);
  EXPECT_EQ(t.graph->name(validate), "pkg.core.Base.validate");
  // Base is not in core's __all__: not an entry point itself. Loader.read
  // calls self.validate, found in its base; load binds `ld = Loader()`.
  EXPECT_EQ(chains(t.graph->entry_points(validate)),
            (Chains{{"pkg.core.Loader.read", "pkg.core.Base.validate"},
                    {"pkg.core.load", "pkg.core.Loader.read", "pkg.core.Base.validate"}}));
}

TEST(CallGraph, ConstructorIsTheClassCall) {
  Tree t = sample();
  int init = t.raising("pkg/core.py", "TypeError");
  ASSERT_GE(init, 0);
  EXPECT_EQ(chains(t.graph->entry_points(init)),
            (Chains{{"pkg.core.Loader"}, {"pkg.core.load", "pkg.core.Loader"}}));
}

TEST(CallGraph, ImportFormsAndPrivateModulesAndNames) {
  Tree t = sample();
  int check = t.raising("pkg/util.py", "KeyError");
  ASSERT_GE(check, 0);
  // `import pkg.util` then `pkg.util.check(...)`; the callers in a private
  // module (pkg._private) or with a private name (_private_entry) are no
  // entry points.
  EXPECT_EQ(chains(t.graph->entry_points(check)), (Chains{{"pkg.util.check"}, {"pkg.cli.run", "pkg.util.check"}}));
  // A closure's raise is its enclosing function's; `import pkg.helpers as H`
  // then `H.write(...)` from a package's __init__; __all__ leaves
  // hidden_by_all out.
  int emit = t.raising("pkg/helpers.py", "OSError");
  ASSERT_GE(emit, 0);
  EXPECT_EQ(t.graph->name(emit), "pkg.helpers._emit");
  EXPECT_EQ(chains(t.graph->entry_points(emit)),
            (Chains{{"pkg.helpers.write", "pkg.helpers._emit"}, {"pkg.dump", "pkg.helpers.write", "pkg.helpers._emit"}}));
  EXPECT_FALSE(t.graph->is_public(emit));
}

TEST(CallGraph, RecursionEndsAndFanOutIsBounded) {
  Tree t = sample();
  int walk = t.raising("pkg/util.py", "RuntimeError");
  ASSERT_GE(walk, 0);
  EXPECT_EQ(chains(t.graph->entry_points(walk)), (Chains{{"pkg.util.walk"}}));
  // `obj.frob()` on an object of unknown type: three classes of the package
  // define frob, so the call says nothing of which; one that only one class
  // defines is followed.
  int frob = t.raising("pkg/fan.py", "LookupError");
  ASSERT_GE(frob, 0);
  EXPECT_EQ(chains(t.graph->entry_points(frob)), (Chains{{"pkg.fan.A.frob"}}));
  int only = t.raising("pkg/fan.py", "IndexError");
  EXPECT_EQ(chains(t.graph->entry_points(only)),
            (Chains{{"pkg.fan.D.only_here"}, {"pkg.fan.use_d", "pkg.fan.D.only_here"}}));
}

// A local bound to a class or function by name and then called (click's
// `if cls is None: cls = Argument` and its closure's `cls(decls)`,
// logging.config's `c = logging.Formatter` ... `c(fmt)`) runs each value;
// a local bound to what the graph cannot name (`make = self.factory`)
// leaves the name to the module, as before.
TEST(CallGraph, ACalledLocalBoundToAClassRunsItsConstructor) {
  Tree t({{"pkg/__init__.py", ""},
          {"pkg/core.py",
           "class Argument:\n"
           "    def __init__(self, decls):\n"
           "        if len(decls) != 1:\n"
           "            raise TypeError('Argument takes exactly one parameter declaration')\n\n\n"
           "def Option(decls):\n"
           "    raise ValueError('no option')\n\n\n"
           "def Plain(decls):\n"
           "    raise KeyError('plain')\n"},
          {"pkg/decorators.py",
           "from pkg.core import Argument, Option, Plain\n\n\n"
           "def argument(*decls, cls=None):\n"
           "    if cls is None:\n"
           "        cls = Argument\n\n"
           "    def decorator(f):\n"
           "        cls(decls)\n"
           "        return f\n\n"
           "    return decorator\n\n\n"
           "def option(*decls, flag=False):\n"
           "    make = Option if flag else None\n"
           "    make = Option\n"
           "    return make(decls)\n\n\n"
           "class Group:\n"
           "    def add(self, *decls):\n"
           "        Plain = self.factory\n"
           "        return Plain(decls)\n"}});
  int init = t.raising("pkg/core.py", "TypeError");
  ASSERT_GE(init, 0);
  EXPECT_EQ(chains(t.graph->entry_points(init)), (Chains{{"pkg.core.Argument"}, {"pkg.decorators.argument", "pkg.core.Argument"}}));
  int option = t.raising("pkg/core.py", "ValueError");
  ASSERT_GE(option, 0);
  EXPECT_EQ(chains(t.graph->entry_points(option)), (Chains{{"pkg.core.Option"}, {"pkg.decorators.option", "pkg.core.Option"}}));
  int plain = t.raising("pkg/core.py", "KeyError");
  ASSERT_GE(plain, 0);
  EXPECT_EQ(chains(t.graph->entry_points(plain)), (Chains{{"pkg.core.Plain"}, {"pkg.decorators.Group.add", "pkg.core.Plain"}}));
}

TEST(CallGraph, AMaxOfEntryPointsShortestFirst) {
  Tree t = sample();
  int validate = t.raising("pkg/core.py", "ValueError");
  auto one = t.graph->entry_points(validate, 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].name, "pkg.core.Loader.read");
}

TEST(CallGraph, TestCallsResolveThroughTheTestFilesImports) {
  Tree t = sample();
  model::FileFacts test_facts;
  scan::read_calls(
      "import pkg.util as u\n"
      "from pkg import load\n"
      "def test_x():\n"
      "    load(-1)\n",
      test_facts);
  auto from = t.graph->resolve_test_calls("tests/test_x.py", test_facts, {"load", "u.check", "unknown"});
  ASSERT_EQ(from.size(), 2u);
  EXPECT_EQ(t.graph->name(from[0]), "pkg.core.load");
  EXPECT_EQ(t.graph->name(from[1]), "pkg.util.check");
  EXPECT_EQ(t.graph->chain_to(from, t.raising("pkg/core.py", "ValueError")),
            (std::vector<std::string>{"pkg.core.load", "pkg.core.Loader.read", "pkg.core.Base.validate"}));
  EXPECT_TRUE(t.graph->chain_to(from, t.raising("pkg/util.py", "RuntimeError")).empty());
}

// A module that `*`-imports a C accelerator the repository lacks runs its
// C code when imported as usual: a test's call through it names nothing.
// Loaded with the accelerator blocked (`import_fresh_module`, marked
// `import m as m`), the Python code it falls back to runs; the call names
// it, and `imported` lists it.
TEST(CallGraph, AcceleratedModulesResolveOnlyWhenLoadedFresh) {
  Tree t({{"decimal.py",
           "try:\n"
           "    from _decimal import *\n"
           "except ImportError:\n"
           "    from _pydecimal import *\n"},
          {"_pydecimal.py",
           "class Decimal:\n"
           "    def __new__(cls, value='0'):\n"
           "        raise TypeError('Cannot convert')\n"},
          {"plain.py",
           "def parse(x):\n"
           "    raise ValueError(x)\n"}});
  model::FileFacts usual, fresh;
  usual.imports = {{"decimal", "", "", 0}, {"plain", "", "", 0}};
  fresh.imports = {{"decimal", "", "decimal", 0}};
  std::vector<int> imported;
  auto from = t.graph->resolve_test_calls("test_decimal.py", usual, {"decimal.Decimal", "plain.parse"}, &imported);
  ASSERT_EQ(from.size(), 1u);
  EXPECT_EQ(t.graph->name(from[0]), "plain.parse");
  imported.clear();
  from = t.graph->resolve_test_calls("test_decimal.py", fresh, {"decimal.Decimal"}, &imported);
  ASSERT_EQ(from.size(), 1u);
  EXPECT_EQ(t.graph->name(from[0]), "_pydecimal.Decimal");
  ASSERT_EQ(imported.size(), 1u);
  EXPECT_EQ(t.graph->file_of(imported[0]), "_pydecimal.py");
}

// A property's accessors (read by the light pass from their decorators):
// a test's attribute access written as its descriptor method names the
// accessor of its kind, through a base too; a plain method read, a
// property without that accessor, or a guess by name names nothing. The
// setter is a node of its own whose calls lead down, while its site's
// entry points stay its getter's and it is no caller in them.
TEST(CallGraph, AttributeAccessesNameThePropertysAccessor) {
  Tree t({{"pkg/__init__.py", ""},
          {"pkg/req.py",
           "class Base:\n"
           "    @property\n"
           "    def url(self):\n"
           "        return self._url\n"
           "    @url.setter\n"
           "    def url(self, v):\n"
           "        self._url = check(v)\n"
           "    @url.deleter\n"
           "    def url(self):\n"
           "        raise TypeError('cannot delete')\n"
           "    @property\n"
           "    def size(self):\n"
           "        return 1\n"
           "    def method(self):\n"
           "        raise KeyError('m')\n"
           "class Request(Base):\n"
           "    def __delattr__(self, name):\n"
           "        raise AttributeError(name)\n"
           "def check(v):\n"
           "    raise ValueError(v)\n"}});
  model::FileFacts facts;
  scan::read_calls(
      "@functools.cached_property  # cached\n"
      "def a(self): pass\n"
      "@a.setter\n"
      "def a(self, v): pass\n"
      "@x.deleter\n"
      "@other\n"
      "def b(self): pass\n"
      "@property\n"
      "x = 1\n"
      "def c(self): pass\n",
      facts);
  ASSERT_EQ(facts.functions.size(), 4u);
  EXPECT_EQ(facts.functions[0].property, "getter");
  EXPECT_EQ(facts.functions[1].property, "setter");
  EXPECT_EQ(facts.functions[2].property, "deleter");
  EXPECT_EQ(facts.functions[3].property, "");
  model::FileFacts test_facts;
  test_facts.imports = {{"pkg.req", "Request", "", 0}};
  auto names = [&](std::vector<std::string> calls) {
    std::vector<std::string> out;
    for (int n : t.graph->resolve_test_calls("tests/test_req.py", test_facts, calls)) out.push_back(t.graph->name(n));
    return out;
  };
  EXPECT_EQ(names({"Request.url.__get__"}), std::vector<std::string>{"pkg.req.Base.url"});
  // Deleting any attribute runs the class's `__delattr__` too.
  EXPECT_EQ(names({"Request.url.__delete__"}), (std::vector<std::string>{"pkg.req.Base.url", "pkg.req.Request.__delattr__"}));
  EXPECT_EQ(names({"Request.other.__delete__"}), std::vector<std::string>{"pkg.req.Request.__delattr__"});
  auto set = t.graph->resolve_test_calls("tests/test_req.py", test_facts, {"Request.url.__set__"});
  auto get = t.graph->resolve_test_calls("tests/test_req.py", test_facts, {"Request.url.__get__"});
  auto del = t.graph->resolve_test_calls("tests/test_req.py", test_facts, {"Request.url.__delete__"});
  ASSERT_EQ(set.size(), 1u);
  ASSERT_EQ(del.size(), 2u);
  EXPECT_NE(set[0], get[0]);
  EXPECT_NE(set[0], del[0]);
  EXPECT_EQ(t.graph->node_of("pkg/req.py", [] {
    model::ThrowSite s;
    s.function = "url";
    s.function_line = 9;
    return s;
  }()), del[0]);
  // The setter's call leads down; the getter's does not.
  auto reached = [&](const std::vector<int>& from) {
    std::vector<std::string> out;
    for (auto [n, depth] : t.graph->reach(from)) out.push_back(t.graph->name(n));
    return out;
  };
  EXPECT_EQ(reached(set), (std::vector<std::string>{"pkg.req.Base.url", "pkg.req.check"}));
  EXPECT_EQ(reached(get), std::vector<std::string>{"pkg.req.Base.url"});
  // Nothing else: a method read, a missing accessor, a name not imported.
  EXPECT_TRUE(names({"Request.method.__get__"}).empty());
  EXPECT_TRUE(names({"Request.size.__set__"}).empty());
  EXPECT_TRUE(names({"Other.url.__get__", "url.__get__"}).empty());
  // Entry points: the deleter's site has its getter's; `check` is reached
  // from no public caller through the setter.
  const int deleter = t.raising("pkg/req.py", "TypeError");
  EXPECT_EQ(chains(t.graph->entry_points(deleter)), (Chains{{"pkg.req.Base.url"}}));
  EXPECT_EQ(chains(t.graph->entry_points(t.raising("pkg/req.py", "ValueError"))), (Chains{{"pkg.req.check"}}));
}

// What a function returns (FunctionCalls::returns): the callee of a
// `return` that is a call alone, or of a local bound to one; nothing when
// the returns disagree or one is something else (a bare `return` and
// `return None` say nothing), nor for a function a decorator may replace.
// A class body's `x = property(getx, setx, fdel=delx)` makes its
// functions that attribute's accessors.
TEST(CallGraphFacts, LightPassReadsReturnsAndPropertyCalls) {
  model::FileFacts facts;
  scan::read_calls(
      "def make(path):\n"
      "    if not path:\n"
      "        return None\n"
      "    return mod.Thing(path,\n"
      "                     1)  # the thing\n"
      "def local():\n"
      "    t = Thing()\n"
      "    t.x = 1\n"
      "    return t\n"
      "def mixed(a):\n"
      "    if a:\n"
      "        return Thing()\n"
      "    return Other()\n"
      "def chained():\n"
      "    return Thing().copy()\n"
      "def inner():\n"
      "    def f():\n"
      "        return Thing()\n"
      "    return f\n"
      "@_SpecialForm\n"
      "def Special(self, p):\n"
      "    return Thing(p)\n"
      "class C:\n"
      "    @classmethod\n"
      "    def create(cls):\n"
      "        return cls()\n"
      "    def getx(self): return self._x\n"
      "    def setx(self, v): pass\n"
      "    def delx(self): pass\n"
      "    x = property(getx, setx, fdel=delx, doc='x')\n"
      "    y = property(lambda self: 1)\n",
      facts);
  std::map<std::string, const model::FunctionCalls*> fn;
  for (const auto& f : facts.functions) fn[f.qualname] = &f;
  ASSERT_EQ(fn.size(), 11u);
  EXPECT_EQ(fn["make"]->returns, "mod.Thing");
  EXPECT_EQ(fn["local"]->returns, "Thing");
  EXPECT_EQ(fn["mixed"]->returns, "");
  EXPECT_EQ(fn["chained"]->returns, "");
  EXPECT_EQ(fn["inner"]->returns, "");
  EXPECT_EQ(fn["inner.f"]->returns, "Thing");
  EXPECT_EQ(fn["Special"]->returns, "");
  EXPECT_EQ(fn["C.create"]->returns, "cls");
  EXPECT_EQ(fn["C.getx"]->property, "getter");
  EXPECT_EQ(fn["C.setx"]->property, "setter");
  EXPECT_EQ(fn["C.delx"]->property, "deleter");
  for (const char* q : {"C.getx", "C.setx", "C.delx"}) EXPECT_EQ(fn[q]->attribute, "x") << q;
}

// A test's `make().m` (a call's result, as scan::type_test_calls writes
// it) is the method of the class the function returns: through a local,
// another function's result, a classmethod's `cls(...)`; a property's
// getter is read, not called, and gives its result too. `make.m` without
// the call is the function's attribute, left to the guess by name as
// before. Once the class is known and lacks the method, no guess. A
// `property(getx, setx)` attribute names its accessor, in the class or a
// base.
TEST(CallGraph, TestCallsOnAFunctionsResultAndPropertyCalls) {
  Tree t({{"pkg/__init__.py", ""},
          {"pkg/things.py",
           "class Thing:\n"
           "    def run(self):\n"
           "        raise ValueError('run')\n"
           "    @classmethod\n"
           "    def create(cls):\n"
           "        return cls()\n"
           "    @property\n"
           "    def child(self):\n"
           "        return Thing()\n"
           "    def _get_size(self):\n"
           "        return 1\n"
           "    def _set_size(self, v):\n"
           "        raise TypeError('size')\n"
           "    size = property(_get_size, _set_size)\n"
           "class Sub(Thing):\n"
           "    pass\n"
           "def make():\n"
           "    t = Thing()\n"
           "    return t\n"
           "def make_again():\n"
           "    return make()\n"
           "def stop():\n"
           "    raise KeyError('stop')\n"
           "class Other:\n"
           "    def stop(self):\n"
           "        pass\n"}});
  model::FileFacts test_facts;
  test_facts.imports = {{"pkg.things", "make", "", 0}, {"pkg.things", "make_again", "", 0},
                        {"pkg.things", "Thing", "", 0}, {"pkg.things", "Sub", "", 0}};
  auto names = [&](std::vector<std::string> calls) {
    std::vector<std::string> out;
    for (int n : t.graph->resolve_test_calls("tests/test_t.py", test_facts, calls)) out.push_back(t.graph->name(n));
    return out;
  };
  EXPECT_EQ(names({"make().run"}), std::vector<std::string>{"pkg.things.Thing.run"});
  EXPECT_EQ(names({"make_again().run"}), std::vector<std::string>{"pkg.things.Thing.run"});
  EXPECT_EQ(names({"Thing.create().run"}), std::vector<std::string>{"pkg.things.Thing.run"});
  EXPECT_EQ(names({"Thing().run"}), std::vector<std::string>{"pkg.things.Thing.run"});
  EXPECT_EQ(names({"Thing.child.run"}), std::vector<std::string>{"pkg.things.Thing.run"});
  EXPECT_TRUE(names({"make.size.__set__"}).empty());
  EXPECT_TRUE(names({"make().stop"}).empty());
  EXPECT_EQ(names({"make().size.__set__"}), std::vector<std::string>{"pkg.things.Thing._set_size"});
  EXPECT_EQ(names({"Sub().size.__get__"}), std::vector<std::string>{"pkg.things.Thing._get_size"});
  EXPECT_TRUE(names({"Sub().size.__delete__"}).empty());
}

TEST(CallGraph, CyclesOfBasesAndImportsEnd) {
  // Bases named through each other's attributes, a class its own base,
  // modules importing each other's names: resolution gives up, no crash.
  Tree t({{"a.py",
           "from b import g\n"
           "class A(B.x):\n"
           "    def run(self):\n"
           "        return self.missing()\n"
           "class B(A.y):\n"
           "    pass\n"
           "class C(C):\n"
           "    def go(self):\n"
           "        self.nothing()\n"
           "        raise ValueError('x')\n"
           "def f():\n"
           "    return g()\n"},
          {"b.py", "from a import g\n"}});
  int go = t.raising("a.py", "ValueError");
  ASSERT_GE(go, 0);
  EXPECT_EQ(chains(t.graph->entry_points(go)), (Chains{{"a.C.go"}}));
}

TEST(CallGraph, ModuleNames) {
  std::vector<std::string> roots{"", "Lib"};
  EXPECT_EQ(module_name("Lib/json/decoder.py", roots), "json.decoder");
  EXPECT_EQ(module_name("Lib/json/__init__.py", roots), "json");
  EXPECT_EQ(module_name("Lib/os.py", roots), "os");
  EXPECT_EQ(module_name("tools/x.py", roots), "tools.x");
  EXPECT_EQ(module_name("Lib/x.js", roots), "");
}

TEST(CallGraphFacts, LightPassReadsImportsClassesExportsAndCallees) {
  model::FileFacts f;
  scan::read_calls(
      "import os.path, sys as system\n"
      "from ..base import (Thing as T,  # a comment\n"
      "    other)\n"
      "from . import sibling\n"
      "from mod import *\n"
      "__all__ = ['a', \"b\"]\n"
      "__all__ += ['c']\n"
      "_default = Decoder(strict=True)\n"
      "class K(T, metaclass=Meta):\n"
      "    def m(self, x):\n"
      "        self.d = sibling.Reader(x)\n"
      "        r = Reader()\n"
      "        def inner():\n"
      "            return super().m(x)\n"
      "        return self.d.go(r.run(os.path.join(x, 'y')), str(x).strip())\n",
      f);
  ASSERT_EQ(f.imports.size(), 6u);
  EXPECT_EQ(f.imports[0].module, "os.path");
  EXPECT_EQ(f.imports[1].alias, "system");
  EXPECT_EQ(f.imports[2].level, 2);
  EXPECT_EQ(f.imports[2].module, "base");
  EXPECT_EQ(f.imports[2].name, "Thing");
  EXPECT_EQ(f.imports[2].alias, "T");
  EXPECT_EQ(f.imports[3].name, "other");
  EXPECT_EQ(f.imports[4].level, 1);
  EXPECT_EQ(f.imports[4].name, "sibling");
  EXPECT_EQ(f.imports[5].name, "*");
  EXPECT_TRUE(f.has_exports);
  EXPECT_EQ(f.exports, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(f.class_bases.size(), 1u);
  EXPECT_EQ(f.class_bases[0].bases, std::vector<std::string>{"T"});
  ASSERT_EQ(f.assigned.size(), 1u);
  EXPECT_EQ(f.assigned[0], (std::pair<std::string, std::string>{"_default", "Decoder"}));
  ASSERT_EQ(f.functions.size(), 2u);
  const auto& m = f.functions[0];
  EXPECT_EQ(m.qualname, "K.m");
  EXPECT_EQ(m.line, 10);
  EXPECT_FALSE(m.nested);
  EXPECT_TRUE(f.functions[1].nested);
  EXPECT_EQ(f.functions[1].qualname, "K.m.inner");
  for (const char* want : {"sibling.Reader", "Reader", "super.m", "self.d.go", "r.run", "os.path.join", "?.strip"})
    EXPECT_NE(std::find(m.targets.begin(), m.targets.end(), want), m.targets.end()) << want;
  EXPECT_EQ(m.assigned, (std::vector<std::pair<std::string, std::string>>{{"self.d", "sibling.Reader"}, {"r", "Reader"}}));
  // A `__all__` built from something else says nothing.
  model::FileFacts g;
  scan::read_calls("__all__ = ['a'] + other.__all__\n", g);
  EXPECT_FALSE(g.has_exports);
}

// What each function binds (FunctionCalls::bindings) and the module's
// top level (FileFacts::module_bindings): a plain `name = value` with its
// value (a trailing comment left out), `self.x = value`, every other
// rebind without one; whether it is a statement of the body itself, and
// the outermost loop it is in. A comparison (`x <= 3`) or a keyword
// argument is no binding; a nested function's names are its own, but its
// `nonlocal` rebinds the enclosing function's.
TEST(CallGraphFacts, LightPassReadsWhatEachFunctionBinds) {
  model::FileFacts facts;
  scan::read_calls(
      "SINK = '--'\n"
      "kinds = ('a', SINK)\n"
      "def f(self, x, y=1, *, z=None):\n"
      "    n = len(x)  # its length\n"
      "    x = int(x); self.size = y\n"
      "    a, b = y\n"
      "    for i in range(3):\n"
      "        if i:\n"
      "            q = i\n"
      "    if n > 3: m = 2\n"
      "    with open(x) as fh:\n"
      "        pass\n"
      "    y += 1\n"
      "    z.append(3)\n"
      "    del b\n"
      "    ok = x <= 3 and g(key=1)\n"
      "    k = lambda t=1: t\n"
      "    if (w := n) > 1:\n"
      "        pass\n"
      "    def inner():\n"
      "        nonlocal n\n"
      "        n = 3\n",
      facts);
  auto text = [](const std::vector<model::Binding>& bs) {
    std::vector<std::string> out;
    for (const auto& b : bs)
      out.push_back(b.name + "@" + std::to_string(b.line) + " " + b.kind + (b.value.empty() ? "" : " " + b.value) +
                    (b.top ? "" : " nested") + (b.loop ? " loop@" + std::to_string(b.loop) : ""));
    return out;
  };
  EXPECT_EQ(text(facts.module_bindings),
            (std::vector<std::string>{"SINK@1 assign '--'", "kinds@2 assign ('a', SINK)", "f@3 other"}));
  ASSERT_EQ(facts.functions.size(), 2u);
  EXPECT_EQ(text(facts.functions[0].bindings),
            (std::vector<std::string>{"n@4 assign len(x)", "x@5 assign int(x)", "self.size@5 assign y", "a@6 other",
                                      "b@6 other", "i@7 other", "q@9 assign i nested loop@7", "m@10 assign 2 nested",
                                      "fh@11 other", "y@13 other", "z@14 other", "b@15 other",
                                      "ok@16 assign x <= 3 and g(key=1)", "k@17 other", "w@18 other", "inner@20 other",
                                      "n@21 other nested loop@1"}));
  EXPECT_EQ(text(facts.functions[1].bindings), (std::vector<std::string>{"n@21 global", "n@22 assign 3"}));
}

// A binding in the block of an `if` of the function's body itself keeps
// the `if`'s condition and line (Binding::when): not one of an `elif` or
// `else`, of a block inside it, of a one-line `if`, nor of the module.
TEST(CallGraphFacts, LightPassReadsTheIfABindingsBlockDependsOn) {
  model::FileFacts facts;
  scan::read_calls(
      "if DEBUG:\n"
      "    level = 1\n"
      "def f(name, mode=None, size=-1):\n"
      "    if mode is None:  # the default\n"
      "        mode = 'r'\n"
      "        if size < 0:\n"
      "            size = 0\n"
      "        name = name.lower()\n"
      "    elif mode == 'a':\n"
      "        mode = 'w'\n"
      "    else:\n"
      "        size = 1\n"
      "    if size: size = 2\n"
      "    if (name[1:] and\n"
      "            size > 1):\n"
      "        name = 'x'\n",
      facts);
  auto text = [](const std::vector<model::Binding>& bs) {
    std::vector<std::string> out;
    for (const auto& b : bs)
      out.push_back(b.name + "@" + std::to_string(b.line) +
                    (b.when_line ? " when@" + std::to_string(b.when_line) + " " + b.when : ""));
    return out;
  };
  for (const auto& b : facts.module_bindings) EXPECT_EQ(b.when_line, 0) << b.name;
  ASSERT_EQ(facts.functions.size(), 1u);
  EXPECT_EQ(text(facts.functions[0].bindings),
            (std::vector<std::string>{"mode@5 when@4 mode is None", "size@7", "name@8 when@4 mode is None", "mode@10",
                                      "size@12", "size@13", "name@16 when@14 (name[1:] and\n            size > 1)"}));
}

// The statements that are one call, with their argument text: a call
// alone, `return` of one, a name bound to one; in a block too (not top).
TEST(CallGraphFacts, LightPassReadsStatementsThatAreOneCall) {
  model::FileFacts facts;
  scan::read_calls(
      "def f(s, altchars=None):\n"
      "    s = _bytes_from_decode_data(s)\n"
      "    _check(s,\n"
      "           altchars)  # both\n"
      "    if altchars:\n"
      "        self.validate(altchars)\n"
      "    n = len(s) + 1\n"
      "    print(n)\n"
      "    x = g(s)[0]\n"
      "    return _decode(s, 'x' if s else 'y')\n",
      facts);
  ASSERT_EQ(facts.functions.size(), 1u);
  std::vector<std::string> got;
  for (const auto& c : facts.functions[0].statement_calls)
    got.push_back(c.callee + "(" + c.args + ")@" + std::to_string(c.line) + (c.top ? "" : " nested"));
  EXPECT_EQ(got, (std::vector<std::string>{"_bytes_from_decode_data(s)@2", "_check(s, altchars)@3",
                                           "self.validate(altchars)@6 nested",
                                           "_decode(s, 'x' if s else 'y')@10"}));
}

// What a method changes of its instance, each attribute by its name
// ("self.x"), however it changes it; and each function's parameter list.
TEST(CallGraphFacts, LightPassNamesTheAttributesAMethodChanges) {
  model::FileFacts facts;
  scan::read_calls(
      "class Buffer:\n"
      "    def __init__(self, size,\n"
      "                 mode='r'):\n"
      "        self.size = size\n"
      "    def push(self, item):\n"
      "        self.count += 1\n"
      "        self.items.append(item)\n"
      "        self.cache[item] = 1\n"
      "        del self.last\n"
      "        self.a, self.b = 1, 2\n"
      "        other.items.append(item)\n",
      facts);
  ASSERT_EQ(facts.functions.size(), 2u);
  EXPECT_EQ(facts.functions[0].params, "self, size, mode='r'");
  EXPECT_EQ(facts.functions[1].params, "self, item");
  std::vector<std::string> names;
  for (const auto& b : facts.functions[1].bindings)
    names.push_back(b.name + "@" + std::to_string(b.line) + " " + b.kind);
  EXPECT_EQ(names, (std::vector<std::string>{"self.count@6 other", "self.items@7 other", "self.cache@8 other",
                                             "item@8 other", "self.last@9 other", "self.a@10 other",
                                             "self.b@10 other"}));
}

}  // namespace
}  // namespace errdex::analyze
