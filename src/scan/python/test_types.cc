// What the receivers of a test's calls stand for (scan_python_tests): the
// call graph resolves `json.loads` through the test file's imports, but not
// `self.dec.decode` with `self.dec = JSONDecoder()` in `setUp`, nor
// `self.decimal.Decimal` with `decimal = P` in a subclass and
// `P = import_fresh_module('decimal', blocked=['_decimal'])` at the top. A
// light pass over the test file's lines (no parse) reads those bindings and
// rewrites each expectation's calls to the names they stand for
// (`JSONDecoder.decode`, `decimal.Decimal`).
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scan/python/frontend.h"
#include "scan/python/outline.h"
#include "scan/python/text.h"

namespace errdex::scan {
namespace {

using python::split_args;
using python::string_end;

// Bindings followed from one name (an alias of an alias ...).
constexpr int k_max_depth = 6;
// A receiver that stands for more than this many names (a mixin's
// subclasses) says too little: left as written.
constexpr std::size_t k_max_values = 3;
// Calls of one expectation after rewriting.
constexpr std::size_t k_max_calls = 24;
// The tests named for one expectation in a helper they call.
constexpr std::size_t k_max_callers = 3;
// The `code` of a test calling a helper: its statement, cut after this
// many lines.
constexpr int k_max_code_lines = 5;
// Helpers of the test file followed into helpers they call.
constexpr int k_max_helper_depth = 2;

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// What a name is bound to, as written: `x = Foo(...)` {"Foo", call},
// `x = Foo` {"Foo", alias}; a module loaded by name {"decimal", module}.
struct Value {
  enum Kind { alias, call, module } kind = alias;
  std::string text;
  // The subclass of a mixin whose attribute gave it ("*" for several).
  std::string via;
  // For a call's result with an attribute after it (`make_thing().m`
  // written "make_thing.m"): where the call's name ends in `text`, npos
  // otherwise. The typed call is written with `()` there.
  std::size_t call_end = std::string::npos;
  // For a call bound to a test's own local (`w = Wrapper('x', width=3)`):
  // its argument text, as written; empty when unknown (bound differently
  // twice, an attribute of it set in the test, got some other way).
  std::optional<std::string> args = std::nullopt;
  // For a test's own local: the line of the statement that bound it.
  int line = 0;
};

struct ClassInfo {
  std::vector<std::string> bases;  // as written, dotted names only
  // Class attributes and `self.x = ...` in its methods, first binding
  // kept; a name bound to different things is dropped (`conflicts`).
  std::map<std::string, Value> attrs;
  std::vector<std::string> conflicts;
};

// A call as written in a function's body: its callee (`self.`/`cls.`
// dropped), its arguments' texts, its line and statement.
struct CallSite {
  std::string_view callee;
  std::string_view statement;
  std::size_t open = 0;  // the call's `(` in `statement`
  int line = 0;
  std::uint32_t indent = 0;
};

// A logical line of a function's body: its text (a view of the source,
// a trailing comment included), first line and indent.
struct Statement {
  std::string_view text;
  int line = 0;
  std::uint32_t indent = 0;
};

struct Bindings {
  std::unordered_map<std::string, ClassInfo> classes;  // by qualname
  std::map<std::string, Value> module;                 // module-level names
  // Per function ("Cls.test_x", "helper": the outermost function, with
  // its class): its locals and what it returns.
  std::unordered_map<std::string, std::map<std::string, Value>> locals;
  std::unordered_map<std::string, Value> returns;
  std::vector<std::string> bad_returns;  // functions returning different things
  std::vector<std::string> modules;      // modules loaded by name
  // Per function key: its parameters but `self`/`cls`, and the calls of
  // its body (nested functions' included) in order.
  std::unordered_map<std::string, std::vector<std::string>> params;
  std::unordered_map<std::string, std::vector<CallSite>> calls;
  std::vector<std::string> functions;  // keys, in file order
  // Per function key: loop variables over names (`for c in A, B:`).
  std::unordered_map<std::string, std::map<std::string, std::vector<Value>>> loops;
  // Per function key: the statements of its body (nested functions'
  // included), in order, for what a test does to its local between making
  // it and its expectation (steps_on).
  std::unordered_map<std::string, std::vector<Statement>> statements;
};

void bind_name(std::map<std::string, Value>& into, std::vector<std::string>* conflicts, const std::string& name, Value v) {
  auto [it, fresh] = into.emplace(name, v);
  if (fresh) return;
  if (it->second.kind == v.kind && it->second.text == v.text) {
    if (it->second.args != v.args) it->second.args.reset();  // which call made it is unknown
    return;
  }
  if (conflicts) conflicts->push_back(name);
  into.erase(it);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r' || s.front() == '\\'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r' || s.back() == '\\'))
    s.remove_suffix(1);
  return s;
}

// A dotted name at the start of `s` ("self.x", "json.loads"), or "".
std::string_view dotted_prefix(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (ident_char(s[i]) || (s[i] == '.' && i > 0 && i + 1 < s.size() && ident_char(s[i + 1])))) ++i;
  if (i > 0 && std::isdigit(static_cast<unsigned char>(s[0]))) return {};
  return s.substr(0, i);
}

bool is_dotted(std::string_view s) { return !s.empty() && dotted_prefix(s).size() == s.size(); }

// The first string literal's text in `s` (plain quotes, no escapes).
std::string_view first_string(std::string_view s) {
  auto q = s.find_first_of("'\"");
  if (q == std::string_view::npos) return {};
  auto e = s.find(s[q], q + 1);
  if (e == std::string_view::npos) return {};
  return s.substr(q + 1, e - q - 1);
}

// A statement's text without its comments (each runs to its line's end),
// trimmed.
std::string code_of(std::string_view t) {
  std::string out;
  for (std::size_t i = 0; i < t.size();) {
    if (t[i] == '#') {
      i = t.find('\n', i);
      if (i == std::string_view::npos) break;
      continue;
    }
    if (t[i] == '\'' || t[i] == '"') {
      const std::size_t end = string_end(t, i);
      if (end == std::string_view::npos) return std::string(trim(t));
      out.append(t.substr(i, end - i));
      i = end;
      continue;
    }
    out += t[i++];
  }
  return std::string(trim(out));
}

// The value of `rhs`: a dotted name alone, or a call of one whose `)` ends
// the line; `staticmethod(f)` is `f`; a module loaded by name
// (`import_fresh_module('decimal', blocked=['_decimal'])`,
// `import_module('json')`) is that module, unless only its C accelerator is
// loaded (`fresh=['_decimal']`: none of its Python code runs).
std::optional<Value> value_of(std::string_view text) {
  const std::string code = code_of(text);
  std::string_view rhs = code;
  std::string_view name = dotted_prefix(rhs);
  if (name.empty()) return std::nullopt;
  std::string_view rest = trim(rhs.substr(name.size()));
  if (rest.empty()) return Value{Value::alias, std::string(name), {}};
  if (rest.front() != '(' || rest.back() != ')') return std::nullopt;
  // The `)` that closes the call must be the last one.
  int depth = 0;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '(') ++depth;
    else if (rest[i] == ')' && --depth == 0 && i + 1 != rest.size()) return std::nullopt;
  }
  std::string_view args = rest.substr(1, rest.size() - 2);
  std::string_view last = name.substr(name.rfind('.') == std::string_view::npos ? 0 : name.rfind('.') + 1);
  if (last == "staticmethod" || last == "classmethod") {
    if (is_dotted(trim(args))) return Value{Value::alias, std::string(trim(args)), {}};
    return std::nullopt;
  }
  // Any loader by name (`import_module`, `import_fresh_module`,
  // `import_deprecated`, `__import__`) given the module as a literal.
  if (last.find("import") != std::string_view::npos) {
    std::string_view a = trim(args);
    std::string_view mod = first_string(a);
    if (a.empty() || (a.front() != '\'' && a.front() != '"') || !is_dotted(mod)) return std::nullopt;
    auto fresh = args.find("fresh");
    if (args.find("blocked") == std::string_view::npos && fresh != std::string_view::npos) {
      std::string_view f = args.substr(fresh);
      f = f.substr(0, f.find(']'));
      if (f.find("'_") != std::string_view::npos || f.find("\"_") != std::string_view::npos) return std::nullopt;
    }
    return Value{Value::module, std::string(mod), {}};
  }
  Value out{Value::call, std::string(name), {}};
  out.args = std::string(trim(args));
  return out;
}

bool starts_with_word(std::string_view s, std::string_view w) {
  return s.starts_with(w) && (s.size() == w.size() || !ident_char(s[w.size()]));
}

bool is_keyword(std::string_view w) {
  static constexpr std::string_view k[] = {"if", "elif", "while", "for", "in", "not", "and", "or", "return", "yield",
                                           "await", "assert", "del", "is", "lambda", "with", "as", "else", "print",
                                           "raise", "except", "from", "import"};
  return std::find(std::begin(k), std::end(k), w) != std::end(k);
}

// The calls in a statement's text: a dotted name followed by `(`, outside
// strings; nested ones too.
void calls_in(std::string_view t, int line, std::uint32_t indent, std::vector<CallSite>& out) {
  for (std::size_t i = 0; i < t.size();) {
    char c = t[i];
    if (c == '#') return;
    if (c == '\'' || c == '"') {
      i = string_end(t, i);
      if (i == std::string_view::npos) return;
      continue;
    }
    if (!ident_char(c) || (i > 0 && (ident_char(t[i - 1]) || t[i - 1] == '.'))) {
      ++i;
      continue;
    }
    std::string_view name = dotted_prefix(t.substr(i));
    if (name.empty()) {
      ++i;
      continue;
    }
    std::size_t after = i + name.size();
    // A string prefix (`b'...'`, `rf"..."`): the literal, not a name.
    if (after < t.size() && (t[after] == '\'' || t[after] == '"')) {
      i = after;
      continue;
    }
    std::size_t open = after;
    while (open < t.size() && t[open] == ' ') ++open;
    if (open < t.size() && t[open] == '(' && !is_keyword(name) && !name.ends_with('.')) {
      std::string_view callee = name;
      if (callee.starts_with("self.")) callee.remove_prefix(5);
      else if (callee.starts_with("cls.")) callee.remove_prefix(4);
      out.push_back({callee, t, open, line, indent});
    }
    i = after;
  }
}

// Whether code `t` names `name` as a whole word outside strings (not as
// an attribute: `x.name`).
bool mentions(std::string_view t, std::string_view name) {
  for (std::size_t i = 0; i < t.size();) {
    if (t[i] == '\'' || t[i] == '"') {
      i = string_end(t, i);
      if (i == std::string_view::npos) return false;
      continue;
    }
    if (t.substr(i).starts_with(name) && (i == 0 || (!ident_char(t[i - 1]) && t[i - 1] != '.')) &&
        (i + name.size() == t.size() || !ident_char(t[i + name.size()])))
      return true;
    ++i;
  }
  return false;
}

// What test `key` does to its local `name` after the statement at line
// `from` bound it to the call that made it, before its expectation at
// line `to` (TestExpectation::instance_steps): each statement of the
// binding's block that uses it, a method call on it alone (`close()`,
// `open('w')`) or a set of one of its attributes (`mode = 'r'`); "?" in
// place of the rest when it is used any other way (passed to a call,
// `b.x += 1`, `b.items[0] = 1`, in a nested block, rebound), after which
// what it holds is unknown.
std::vector<std::string> steps_on(const Bindings& b, const std::string& key, std::string_view name, int from, int to) {
  std::vector<std::string> out;
  auto st = b.statements.find(key);
  if (st == b.statements.end() || from >= to) return {"?"};
  auto made = std::find_if(st->second.begin(), st->second.end(), [&](const Statement& s) { return s.line == from; });
  if (made == st->second.end()) return {"?"};
  for (auto s = made + 1; s != st->second.end() && s->line < to; ++s) {
    const std::string text = code_of(s->text);
    std::string_view code = text;
    if (!mentions(code, name)) continue;
    std::string_view target = dotted_prefix(code);
    std::string_view member = target.size() > name.size() ? target.substr(name.size() + 1) : std::string_view();
    std::string_view rest = trim(code.substr(target.size()));
    if (s->indent != made->indent || !target.starts_with(name) || target.size() <= name.size() ||
        target[name.size()] != '.' || member.find('.') != std::string_view::npos || mentions(rest, name)) {
      out.emplace_back("?");
      break;
    }
    if (rest.starts_with('(')) {
      std::vector<std::string_view> args;
      if (split_args(rest, 0, args) + 1 != rest.size()) {
        out.emplace_back("?");
        break;
      }
      out.push_back(std::string(member) + std::string(rest));
    } else if (rest.size() >= 2 && rest[0] == '=' && rest[1] != '=') {
      out.push_back(std::string(member) + " = " + std::string(trim(rest.substr(1))));
    } else {
      out.emplace_back("?");
      break;
    }
  }
  return out;
}

// A `def`'s parameters after its name (`(self, a, b=1, *args)`), but
// `self`, `cls` and the markers.
std::vector<std::string> params_of(std::string_view rest) {
  std::vector<std::string> out;
  auto open = rest.find('(');
  if (open == std::string_view::npos) return out;
  std::vector<std::string_view> parts;
  split_args(rest, open, parts);
  for (std::string_view p : parts) {
    while (p.starts_with('*')) p.remove_prefix(1);
    std::size_t n = 0;
    while (n < p.size() && ident_char(p[n])) ++n;
    std::string_view name = p.substr(0, n);
    if (!name.empty() && name != "self" && name != "cls") out.emplace_back(name);
  }
  return out;
}

// The `EXPR as NAME` items of a `with` statement's header (`with
// zipfile.ZipFile(f, 'w') as zf, open(p) as g:`), `with` dropped; empty
// when the header does not end in its `:` on this line.
std::vector<std::pair<std::string_view, std::string_view>> with_items(std::string_view header) {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const char c = header[i];
    if (c == '\'' || c == '"') {
      i = string_end(header, i);
      if (i == std::string_view::npos) return {};
      --i;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (depth == 0 && (c == ',' || c == ':')) {
      items.push_back(trim(header.substr(start, i - start)));
      start = i + 1;
      if (c == ':') break;
    }
  }
  if (start == 0) return {};
  for (std::string_view item : items) {
    const std::size_t as = item.rfind(" as ");
    if (as == std::string_view::npos) continue;
    std::string_view name = trim(item.substr(as + 4));
    if (name.empty() || !std::all_of(name.begin(), name.end(), ident_char)) continue;
    out.emplace_back(trim(item.substr(0, as)), name);
  }
  return out;
}

Bindings read_bindings(const PythonLines& lines) {
  Bindings b;
  struct Scope {
    std::uint32_t indent;
    bool is_class;
    std::string name;  // class qualname, or the function's key
    bool method = false;  // a def whose parent is a class at no function's level
  };
  std::vector<Scope> open;
  const std::string_view source = lines.source();
  std::size_t counted = 0;  // bytes of `source` whose newlines are in `line`
  int line = 1;
  for_each_logical_line(lines, [&](std::uint32_t indent, std::string_view t) {
    if (t.empty() || t.front() == '@') return;
    while (!open.empty() && open.back().indent >= indent) open.pop_back();
    const std::size_t at = static_cast<std::size_t>(t.data() - source.data());
    if (at >= counted && at <= source.size()) {
      line += static_cast<int>(std::count(source.begin() + counted, source.begin() + at, '\n'));
      counted = at;
    }
    if (starts_with_word(t, "async")) t = trim(t.substr(5));
    const bool is_def = starts_with_word(t, "def"), is_class = starts_with_word(t, "class");
    if (is_def || is_class) {
      std::string_view rest = trim(t.substr(is_def ? 3 : 5));
      std::size_t n = 0;
      while (n < rest.size() && ident_char(rest[n])) ++n;
      std::string name(rest.substr(0, n));
      const Scope* fn = nullptr;
      for (const auto& s : open)
        if (!s.is_class) fn = &s;
      if (is_def) {
        // Keyed as a test runner names the test: its class and the
        // outermost function.
        std::string key = fn ? fn->name : (!open.empty() ? open.back().name + '.' + name : name);
        if (!fn && b.params.emplace(key, params_of(rest.substr(n))).second) b.functions.push_back(key);
        open.push_back({indent, false, key, !fn && !open.empty()});
        return;
      }
      std::string q = (!open.empty() && open.back().is_class ? open.back().name + '.' : std::string()) + name;
      if (fn) q = fn->name + '.' + name;  // a class inside a function: not a test's
      ClassInfo& c = b.classes[q];
      rest = rest.substr(n);
      if (rest.starts_with("(")) {
        auto close = rest.rfind(')');
        std::string_view inside = rest.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
        while (!inside.empty()) {
          auto comma = inside.find(',');
          std::string_view base = trim(inside.substr(0, comma));
          if (is_dotted(base)) c.bases.emplace_back(base);
          if (comma == std::string_view::npos) break;
          inside.remove_prefix(comma + 1);
        }
      }
      open.push_back({indent, true, q});
      return;
    }
    const Scope* fn = nullptr;
    for (const auto& s : open)
      if (!s.is_class) fn = &s;
    if (fn) {
      calls_in(t, line, indent, b.calls[fn->name]);
      b.statements[fn->name].push_back({t, line, indent});
    }
    if (starts_with_word(t, "return")) {
      if (!fn) return;
      if (auto v = value_of(t.substr(6)); v && v->kind != Value::alias) {
        auto [it, fresh] = b.returns.emplace(fn->name, *v);
        if (!fresh && it->second.text != v->text) b.bad_returns.push_back(fn->name);
      } else {
        b.bad_returns.push_back(fn->name);
      }
      return;
    }
    // `for NAME in A, B:` over names: NAME stands for each.
    if (fn && starts_with_word(t, "for")) {
      std::string_view rest = trim(t.substr(3));
      std::string_view name = dotted_prefix(rest);
      rest = trim(rest.substr(name.size()));
      if (name.empty() || name.find('.') != std::string_view::npos || !starts_with_word(rest, "in") ||
          !rest.ends_with(':'))
        return;
      std::string_view items = trim(rest.substr(2, rest.size() - 3));
      if (items.size() >= 2 && ((items.front() == '(' && items.back() == ')') || (items.front() == '[' && items.back() == ']')))
        items = items.substr(1, items.size() - 2);
      std::vector<Value> each;
      for (std::size_t start = 0; start <= items.size();) {
        std::size_t comma = items.find(',', start);
        std::string_view item = trim(items.substr(start, comma == std::string_view::npos ? comma : comma - start));
        if (!item.empty()) {
          if (!is_dotted(item)) return;
          each.push_back({Value::alias, std::string(item), {}});
        }
        if (comma == std::string_view::npos) break;
        start = comma + 1;
      }
      if (each.size() >= 2 && each.size() <= k_max_values) b.loops[fn->name].emplace(std::string(name), std::move(each));
      return;
    }
    // `with Cls(...) as name:` binds what `__enter__` returns: the
    // instance itself, for the classes whose methods a test calls on it
    // (`zipfile.ZipFile`, `bz2.BZ2File`).
    if (fn && starts_with_word(t, "with")) {
      for (auto [expr, name] : with_items(t.substr(4)))
        if (auto v = value_of(expr); v && v->kind == Value::call) {
          v->line = line;
          bind_name(b.locals[fn->name], nullptr, std::string(name), *v);
        }
      return;
    }
    // `TARGET = VALUE`, one target.
    std::string_view target = dotted_prefix(t);
    if (target.empty()) return;
    std::string_view rest = trim(t.substr(target.size()));
    if (rest.size() < 2 || rest[0] != '=' || rest[1] == '=') return;
    auto v = value_of(rest.substr(1));
    std::string name(target);
    if (!v) {
      // Bound to something unread: what it was bound to before no longer holds.
      v = Value{Value::alias, "?", {}};
    }
    if (v->kind == Value::module) b.modules.push_back(v->text);
    if (!fn && !open.empty()) {  // class body
      ClassInfo& c = b.classes[open.back().name];
      bind_name(c.attrs, &c.conflicts, name, *v);
    } else if (!fn) {
      bind_name(b.module, nullptr, name, *v);
    } else if (name.starts_with("self.") || name.starts_with("cls.")) {
      // Only in a method itself: a closure's or a nested class's `self` may
      // be another object.
      if (!open.back().method) return;
      std::string attr = name.substr(name.find('.') + 1);
      if (attr.find('.') != std::string::npos) return;
      // The method's class: the scope that holds the outermost function.
      std::string_view key = fn->name;
      auto dot = key.rfind('.');
      if (dot == std::string_view::npos) return;
      ClassInfo& c = b.classes[std::string(key.substr(0, dot))];
      bind_name(c.attrs, &c.conflicts, attr, *v);
    } else if (name.find('.') == std::string::npos) {
      v->line = line;
      bind_name(b.locals[fn->name], nullptr, name, *v);
    }
  });
  return b;
}

class Typer {
 public:
  explicit Typer(const Bindings& b) : m_b(b) {
    for (const auto& [q, c] : b.classes)
      for (const auto& base : c.bases) m_subclasses[base].push_back(q);
  }

  // What `call` (as a test writes it, `self.` dropped) stands for, in the
  // test `test` ("Cls.test_x"); empty when nothing is known. A helper of
  // the test file (a method of the test's class or its bases, a function
  // of the module) stands for the calls of its body.
  std::vector<Value> rewrite(const std::string& call, const std::string& test, int depth = 0) const {
    if (std::string key = helper(call, test); !key.empty()) return helper_calls(key, depth);
    auto dot = call.find('.');
    std::string head = call.substr(0, dot);
    std::string rest = dot == std::string::npos ? std::string() : call.substr(dot);
    std::vector<Value> out;
    for (auto& v : values(head, test, 0)) {
      if (v.kind == Value::call && rest.empty()) continue;  // calling an instance: its `__call__`
      if (v.text == "?") continue;
      if (v.kind == Value::call && !rest.empty()) v.call_end = v.text.size();
      v.text += rest;
      out.push_back(std::move(v));
    }
    return out;
  }

  // The key of the test file's function that `name` (no dot) calls from
  // `test`: a method of its class or of a base in the file, else a
  // module-level function; "" for none (or `test` itself).
  std::string helper(const std::string& name, const std::string& test) const {
    if (name.find('.') != std::string::npos) return {};
    std::string cls = class_of(test);
    for (int hops = 0; !cls.empty() && hops < k_max_depth; ++hops) {
      if (std::string key = cls + '.' + name; m_b.params.contains(key)) return key == test ? std::string() : key;
      auto c = m_b.classes.find(cls);
      if (c == m_b.classes.end() || c->second.bases.empty()) break;
      cls = c->second.bases.front();
    }
    if (m_b.params.contains(name) && name != test) return name;
    return {};
  }

  // Whether class `cls` is `base` or derives from it in the file.
  bool derives(const std::string& cls, const std::string& base, int depth = 0) const {
    if (cls == base) return true;
    auto c = m_b.classes.find(cls);
    if (depth > k_max_depth || c == m_b.classes.end()) return false;
    return std::any_of(c->second.bases.begin(), c->second.bases.end(),
                       [&](const std::string& b) { return derives(b, base, depth + 1); });
  }

  // A call of a class the test file defines (`Handler` of `class
  // Handler(logging.Handler)`), or of one of its methods: a method it
  // defines runs the calls of its body, one it inherits is its base's; its
  // constructor runs its `__init__`, if it has one, and its base's.
  std::vector<Value> through_test_class(const Value& v, int depth = 0) const {
    auto dot = v.text.find('.');
    const std::string head = v.text.substr(0, dot);
    const std::string rest = dot == std::string::npos ? std::string() : v.text.substr(dot + 1);
    auto c = m_b.classes.find(head);
    if (depth >= k_max_helper_depth || c == m_b.classes.end() || m_b.params.contains(head) ||
        rest.find('.') != std::string::npos)
      return {v};
    std::vector<Value> out;
    auto add = [&](Value x) {
      if (out.size() < k_max_calls && std::none_of(out.begin(), out.end(), [&](const Value& o) { return o.text == x.text; }))
        out.push_back(std::move(x));
    };
    const std::string method = head + '.' + (rest.empty() ? "__init__" : rest);
    if (m_b.params.contains(method))
      for (auto& x : helper_calls(method, depth)) add(std::move(x));
    if (!m_b.params.contains(method) || rest.empty())
      for (const auto& base : c->second.bases) {
        if (base == "object") continue;
        for (auto& x : through_test_class({v.kind, rest.empty() ? base : base + '.' + rest, v.via}, depth + 1))
          add(std::move(x));
        break;
      }
    return out;
  }

  static std::string class_of(const std::string& test) {
    auto dot = test.rfind('.');
    return dot == std::string::npos ? std::string() : test.substr(0, dot);
  }

 private:
  // The test machinery a helper calls, which runs no code under test.
  static bool is_machinery(std::string_view callee) {
    std::string_view last = callee.substr(callee.rfind('.') == std::string_view::npos ? 0 : callee.rfind('.') + 1);
    return last.starts_with("assert") || last.starts_with("fail") || last == "skipTest" || last == "subTest" ||
           last == "addCleanup" || last == "enterContext";
  }

  // What the calls of helper `key` stand for, typed in its own scope; its
  // parameters' calls say nothing without the caller's arguments.
  std::vector<Value> helper_calls(const std::string& key, int depth) const {
    if (depth >= k_max_helper_depth) return {};
    // Many tests call one helper: its calls are typed once per depth.
    const std::string memo_key = key + '#' + std::to_string(depth);
    if (auto it = m_helper_memo.find(memo_key); it != m_helper_memo.end()) return it->second;
    std::vector<Value> out;
    auto calls = m_b.calls.find(key);
    if (calls == m_b.calls.end()) return out;
    const auto& params = m_b.params.at(key);
    for (const CallSite& cs : calls->second) {
      const std::string callee(cs.callee);
      std::string head = callee.substr(0, callee.find('.'));
      if (is_machinery(callee) || std::find(params.begin(), params.end(), head) != params.end()) continue;
      auto typed = rewrite(callee, key, depth + 1);
      if (typed.empty() && helper(callee, key).empty()) typed.push_back({Value::alias, callee, {}});
      for (auto& v : typed)
        if (out.size() < k_max_calls &&
            std::none_of(out.begin(), out.end(), [&](const Value& o) { return o.text == v.text; }))
          out.push_back(std::move(v));
    }
    m_helper_memo.emplace(memo_key, out);
    return out;
  }

  // The attribute `name` of class `cls`: its own, its bases' in the file,
  // else those of its subclasses in the file (a mixin's tests run with
  // their attributes).
  void class_attr(const std::string& cls, const std::string& name, std::vector<Value>& out, int depth,
                  bool down) const {
    if (depth > k_max_depth) return;
    auto it = m_b.classes.find(cls);
    if (it == m_b.classes.end()) return;
    if (auto a = it->second.attrs.find(name); a != it->second.attrs.end()) {
      out.push_back(a->second);
      return;
    }
    if (std::find(it->second.conflicts.begin(), it->second.conflicts.end(), name) != it->second.conflicts.end()) return;
    std::size_t before = out.size();
    for (const auto& base : it->second.bases) {
      class_attr(base, name, out, depth + 1, false);
      if (out.size() > before) return;
    }
    if (!down) return;
    if (auto s = m_subclasses.find(cls); s != m_subclasses.end())
      for (const auto& sub : s->second) {
        std::vector<Value> found;
        class_attr(sub, name, found, depth + 1, true);
        for (auto& v : found) {
          if (v.via.empty()) v.via = sub;
          auto same = std::find_if(out.begin(), out.end(),
                                   [&](const Value& o) { return o.kind == v.kind && o.text == v.text; });
          if (same == out.end()) out.push_back(std::move(v));
          else if (same->via != v.via) same->via = "*";
        }
      }
  }

  // What the dotted name `text` stands for: its head resolved, the rest kept.
  std::vector<Value> expand(const Value& v, const std::string& test, int depth) const {
    if (depth > k_max_depth) return {};
    if (v.kind == Value::module || v.text == "?") return {v};
    std::string text = v.text;
    if (text.starts_with("self.")) text = text.substr(5);
    else if (text.starts_with("cls.")) text = text.substr(4);
    std::vector<Value> out;
    if (v.kind == Value::call) {
      // A helper's result: what it returns.
      std::string cls = class_of(test);
      for (const std::string& key : {cls.empty() ? text : cls + '.' + text, text})
        if (auto r = m_b.returns.find(key);
            r != m_b.returns.end() &&
            std::find(m_b.bad_returns.begin(), m_b.bad_returns.end(), key) == m_b.bad_returns.end()) {
          Value returned = r->second;
          returned.args.reset();  // the helper's, not the test's
          return expand(returned, key, depth + 1);
        }
    }
    auto dot = text.find('.');
    std::string head = text.substr(0, dot);
    std::string rest = dot == std::string::npos ? std::string() : text.substr(dot);
    auto heads = values(head, test, depth + 1);
    if (heads.empty()) {
      Value same{v.kind, text, v.via};
      same.args = v.args;
      same.line = v.line;
      return {same};
    }
    for (const auto& h : heads) {
      if (h.text == "?") return {};
      // `Foo()` of an alias `Foo = json.JSONDecoder`: an instance of it; of
      // an instance: unknown.
      if (h.kind == Value::call && (rest.empty() || v.kind == Value::call)) continue;
      out.push_back(Value{v.kind, h.text + rest, v.via.empty() ? h.via : v.via});
      out.back().args = v.args;
      out.back().line = v.line;
    }
    return out;
  }

  // What name `head` of test `test` stands for: its local, its class's
  // attribute (`self.` is dropped from the calls), else a module-level name.
  std::vector<Value> values(const std::string& head, const std::string& test, int depth) const {
    if (depth > k_max_depth) return {};
    std::vector<Value> raw;
    if (auto l = m_b.locals.find(test); l != m_b.locals.end())
      if (auto it = l->second.find(head); it != l->second.end()) raw.push_back(it->second);
    if (raw.empty())
      if (auto l = m_b.loops.find(test); l != m_b.loops.end())
        if (auto it = l->second.find(head); it != l->second.end()) raw = it->second;
    if (raw.empty() && !class_of(test).empty()) {
      class_attr(class_of(test), head, raw, 0, true);
      for (auto& v : raw) v.args.reset();
    }
    if (raw.empty())
      if (auto it = m_b.module.find(head); it != m_b.module.end()) {
        raw.push_back(it->second);
        raw.back().args.reset();
      }
    if (raw.empty() || raw.size() > k_max_values) return {};
    std::vector<Value> out;
    for (const auto& v : raw)
      for (auto& e : expand(v, test, depth)) out.push_back(std::move(e));
    return out;
  }

  const Bindings& m_b;
  std::unordered_map<std::string, std::vector<std::string>> m_subclasses;
  mutable std::unordered_map<std::string, std::vector<Value>> m_helper_memo;
};

// A call whose result the expectation awaits (call_graph.h): written
// `loop.create_server.__await__`.
constexpr std::string_view k_awaited = ".__await__";

// Whether code `t` passes the name `name` alone as an argument of a call
// (`run_until_complete(coro)`, `assertRaises(E, run, coro)`), outside
// strings.
bool passes_argument(std::string_view t, std::string_view name) {
  auto skip_back = [&](std::size_t i) {
    while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t' || t[i - 1] == '\n')) --i;
    return i;
  };
  auto skip = [&](std::size_t i) {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n')) ++i;
    return i;
  };
  for (std::size_t i = 0; i < t.size();) {
    if (t[i] == '\'' || t[i] == '"') {
      i = string_end(t, i);
      if (i == std::string_view::npos) return false;
      continue;
    }
    if (t.substr(i).starts_with(name) && (i == 0 || !ident_char(t[i - 1])) &&
        (i + name.size() == t.size() || !ident_char(t[i + name.size()]))) {
      const std::size_t before = skip_back(i), after = skip(i + name.size());
      if (before > 0 && (t[before - 1] == '(' || t[before - 1] == ',') && after < t.size() &&
          (t[after] == ')' || t[after] == ','))
        return true;
    }
    ++i;
  }
  return false;
}

// The calls whose results test `test` bound to a local before its
// expectation at `line` and hands to a call in it (`coro =
// loop.create_server(...)`, then `loop.run_until_complete(coro)`), marked
// awaited: a coroutine function's body runs only then. Not a local the
// expectation calls itself (`assertRaises(E, o)`: its `__call__`). As
// written, `self.` dropped.
std::vector<std::string> awaited_calls(const Bindings& b, const model::TestExpectation& e) {
  std::vector<std::string> out;
  auto l = b.locals.find(e.test);
  if (l == b.locals.end()) return out;
  // A comment's apostrophe opens no string.
  const std::string code = code_of(e.code);
  for (const auto& [name, v] : l->second) {
    if (v.kind != Value::call || v.line <= 0 || v.line >= e.line || !passes_argument(code, name) ||
        std::find(e.calls.begin(), e.calls.end(), name) != e.calls.end())
      continue;
    std::string_view callee = v.text;
    if (callee.starts_with("self.")) callee.remove_prefix(5);
    out.push_back(std::string(callee) + std::string(k_awaited));
  }
  return out;
}

// An attribute access as expectations.cc writes it (`obj.size.__get__`).
bool is_access(std::string_view call) {
  return call.ends_with(".__get__") || call.ends_with(".__set__") || call.ends_with(".__delete__");
}

bool is_test_name(std::string_view key) {
  auto dot = key.rfind('.');
  return key.substr(dot == std::string_view::npos ? 0 : dot + 1).starts_with("test");
}

// A test that calls a helper, and where.
struct Caller {
  std::string test;
  const CallSite* site = nullptr;
};

// The tests of the file that call helper `key` (the first few, each at its
// first call): those of its class or of a subclass, or any test for a
// module-level helper.
std::vector<Caller> callers_of(const Bindings& b, const Typer& typer, const std::string& key) {
  std::vector<Caller> out;
  if (!b.params.contains(key)) return out;
  const std::string cls = Typer::class_of(key);
  const std::string name = key.substr(cls.empty() ? 0 : cls.size() + 1);
  for (const auto& test : b.functions) {
    if (out.size() >= k_max_callers) break;
    if (!is_test_name(test) || (!cls.empty() && !typer.derives(Typer::class_of(test), cls))) continue;
    auto calls = b.calls.find(test);
    if (calls == b.calls.end()) continue;
    for (const CallSite& cs : calls->second)
      if (cs.callee == name && typer.helper(name, test) == key) {
        out.push_back({test, &cs});
        break;
      }
  }
  return out;
}

// The caller's argument for parameter `index` of `params` (positional, or
// by keyword), `self.` dropped: nullopt when it gives none, "" when it is
// no dotted name.
std::optional<std::string> argument(const CallSite& cs, const std::vector<std::string>& params, std::size_t index) {
  std::size_t positional = 0;
  std::vector<std::string_view> args;
  split_args(cs.statement, cs.open, args);
  for (std::string_view a : args) {
    std::string_view name = dotted_prefix(a);
    std::string_view rest = trim(a.substr(name.size()));
    const bool keyword = !name.empty() && name.find('.') == std::string_view::npos && rest.starts_with('=') &&
                         !rest.starts_with("==");
    if (a.starts_with('*')) return std::nullopt;  // `*args`: positions unknown from here
    std::string_view value;
    if (keyword && name == params[index]) value = trim(rest.substr(1));
    else if (!keyword && positional++ == index) value = a;
    else continue;
    if (value.starts_with("self.")) value.remove_prefix(5);
    return is_dotted(value) ? std::string(value) : std::string();
  }
  return std::nullopt;
}

// The caller's statement, its first lines, continuation lines dedented by
// the statement's column.
std::string statement_code(const CallSite& cs) {
  return python::statement_lines(cs.statement, cs.indent, k_max_code_lines);
}

// Calls `at(i, depth)` for each character of code text `t` outside its
// strings and comments, `depth` the brackets open before it, until `at`
// says stop; returns where it stopped (t.size() at the end).
template <class At>
std::size_t walk_code(std::string_view t, const At& at) {
  int depth = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\'' || c == '"') {
      const std::size_t end = python::string_end(t, i);
      if (end == std::string_view::npos) return t.size();
      i = end - 1;
      continue;
    }
    if (c == '#') {
      while (i + 1 < t.size() && t[i + 1] != '\n') ++i;
      continue;
    }
    if (c == ')' || c == ']' || c == '}') --depth;
    if (at(i, depth)) return i;
    if (c == '(' || c == '[' || c == '{') ++depth;
  }
  return t.size();
}

// Where code text `t`'s first comment starts (t.size() for none).
std::size_t comment_at(std::string_view t) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '#') return i;
    if (t[i] == '\'' || t[i] == '"') {
      const std::size_t end = python::string_end(t, i);
      if (end == std::string_view::npos) return t.size();
      i = end - 1;
    }
  }
  return t.size();
}

// Whether an identifier starts at `i` of `t` (not an attribute: no `.`
// before it), and where it ends.
std::size_t identifier_end(std::string_view t, std::size_t i) {
  if (!ident_char(t[i]) || std::isdigit(static_cast<unsigned char>(t[i])) ||
      (i > 0 && (ident_char(t[i - 1]) || t[i - 1] == '.')))
    return i;
  std::size_t j = i;
  while (j < t.size() && ident_char(t[j])) ++j;
  return j;
}

// Where a statement's assigning `=` is (`x = 1`, `a, b = t`, `x += 1`):
// its first at depth 0 that is no comparison; npos for none.
std::size_t assignment_at(std::string_view t) {
  std::size_t out = std::string_view::npos;
  walk_code(t, [&](std::size_t i, int depth) {
    if (t[i] != '=' || depth != 0) return false;
    const char before = i > 0 ? t[i - 1] : ' ', after = i + 1 < t.size() ? t[i + 1] : ' ';
    if (after == '=' || before == '=' || before == '!' || before == '<' || before == '>') return false;
    out = i;
    return true;
  });
  return out;
}

// Where a name of a statement's text stands: bound (an assignment's
// target, `x += 1` and `x := f()` too; a name in a `for`, `with`, `except`,
// `del`, `global`, `nonlocal` or `import` statement), possibly changed in
// place (followed by `.` or `[`), or named at all.
struct NameUse {
  bool named = false;
  bool bound = false;
  bool touched = false;
};
NameUse use_of(std::string_view t, std::string_view name) {
  NameUse out;
  const std::size_t assign = assignment_at(t);
  walk_code(t, [&](std::size_t i, int) {
    const std::size_t j = identifier_end(t, i);
    if (j == i || t.substr(i, j - i) != name) return false;
    out.named = true;
    std::size_t k = j;
    while (k < t.size() && t[k] == ' ') ++k;
    out.touched = out.touched || (k < t.size() && (t[k] == '.' || t[k] == '['));
    out.bound = out.bound || (assign != std::string_view::npos && i < assign) || (k + 1 < t.size() && t[k + 1] == '=' && t[k] == ':');
    return false;
  });
  for (std::string_view w : {"for", "async", "with", "del", "global", "nonlocal", "import", "from", "except"})
    out.bound = out.bound || (out.named && starts_with_word(t, w));
  return out;
}

// The names a test's code reads as values (`exts` of `assertRaises(E,
// f, exts)`), each once, in order: not an attribute, a callee, a receiver,
// a keyword argument's name, a keyword, `self`, nor text in a string.
void walk_names(std::string_view code, std::vector<std::string>& out) {
  const std::string_view line = code;
  walk_code(line, [&](std::size_t i, int) {
      const std::size_t j = identifier_end(line, i);
      if (j == i) return false;
      std::size_t k = j;
      while (k < line.size() && line[k] == ' ') ++k;
      const char next = k < line.size() ? line[k] : ' ';
      const bool keyword_arg = next == '=' && !(k + 1 < line.size() && line[k + 1] == '=');
      const std::string_view w = line.substr(i, j - i);
      // A string's prefix (`b'x'`) is no name.
      if (next != '\'' && next != '"' && !keyword_arg && next != '(' && next != '.' && !is_keyword(w) &&
          w != "self" && w != "cls" && w != "True" && w != "False" && w != "None" &&
          std::find(out.begin(), out.end(), w) == out.end())
        out.emplace_back(w);
      return false;
    });
}

// The locals of test `e` its code names that hold one value there
// (TestExpectation::locals): each binding of the name in the test's body
// (nested blocks and functions included) is `NAME = VALUE` at the top of
// the body, and a list, set or dict is never changed in place (`x.append`,
// `x[k] = v`) nor handed on before the expectation.
std::vector<std::pair<std::string, std::string>> local_values(const Bindings& b, const model::TestExpectation& e) {
  std::vector<std::pair<std::string, std::string>> out;
  auto it = b.statements.find(e.test);
  if (it == b.statements.end() || it->second.empty()) return out;
  const std::vector<Statement>& body = it->second;
  const std::uint32_t top = body.front().indent;
  if (auto p = b.params.find(e.test); p != b.params.end() && !p->second.empty()) return out;
  std::vector<std::string> names;
  walk_names(e.code, names);
  for (const std::string& name : names) {
    if (out.size() >= k_max_calls) break;
    std::optional<std::string_view> value;
    bool ok = true, touched = false, handed = false;
    for (const Statement& st : body) {
      const NameUse u = use_of(st.text, name);
      if (u.bound) {
        const std::string_view t = st.text;
        const std::size_t assign = assignment_at(t);
        if (st.indent != top || assign == std::string_view::npos || trim(t.substr(0, assign)) != name) {
          ok = false;
          break;
        }
        if (st.line < e.line) {
          // Without a comment after it (one inside it leaves no literal).
          const std::string_view rhs = t.substr(assign + 1);
          value = trim(rhs.substr(0, comment_at(rhs)));
          touched = handed = false;
        }
        continue;
      }
      if (st.line >= e.line) continue;
      touched = touched || u.touched;
      handed = handed || (u.named && !u.touched);
    }
    if (!ok || !value || value->empty()) continue;
    const char first = value->front();
    if ((first == '[' || first == '{') && (touched || handed)) continue;
    out.emplace_back(name, std::string(*value));
  }
  return out;
}

}  // namespace

void type_test_calls(const PythonLines& lines, model::FileFacts& facts) {
  if (facts.expectations.empty()) return;
  Bindings b = read_bindings(lines);
  Typer typer(b);
  // Each call with the function whose names it is read in.
  auto type = [&](model::TestExpectation& e, const std::vector<std::pair<std::string, std::string>>& scoped) {
    std::vector<std::string> calls;
    std::vector<std::string> vias;
    std::vector<std::string> constructions;
    std::vector<std::vector<std::string>> steps;
    for (const auto& [written, scope] : scoped) {
      const bool awaited = written.ends_with(k_awaited);
      const std::string c = awaited ? written.substr(0, written.size() - k_awaited.size()) : written;
      // An attribute access (`obj.size.__get__`, expectations.cc) runs a
      // property's accessor only on an instance: a receiver bound to a
      // call's result. On anything else it names nothing.
      const bool access = is_access(c);
      std::vector<Value> typed;
      for (auto& v : typer.rewrite(c, scope))
        if (!access || v.kind == Value::call)
          for (auto& t : typer.through_test_class(v)) typed.push_back(std::move(t));
      if (typed.empty() && access) continue;
      if (typed.empty()) typed = typer.through_test_class({Value::alias, c, ""});
      for (auto& t : typed) {
        // A call's result (`r = make_thing(); r.m()`): `make_thing().m`, so
        // the call graph may follow what the function returns.
        if (t.call_end < t.text.size()) {
          // With the arguments the test gave it, for what it set the
          // instance's attributes to (`Wrapper('x', width=3)`).
          if (t.args && !awaited && constructions.size() < k_max_calls) {
            std::string made = t.text.substr(0, t.call_end) + '(' + *t.args + ')';
            // And what the test did to it before its expectation, when it
            // is this test's own local.
            std::vector<std::string> done{"?"};
            const std::string head = c.substr(0, c.find('.'));
            if (auto l = b.locals.find(scope); l != b.locals.end())
              if (auto v = l->second.find(head); v != l->second.end() && v->second.line == t.line && v->second.args == t.args)
                done = steps_on(b, scope, head, t.line, e.line);
            bool seen = false;
            for (std::size_t k = 0; k < constructions.size(); ++k) seen = seen || (constructions[k] == made && steps[k] == done);
            if (!seen) {
              constructions.push_back(std::move(made));
              steps.push_back(std::move(done));
            }
          }
          t.text.insert(t.call_end, "()");
        }
        if (awaited) t.text += k_awaited;
        if (!t.via.empty() && std::find(vias.begin(), vias.end(), t.via) == vias.end()) vias.push_back(t.via);
        if (calls.size() < k_max_calls && std::find(calls.begin(), calls.end(), t.text) == calls.end())
          calls.push_back(std::move(t.text));
      }
    }
    e.calls = std::move(calls);
    e.constructions = std::move(constructions);
    e.instance_steps = std::move(steps);
    // A mixin's test typed by one subclass's attribute runs as that
    // subclass's: named so, as a test runner names it.
    if (vias.size() == 1 && vias[0] != "*") {
      auto dot = e.test.rfind('.');
      if (dot != std::string::npos) e.test = vias[0] + e.test.substr(dot);
    }
  };
  std::vector<model::TestExpectation> out;
  for (auto& e : facts.expectations) {
    std::vector<std::pair<std::string, std::string>> scoped;
    for (const auto& c : e.calls) scoped.emplace_back(c, e.test);
    auto callers = is_test_name(e.test) ? std::vector<Caller>{} : callers_of(b, typer, e.test);
    if (callers.empty()) {
      for (auto& c : awaited_calls(b, e)) scoped.emplace_back(std::move(c), e.test);
      e.locals = local_values(b, e);
      type(e, scoped);
      out.push_back(std::move(e));
      continue;
    }
    // An expectation in a helper (`assertCoerceRaises(self, A, B)`) runs
    // with what each test calling it passes: one per caller, named by it,
    // the helper's parameters replaced by the caller's arguments.
    const auto& params = b.params.at(e.test);
    for (const Caller& c : callers) {
      model::TestExpectation copy = e;
      copy.test = c.test;
      copy.line = c.site->line;
      copy.code = statement_code(*c.site);
      auto arg = [&](std::string_view name) -> std::optional<std::string> {
        auto p = std::find(params.begin(), params.end(), name);
        if (p == params.end()) return std::nullopt;
        return argument(*c.site, params, static_cast<std::size_t>(p - params.begin()));
      };
      // Whether the caller's arguments say what is expected or run: else
      // its tests differ only by data the helper passes on, and without a
      // regex every caller would name the same site.
      bool substituted = false, access_substituted = false;
      copy.classes.clear();
      for (const auto& k : e.classes)
        if (auto a = arg(k)) {
          if (!a->empty()) copy.classes.push_back(*a);
          substituted = true;
        } else {
          copy.classes.push_back(k);
        }
      std::vector<std::pair<std::string, std::string>> typed_in;
      for (const auto& call : e.calls) {
        std::string head = call.substr(0, call.find('.'));
        if (auto a = arg(head)) {
          if (!a->empty()) typed_in.emplace_back(*a + call.substr(head.size()), c.test);
          (is_access(call) ? access_substituted : substituted) = true;
        } else {
          typed_in.emplace_back(call, e.test);
        }
      }
      if (copy.classes.empty() || typed_in.empty() || (!substituted && !access_substituted && e.match.empty()))
        continue;
      copy.locals = local_values(b, copy);
      type(copy, typed_in);
      // An access of a parameter says what runs only when it is typed.
      if (!substituted && e.match.empty() && std::none_of(copy.calls.begin(), copy.calls.end(), is_access)) continue;
      out.push_back(std::move(copy));
    }
  }
  facts.expectations = std::move(out);
  // A module loaded by name is bound as `import decimal as decimal`
  // would bind it: the alias marks it loaded by name (call_graph.h).
  std::sort(b.modules.begin(), b.modules.end());
  b.modules.erase(std::unique(b.modules.begin(), b.modules.end()), b.modules.end());
  for (const auto& m : b.modules) facts.imports.push_back({m, "", m, 0});
}

}  // namespace errdex::scan
