// The JavaScript/TypeScript call graph (analyze/js_call_graph.h) on small
// repositories each test writes to a temp folder and reads back as the
// scan does: each import form, require, re-exports, `this.m` through
// `extends`, `new Cls`, bare specifiers, cycles, and what is public.
#include "analyze/js_call_graph.h"

#include <gtest/gtest.h>

#include <map>

#include "scan/frontend.h"
#include "support/process.h"

namespace errdex::analyze {
namespace {

// A repository written to a temp folder, each file read back and scanned
// as the pipeline does (sites where there are any, else calls only).
class Repo {
 public:
  explicit Repo(const std::map<std::string, std::string>& files, const std::vector<JsPackage>& packages = {}) {
    for (const auto& [path, src] : files) testing::write_file(m_dir / path, src);
    for (const auto& [path, src] : files) {
      m_paths.push_back(path);
      const std::string text = testing::read_file(m_dir / path);
      const scan::Frontend* f = scan::frontend_for(path);
      m_facts.push_back(f->worth_parsing(text) ? f->scan(text) : f->scan_calls(text));
    }
    std::vector<FileFactsAt> at;
    for (std::size_t i = 0; i < m_paths.size(); ++i) at.push_back({&m_paths[i], &m_facts[i]});
    graph = std::make_unique<JsCallGraph>(at, packages);
  }

  // The entry points' chains of the site throwing `cls` in `path`.
  std::vector<std::vector<std::string>> chains(const std::string& path, const std::string& cls) const {
    std::vector<std::vector<std::string>> out;
    for (std::size_t i = 0; i < m_paths.size(); ++i)
      if (m_paths[i] == path)
        for (const auto& s : m_facts[i].sites)
          if (s.error_class == cls) {
            for (const auto& e : graph->entry_points(graph->node_of(path, s))) {
              EXPECT_EQ(e.name, e.chain.front());
              out.push_back(e.chain);
            }
            return out;
          }
    ADD_FAILURE() << "no site of " << cls << " in " << path;
    return out;
  }

  std::unique_ptr<JsCallGraph> graph;

 private:
  testing::TempDir m_dir;
  std::vector<std::string> m_paths;
  std::vector<model::FileFacts> m_facts;
};

using Chains = std::vector<std::vector<std::string>>;

TEST(JsCallGraph, NamedImportsWithAliasAndTheJsWrittenForTs) {
  Repo r({{"src/impl.ts", "export function _inner(x: string) {\n  if (!x) throw new TypeError('empty');\n}\n"},
          {"src/api.ts", "import { _inner as check } from './impl.js';\nexport function run(x: string) {\n  return check(x);\n}\n"}});
  EXPECT_EQ(r.chains("src/impl.ts", "TypeError"), (Chains{{"run", "_inner"}}));
}

TEST(JsCallGraph, NamespaceAndDefaultImportsAndIndexFiles) {
  Repo r({{"lib/x/index.js", "function hidden() {\n  throw new Error('no');\n}\nexport default function load() {\n  hidden();\n}\n"
                              "export function _f() {\n  throw new RangeError('r');\n}\n"},
          {"lib/api.js", "import load from './x';\nimport * as ns from './x/index.js';\n"
                         "export function go() {\n  load();\n}\nexport function viaNs() {\n  ns._f();\n}\n"}});
  EXPECT_EQ(r.chains("lib/x/index.js", "Error"), (Chains{{"load", "hidden"}, {"go", "load", "hidden"}}));
  EXPECT_EQ(r.chains("lib/x/index.js", "RangeError"), (Chains{{"viaNs", "_f"}}));
}

TEST(JsCallGraph, RequireWholeAndDestructuredAndModuleExports) {
  Repo r({{"check.js", "exports._check = function (v) {\n  if (v < 0) throw new RangeError('negative');\n};\n"},
          {"lib.js", "function _lib() {\n  throw new TypeError('t');\n}\nmodule.exports = { _lib };\n"},
          {"api.js", "const { _check } = require('./check');\nconst lib = require('./lib');\n"
                     "module.exports = {\n  validate(v) {\n    _check(v);\n  },\n  use() {\n    lib._lib();\n  },\n};\n"}});
  EXPECT_EQ(r.chains("check.js", "RangeError"), (Chains{{"validate", "_check"}}));
  EXPECT_EQ(r.chains("lib.js", "TypeError"), (Chains{{"use", "_lib"}}));
}

TEST(JsCallGraph, ReExportsNamedAndStar) {
  Repo r({{"src/impl.ts", "export function _f() {\n  throw new TypeError('f');\n}\n"},
          {"src/impl2.ts", "export function _g() {\n  throw new RangeError('g');\n}\n"},
          {"src/index.ts", "export { _f as f } from './impl';\nexport * from './impl2';\n"},
          {"src/api.ts", "import { f, _g } from './index';\nexport function go() {\n  f();\n}\nexport function go2() {\n  _g();\n}\n"}});
  EXPECT_EQ(r.chains("src/impl.ts", "TypeError"), (Chains{{"go", "_f"}}));
  EXPECT_EQ(r.chains("src/impl2.ts", "RangeError"), (Chains{{"go2", "_g"}}));
}

TEST(JsCallGraph, ThisMethodThroughExtendsInAnotherFile) {
  Repo r({{"src/base.ts", "export class Base {\n  protected _check(n: number) {\n    if (n > 3) throw new RangeError('deep');\n  }\n}\n"},
          {"src/parser.ts", "import { Base } from './base';\nexport class Parser extends Base {\n  parse(n: number) {\n"
                            "    [1].forEach(() => this._check(n));\n  }\n  #hidden() {\n    this._check(1);\n  }\n}\n"},
          // Three classes define `_check`: no guess by name finds it.
          {"src/others.ts", "class X {\n  _check() {}\n}\nclass Y {\n  _check() {}\n}\n"}});
  // The method called inside a callback is the method's call; `#hidden` is
  // no entry point.
  EXPECT_EQ(r.chains("src/base.ts", "RangeError"), (Chains{{"Parser.parse", "Base._check"}}));
}

TEST(JsCallGraph, NewCallsTheConstructorAndABoundInstanceItsMethods) {
  Repo r({{"lexer.js", "class Lexer {\n  constructor(s) {\n    if (!s) throw new TypeError('no source');\n  }\n"
                       "  _advance() {\n    throw new SyntaxError('bad token');\n  }\n}\n"
                       "export function lex(s) {\n  const l = new Lexer(s);\n  l._advance();\n}\n"},
          {"sub.js", "import { Base } from './base.js';\nclass _Child extends Base {}\nexport function make() {\n  return new _Child();\n}\n"},
          {"base.js", "export class Base {\n  constructor() {\n    throw new Error('abstract');\n  }\n}\n"},
          // Three classes define `_advance`: only the bound instance's class finds it.
          {"others.js", "class X {\n  _advance() {}\n}\nclass Y {\n  _advance() {}\n}\n"}});
  EXPECT_EQ(r.chains("lexer.js", "TypeError"), (Chains{{"lex", "new Lexer"}}));
  EXPECT_EQ(r.chains("lexer.js", "SyntaxError"), (Chains{{"lex", "Lexer._advance"}}));
  // A class with no constructor runs its base's.
  EXPECT_EQ(r.chains("base.js", "Error"), (Chains{{"new Base"}, {"make", "new Base"}}));
}

TEST(JsCallGraph, BareSpecifiersLeadOutside) {
  Repo r({{"impl.js", "export function _inner() {\n  throw new Error('x');\n}\n"},
          {"api.js", "import { _inner } from 'impl';\nexport function run() {\n  _inner();\n}\n"}});
  EXPECT_EQ(r.chains("impl.js", "Error"), Chains{});
}

TEST(JsCallGraph, ObjectLiteralMethodsOfAnExportedObjectAndCycles) {
  Repo r({{"api.js", "function _check(x) {\n  if (x) throw new TypeError('x');\n  _again(x);\n}\n"
                     "function _again(x) {\n  _check(x);\n}\n"
                     "export const api = {\n  load(x) {\n    return _check(x);\n  },\n};\n"
                     "const internal = {\n  go(x) {\n    _check(x);\n  },\n};\n"}});
  EXPECT_EQ(r.chains("api.js", "TypeError"), (Chains{{"api.load", "_check"}}));
}

TEST(JsCallGraph, UnknownReceiversNameAFewMethodsOnly) {
  Repo r({{"a.js", "export class A {\n  _rare() {\n    throw new Error('rare');\n  }\n  _common() {\n    throw new TypeError('c');\n  }\n}\n"},
          {"b.js", "class B {\n  _common() {}\n}\nclass C {\n  _common() {}\n}\n"},
          {"api.js", "export function use(x) {\n  x._rare();\n  x._common();\n  JSON._rare();\n}\n"}});
  EXPECT_EQ(r.chains("a.js", "Error"), (Chains{{"use", "A._rare"}}));
  EXPECT_EQ(r.chains("a.js", "TypeError"), Chains{});
}

TEST(JsCallGraph, APackagesEntryFilesLimitWhatIsPublic) {
  const std::map<std::string, std::string> files = {
      {"src/index.ts", "export { parse } from './api';\n"},
      {"src/api.ts", "import { _check } from './check';\nexport function parse(s: string) {\n  _check(s);\n}\n"},
      {"src/check.ts", "export function _check(s: string) {\n  if (!s) throw new TypeError('empty');\n}\n"},
      {"src/internal.ts", "import { _check } from './check';\nexport function internalUse(s: string) {\n  _check(s);\n}\n"}};
  EXPECT_EQ(Repo(files).chains("src/check.ts", "TypeError"), (Chains{{"parse", "_check"}, {"internalUse", "_check"}}));
  // The build folder's entry is found as its source, `src/index.ts`; with
  // `exports`, no other module is public.
  JsPackage package = read_package(
      R"({"name": "p", "exports": {".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"}}})");
  EXPECT_EQ(package.entries, std::vector<std::string>{"./dist/index.js"});
  EXPECT_TRUE(package.has_exports);
  EXPECT_EQ(Repo(files, {package}).chains("src/check.ts", "TypeError"), (Chains{{"parse", "_check"}}));
  // With `main` only, any file may be imported: the entry's modules come
  // first.
  JsPackage main = read_package(R"({"main": "index", "module": "index.mjs", "browser": {"x": false}})");
  EXPECT_EQ(main.entries, (std::vector<std::string>{"index", "index.mjs"}));
  EXPECT_FALSE(main.has_exports);
  // (`internalUse` first by path.)
  std::map<std::string, std::string> reordered = files;
  reordered["src/aaa.ts"] = reordered["src/internal.ts"];
  reordered.erase("src/internal.ts");
  EXPECT_EQ(Repo(reordered).chains("src/check.ts", "TypeError"), (Chains{{"internalUse", "_check"}, {"parse", "_check"}}));
  EXPECT_EQ(Repo(reordered, {main}).chains("src/check.ts", "TypeError"),
            (Chains{{"parse", "_check"}, {"internalUse", "_check"}}));
  // A package whose entry is nowhere in the repository limits nothing.
  package.entries = {"./gone.js"};
  EXPECT_EQ(Repo(files, {package}).chains("src/check.ts", "TypeError").size(), 2u);
  EXPECT_TRUE(read_package("not json").entries.empty());
}

TEST(JsCallGraph, JavaScriptPaths) {
  EXPECT_TRUE(is_javascript_path("src/a.ts"));
  EXPECT_TRUE(is_javascript_path("a.mjs"));
  EXPECT_FALSE(is_javascript_path("src/a.d.ts"));
  EXPECT_FALSE(is_javascript_path("a.py"));
}

}  // namespace
}  // namespace errdex::analyze
