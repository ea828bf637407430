// The light pass over a Python file's logical lines, without a parse: its
// imports, `__all__`, and each function's calls, the names it binds to a
// call's result, what it returns and the properties it defines (the facts
// the call graph is built from). outline.cc splits the lines.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scan/python/logical_lines.h"
#include "scan/python/outline.h"
#include "scan/python/text.h"

namespace errdex::scan {

using detail::is_ident;
using detail::Logical;
using detail::starts_with_word;

namespace {

bool is_keyword(std::string_view w) {
  static constexpr std::string_view k[] = {"and", "assert", "await", "elif", "except", "for", "if", "in", "is",
                                           "lambda", "not", "or", "print", "return", "while", "with", "yield",
                                           "del", "raise", "super", "isinstance", "len", "str", "int", "list",
                                           "dict", "tuple", "set", "type", "getattr", "setattr", "hasattr"};
  for (auto x : k)
    if (w == x) return true;
  return false;
}

// The callee of a call whose last name starts at `w` and ends at `e`, as
// written with its receiver: "parse", "self.parse", "json.loads",
// "super.__init__" for `super().__init__`, "?.read" when the receiver is
// an expression (`f().read`, `"x".join`).
std::string dotted_callee(std::string_view s, std::uint32_t begin, std::uint32_t w, std::uint32_t e) {
  std::uint32_t b = w;
  std::string_view head;
  while (b > begin + 1 && s[b - 1] == '.') {
    std::uint32_t a = b - 1;
    while (a > begin && is_ident(s[a - 1])) --a;
    if (a == b - 1) {
      head = b - 1 >= begin + 7 && s.substr(b - 8, 7) == "super()" ? "super." : "?.";
      break;
    }
    b = a;
  }
  std::string out(head);
  out.append(s.substr(b, e - b));
  return out;
}

// Names called in [begin, end) of `s` (`x.name(`, `name (`), strings and
// comments skipped; added to `out` once each, at most `cap`; with
// `targets`, the callees as written (dotted_callee) likewise.
void called_names(std::string_view s, std::uint32_t begin, std::uint32_t end, std::vector<std::string>& out,
                  std::size_t cap, std::vector<std::string>* targets = nullptr) {
  std::uint32_t i = begin;
  while (i < end && (out.size() < cap || (targets && targets->size() < 2 * cap))) {
    char c = s[i];
    if (c == '#') {
      while (i < end && s[i] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      bool triple = i + 2 < end && s[i + 1] == c && s[i + 2] == c;
      i += triple ? 3 : 1;
      while (i < end) {
        if (s[i] == '\\') {
          i += 2;
          continue;
        }
        if (s[i] == c && (!triple || (i + 2 < end && s[i + 1] == c && s[i + 2] == c))) {
          i += triple ? 3 : 1;
          break;
        }
        if (!triple && s[i] == '\n') break;
        ++i;
      }
      continue;
    }
    if (!is_ident(c) || (c >= '0' && c <= '9')) {
      ++i;
      continue;
    }
    std::uint32_t w = i;
    while (i < end && is_ident(s[i])) ++i;
    // A string prefix (`f"`, `rb'`) is no name.
    if (i < end && (s[i] == '"' || s[i] == '\'') && i - w <= 2) continue;
    std::uint32_t k = i;
    while (k < end && (s[k] == ' ' || s[k] == '\t')) ++k;
    if (k >= end || s[k] != '(') continue;
    std::string_view name = s.substr(w, i - w);
    if (w > 0 && s[w - 1] != '.' && w >= 4 && s.substr(w - 4, 4) == "def ") continue;
    const bool plain = w == begin || s[w - 1] != '.';
    if (plain && is_keyword(name)) continue;
    if (targets && targets->size() < 2 * cap) {
      std::string t = dotted_callee(s, begin, w, i);
      if (std::find(targets->begin(), targets->end(), t) == targets->end()) targets->push_back(std::move(t));
    }
    if (is_keyword(name)) continue;
    if (out.size() < cap && std::find(out.begin(), out.end(), name) == out.end()) out.emplace_back(name);
  }
}

}  // namespace

namespace {

void skip_blanks(std::string_view s, std::uint32_t& i, std::uint32_t end) {
  while (i < end && (s[i] == ' ' || s[i] == '\t' || s[i] == '\\' || s[i] == '\n' || s[i] == '\r')) ++i;
}

// A dotted name at `i` (`a.b.c`), advancing past it; "" when none.
std::string_view dotted_at(std::string_view s, std::uint32_t& i, std::uint32_t end) {
  std::uint32_t b = i;
  while (i < end && (is_ident(s[i]) || (s[i] == '.' && i > b && i + 1 < end && is_ident(s[i + 1])))) ++i;
  if (b < end && s[b] >= '0' && s[b] <= '9') return {};
  return s.substr(b, i - b);
}

// `NAME = callee(...)` or `self.NAME = callee(...)`: {NAME, callee}.
std::optional<std::pair<std::string, std::string>> call_assignment(std::string_view s, const Logical& l) {
  std::uint32_t i = l.text;
  std::string_view lhs = dotted_at(s, i, l.end);
  if (lhs.empty()) return std::nullopt;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i + 1 >= l.end || s[i] != '=' || s[i + 1] == '=') return std::nullopt;
  ++i;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  std::string_view rhs = dotted_at(s, i, l.end);
  if (rhs.empty()) return std::nullopt;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i >= l.end || s[i] != '(') return std::nullopt;
  return std::pair(std::string(lhs), std::string(rhs));
}

// The parts of [b, e) between top-level commas, brackets and comments
// left out.
std::vector<std::string_view> comma_parts(std::string_view s, std::uint32_t b, std::uint32_t e) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::uint32_t start = b;
  auto flush = [&](std::uint32_t at) {
    std::string_view part = s.substr(start, at - start);
    while (!part.empty() && std::string_view(" \t\r\n\\(").find(part.front()) != std::string_view::npos)
      part.remove_prefix(1);
    while (!part.empty() && std::string_view(" \t\r\n\\)").find(part.back()) != std::string_view::npos)
      part.remove_suffix(1);
    if (!part.empty()) out.push_back(part);
  };
  for (std::uint32_t i = b; i < e; ++i) {
    char c = s[i];
    if (c == '#') {
      flush(i);
      while (i < e && s[i] != '\n') ++i;
      start = i;
      continue;
    }
    if (c == '(' || c == '[') ++depth;
    else if ((c == ')' || c == ']') && depth > 0) --depth;
    else if (c == ',' && depth <= 1) {
      flush(i);
      start = i + 1;
    }
  }
  flush(e);
  return out;
}

// The end of the bracket opened at `open` (past its `)`), or `end` when
// it does not close before; strings skipped.
std::uint32_t bracket_end(std::string_view s, std::uint32_t open, std::uint32_t end) {
  int depth = 0;
  for (std::uint32_t i = open; i < end; ++i) {
    const char c = s[i];
    if (c == '\'' || c == '"') {
      const std::size_t past = python::string_end(s.substr(0, end), i);
      if (past == std::string_view::npos) return end;
      i = static_cast<std::uint32_t>(past - 1);
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
      return i + 1;
    }
  }
  return end;
}

// Whether only blanks and a comment are left in [i, end).
bool nothing_after(std::string_view s, std::uint32_t i, std::uint32_t end) {
  while (i < end && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n' || s[i] == '\\')) ++i;
  return i >= end || s[i] == '#';
}

// What a `return` statement gives, for FunctionCalls::returns: the callee
// of `return callee(...)` (nothing after the call), a name's callee from
// `assigned` (`t = Thing(); ...; return t`), "" for a bare `return` or
// `return None` (they say nothing against the others), "?" for anything
// else; nullopt when the line is no `return`.
std::optional<std::string> return_value(std::string_view s, const Logical& l,
                                        const std::vector<std::pair<std::string, std::string>>& assigned) {
  if (!starts_with_word(s, l.text, "return")) return std::nullopt;
  std::uint32_t i = l.text + 6;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (nothing_after(s, i, l.end)) return std::string();
  std::string_view name = dotted_at(s, i, l.end);
  if (name.empty()) return std::string("?");
  std::uint32_t open = i;
  while (open < l.end && (s[open] == ' ' || s[open] == '\t')) ++open;
  if (nothing_after(s, open, l.end)) {
    if (name == "None") return std::string();
    // The last binding before the `return` (the light pass reads in order).
    for (auto it = assigned.rbegin(); it != assigned.rend(); ++it)
      if (it->first == name) return it->second;
    return std::string("?");
  }
  if (s[open] != '(' || !nothing_after(s, bracket_end(s, open, l.end), l.end)) return std::string("?");
  return std::string(name);
}

// A statement that is one call (`f(x)`, `return self.f(x)`, `y = f(x)`,
// nothing after it): the callee as written and the argument text.
std::optional<std::pair<std::string, std::string>> statement_call(std::string_view s, const Logical& l) {
  std::uint32_t i = l.text;
  if (starts_with_word(s, i, "return")) {
    i += 6;
  } else {
    std::uint32_t k = i;
    std::string_view lhs = dotted_at(s, k, l.end);
    while (k < l.end && (s[k] == ' ' || s[k] == '\t')) ++k;
    if (!lhs.empty() && k + 1 < l.end && s[k] == '=' && s[k + 1] != '=') i = k + 1;
  }
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  std::string_view callee = dotted_at(s, i, l.end);
  if (callee.empty() || is_keyword(callee.substr(0, callee.find('.')))) return std::nullopt;
  std::uint32_t open = i;
  while (open < l.end && (s[open] == ' ' || s[open] == '\t')) ++open;
  if (open >= l.end || s[open] != '(') return std::nullopt;
  const std::uint32_t close = bracket_end(s, open, l.end);
  if (close >= l.end + 1 || s[close - 1] != ')' || !nothing_after(s, close, l.end)) return std::nullopt;
  return std::pair{std::string(callee), python::collapse_ws(s.substr(open + 1, close - open - 2))};
}

// A class body's `NAME = property(fget, fset, fdel)` (or `fget=`,
// `fset=`, `fdel=`): NAME and, per accessor kind, the function's name.
struct PropertyCall {
  std::string_view attribute;
  std::vector<std::pair<std::string_view, std::string_view>> accessors;  // {kind, function}
};
std::optional<PropertyCall> property_call(std::string_view s, const Logical& l) {
  std::uint32_t i = l.text;
  std::string_view lhs = dotted_at(s, i, l.end);
  if (lhs.empty() || lhs.find('.') != std::string_view::npos) return std::nullopt;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i + 1 >= l.end || s[i] != '=' || s[i + 1] == '=') return std::nullopt;
  ++i;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (dotted_at(s, i, l.end) != "property") return std::nullopt;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i >= l.end || s[i] != '(') return std::nullopt;
  const std::uint32_t close = bracket_end(s, i, l.end);
  if (!nothing_after(s, close, l.end)) return std::nullopt;
  static constexpr std::string_view kinds[] = {"getter", "setter", "deleter"};
  static constexpr std::string_view keywords[] = {"fget", "fset", "fdel"};
  PropertyCall out{lhs, {}};
  std::size_t position = 0;
  for (std::string_view part : comma_parts(s, i + 1, close - 1)) {
    std::string_view value = part;
    std::size_t kind = position++;
    if (auto eq = part.find('='); eq != std::string_view::npos) {
      std::string_view key = part.substr(0, eq);
      while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
      kind = static_cast<std::size_t>(std::find(std::begin(keywords), std::end(keywords), key) - std::begin(keywords));
      value = part.substr(eq + 1);
      while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    }
    if (kind >= 3 || value.empty() || value == "None") continue;
    std::uint32_t at = 0;
    if (dotted_at(value, at, static_cast<std::uint32_t>(value.size())).size() != value.size() ||
        value.find('.') != std::string_view::npos)
      continue;
    out.accessors.emplace_back(kinds[kind], value);
  }
  if (out.accessors.empty()) return std::nullopt;
  return out;
}

// The bindings of one statement (or a compound statement's header and its
// one-line body), model::Binding.
class BindingReader {
 public:
  BindingReader(std::string_view s, std::vector<model::Binding>& out, int line, bool top, int loop,
                const model::Binding* when)
      : m_s(s), m_out(out), m_line(line), m_top(top), m_loop(loop), m_when(when) {}

  void statement(std::uint32_t b, std::uint32_t e) {
    e = code_end(b, e);
    // `a = 1; b = 2`: each on its own.
    std::uint32_t start = b;
    for_top(b, e, [&](std::uint32_t i, char c) {
      if (c == ';') {
        simple(start, i);
        start = i + 1;
      }
      return false;
    });
    simple(start, e);
  }

 private:
  // Where the code of [b, e) ends: before a comment outside strings.
  std::uint32_t code_end(std::uint32_t b, std::uint32_t e) const {
    std::uint32_t out = e;
    walk(b, e, [&](std::uint32_t i, char c, int) {
      if (c == '#') {
        out = i;
        return true;
      }
      return false;
    });
    return out;
  }

  // Calls `at(i, c, depth)` for each character of [b, e) outside string
  // literals, `depth` the brackets open before it; stops when it says so.
  template <class At>
  void walk(std::uint32_t b, std::uint32_t e, const At& at) const {
    int depth = 0;
    for (std::uint32_t i = b; i < e; ++i) {
      const char c = m_s[i];
      if (c == '\'' || c == '"') {
        const std::size_t past = python::string_end(m_s.substr(0, e), i);
        if (past == std::string_view::npos) return;
        i = static_cast<std::uint32_t>(past - 1);
        continue;
      }
      if (c == ')' || c == ']' || c == '}') --depth;
      if (at(i, c, depth)) return;
      if (c == '(' || c == '[' || c == '{') ++depth;
    }
  }
  template <class At>
  void for_top(std::uint32_t b, std::uint32_t e, const At& at) const {
    walk(b, e, [&](std::uint32_t i, char c, int depth) { return depth == 0 && at(i, c); });
  }

  static std::string_view trim(std::string_view v) {
    while (!v.empty() && std::string_view(" \t\r\n\\").find(v.front()) != std::string_view::npos) v.remove_prefix(1);
    while (!v.empty() && std::string_view(" \t\r\n\\").find(v.back()) != std::string_view::npos) v.remove_suffix(1);
    return v;
  }
  static bool plain_name(std::string_view v) {
    if (v.empty() || (v[0] >= '0' && v[0] <= '9')) return false;
    return std::all_of(v.begin(), v.end(), is_ident);
  }

  void add(std::string_view name, std::string_view kind, std::string_view value = {}) {
    if (name.empty() || name == "_") return;
    m_out.push_back({std::string(name), m_line, std::string(kind), std::string(value), m_top, m_loop,
                     m_when ? m_when->when : std::string(), m_when ? m_when->when_line : 0});
  }

  // Every name of [b, e) not after a `.` (a target list, `del`'s, a
  // pattern's captures): rebound some other way.
  void names_in(std::uint32_t b, std::uint32_t e, std::string_view kind = "other") {
    for (std::uint32_t i = b; i < e;) {
      if (!is_ident(m_s[i]) || (m_s[i] >= '0' && m_s[i] <= '9')) {
        if (m_s[i] == '\'' || m_s[i] == '"') {  // a literal in a pattern: skip it
          std::uint32_t j = i + 1;
          while (j < e && m_s[j] != m_s[i]) j += m_s[j] == '\\' ? 2 : 1;
          i = j + 1;
          continue;
        }
        ++i;
        continue;
      }
      std::uint32_t j = i;
      while (j < e && is_ident(m_s[j])) ++j;
      std::uint32_t k = i;
      while (k > b && (m_s[k - 1] == ' ' || m_s[k - 1] == '\t')) --k;
      const std::string_view name = m_s.substr(i, j - i);
      // `self.x += 1`, `self.x[k] = v`, `del self.x`: the attribute is
      // what changes (its name "self.x", as a plain assignment's).
      if (name == "self" && !(k > b && m_s[k - 1] == '.') && j + 1 < e && m_s[j] == '.' && is_ident(m_s[j + 1])) {
        std::uint32_t a = j + 1;
        while (a < e && is_ident(m_s[a])) ++a;
        add(m_s.substr(i, a - i), kind);
        i = a;
        continue;
      }
      if (!(k > b && m_s[k - 1] == '.') && name != "in" && name != "as" && name != "if" && name != "not" &&
          name != "and" && name != "or" && name != "None" && name != "True" && name != "False")
        add(name, kind);
      i = j;
    }
  }

  // One simple statement, or a compound statement's header and its body
  // on the same line.
  void simple(std::uint32_t b, std::uint32_t e) {
    while (b < e && (m_s[b] == ' ' || m_s[b] == '\t' || m_s[b] == '\n' || m_s[b] == '\r' || m_s[b] == '\\')) ++b;
    if (b >= e) return;
    if (starts_with_word(m_s, b, "async")) {
      b += 5;
      while (b < e && (m_s[b] == ' ' || m_s[b] == '\t')) ++b;
    }
    in_place(b, e);
    for (std::string_view k : {"global", "nonlocal"})
      if (starts_with_word(m_s, b, k)) return names_in(b + static_cast<std::uint32_t>(k.size()), e, "global");
    if (starts_with_word(m_s, b, "del")) return names_in(b + 3, e);
    static constexpr std::string_view compound[] = {"if", "elif", "else", "while", "for", "with", "try",
                                                    "except", "finally", "case", "match", "def", "class"};
    for (std::string_view k : compound) {
      if (!starts_with_word(m_s, b, k)) continue;
      // The header ends at its top-level `:` (a lambda's or a slice's are
      // inside brackets, or after `lambda`, which headers seldom hold).
      std::uint32_t colon = e;
      for_top(b, e, [&](std::uint32_t i, char c) {
        if (c == ':' && !(i + 1 < e && m_s[i + 1] == '=')) colon = i;
        return colon != e;
      });
      const std::uint32_t head = b + static_cast<std::uint32_t>(k.size());
      if (k == "for") {
        std::uint32_t in = colon;
        for_top(head, colon, [&](std::uint32_t i, char) {
          if (starts_with_word(m_s, i, "in") && i > head && !is_ident(m_s[i - 1])) in = i;
          return in != colon;
        });
        names_in(head, in);
      } else if (k == "with" || k == "except") {
        for_top(head, colon, [&](std::uint32_t i, char) {
          if (starts_with_word(m_s, i, "as") && i > head && !is_ident(m_s[i - 1])) {
            std::uint32_t t = i + 2, end = t;
            while (t < colon && (m_s[t] == ' ' || m_s[t] == '\t')) ++t;
            end = t;
            if (end < colon && m_s[end] == '(') end = bracket_end(m_s, end, colon);
            else
              while (end < colon && (is_ident(m_s[end]) || m_s[end] == '.')) ++end;
            names_in(t, end);
          }
          return false;
        });
      } else if (k == "case") {
        names_in(head, colon);
      }
      if (k == "def" || k == "class") {
        std::uint32_t n = head;
        while (n < e && (m_s[n] == ' ' || m_s[n] == '\t')) ++n;
        std::uint32_t end = n;
        while (end < e && is_ident(m_s[end])) ++end;
        return add(m_s.substr(n, end - n), "other");
      }
      walrus(head, colon);
      if (colon + 1 < e) {
        const bool top = m_top;
        m_top = false;
        statement(colon + 1, e);
        m_top = top;
      }
      return;
    }
    walrus(b, e);
    assignment(b, e);
  }

  // `(name := value)`: rebound.
  void walrus(std::uint32_t b, std::uint32_t e) {
    walk(b, e, [&](std::uint32_t i, char c, int) {
      if (c == ':' && i + 1 < e && m_s[i + 1] == '=') {
        std::uint32_t k = i;
        while (k > b && (m_s[k - 1] == ' ' || m_s[k - 1] == '\t')) --k;
        std::uint32_t n = k;
        while (n > b && is_ident(m_s[n - 1])) --n;
        add(m_s.substr(n, k - n), "other");
      }
      return false;
    });
  }

  // `name.append(...)` and the other methods that change a list, set or
  // dict in place: what it holds is no longer what it was bound to.
  void in_place(std::uint32_t b, std::uint32_t e) {
    static constexpr std::string_view methods[] = {"append", "extend", "insert", "pop", "remove", "clear", "add",
                                                   "update", "discard", "sort", "reverse", "setdefault", "popitem"};
    walk(b, e, [&](std::uint32_t i, char c, int) {
      if (c != '.' || i == b || !is_ident(m_s[i - 1])) return false;
      std::uint32_t n = i;
      while (n > b && is_ident(m_s[n - 1])) --n;
      // `self.items.append(...)`: the attribute "self.items".
      if (n >= b + 5 && m_s.substr(n - 5, 5) == "self." && !(n - 5 > b && (is_ident(m_s[n - 6]) || m_s[n - 6] == '.')))
        n -= 5;
      else if (n > b && m_s[n - 1] == '.')
        return false;
      std::uint32_t m = i + 1;
      while (m < e && is_ident(m_s[m])) ++m;
      const std::string_view method = m_s.substr(i + 1, m - i - 1);
      if (m < e && m_s[m] == '(' && std::find(std::begin(methods), std::end(methods), method) != std::end(methods))
        add(m_s.substr(n, i - n), "other");
      return false;
    });
  }

  // `a = b = value`, `x: T = value`, `a, b = ...`, `x[i] = ...`, `x += 1`.
  void assignment(std::uint32_t b, std::uint32_t e) {
    std::vector<std::uint32_t> equals;
    bool augmented = false;
    for_top(b, e, [&](std::uint32_t i, char c) {
      if (c != '=') return false;
      const char prev = i > b ? m_s[i - 1] : ' ';
      const char next = i + 1 < e ? m_s[i + 1] : ' ';
      if (next == '=' || prev == '=' || prev == '!' || prev == ':') return false;
      if (prev == '<' || prev == '>') {
        // `<=` compares; `<<=` assigns.
        if (!(i >= b + 2 && m_s[i - 2] == prev)) return false;
        augmented = true;
      } else if (std::string_view("+-*/%&|^@").find(prev) != std::string_view::npos) {
        augmented = true;
      }
      equals.push_back(i);
      return augmented;
    });
    if (equals.empty()) return;
    // `f = lambda x=1: x`: a lambda's default is no target.
    for (std::uint32_t i = b; i + 6 <= e; ++i)
      if (starts_with_word(m_s, i, "lambda") && (i == b || !is_ident(m_s[i - 1]))) return names_in(b, equals.front());
    std::uint32_t start = b;
    const std::string_view value = trim(m_s.substr(equals.back() + 1, e - equals.back() - 1));
    for (std::uint32_t eq : equals) {
      std::uint32_t end = eq;
      if (augmented)
        while (end > start && std::string_view("+-*/%&|^@<>").find(m_s[end - 1]) != std::string_view::npos) --end;
      // `x: T = value`: the target before the annotation.
      std::uint32_t colon = end;
      for_top(start, end, [&](std::uint32_t i, char c) {
        if (c == ':') colon = i;
        return colon != end;
      });
      const std::string_view target = trim(m_s.substr(start, colon - start));
      if (augmented) {
        names_in(start, colon);
      } else if (plain_name(target)) {
        if (value.size() <= k_max_value) add(target, "assign", value);
        else add(target, "other");
      } else if (target.starts_with("self.") && plain_name(target.substr(5))) {
        add(target, value.size() <= k_max_value ? "assign" : "other", value.size() <= k_max_value ? value : "");
      } else {
        names_in(start, colon);
      }
      start = eq + 1;
    }
  }

  static constexpr std::size_t k_max_value = 240;
  std::string_view m_s;
  std::vector<model::Binding>& m_out;
  int m_line;
  bool m_top;
  int m_loop;
  const model::Binding* m_when;  // its `when` and `when_line`, or null
};

// The condition of an `if` statement's header that ends its line
// (`if mode is None:`, its block below it), comments left out; nullopt
// for any other line (an `elif`, a one-line `if x: y = 1`).
std::optional<std::string_view> if_condition(std::string_view s, const Logical& l) {
  std::uint32_t b = l.text;
  if (!starts_with_word(s, b, "if")) return std::nullopt;
  std::string_view t = s.substr(b + 2, l.end - b - 2);
  std::optional<std::size_t> colon;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\'' || c == '"') {
      const std::size_t e = python::string_end(t, i);
      if (e == std::string_view::npos) return std::nullopt;
      i = e - 1;
    } else if (c == '#') {
      break;
    } else if (c == ':') {
      colon = i;
    } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && colon) {
      colon.reset();  // `lambda x: x`, a slice, a one-line body: not the end
    }
  }
  if (!colon) return std::nullopt;
  std::string_view cond = t.substr(0, *colon);
  while (!cond.empty() && (cond.front() == ' ' || cond.front() == '\t')) cond.remove_prefix(1);
  while (!cond.empty() && (cond.back() == ' ' || cond.back() == '\t')) cond.remove_suffix(1);
  if (cond.empty()) return std::nullopt;
  return cond;
}

// Appends a statement's bindings to `out`, bounded (model::Binding).
// Bindings kept of a module's top level (FileFacts::module_bindings).
constexpr std::size_t k_max_module_bindings = 1024;

void read_bindings(std::string_view s, const Logical& l, std::vector<model::Binding>& out, bool top, int loop,
                   std::size_t cap, const model::Binding* when = nullptr) {
  if (!out.empty() && out.back().name == "*") return;
  const std::size_t before = out.size();
  BindingReader(s, out, static_cast<int>(l.first_line) + 1, top, loop, when).statement(l.text, l.end);
  if (out.size() > cap) {
    out.resize(std::max(before, cap - 1));
    out.push_back({"*", static_cast<int>(l.first_line) + 1, "other", "", false, 1, "", 0});
  }
}

// `a.b as z` → {"a.b", "z"}; empty first when it is no dotted name.
std::pair<std::string_view, std::string_view> name_as(std::string_view part) {
  std::string_view name = part, alias;
  if (auto at = part.find(" as "); at != std::string_view::npos) {
    name = part.substr(0, at);
    alias = part.substr(at + 4);
    while (!alias.empty() && (alias.front() == ' ' || alias.front() == '\t')) alias.remove_prefix(1);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
  }
  for (char c : name)
    if (!is_ident(c) && c != '.' && c != '*') return {};
  for (char c : alias)
    if (!is_ident(c)) return {};
  return {name, alias};
}

// An `import` or `from ... import` statement's names.
bool read_import(std::string_view s, const Logical& l, std::vector<model::ImportFact>& out) {
  std::uint32_t i = l.text;
  if (starts_with_word(s, i, "import")) {
    for (auto part : comma_parts(s, i + 6, l.end)) {
      auto [name, alias] = name_as(part);
      if (!name.empty() && name != "*") out.push_back({std::string(name), "", std::string(alias), 0});
    }
    return true;
  }
  if (!starts_with_word(s, i, "from")) return false;
  i += 4;
  skip_blanks(s, i, l.end);
  int level = 0;
  while (i < l.end && s[i] == '.') ++level, ++i;
  skip_blanks(s, i, l.end);
  std::string_view module = starts_with_word(s, i, "import") ? std::string_view() : dotted_at(s, i, l.end);
  skip_blanks(s, i, l.end);
  if (!starts_with_word(s, i, "import")) return true;
  for (auto part : comma_parts(s, i + 6, l.end)) {
    auto [name, alias] = name_as(part);
    if (!name.empty() && name.find('.') == std::string_view::npos)
      out.push_back({std::string(module), std::string(name), std::string(alias), level});
  }
  return true;
}

// The string literals of [b, e) appended to `out`; false when anything
// but literals, brackets, commas and `+` stands there.
bool only_literals(std::string_view s, std::uint32_t b, std::uint32_t e, std::vector<std::string>& out) {
  for (std::uint32_t i = b; i < e;) {
    char c = s[i];
    if (c == '"' || c == '\'') {
      std::uint32_t j = i + 1;
      while (j < e && s[j] != c && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      if (j >= e || s[j] != c) return false;
      out.emplace_back(s.substr(i + 1, j - i - 1));
      i = j + 1;
      continue;
    }
    if (c == '#') {
      while (i < e && s[i] != '\n') ++i;
      continue;
    }
    if (std::string_view(" \t\r\n\\[](),+").find(c) == std::string_view::npos) return false;
    ++i;
  }
  return true;
}

// `__all__ = [...]`, `__all__ += [...]`, `__all__.extend([...])`.
void read_exports(std::string_view s, const Logical& l, model::FileFacts& facts, bool& unknown) {
  std::uint32_t i = l.text + 7;  // past `__all__`
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  bool assign = false;
  if (s.substr(i, 2) == "+=") {
    i += 2;
  } else if (s.substr(i, 8) == ".extend(" || s.substr(i, 8) == ".append(") {
    i += 7;
  } else if (i < l.end && s[i] == '=' && s.substr(i, 2) != "==") {
    assign = true;
    ++i;
  } else {
    return;
  }
  std::vector<std::string> names;
  if (!only_literals(s, i, l.end, names)) {
    unknown = true;
    return;
  }
  if (assign) {
    facts.exports.clear();
    facts.has_exports = true;
  }
  facts.exports.insert(facts.exports.end(), names.begin(), names.end());
}

}  // namespace

void read_imports(std::string_view source, std::vector<model::ImportFact>& out) {
  // No logical lines: a line that starts with `import` or `from` (running
  // on past a `(` to its `)`, or past a trailing backslash) is all an
  // import needs, and a test file has many lines of other kinds.
  const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::size_t>(source.size(), UINT32_MAX / 2));
  for (std::uint32_t at = 0; at < n;) {
    std::uint32_t i = at;
    while (i < n && (source[i] == ' ' || source[i] == '\t')) ++i;
    std::uint32_t end = i;
    while (end < n && source[end] != '\n') ++end;
    if (starts_with_word(source, i, "import") || starts_with_word(source, i, "from")) {
      std::string_view line = source.substr(i, end - i);
      if (line.find('(') != std::string_view::npos && line.find(')') == std::string_view::npos) {
        while (end < n && source[end] != ')') ++end;
      } else {
        while (end > i && end < n && source[end - 1] == '\\') {
          ++end;
          while (end < n && source[end] != '\n') ++end;
        }
      }
      Logical l;
      l.text = i;
      l.end = end;
      read_import(source, l, out);
    }
    at = end + 1;
  }
}

namespace {

// What a decorator (its text after `@`) makes of the function below it
// when it is a property's accessor: "getter", "setter", "deleter", else "".
std::string_view property_kind(std::string_view d) {
  while (!d.empty() && (d.back() == ' ' || d.back() == '\t' || d.back() == '\r' || d.back() == '\n')) d.remove_suffix(1);
  if (auto hash = d.find('#'); hash != std::string_view::npos) {
    d = d.substr(0, hash);
    while (!d.empty() && (d.back() == ' ' || d.back() == '\t')) d.remove_suffix(1);
  }
  if (d.find_first_of("( ") != std::string_view::npos) return {};
  const auto dot = d.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? d : d.substr(dot + 1);
  if (dot == std::string_view::npos) return d == "property" || d == "cached_property" ? "getter" : "";
  if (d == "functools.cached_property") return "getter";
  if (last == "getter" || last == "setter" || last == "deleter") return last;
  return {};
}

}  // namespace

void read_calls(std::string_view source, model::FileFacts& facts) { read_calls(PythonLines(source), facts); }

void read_calls(const PythonLines& lines, model::FileFacts& facts) {
  // A function calls this many names at most, as far as the index knows.
  constexpr std::size_t k_max_calls = 64;
  // Assignments of a call's result kept per function.
  constexpr std::size_t k_max_assigned = 32;
  auto& out = facts.functions;
  const auto& [source, ls, line_starts, ok] = *lines.m;
  if (!ok) return;
  struct Open {
    std::uint32_t indent;
    std::size_t index;  // into out, or SIZE_MAX for a class
    std::string qualname;
    std::uint32_t body = UINT32_MAX;  // the indentation of its body's statements, once seen
    // The `if` of its body whose block the lines are in (model::Binding::
    // when), and the indentation of that block's statements, once seen.
    model::Binding branch;
    std::uint32_t branch_body = UINT32_MAX;
  };
  std::vector<Open> open;
  // The `for`/`while` headers whose bodies the line is in: indentation
  // and first line (1-based).
  std::vector<std::pair<std::uint32_t, int>> loops;
  bool exports_unknown = false;
  // The property kind the decorators above the next `def` give it, and
  // whether another decorator (not `staticmethod`, `classmethod`) may
  // replace what its name stands for (`@_SpecialForm`): its returns say
  // nothing then.
  std::string_view property;
  bool wrapped = false;
  for (const Logical& l : ls) {
    while (!open.empty() && open.back().indent >= l.indent) open.pop_back();
    while (!loops.empty() && loops.back().first >= l.indent) loops.pop_back();
    // What the line binds, in the innermost function or at module level
    // (not in a class body: its names are the class's).
    {
      Open* scope = open.empty() ? nullptr : &open.back();
      if (scope && scope->body == UINT32_MAX) scope->body = l.indent;
      std::vector<model::Binding>* into =
          !scope ? &facts.module_bindings : scope->index != SIZE_MAX ? &out[scope->index].bindings : nullptr;
      auto outermost = std::find_if(loops.begin(), loops.end(), [&](const auto& o) { return !scope || o.first > scope->indent; });
      const int loop = outermost == loops.end() ? 0 : outermost->second;
      const std::size_t before = into ? into->size() : 0;
      const model::Binding* when = nullptr;
      if (scope && scope->index != SIZE_MAX) {
        if (l.indent == scope->body) {
          scope->branch = {};
          scope->branch_body = UINT32_MAX;
          if (auto cond = if_condition(source, l)) {
            scope->branch.when = std::string(*cond);
            scope->branch.when_line = static_cast<int>(l.first_line) + 1;
          }
        } else if (scope->branch.when_line > 0) {
          if (scope->branch_body == UINT32_MAX) scope->branch_body = l.indent;
          if (l.indent == scope->branch_body) when = &scope->branch;
        }
      }
      if (into)
        read_bindings(source, l, *into, l.indent == (scope ? scope->body : 0), loop,
                      scope ? model::FunctionCalls::k_max_bindings : k_max_module_bindings, when);
      if (scope && scope->index != SIZE_MAX && l.indent >= scope->body &&
          out[scope->index].statement_calls.size() < model::FunctionCalls::k_max_statement_calls)
        if (auto call = statement_call(source, l))
          out[scope->index].statement_calls.push_back(
              {std::move(call->first), std::move(call->second), static_cast<int>(l.first_line) + 1,
               l.indent == scope->body});
      // A nested function's `nonlocal x`/`global x`: its enclosing
      // functions' `x` may change whenever it runs.
      if (scope && into)
        for (std::size_t b = before; b < into->size(); ++b)
          if ((*into)[b].kind == "global")
            for (const Open& o : open)
              if (o.index != SIZE_MAX && &o != scope) {
                auto& theirs = out[o.index].bindings;
                const model::Binding rebound{(*into)[b].name, (*into)[b].line, "other", "", false, 1, "", 0};
                if (theirs.size() < model::FunctionCalls::k_max_bindings) theirs.push_back(rebound);
                else theirs.back() = {"*", rebound.line, "other", "", false, 1, "", 0};
              }
      std::uint32_t k = l.text;
      if (starts_with_word(source, k, "async")) k += 6;
      if (starts_with_word(source, k, "for") || starts_with_word(source, k, "while"))
        loops.emplace_back(l.indent, static_cast<int>(l.first_line) + 1);
    }
    std::uint32_t at = l.text;
    const bool decorator = at < l.end && source[at] == '@';
    if (decorator) {
      const std::string_view d = source.substr(at + 1, l.end - at - 1);
      if (auto kind = property_kind(d); !kind.empty()) property = kind;
      else if (!d.starts_with("staticmethod") && !d.starts_with("classmethod")) wrapped = true;
    } else if (!starts_with_word(source, at, "def") && !starts_with_word(source, at, "async")) {
      property = {};
      wrapped = false;
    }
    const bool is_async = starts_with_word(source, at, "async");
    if (is_async) {
      at += 5;
      while (at < l.end && (source[at] == ' ' || source[at] == '\t')) ++at;
    }
    const bool is_def = starts_with_word(source, at, "def");
    if (is_def || starts_with_word(source, at, "class")) {
      std::uint32_t n = at + (is_def ? 3 : 5);
      while (n < l.end && (source[n] == ' ' || source[n] == '\t')) ++n;
      std::uint32_t e = n;
      while (e < l.end && is_ident(source[e])) ++e;
      if (e == n) {
        open.push_back({l.indent, SIZE_MAX, open.empty() ? std::string() : open.back().qualname, UINT32_MAX, {}, UINT32_MAX});
        continue;
      }
      std::string qualname = open.empty() ? std::string() : open.back().qualname + '.';
      qualname.append(source.substr(n, e - n));
      const bool nested = std::any_of(open.begin(), open.end(), [](const Open& o) { return o.index != SIZE_MAX; });
      if (is_def) {
        model::FunctionCalls fn;
        fn.name = std::string(source.substr(n, e - n));
        fn.qualname = qualname;
        fn.line = static_cast<int>(l.first_line) + 1;
        fn.nested = nested;
        fn.is_async = is_async;
        fn.property = property;
        if (wrapped) fn.returns = "?";  // cleared at the end
        if (std::uint32_t open_paren = e; open_paren < l.end && source[open_paren] == '(') {
          int depth = 0;
          for (std::uint32_t close = open_paren; close < l.end; ++close) {
            depth += source[close] == '(' ? 1 : source[close] == ')' ? -1 : 0;
            if (depth == 0) {
              fn.params = python::collapse_ws(source.substr(open_paren + 1, close - open_paren - 1));
              break;
            }
          }
        }
        property = {};
        wrapped = false;
        out.push_back(std::move(fn));
        open.push_back({l.indent, out.size() - 1, std::move(qualname), UINT32_MAX, {}, UINT32_MAX});
        // A one-line body (`def f(): return g()`) is on the same logical line.
        std::uint32_t colon = e;
        int depth = 0;
        while (colon < l.end && !(depth == 0 && source[colon] == ':')) {
          depth += source[colon] == '(' ? 1 : source[colon] == ')' ? -1 : 0;
          ++colon;
        }
        if (colon < l.end) called_names(source, colon, l.end, out.back().calls, k_max_calls, &out.back().targets);
      } else {
        model::ClassBases c{qualname, {}};
        std::uint32_t p = e;
        while (p < l.end && (source[p] == ' ' || source[p] == '\t')) ++p;
        if (p < l.end && source[p] == '(') {
          std::uint32_t close = p;
          int depth = 0;
          for (; close < l.end; ++close) {
            depth += source[close] == '(' ? 1 : source[close] == ')' ? -1 : 0;
            if (depth == 0) break;
          }
          for (auto part : comma_parts(source, p + 1, close))
            if (auto [name, alias] = name_as(part); !name.empty() && alias.empty() && name != "*")
              c.bases.emplace_back(name);
        }
        facts.class_bases.push_back(std::move(c));
        open.push_back({l.indent, SIZE_MAX, std::move(qualname), UINT32_MAX, {}, UINT32_MAX});
      }
      continue;
    }
    if (read_import(source, l, facts.imports)) continue;
    if (open.empty() && starts_with_word(source, l.text, "__all__")) {
      read_exports(source, l, facts, exports_unknown);
      continue;
    }
    auto assigned = call_assignment(source, l);
    if (open.empty()) {
      if (assigned) facts.assigned.push_back(std::move(*assigned));
      continue;
    }
    // A class body's `x = property(getx, setx)`: its functions (defined
    // above it) are that attribute's accessors.
    if (open.back().index == SIZE_MAX)
      if (auto p = property_call(source, l))
        for (const auto& [kind, name] : p->accessors) {
          const std::string q = open.back().qualname + '.' + std::string(name);
          for (auto& fn : out)
            if (fn.qualname == q && !fn.nested && fn.property.empty()) {
              fn.property = kind;
              fn.attribute = p->attribute;
              break;
            }
        }
    // A nested function's calls are its enclosing functions' too: a
    // closure runs on their behalf.
    model::FunctionCalls* innermost = nullptr;
    for (const Open& o : open)
      if (o.index != SIZE_MAX) {
        innermost = &out[o.index];
        called_names(source, l.text, l.end, innermost->calls, k_max_calls, &innermost->targets);
      }
    if (innermost && assigned && innermost->assigned.size() < k_max_assigned)
      innermost->assigned.push_back(std::move(*assigned));
    // What the innermost function returns; "?" marks disagreement until
    // the end. The one-line body of a `def` is not read for it.
    if (innermost && open.back().index != SIZE_MAX && innermost == &out[open.back().index])
      if (auto r = return_value(source, l, innermost->assigned); r && !r->empty() && innermost->returns != "?") {
        if (innermost->returns.empty()) innermost->returns = std::move(*r);
        else if (innermost->returns != *r) innermost->returns = "?";
      }
  }
  for (auto& fn : out)
    if (fn.returns == "?") fn.returns.clear();
  if (exports_unknown) {
    facts.has_exports = false;
    facts.exports.clear();
  }
}
}  // namespace errdex::scan
