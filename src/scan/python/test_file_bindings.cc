#include "scan/python/test_file_bindings.h"

#include <algorithm>

#include "scan/python/text.h"

namespace errdex::scan::python {
namespace {

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

// The first string literal's text in `s` (plain quotes, no escapes).
std::string_view first_string(std::string_view s) {
  auto q = s.find_first_of("'\"");
  if (q == std::string_view::npos) return {};
  auto e = s.find(s[q], q + 1);
  if (e == std::string_view::npos) return {};
  return s.substr(q + 1, e - q - 1);
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

}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r' || s.front() == '\\'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r' || s.back() == '\\'))
    s.remove_suffix(1);
  return s;
}

std::string_view dotted_prefix(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (ident_char(s[i]) || (s[i] == '.' && i > 0 && i + 1 < s.size() && ident_char(s[i + 1])))) ++i;
  if (i > 0 && std::isdigit(static_cast<unsigned char>(s[0]))) return {};
  return s.substr(0, i);
}

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

bool is_keyword(std::string_view w) {
  static constexpr std::string_view k[] = {"if", "elif", "while", "for", "in", "not", "and", "or", "return", "yield",
                                           "await", "assert", "del", "is", "lambda", "with", "as", "else", "print",
                                           "raise", "except", "from", "import"};
  return std::find(std::begin(k), std::end(k), w) != std::end(k);
}

TestFileBindings read_bindings(const PythonLines& lines) {
  TestFileBindings b;
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
      // Its text, for a test's literal arguments (local_values): only of a
      // name bound once, at the top level itself (not in an `if` or `try`).
      if (name.find('.') == std::string::npos) {
        auto [it, fresh] = b.module_texts.emplace(name, indent == 0 ? code_of(rest.substr(1)) : std::string());
        if (!fresh) it->second.clear();
      }
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
      // `pipe = pipe.to(device)`: a method of an instance called on it and
      // bound to its name again leaves the name the same kind of object
      // (it returns the instance or one like it), as what it was bound to.
      auto& locals = b.locals[fn->name];
      if (auto it = locals.find(name); it != locals.end() && it->second.kind == Value::call && v->kind == Value::call &&
                                       v->text.size() > name.size() + 1 && v->text.starts_with(name) &&
                                       v->text[name.size()] == '.' &&
                                       v->text.find('.', name.size() + 1) == std::string::npos)
        return;
      v->line = line;
      bind_name(locals, nullptr, name, *v);
    }
  });
  return b;
}

}  // namespace errdex::scan::python
