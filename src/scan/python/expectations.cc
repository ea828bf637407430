// Test files as evidence: what their tests expect to be raised or warned
// (scan/python/frontend.h, scan_python_tests).
#include <tree_sitter/api.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "scan/python/frontend.h"
#include "scan/python/outline.h"
#include "scan/python/text.h"
#include "scan/tree_walk.h"
#include "util/text.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex::scan {
namespace {

using model::TestExpectation;

// What a test runs inside one expectation, as far as linking needs it.
constexpr std::size_t k_max_calls = 24;
// The `code` of a link: the statement, cut after this many lines.
constexpr int k_max_code_lines = 5;
// Statements nest deeper than this only in generated code: not walked up.
constexpr int k_max_parent_hops = 64;

struct Api {
  std::string_view name;
  bool regex_arg;  // the regex is the second positional argument
  bool warns;
};

// The expectation APIs by the last component of the called name.
const Api* api_named(std::string_view name) {
  static constexpr Api k[] = {
      {"assertRaises", false, false},     {"assertRaisesRegex", true, false}, {"assertRaisesRegexp", true, false},
      {"raises", false, false},           {"assertWarns", false, true},       {"assertWarnsRegex", true, true},
      {"warns", false, true},
      // The helpers of numpy.testing and of test suites built on them
      // (SQLAlchemy's `assert_raises_message(exc, msg, fn, *args)` and
      // `with expect_raises_message(exc, msg):`): the message is a regex
      // searched in the error's text.
      {"assert_raises", false, false},    {"assert_raises_regex", true, false},
      {"assert_raises_message", true, false}, {"expect_raises", false, false},
      {"expect_raises_message", true, false}, {"assert_warns", false, true},
  };
  for (const auto& a : k)
    if (a.name == name) return &a;
  return nullptr;
}

bool is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }

// A node and its ancestors, the root first.
using Path = std::vector<TSNode>;

class TestScanner {
 public:
  TestScanner(std::string_view src, TSNode root) : m_src(src), m_root(root) {}

  std::vector<TestExpectation> run() {
    // The expectation calls, found from their names in the text rather
    // than by walking every node: each API's name holds "aises" or "arns".
    std::vector<std::pair<std::uint32_t, std::uint32_t>> names;  // byte ranges
    for (std::string_view stem : {std::string_view("aises"), std::string_view("arns")})
      for (std::size_t at = m_src.find(stem); at != std::string_view::npos; at = m_src.find(stem, at + stem.size())) {
        std::size_t b = at, e = at + stem.size();
        while (b > 0 && util::is_word_char(m_src[b - 1])) --b;
        while (e < m_src.size() && util::is_word_char(m_src[e])) ++e;
        if (api_named(m_src.substr(b, e - b))) names.emplace_back(b, e);
      }
    std::sort(names.begin(), names.end());
    // Each name's ancestors, from one cursor going down from the root (a
    // node's parent costs a descent from the root each time it is asked);
    // a call whose function ends with the name is at most two of them
    // (attribute, call) above it.
    std::vector<Path> calls;
    TSTreeCursor cur = ts_tree_cursor_new(m_root);
    for (auto [b, e] : names) {
      Path path{ts_tree_cursor_current_node(&cur)};
      while (ts_tree_cursor_goto_first_child_for_byte(&cur, b) >= 0) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (ts_node_start_byte(n) > b || ts_node_end_byte(n) < e) break;
        path.push_back(n);
      }
      ts_tree_cursor_reset(&cur, m_root);
      for (std::size_t k = path.size(); k-- > 0 && k + 3 >= path.size();)
        if (is(path[k], "call")) {
          TSNode fn = ts_node_child_by_field_name(path[k], "function", 8);
          if (!ts_node_is_null(fn) && ts_node_end_byte(fn) == e) calls.emplace_back(path.begin(), path.begin() + k + 1);
          break;
        }
    }
    ts_tree_cursor_delete(&cur);
    // In document order, outer calls first, as a pre-order walk of the
    // tree meets them.
    auto start = [](const Path& p) { return ts_node_start_byte(p.back()); };
    std::sort(calls.begin(), calls.end(), [&](const Path& x, const Path& y) {
      if (start(x) != start(y)) return start(x) < start(y);
      return ts_node_end_byte(x.back()) > ts_node_end_byte(y.back());
    });
    calls.erase(std::unique(calls.begin(), calls.end(),
                            [](const Path& x, const Path& y) { return ts_node_eq(x.back(), y.back()); }),
                calls.end());
    for (const Path& c : calls) visit_call(c);
    return std::move(m_out);
  }

  // The same from a walk of every node: the reference run() is tested
  // against.
  std::vector<TestExpectation> run_every_node() {
    Path path;
    walk(m_root, [&](TSNode n, std::uint32_t depth, TSTreeCursor*) {
      path.resize(depth);
      path.push_back(n);
      if (is(n, "call")) visit_call(path);
      return true;
    });
    return std::move(m_out);
  }

 private:
  std::string_view text(TSNode n) const {
    if (ts_node_is_null(n)) return {};
    return m_src.substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
  }
  static int line_of(TSNode n) { return static_cast<int>(ts_node_start_point(n).row) + 1; }

  // `self.module.loads` → "module.loads"; other receivers kept as written
  // when they are plain dotted names, else only the last name.
  // Names and dots only: `a.b.c`, not `f().x` nor `d['k']`.
  static bool is_dotted_name(std::string_view t) {
    return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    });
  }

  std::string callee_name(TSNode fn) const {
    std::string_view t = text(fn);
    if (t.starts_with("self.")) t.remove_prefix(5);
    else if (t.starts_with("cls.")) t.remove_prefix(4);
    if (is_dotted_name(t)) return std::string(t);
    if (is(fn, "attribute")) return std::string(text(ts_node_child_by_field_name(fn, "attribute", 9)));
    return {};
  }

  // The value of a plain string literal (or adjacent ones), nullopt for an
  // f-string with interpolations or anything else.
  std::optional<std::string> literal(TSNode n) const {
    while (is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
    if (is(n, "concatenated_string")) {
      std::string all;
      for (std::uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
        auto part = literal(ts_node_named_child(n, i));
        if (!part) return std::nullopt;
        all += *part;
      }
      return all;
    }
    if (!is(n, "string") || ts_node_child_count(n) < 2) return std::nullopt;
    TSNode start = ts_node_child(n, 0), end = ts_node_child(n, ts_node_child_count(n) - 1);
    for (std::uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
      if (is(ts_node_named_child(n, i), "interpolation")) return std::nullopt;
    python::StringPrefix prefix = python::parse_prefix(text(start));
    std::uint32_t b = ts_node_end_byte(start), e = std::max(b, ts_node_start_byte(end));
    std::vector<model::TemplatePart> parts;
    python::decode_literal(m_src.substr(b, e - b), prefix, parts);
    std::string out;
    for (const auto& p : parts) {
      if (!p.literal) return std::nullopt;
      out += p.text;
    }
    return out;
  }

  void add_class(TSNode n, TestExpectation& e) const {
    if (is(n, "tuple") || is(n, "parenthesized_expression")) {
      for (std::uint32_t i = 0; i < ts_node_named_child_count(n) && e.classes.size() < 8; ++i)
        add_class(ts_node_named_child(n, i), e);
      return;
    }
    if (is(n, "identifier") || is(n, "attribute")) e.classes.emplace_back(text(n));
  }

  // Every call under `n` (lambda bodies included), by name. A subscript
  // of a named receiver calls its class's item method: `m['x']` is
  // `m.__getitem__`, `m['x'] = v` `m.__setitem__`, `del m['x']`
  // `m.__delitem__` (a receiver the test file does not type names nothing).
  // With `accesses`, an attribute of a named receiver read, assigned or
  // deleted (`obj.size`, `obj.size = v`, `del obj.size`, and `getattr`,
  // `setattr`, `delattr` with its name as a literal) is written as its
  // descriptor method, `obj.size.__get__`, `__set__` or `__delete__`,
  // after the calls: a property runs its accessor (type_test_calls keeps
  // those of an instance only).
  void calls_under(TSNode n, std::vector<std::string>& out, bool accesses = true) const {
    auto add = [&](std::vector<std::string>& to, std::string name) {
      if (!name.empty() && std::find(to.begin(), to.end(), name) == to.end()) to.push_back(std::move(name));
    };
    std::vector<std::string> read;
    walk(n, [&](TSNode c, std::uint32_t, TSTreeCursor*) {
      if (out.size() >= k_max_calls) return false;
      if (is(c, "call")) {
        add(out, callee_name(ts_node_child_by_field_name(c, "function", 8)));
        if (accesses) add(read, builtin_access(c));
      }
      if (is(c, "subscript")) {
        const std::string receiver = receiver_name(ts_node_child_by_field_name(c, "value", 5));
        if (!receiver.empty()) add(out, receiver + "." + item_method(c));
      }
      if (accesses && is(c, "attribute") && !is_callee(c)) {
        const std::string receiver = receiver_name(ts_node_child_by_field_name(c, "object", 6));
        if (!receiver.empty()) {
          const std::string name = receiver + "." + std::string(text(ts_node_child_by_field_name(c, "attribute", 9)));
          for (const char* method : descriptor_methods(c)) add(read, name + "." + method);
        }
      }
      return true;
    });
    for (auto& r : read)
      if (out.size() < k_max_calls) add(out, std::move(r));
  }

  // Whether attribute `a` is what a call calls (`obj.m` of `obj.m()`).
  static bool is_callee(TSNode a) {
    TSNode parent = ts_node_parent(a);
    return is(parent, "call") && ts_node_eq(ts_node_child_by_field_name(parent, "function", 8), a);
  }

  // How an expression `n` is used, by where it stands: the target of an
  // assignment is set (of `+=`, read then set), of `del` deleted; anything
  // else is read.
  enum class Use { read, set, update, del };
  static Use use_of(TSNode n) {
    TSNode parent = ts_node_parent(n);
    if (is(parent, "delete_statement") ||
        (is(parent, "expression_list") && is(ts_node_parent(parent), "delete_statement")))
      return Use::del;
    const bool target = ts_node_eq(ts_node_child_by_field_name(parent, "left", 4), n);
    if (is(parent, "assignment") && target) return Use::set;
    if (is(parent, "augmented_assignment") && target) return Use::update;
    return Use::read;
  }

  // What using attribute `a` runs of a property.
  static std::vector<const char*> descriptor_methods(TSNode a) {
    switch (use_of(a)) {
      case Use::del: return {"__delete__"};
      case Use::set: return {"__set__"};
      case Use::update: return {"__get__", "__set__"};
      case Use::read: break;
    }
    return {"__get__"};
  }

  // `getattr(obj, 'size')`, `setattr(obj, 'size', v)`, `delattr(obj,
  // 'size')` as the attribute access they make, else "".
  std::string builtin_access(TSNode call) const {
    const char* method = builtin_method(text(ts_node_child_by_field_name(call, "function", 8)));
    if (!method) return {};
    std::vector<TSNode> args;
    TSNode list = ts_node_child_by_field_name(call, "arguments", 9);
    for (std::uint32_t i = 0; i < ts_node_named_child_count(list); ++i)
      if (!is(ts_node_named_child(list, i), "comment")) args.push_back(ts_node_named_child(list, i));
    return access_of(method, args, 0);
  }

  // The descriptor method a built-in accessor function runs, or null.
  static const char* builtin_method(std::string_view fn) {
    return fn == "getattr" ? "__get__" : fn == "setattr" ? "__set__" : fn == "delattr" ? "__delete__" : nullptr;
  }

  // The access of `method` made on `args[at]` (the receiver) and
  // `args[at + 1]` (the name, a literal), else "".
  std::string access_of(const char* method, const std::vector<TSNode>& args, std::size_t at) const {
    if (args.size() < at + 2 || is(args[at], "keyword_argument")) return {};
    const std::string receiver = receiver_name(args[at]);
    const auto name = literal(args[at + 1]);
    if (receiver.empty() || !name || name->empty() ||
        !std::all_of(name->begin(), name->end(), [](char c) { return util::is_word_char(c); }))
      return {};
    return receiver + "." + *name + "." + method;
  }

  // A receiver written as a dotted name (`self.` dropped as callee_name
  // drops it), else "": `self` itself is the test case.
  std::string receiver_name(TSNode value) const {
    if (!is_dotted_name(text(value))) return {};
    std::string name = callee_name(value);
    return name == "self" || name == "cls" ? std::string() : name;
  }

  // Which item method the subscript `s` calls (`m[k] += 1` reads it
  // first: __getitem__).
  static std::string item_method(TSNode s) {
    const Use use = use_of(s);
    return use == Use::del ? "__delitem__" : use == Use::set ? "__setitem__" : "__getitem__";
  }

  // The statement of a `with` body that raises: its last one, as nothing
  // after the raise runs; earlier ones prepare it. A trailing `self.fail`,
  // assertion or `pass` never runs when the test passes and is passed over.
  TSNode raising_statement(TSNode body) const {
    for (std::uint32_t i = ts_node_named_child_count(body); i-- > 0;) {
      TSNode st = ts_node_named_child(body, i);
      if (is(st, "comment") || is(st, "pass_statement") || is(st, "assert_statement")) continue;
      if (is(st, "expression_statement") && ts_node_named_child_count(st) == 1 &&
          is(ts_node_named_child(st, 0), "call")) {
        std::string name = callee_name(ts_node_child_by_field_name(ts_node_named_child(st, 0), "function", 8));
        std::string_view last = std::string_view(name).substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
        if (last.starts_with("fail") || last.starts_with("assert")) continue;
      }
      return st;
    }
    return body;
  }

  // The test a node (path.back()) is in: its outermost function, with
  // the class that holds that function.
  std::string test_name(const Path& path) const {
    TSNode fn{}, cls{};
    bool have_fn = false;
    int hops = 0;
    for (std::size_t k = path.size() - 1; k-- > 0 && hops < k_max_parent_hops; ++hops) {
      TSNode p = path[k];
      if (is(p, "function_definition")) {
        fn = p;
        have_fn = true;
      } else if (is(p, "class_definition") && have_fn) {
        cls = p;
        break;
      }
    }
    if (!have_fn) return {};
    std::string name(text(ts_node_child_by_field_name(fn, "name", 4)));
    if (!ts_node_is_null(cls)) name = std::string(text(ts_node_child_by_field_name(cls, "name", 4))) + "." + name;
    return name;
  }

  // The statement's lines (the first k_max_code_lines), dedented by its
  // own column.
  std::string code_of(TSNode stmt) const {
    const std::uint32_t col = ts_node_start_point(stmt).column;
    return python::statement_lines(
        m_src.substr(ts_node_start_byte(stmt) - col, ts_node_end_byte(stmt) - ts_node_start_byte(stmt) + col), col,
        k_max_code_lines);
  }

  void visit_call(const Path& path) {
    const TSNode call = path.back();
    // The ancestor `k` levels above the call (1: its parent); null above the root.
    auto up = [&](std::size_t k) { return k < path.size() ? path[path.size() - 1 - k] : TSNode{}; };
    TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    std::string_view fname = text(fn);
    std::string_view last = fname.substr(fname.rfind('.') == std::string_view::npos ? 0 : fname.rfind('.') + 1);
    const Api* api = api_named(last);
    if (!api) return;
    // pytest's are `pytest.raises` or a bare `raises`; unittest's are methods.
    if ((last == "raises" || last == "warns") && !(fname == last || fname == std::string("pytest.") + std::string(last)))
      return;
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    std::vector<TSNode> positional;
    TestExpectation e;
    e.kind = api->warns ? "warns" : "raises";
    for (std::uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
      TSNode a = ts_node_named_child(args, i);
      if (is(a, "keyword_argument")) {
        std::string_view key = text(ts_node_child_by_field_name(a, "name", 4));
        if (key == "match" || key == "expected_regex")
          if (auto m = literal(ts_node_child_by_field_name(a, "value", 5))) e.match = *m;
        if (key == "expected_exception" || key == "expected_warning")
          add_class(ts_node_child_by_field_name(a, "value", 5), e);
        continue;
      }
      if (is(a, "comment")) continue;
      positional.push_back(a);
    }
    if (!positional.empty()) add_class(positional[0], e);
    if (e.classes.empty()) return;
    std::size_t next = 1;
    if (api->regex_arg && positional.size() > 1) {
      if (auto m = literal(positional[1])) e.match = *m;
      next = 2;
    }
    e.test = test_name(path);
    if (e.test.empty()) return;  // module level: no test runs it
    // Context manager: `with self.assertRaises(E) [as cm]: body`.
    std::size_t level = 1;
    TSNode item = up(level);
    if (is(item, "as_pattern")) item = up(++level);
    TSNode with = item;
    for (int hops = 0; hops < 3 && !ts_node_is_null(with) && !is(with, "with_statement"); ++hops)
      with = up(++level);
    if (is(item, "with_item") && is(with, "with_statement")) {
      calls_under(raising_statement(ts_node_child_by_field_name(with, "body", 4)), e.calls);
      e.line = line_of(with);
      e.code = code_of(with);
    } else if (positional.size() > next) {
      TSNode target = positional[next];
      if (is(target, "lambda")) {
        calls_under(target, e.calls);
      } else {
        std::string name = callee_name(target);
        // `assertRaises(E, setattr, obj, 'size', v)`: the access it makes too.
        std::string access;
        if (const char* method = builtin_method(name)) access = access_of(method, positional, next + 1);
        if (!name.empty()) e.calls.push_back(std::move(name));
        if (!access.empty()) e.calls.push_back(std::move(access));
        // The arguments are evaluated before the expectation holds: their
        // calls are read as ever, their attribute reads are not.
        for (std::size_t k = next + 1; k < positional.size(); ++k) calls_under(positional[k], e.calls, false);
      }
      std::size_t at = 0;  // the statement: `at` levels above the call
      while (!ts_node_is_null(up(at + 1)) && !is(up(at), "expression_statement") && !is(up(at + 1), "block") &&
             !is(up(at + 1), "module"))
        ++at;
      TSNode stmt = up(at);
      e.line = line_of(call);
      e.code = code_of(stmt);
    } else {
      return;  // `cm = self.assertRaises(E)` and other uses: what it runs is not read
    }
    if (e.calls.empty()) return;
    m_out.push_back(std::move(e));
  }

  std::string_view m_src;
  TSNode m_root;
  std::vector<TestExpectation> m_out;
};

}  // namespace

bool may_have_expectations(std::string_view source) {
  return source.find("assertRaises") != std::string_view::npos || source.find("assertWarns") != std::string_view::npos ||
         source.find("raises(") != std::string_view::npos || source.find("warns(") != std::string_view::npos ||
         source.find("_raises_") != std::string_view::npos;
}

namespace {

// The expectations of `text`, parsed whole; `every_node`: found by a walk
// of every node (the reference) rather than from their names.
model::FileFacts expectations_of(std::string_view text, bool every_node) {
  model::FileFacts facts;
  if (text.size() > 0xFFFFFFF0u || python::too_deeply_indented(text)) return facts;
  thread_local TsParser parser(tree_sitter_python());
  TSTree* tree = ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<std::uint32_t>(text.size()));
  if (!tree) {
    ts_parser_reset(parser.get());
    facts.had_syntax_errors = true;
    return facts;
  }
  facts.had_syntax_errors = ts_node_has_error(ts_tree_root_node(tree));
  TestScanner scanner(text, ts_tree_root_node(tree));
  facts.expectations = every_node ? scanner.run_every_node() : scanner.run();
  ts_tree_delete(tree);
  return facts;
}

}  // namespace

model::FileFacts scan_python_tests(std::string_view source) {
  if (!may_have_expectations(source)) return {};
  static const std::vector<std::string> k_words = {"assertRaises", "assertRaisesRegex", "assertRaisesRegexp",
                                                   "assertWarns",  "assertWarnsRegex",  "raises",
                                                   "warns", "assert_raises", "assert_raises_regex",
                                                   "assert_raises_message", "expect_raises",
                                                   "expect_raises_message", "assert_warns"};
  // Split once: for the tests that expect something (only they are
  // parsed), and for what the test's receivers are bound to.
  const PythonLines lines(source);
  auto outline = keep_only_words(lines, k_words);
  auto facts = expectations_of(outline ? std::string_view(*outline) : source, false);
  type_test_calls(lines, facts);
  return facts;
}

model::FileFacts scan_python_tests_whole(std::string_view source) {
  auto facts = expectations_of(source, true);
  type_test_calls(PythonLines(source), facts);
  return facts;
}

}  // namespace errdex::scan
