// The call graph's facts the JavaScript frontend reads (scan/javascript/
// calls.h): functions, methods and their calls as written, imports of
// each form, exports of each form; and their round trip through the facts
// cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "scan/facts_json.h"
#include "scan/javascript/frontend.h"

namespace errdex::scan {
namespace {

const model::FunctionCalls* function(const model::FileFacts& f, const std::string& qualname) {
  for (const auto& fn : f.functions)
    if (fn.qualname == qualname) return &fn;
  return nullptr;
}

bool has_import(const model::FileFacts& f, const std::string& module, const std::string& name, const std::string& alias) {
  return std::any_of(f.imports.begin(), f.imports.end(), [&](const model::ImportFact& i) {
    return i.module == module && i.name == name && i.alias == alias;
  });
}

TEST(JavaScriptCalls, FunctionsMethodsAndTheirCalls) {
  auto f = scan_javascript_calls(
      "function top(a) {\n  helper(a);\n  ns.f();\n  new Lexer(a);\n  a.b().c();\n  items.forEach((x) => inner(x));\n}\n"
      "const arrow = (x) => top(x);\n"
      "export class Parser extends Base {\n  constructor(s) {\n    super(s);\n    this.lexer = new Lexer(s);\n  }\n"
      "  get kind() {\n    return this.peek();\n  }\n  parse() {\n    super.parse();\n    this.#check();\n  }\n"
      "  #check() {}\n}\n"
      "Parser.prototype.extra = function () {\n  top(1);\n};\n"
      "export const api = {\n  load(x) {\n    return top(x);\n  },\n  save: (x) => arrow(x),\n};\n"
      "(function () {\n  function wrapped() {\n    top(2);\n  }\n})();\n",
      Dialect::javascript);
  const auto* top = function(f, "top");
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(top->line, 1);
  EXPECT_FALSE(top->nested);
  // The callback's call is the function's; `new Lexer` calls Lexer.
  EXPECT_EQ(top->targets, (std::vector<std::string>{"helper", "ns.f", "Lexer", "?.c", "a.b", "items.forEach", "inner"}));
  const auto* callback = function(f, "top.<anonymous>");
  ASSERT_NE(callback, nullptr);
  EXPECT_TRUE(callback->nested);
  EXPECT_EQ(callback->line, 6);
  ASSERT_NE(function(f, "arrow"), nullptr);
  EXPECT_EQ(function(f, "arrow")->targets, std::vector<std::string>{"top"});
  const auto* ctor = function(f, "Parser.constructor");
  ASSERT_NE(ctor, nullptr);
  EXPECT_EQ(ctor->targets, (std::vector<std::string>{"super", "Lexer"}));
  EXPECT_EQ(ctor->assigned, (std::vector<std::pair<std::string, std::string>>{{"this.lexer", "Lexer"}}));
  ASSERT_NE(function(f, "Parser.kind"), nullptr);
  EXPECT_EQ(function(f, "Parser.kind")->property, "getter");
  EXPECT_EQ(function(f, "Parser.parse")->targets, (std::vector<std::string>{"super.parse", "this.#check"}));
  ASSERT_NE(function(f, "Parser.#check"), nullptr);
  ASSERT_NE(function(f, "Parser.extra"), nullptr);
  ASSERT_NE(function(f, "api.load"), nullptr);
  ASSERT_NE(function(f, "api.save"), nullptr);
  // A module wrapper's functions are the module's.
  ASSERT_NE(function(f, "wrapped"), nullptr);
  EXPECT_FALSE(function(f, "wrapped")->nested);
  ASSERT_EQ(f.class_bases.size(), 1u);
  EXPECT_EQ(f.class_bases[0].qualname, "Parser");
  EXPECT_EQ(f.class_bases[0].bases, std::vector<std::string>{"Base"});
  EXPECT_EQ(f.exports, (std::vector<std::string>{"Parser", "api"}));
}

TEST(JavaScriptCalls, AConfigObjectsMethodsAreTheInstancesItIsBoundTo) {
  auto f = scan_javascript_calls("export const GraphQLInt = new GraphQLScalarType({\n  name: 'Int',\n  serialize(v) {\n"
                                 "    return check(v);\n  },\n});\nregister({\n  load() {\n    go();\n  },\n});\n"
                                 "const two = make(options, {\n  other() {},\n});\n",
                                 Dialect::javascript);
  const auto* serialize = function(f, "GraphQLInt.serialize");
  ASSERT_NE(serialize, nullptr);
  EXPECT_EQ(serialize->line, 3);
  EXPECT_EQ(serialize->targets, std::vector<std::string>{"check"});
  // Not bound to a name, or not the first argument: no function.
  EXPECT_EQ(function(f, "load"), nullptr);
  EXPECT_EQ(function(f, "two.other"), nullptr);
}

TEST(JavaScriptCalls, ImportForms) {
  auto f = scan_javascript_calls(
      "import d, { a as b, c } from './x.js';\nimport * as ns from '../y';\nimport 'side-effect';\n"
      "const { p, q: r } = require('./z');\nconst whole = require('./w');\nconst one = require('./v').y;\n"
      "export { e as f } from './u';\nexport * from './t';\nexport * as sub from './s';\n",
      Dialect::typescript);
  EXPECT_TRUE(has_import(f, "./x.js", "default", "d"));
  EXPECT_TRUE(has_import(f, "./x.js", "a", "b"));
  EXPECT_TRUE(has_import(f, "./x.js", "c", ""));
  EXPECT_TRUE(has_import(f, "../y", "", "ns"));
  EXPECT_TRUE(has_import(f, "./z", "p", ""));
  EXPECT_TRUE(has_import(f, "./z", "q", "r"));
  EXPECT_TRUE(has_import(f, "./w", "", "whole"));
  EXPECT_TRUE(has_import(f, "./v", "y", "one"));
  EXPECT_TRUE(has_import(f, "./u", "e", "f"));
  EXPECT_TRUE(has_import(f, "./t", "*", ""));
  EXPECT_TRUE(has_import(f, "./s", "", "sub"));
  EXPECT_EQ(f.exports, (std::vector<std::string>{"f", "sub"}));
  EXPECT_TRUE(f.has_exports);
}

TEST(JavaScriptCalls, ExportForms) {
  auto esm = scan_javascript_calls(
      "function a() {}\nconst b = 1;\nexport { a, b as c };\nexport default a;\nexport function g() {}\n", Dialect::javascript);
  EXPECT_EQ(esm.exports, (std::vector<std::string>{"a", "c=b", "default=a", "g"}));
  auto anon = scan_javascript_calls("export default function () {\n  x();\n}\n", Dialect::javascript);
  EXPECT_EQ(anon.exports, std::vector<std::string>{"default"});
  ASSERT_NE(function(anon, "default"), nullptr);
  auto cjs = scan_javascript_calls(
      "function parseIt() {}\nmodule.exports = { parse: parseIt, load, run() {} };\nexports.x = function () {};\n"
      "module.exports.y = parseIt;\n",
      Dialect::javascript);
  EXPECT_EQ(cjs.exports, (std::vector<std::string>{"parse=parseIt", "load", "run", "x", "y=parseIt"}));
  ASSERT_NE(function(cjs, "run"), nullptr);
  ASSERT_NE(function(cjs, "x"), nullptr);
  auto single = scan_javascript_calls("module.exports = Thing;\nclass Thing {}\n", Dialect::javascript);
  EXPECT_EQ(single.exports, std::vector<std::string>{"default=Thing"});
  EXPECT_FALSE(scan_javascript_calls("function f() {}\n", Dialect::javascript).has_exports);
}

TEST(JavaScriptCalls, AScanOfSitesReadsThemTooAndTheCacheKeepsThem) {
  auto f = scan_javascript("import { check } from './check';\nexport function parse(s) {\n  check(s);\n"
                           "  throw new TypeError('bad');\n}\n",
                           Dialect::javascript);
  ASSERT_EQ(f.sites.size(), 1u);
  EXPECT_EQ(f.sites[0].function_line, 2);
  const auto* parse = function(f, "parse");
  ASSERT_NE(parse, nullptr);
  EXPECT_EQ(parse->line, 2);
  EXPECT_EQ(parse->targets, (std::vector<std::string>{"check", "TypeError"}));
  auto back = facts_from_json(facts_to_json(f));
  ASSERT_TRUE(back);
  ASSERT_EQ(back->functions.size(), f.functions.size());
  EXPECT_EQ(back->functions[0].qualname, "parse");
  EXPECT_EQ(back->functions[0].targets, parse->targets);
  EXPECT_EQ(back->functions[0].line, 2);
  ASSERT_EQ(back->imports.size(), 1u);
  EXPECT_EQ(back->imports[0].module, "./check");
  EXPECT_EQ(back->exports, f.exports);
  EXPECT_TRUE(back->has_exports);
}

}  // namespace
}  // namespace errdex::scan
