#include "analyze/guard_eval.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace errdex::analyze {
namespace {

using Kind = PyValue::Kind;

// Bounds on what is built: a literal `'x' * 10**9` is not materialized.
constexpr std::size_t k_max_string = 1 << 16;
constexpr std::size_t k_max_depth = 32;

struct Token {
  enum class Type { name, number, string, op, end } type;
  std::string text;   // name, operator, number source
  PyValue value;      // string and number literals
  bool bad = false;   // a literal we do not read (f-string, escape we do not know)
};

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Decodes a string literal's body; false for an escape it does not know.
bool unescape(std::string_view body, bool raw, std::string& out) {
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || raw) {
      out += c;
      continue;
    }
    if (++i >= body.size()) return false;
    switch (body[i]) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case '0': out += '\0'; break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case '\n': break;
      default: return false;
    }
  }
  return true;
}

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  auto fail = [&] {
    out.push_back({Token::Type::op, "?", {}, true});
    return out;
  };
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
      ++i;
      continue;
    }
    // A string, with its prefix (r, b, u; f is not read).
    std::size_t q = i;
    while (q < s.size() && q - i < 2 && std::string_view("rRbBuUfF").find(s[q]) != std::string_view::npos) ++q;
    if (q < s.size() && (s[q] == '\'' || s[q] == '"')) {
      std::string prefix;
      for (std::size_t k = i; k < q; ++k) prefix += static_cast<char>(std::tolower(static_cast<unsigned char>(s[k])));
      const char quote = s[q];
      const bool triple = s.substr(q, 3) == std::string(3, quote);
      const std::size_t open = triple ? 3 : 1;
      std::size_t j = q + open;
      while (j < s.size()) {
        if (s[j] == '\\') {
          j += 2;
          continue;
        }
        if (triple ? s.substr(j, 3) == std::string(3, quote) : s[j] == quote) break;
        ++j;
      }
      if (j >= s.size()) return fail();
      Token t{Token::Type::string, "", {}, false};
      t.value.kind = prefix.find('b') != std::string::npos ? Kind::bytes : Kind::str;
      t.bad = prefix.find('f') != std::string::npos ||
              !unescape(s.substr(q + open, j - q - open), prefix.find('r') != std::string::npos, t.value.s);
      out.push_back(std::move(t));
      i = j + open;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      std::size_t j = i;
      while (j < s.size() && (word_char(s[j]) || s[j] == '.' ||
                              ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E') &&
                               !(s.substr(i, 2) == "0x" || s.substr(i, 2) == "0X"))))
        ++j;
      std::string text;
      for (std::size_t k = i; k < j; ++k)
        if (s[k] != '_') text += s[k];
      Token t{Token::Type::number, text, {}, false};
      try {
        std::size_t used = 0;
        const bool real = text.find_first_of(".eE") != std::string::npos && text.find_first_of("xX") == std::string::npos;
        if (real) {
          t.value.kind = Kind::real;
          t.value.f = std::stod(text, &used);
        } else {
          t.value.kind = Kind::integer;
          const bool prefixed = text.size() > 2 && text[0] == '0' && std::isalpha(static_cast<unsigned char>(text[1]));
          const int base = !prefixed ? 10 : (text[1] == 'x' || text[1] == 'X') ? 16 : (text[1] == 'o' || text[1] == 'O') ? 8 : 2;
          t.value.i = std::stoll(prefixed ? text.substr(2) : text, &used, base);
          if (prefixed) used += 2;
        }
        t.bad = used != text.size();
      } catch (const std::exception&) {
        t.bad = true;
      }
      out.push_back(std::move(t));
      i = j;
      continue;
    }
    if (word_char(c)) {
      std::size_t j = i;
      while (j < s.size() && word_char(s[j])) ++j;
      out.push_back({Token::Type::name, std::string(s.substr(i, j - i)), {}, false});
      i = j;
      continue;
    }
    for (std::string_view op : {"==", "!=", "<=", ">=", "**", "//", "<", ">", "(", ")", "[", "]", "{", "}", ",", "+",
                                "-", "*", ".", ":", "=", "%", "/", "|", "&", "~", "@"}) {
      if (s.substr(i, op.size()) == op) {
        out.push_back({Token::Type::op, std::string(op), {}, false});
        i += op.size();
        goto next;
      }
    }
    return fail();
  next:;
  }
  out.push_back({Token::Type::end, "", {}, false});
  return out;
}

PyValue make_bool(bool b) {
  PyValue v;
  v.kind = Kind::boolean;
  v.i = b;
  return v;
}

bool numeric(const PyValue& v) { return v.kind == Kind::boolean || v.kind == Kind::integer || v.kind == Kind::real; }
double as_real(const PyValue& v) { return v.kind == Kind::real ? v.f : static_cast<double>(v.i); }
bool sequence(const PyValue& v) { return v.kind == Kind::tuple || v.kind == Kind::list || v.kind == Kind::set; }

bool truthy(const PyValue& v) {
  switch (v.kind) {
    case Kind::none: return false;
    case Kind::boolean:
    case Kind::integer: return v.i != 0;
    case Kind::real: return v.f != 0;
    case Kind::str:
    case Kind::bytes: return !v.s.empty();
    default: return !v.items.empty();
  }
}

// Python's `==` on literals (a set's order ignored only for one item or
// none: larger sets compare as unknown).
std::optional<bool> equal(const PyValue& a, const PyValue& b) {
  if (numeric(a) && numeric(b)) {
    if (a.kind != Kind::real && b.kind != Kind::real) return a.i == b.i;
    return as_real(a) == as_real(b);
  }
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::none: return true;
    case Kind::str:
    case Kind::bytes: return a.s == b.s;
    default: break;
  }
  if (a.items.size() != b.items.size()) return false;
  if (a.kind == Kind::set && a.items.size() > 1) return std::nullopt;
  for (std::size_t k = 0; k < a.items.size(); ++k) {
    auto e = equal(a.items[k], b.items[k]);
    if (!e || !*e) return e;
  }
  return true;
}

std::optional<int> order(const PyValue& a, const PyValue& b) {
  if (numeric(a) && numeric(b)) {
    if (a.kind != Kind::real && b.kind != Kind::real) return a.i < b.i ? -1 : a.i > b.i;
    double x = as_real(a), y = as_real(b);
    if (std::isnan(x) || std::isnan(y)) return std::nullopt;
    return x < y ? -1 : x > y;
  }
  if (a.kind == b.kind && (a.kind == Kind::str || a.kind == Kind::bytes)) return a.s.compare(b.s) < 0 ? -1 : a.s != b.s;
  return std::nullopt;
}

std::optional<bool> contains(const PyValue& hay, const PyValue& needle) {
  if (hay.kind == Kind::str || hay.kind == Kind::bytes) {
    if (needle.kind != hay.kind) return std::nullopt;
    return hay.s.find(needle.s) != std::string::npos;
  }
  if (!sequence(hay)) return std::nullopt;
  bool unknown = false;
  for (const auto& item : hay.items) {
    auto e = equal(item, needle);
    if (e && *e) return true;
    unknown = unknown || !e;
  }
  if (unknown) return std::nullopt;
  return false;
}

// Recursive descent over tokens, evaluating as it parses: an empty
// optional is "unknown", `m_failed` a text it cannot parse at all.
class Evaluator {
 public:
  Evaluator(std::vector<Token> tokens, const Bindings* bound) : m_tokens(std::move(tokens)), m_bound(bound) {}

  std::optional<PyValue> whole() {
    auto v = expression();
    if (peek().type != Token::Type::end) m_failed = true;
    return m_failed ? std::nullopt : v;
  }
  bool failed() const { return m_failed; }

 private:
  const Token& peek(std::size_t ahead = 0) const { return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)]; }
  bool at(std::string_view text) const { return peek().type != Token::Type::string && peek().text == text; }
  bool take(std::string_view text) {
    if (!at(text)) return false;
    ++m_pos;
    return true;
  }
  void expect(std::string_view text) {
    if (!take(text)) m_failed = true;
  }

  std::optional<PyValue> expression() {
    if (++m_depth > k_max_depth || m_failed) {
      m_failed = true;
      return std::nullopt;
    }
    auto v = disjunction();
    --m_depth;
    return v;
  }

  // `a or b`: true when either is; `and` likewise; unknown otherwise.
  std::optional<PyValue> disjunction() {
    auto v = conjunction();
    while (take("or")) {
      auto r = conjunction();
      if (v && truthy(*v)) continue;
      if (v && !truthy(*v)) v = r;
      else if (r && truthy(*r)) v = make_bool(true);
      else v = std::nullopt;
    }
    return v;
  }
  std::optional<PyValue> conjunction() {
    auto v = negation();
    while (take("and")) {
      auto r = negation();
      if (v && !truthy(*v)) continue;
      if (v && truthy(*v)) v = r;
      else if (r && !truthy(*r)) v = make_bool(false);
      else v = std::nullopt;
    }
    return v;
  }
  std::optional<PyValue> negation() {
    if (take("not")) {
      auto v = negation();
      if (!v) return std::nullopt;
      return make_bool(!truthy(*v));
    }
    return comparison();
  }

  std::optional<PyValue> comparison() {
    auto left = sum();
    std::optional<bool> result = true;
    bool any = false;
    for (;;) {
      std::string op;
      if (at("==") || at("!=") || at("<") || at("<=") || at(">") || at(">=") || at("in")) op = peek().text, ++m_pos;
      else if (at("not") && peek(1).text == "in") op = "not in", m_pos += 2;
      else if (at("is")) op = (++m_pos, take("not")) ? "is not" : "is";
      else break;
      auto right = sum();
      any = true;
      std::optional<bool> step;
      if (left && right) step = compare(*left, op, *right);
      if (!step) result = result && !*result ? result : std::nullopt;
      else if (result && *result) result = *step;
      left = right;
    }
    if (!any) return left;
    if (!result) return std::nullopt;
    return make_bool(*result);
  }

  static std::optional<bool> compare(const PyValue& a, const std::string& op, const PyValue& b) {
    if (op == "==" || op == "!=") {
      auto e = equal(a, b);
      if (!e) return e;
      return op == "==" ? *e : !*e;
    }
    if (op == "in" || op == "not in") {
      auto c = contains(b, a);
      if (!c) return c;
      return op == "in" ? *c : !*c;
    }
    if (op == "is" || op == "is not") {
      // Identity is only known for the singletons.
      auto single = [](const PyValue& v) { return v.kind == Kind::none || v.kind == Kind::boolean; };
      if (!single(a) && !single(b)) return std::nullopt;
      bool same = a.kind == b.kind && a.i == b.i;
      return op == "is" ? same : !same;
    }
    auto o = order(a, b);
    if (!o) return std::nullopt;
    if (op == "<") return *o < 0;
    if (op == "<=") return *o <= 0;
    if (op == ">") return *o > 0;
    return *o >= 0;
  }

  std::optional<PyValue> sum() {
    auto v = product();
    while (at("+") || at("-")) {
      const bool plus = peek().text == "+";
      ++m_pos;
      auto r = product();
      if (!v || !r) {
        v = std::nullopt;
        continue;
      }
      if (numeric(*v) && numeric(*r) && v->kind != Kind::real && r->kind != Kind::real) {
        v->i = plus ? v->i + r->i : v->i - r->i;
        v->kind = Kind::integer;
      } else if (numeric(*v) && numeric(*r)) {
        v->f = plus ? as_real(*v) + as_real(*r) : as_real(*v) - as_real(*r);
        v->kind = Kind::real;
      } else if (plus && v->kind == r->kind && (v->kind == Kind::str || v->kind == Kind::bytes) &&
                 v->s.size() + r->s.size() <= k_max_string) {
        v->s += r->s;
      } else {
        v = std::nullopt;
      }
    }
    return v;
  }

  std::optional<PyValue> product() {
    auto v = unary();
    while (at("*") || at("/") || at("//") || at("%") || at("**") || at("@") || at("|") || at("&")) {
      const bool times = peek().text == "*";
      ++m_pos;
      auto r = unary();
      if (!times || !v || !r) {
        v = std::nullopt;
        continue;
      }
      if ((v->kind == Kind::integer || v->kind == Kind::boolean) && (r->kind == Kind::str || r->kind == Kind::bytes)) std::swap(*v, *r);
      if ((v->kind == Kind::str || v->kind == Kind::bytes) && (r->kind == Kind::integer || r->kind == Kind::boolean)) {
        // Python's repetition: a count below one gives "", and an empty
        // string stays empty however large the count (no loop over it).
        const auto n = static_cast<std::size_t>(std::max(0LL, r->i));
        if (!v->s.empty() && n > k_max_string / v->s.size()) {
          v = std::nullopt;
          continue;
        }
        std::string rep;
        if (!v->s.empty())
          for (std::size_t k = 0; k < n; ++k) rep += v->s;
        v->s = std::move(rep);
      } else if (numeric(*v) && numeric(*r) && v->kind != Kind::real && r->kind != Kind::real) {
        v->i *= r->i;
        v->kind = Kind::integer;
      } else {
        v = std::nullopt;
      }
    }
    return v;
  }

  std::optional<PyValue> unary() {
    if (take("-")) {
      auto v = unary();
      if (!v || !numeric(*v)) return std::nullopt;
      if (v->kind == Kind::real) v->f = -v->f;
      else v->i = -v->i, v->kind = Kind::integer;
      return v;
    }
    if (take("+")) return unary();
    if (take("~")) return unary(), std::nullopt;
    return postfix();
  }

  // An atom, then attributes, subscripts and calls: only the pure
  // built-ins (`len(...)`, `isinstance(...)`, `int(...)`, builtin() lists
  // them), `operator.index(...)` and a few methods of a known str stay
  // known.
  std::optional<PyValue> postfix() {
    std::string callee = peek().type == Token::Type::name ? peek().text : "";
    auto v = atom();
    bool plain = true;
    std::optional<PyValue> receiver;  // before `.method`
    std::string method;
    for (;;) {
      // An attribute of a name bound as a whole (`self.mode`, what the
      // instance's `__init__` set it to): read, not called.
      if (plain && !callee.empty() && at(".") && peek(1).type == Token::Type::name && peek(2).text != "(" && m_bound)
        if (auto it = m_bound->find(callee + "." + peek(1).text); it != m_bound->end()) {
          m_pos += 2;
          v = it->second, plain = false;
          continue;
        }
      if (take(".")) {
        if (peek().type != Token::Type::name) m_failed = true;
        method = peek().text;
        receiver = plain && callee == "operator" && !(m_bound && m_bound->contains(callee)) ? std::optional<PyValue>(PyValue{})
                                                                                            : v;
        if (plain && callee == "operator") method = "operator." + method;
        ++m_pos;
        v = std::nullopt, plain = false;
      } else if (take("[")) {
        // `x[i]`, `x[a:b]` (no step, no tuple of indices).
        std::vector<std::optional<PyValue>> parts(1);
        bool odd = false, colon = false;
        while (!m_failed && !at("]") && peek().type != Token::Type::end) {
          if (take(":")) {
            colon = true;
            odd = odd || parts.size() == 2;
            parts.emplace_back();
          } else if (take(",")) {
            odd = true;
          } else {
            parts.back() = expression();
            if (!parts.back()) odd = true;
          }
        }
        expect("]");
        v = v && !odd ? subscript(*v, parts, colon) : std::nullopt;
        plain = false, method.clear();
      } else if (at("(")) {
        ++m_pos;
        std::vector<std::optional<PyValue>> args;
        std::vector<std::pair<std::size_t, std::size_t>> spans;
        bool keywords = false;
        while (!m_failed && !at(")") && peek().type != Token::Type::end) {
          if (peek().type == Token::Type::name && peek(1).text == "=") m_pos += 2, keywords = true;  // a keyword: its value only
          const std::size_t start = m_pos;
          args.push_back(expression());
          spans.emplace_back(start, m_pos);
          if (!take(",")) break;
        }
        expect(")");
        if (keywords) v = std::nullopt;
        else if (plain) v = builtin(callee, args, spans);
        else if (!method.empty() && receiver) v = method_call(*receiver, method, args);
        else v = std::nullopt;
        plain = false, method.clear();
      } else {
        break;
      }
    }
    if (!method.empty()) return std::nullopt;  // an attribute read
    return v;
  }

  // `v[i]` or `v[a:b]` of a str, bytes, tuple or list, as Python gives
  // it; empty for an index out of range (IndexError) or anything else.
  // `parts` holds the index, or the slice's bounds (empty when omitted).
  static std::optional<PyValue> subscript(const PyValue& v, const std::vector<std::optional<PyValue>>& parts,
                                          bool slice) {
    const bool text = v.kind == Kind::str || v.kind == Kind::bytes;
    if (!text && v.kind != Kind::tuple && v.kind != Kind::list) return std::nullopt;
    if (v.kind == Kind::str && !std::all_of(v.s.begin(), v.s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
      return std::nullopt;  // characters, not bytes: ASCII only
    const long long n = static_cast<long long>(text ? v.s.size() : v.items.size());
    auto index = [](const std::optional<PyValue>& p) -> std::optional<long long> {
      if (!p || (p->kind != Kind::integer && p->kind != Kind::boolean)) return std::nullopt;
      return p->i;
    };
    if (!slice) {
      auto i = index(parts[0]);
      if (!i) return std::nullopt;
      const long long at = *i < 0 ? *i + n : *i;
      if (at < 0 || at >= n) return std::nullopt;
      if (v.kind == Kind::bytes) return make_int(static_cast<unsigned char>(v.s[at]));
      if (v.kind == Kind::str) {
        PyValue c;
        c.kind = Kind::str;
        c.s = v.s.substr(at, 1);
        return c;
      }
      return v.items[at];
    }
    auto bound = [&](const std::optional<PyValue>& p, long long dflt) -> std::optional<long long> {
      if (!p) return dflt;
      auto i = index(p);
      if (!i) return std::nullopt;
      long long at = *i < 0 ? *i + n : *i;
      return std::clamp(at, 0LL, n);
    };
    auto lo = bound(parts[0], 0), hi = bound(parts.size() > 1 ? parts[1] : std::nullopt, n);
    if (!lo || !hi) return std::nullopt;
    PyValue out;
    out.kind = v.kind;
    if (*hi > *lo) {
      if (text) out.s = v.s.substr(*lo, *hi - *lo);
      else out.items.assign(v.items.begin() + *lo, v.items.begin() + *hi);
    }
    return out;
  }

  static PyValue make_int(long long n) {
    PyValue v;
    v.kind = Kind::integer;
    v.i = n;
    return v;
  }
  static bool ascii(const std::string& s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  }

  // `operator.index(x)`, and the methods of a str or bytes that neither
  // change it nor depend on a locale: case, stripping, `is...` tests on
  // ASCII text, `startswith`/`endswith`.
  static std::optional<PyValue> method_call(const PyValue& self, const std::string& name,
                                            const std::vector<std::optional<PyValue>>& args) {
    if (name == "operator.index") {
      if (args.size() == 1 && args[0] && (args[0]->kind == Kind::integer || args[0]->kind == Kind::boolean))
        return make_int(args[0]->i);
      return std::nullopt;
    }
    if ((self.kind != Kind::str && self.kind != Kind::bytes) || !ascii(self.s)) return std::nullopt;
    for (const auto& a : args)
      if (!a) return std::nullopt;
    PyValue out = self;
    auto each = [&](auto&& f) {
      for (char& c : out.s) c = static_cast<char>(f(static_cast<unsigned char>(c)));
      return out;
    };
    auto all = [&](auto&& f) {
      return make_bool(!self.s.empty() && std::all_of(self.s.begin(), self.s.end(),
                                                       [&](char c) { return f(static_cast<unsigned char>(c)) != 0; }));
    };
    if ((name == "split" || name == "rsplit") && args.size() <= 1) {
      // Whitespace runs, or every occurrence of a separator.
      PyValue list;
      list.kind = Kind::list;
      auto piece = [&](std::string t) {
        PyValue p;
        p.kind = self.kind;
        p.s = std::move(t);
        list.items.push_back(std::move(p));
      };
      if (args.empty() || args[0]->kind == Kind::none) {
        std::size_t i = 0;
        while (i < self.s.size()) {
          while (i < self.s.size() && std::isspace(static_cast<unsigned char>(self.s[i]))) ++i;
          std::size_t j = i;
          while (j < self.s.size() && !std::isspace(static_cast<unsigned char>(self.s[j]))) ++j;
          if (j > i) piece(self.s.substr(i, j - i));
          i = j;
        }
        return list;
      }
      if (args[0]->kind != self.kind || args[0]->s.empty()) return std::nullopt;
      const std::string& sep = args[0]->s;
      std::size_t from = 0;
      for (auto at = self.s.find(sep); at != std::string::npos; at = self.s.find(sep, from)) {
        piece(self.s.substr(from, at - from));
        from = at + sep.size();
      }
      piece(self.s.substr(from));
      return list;
    }
    if (args.empty()) {
      if (name == "lower") return each([](int c) { return std::tolower(c); });
      if (name == "upper") return each([](int c) { return std::toupper(c); });
      if (name == "strip" || name == "lstrip" || name == "rstrip") {
        const char* ws = " \t\n\r\f\v";
        const auto first = name == "rstrip" ? 0 : out.s.find_first_not_of(ws);
        if (first == std::string::npos) {
          out.s.clear();
          return out;
        }
        const auto last = name == "lstrip" ? out.s.size() : out.s.find_last_not_of(ws) + 1;
        out.s = out.s.substr(first, last - first);
        return out;
      }
      if (name == "isdigit") return all([](int c) { return std::isdigit(c); });
      if (name == "isalpha") return all([](int c) { return std::isalpha(c); });
      if (name == "isalnum") return all([](int c) { return std::isalnum(c); });
      if (name == "isspace") return all([](int c) { return std::isspace(c); });
      return std::nullopt;
    }
    if ((name == "startswith" || name == "endswith") && args.size() == 1) {
      std::vector<const PyValue*> affixes;
      if (args[0]->kind == Kind::tuple)
        for (const auto& item : args[0]->items) affixes.push_back(&item);
      else
        affixes.push_back(&*args[0]);
      bool any = false;
      for (const PyValue* a : affixes) {
        if (a->kind != self.kind) return std::nullopt;
        any = any || (name == "startswith" ? std::string_view(self.s).starts_with(a->s)
                                           : std::string_view(self.s).ends_with(a->s));
      }
      return make_bool(any);
    }
    return std::nullopt;
  }

  std::optional<PyValue> builtin(const std::string& fn, const std::vector<std::optional<PyValue>>& args,
                                 const std::vector<std::pair<std::size_t, std::size_t>>& spans) {
    if (m_bound && m_bound->contains(fn)) return std::nullopt;  // a parameter shadowing the builtin
    if (fn == "len" && args.size() == 1 && args[0]) {
      const PyValue& x = *args[0];
      if (x.kind == Kind::str || x.kind == Kind::bytes) {
        PyValue n;
        n.kind = Kind::integer;
        n.i = x.kind == Kind::bytes ? static_cast<long long>(x.s.size()) : utf8_length(x.s);
        return n;
      }
      if (sequence(x)) {  // a set's items are distinct once known
        PyValue n;
        n.kind = Kind::integer;
        n.i = static_cast<long long>(x.items.size());
        return n;
      }
      return std::nullopt;
    }
    if (fn == "isinstance" && args.size() == 2 && args[0]) {
      // The type argument as written: one name or a tuple of names.
      std::vector<std::string> types;
      std::size_t from = spans[1].first, to = spans[1].second;
      if (to - from >= 2 && m_tokens[from].text == "(" && m_tokens[to - 1].text == ")") ++from, --to;
      for (std::size_t k = from; k < to; ++k) {
        const Token& t = m_tokens[k];
        if (t.type == Token::Type::name && (k == from || m_tokens[k - 1].text == ",")) types.push_back(t.text);
        else if (t.text != ",") return std::nullopt;
      }
      if (types.empty()) return std::nullopt;
      std::optional<bool> any = false;
      for (const auto& t : types) {
        auto one = instance_of(*args[0], t);
        if (!one) return std::nullopt;
        any = *any || *one;
      }
      return make_bool(*any);
    }
    if (std::any_of(args.begin(), args.end(), [](const auto& a) { return !a; })) return std::nullopt;
    if (args.empty()) {
      // `set()`, `tuple()`, `str()`...: empty.
      static const std::pair<std::string_view, Kind> k_empty[] = {
          {"set", Kind::set}, {"tuple", Kind::tuple}, {"list", Kind::list}, {"str", Kind::str}, {"bytes", Kind::bytes}};
      for (const auto& [name, kind] : k_empty)
        if (fn == name) {
          PyValue e;
          e.kind = kind;
          return e;
        }
      return std::nullopt;
    }
    if (args.size() == 1) {
      const PyValue& x = *args[0];
      // No literal is callable.
      if (fn == "callable") return make_bool(false);
      // What these give for a value they take without raising; any other
      // (`int('x')`, `int(2.5e300)`) is unknown.
      if (fn == "int" && (x.kind == Kind::integer || x.kind == Kind::boolean)) return make_int(x.i);
      if (fn == "int" && x.kind == Kind::real && std::isfinite(x.f) && std::fabs(x.f) < 9e15)
        return make_int(static_cast<long long>(x.f));
      if (fn == "float" && numeric(x)) {
        PyValue f;
        f.kind = Kind::real;
        f.f = as_real(x);
        return f;
      }
      if (fn == "str" && x.kind == Kind::str) return x;
      if (fn == "bool") return make_bool(truthy(x));
      if (fn == "abs" && numeric(x)) {
        PyValue a = x;
        if (a.kind == Kind::real) a.f = std::fabs(a.f);
        else a = make_int(a.i < 0 ? -a.i : a.i);
        return a;
      }
      if ((fn == "tuple" || fn == "list") && (x.kind == Kind::tuple || x.kind == Kind::list)) {
        PyValue t = x;
        t.kind = fn == "tuple" ? Kind::tuple : Kind::list;
        return t;
      }
    }
    if ((fn == "min" || fn == "max") && args.size() >= 2) {
      PyValue best = *args[0];
      for (std::size_t k = 1; k < args.size(); ++k) {
        if (!numeric(*args[k]) || !numeric(best)) return std::nullopt;
        auto o = order(*args[k], best);
        if (!o) return std::nullopt;
        if ((fn == "min" && *o < 0) || (fn == "max" && *o > 0)) best = *args[k];
      }
      return best;
    }
    return std::nullopt;
  }

  static long long utf8_length(const std::string& s) {
    return std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
  }

  static std::optional<bool> instance_of(const PyValue& v, const std::string& type) {
    static const std::vector<std::pair<std::string, Kind>> k = {
        {"bool", Kind::boolean}, {"int", Kind::integer}, {"float", Kind::real}, {"str", Kind::str},
        {"bytes", Kind::bytes}, {"tuple", Kind::tuple}, {"list", Kind::list}, {"set", Kind::set}};
    if (type == "object") return true;
    if (type == "dict" || type == "bytearray" || type == "frozenset" || type == "complex") return false;
    for (const auto& [name, kind] : k)
      if (name == type) return v.kind == kind || (type == "int" && v.kind == Kind::boolean);
    return std::nullopt;
  }

  std::optional<PyValue> atom() {
    const Token& t = peek();
    if (t.type == Token::Type::end) {
      m_failed = true;
      return std::nullopt;
    }
    if (t.type == Token::Type::string) {
      // Adjacent literals concatenate.
      PyValue v = t.value;
      bool bad = t.bad;
      ++m_pos;
      while (peek().type == Token::Type::string) {
        bad = bad || peek().bad || peek().value.kind != v.kind;
        v.s += peek().value.s;
        ++m_pos;
      }
      if (bad) return std::nullopt;
      return v;
    }
    if (t.type == Token::Type::number) {
      ++m_pos;
      if (t.bad) return std::nullopt;
      return t.value;
    }
    if (t.type == Token::Type::name) {
      ++m_pos;
      if (t.text == "None") return PyValue{};
      if (t.text == "True" || t.text == "False") return make_bool(t.text == "True");
      if (t.text == "lambda" || t.text == "if" || t.text == "else" || t.text == "for" || t.text == "await" ||
          t.text == "yield") {
        m_failed = true;
        return std::nullopt;
      }
      if (m_bound)
        if (auto it = m_bound->find(t.text); it != m_bound->end()) return it->second;
      return std::nullopt;
    }
    if (t.text == "(" || t.text == "[" || t.text == "{") {
      const std::string close = t.text == "(" ? ")" : t.text == "[" ? "]" : "}";
      ++m_pos;
      PyValue v;
      v.kind = t.text == "(" ? Kind::tuple : t.text == "[" ? Kind::list : Kind::set;
      bool known = true, comma = false;
      while (!m_failed && !at(close) && peek().type != Token::Type::end) {
        auto item = expression();
        if (at(":") || at("for")) m_failed = true;  // a dict or a comprehension
        if (item) v.items.push_back(*item);
        else known = false;
        if (!take(",")) break;
        comma = true;
      }
      expect(close);
      // `{}` is a dict; `(x)` is x.
      if (v.kind == Kind::set && v.items.empty() && known) return std::nullopt;
      if (v.kind == Kind::tuple && !comma && v.items.size() == 1) return v.items[0];
      if (v.kind == Kind::tuple && !comma && !known) return std::nullopt;
      if (!known) return std::nullopt;
      if (v.kind == Kind::set) {
        std::vector<PyValue> unique;
        for (auto& item : v.items)
          if (std::none_of(unique.begin(), unique.end(), [&](const PyValue& u) {
                auto e = equal(u, item);
                return e && *e;
              }))
            unique.push_back(item);
        v.items = std::move(unique);
      }
      return v;
    }
    m_failed = true;
    return std::nullopt;
  }

  std::vector<Token> m_tokens;
  const Bindings* m_bound;
  std::size_t m_pos = 0;
  std::size_t m_depth = 0;
  bool m_failed = false;
};

}  // namespace

std::optional<PyValue> literal_value(std::string_view text) {
  Evaluator ev(tokenize(text), nullptr);
  return ev.whole();
}

std::optional<PyValue> evaluate_value(std::string_view expression, const Bindings& bound) {
  Evaluator ev(tokenize(expression), &bound);
  return ev.whole();
}

std::optional<bool> evaluate_condition(std::string_view condition, const Bindings& bound) {
  Evaluator ev(tokenize(condition), &bound);
  auto v = ev.whole();
  if (!v) return std::nullopt;
  return truthy(*v);
}

std::optional<bool> site_reached(const model::ThrowSite& site, const Bindings& bound) {
  bool all = true, any_condition = false;
  for (const auto& g : site.guards) {
    const bool negated = g.kind == "else" || (g.kind == "assert" && site.kind == "assert");
    if (g.condition.empty() || !(g.kind == "if" || g.kind == "elif" || negated)) {
      all = false;
      continue;
    }
    auto v = evaluate_condition(g.condition, bound);
    if (!v) {
      all = false;
      continue;
    }
    if (*v == negated) return false;
    any_condition = true;
  }
  if (all && any_condition) return true;
  return std::nullopt;
}

}  // namespace errdex::analyze
