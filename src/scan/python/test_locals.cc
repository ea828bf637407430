#include "scan/python/test_locals.h"

#include <algorithm>
#include <optional>

#include "scan/python/text.h"

namespace errdex::scan::python {
namespace {

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
// Whether statement `t` is a `with` (or `async with`) statement.
bool with_statement(std::string_view t) {
  return starts_with_word(t, "with") || (starts_with_word(t, "async") && starts_with_word(trim(t.substr(5)), "with"));
}

NameUse use_of(std::string_view t, std::string_view name) {
  NameUse out;
  bool as_target = false;
  const std::size_t assign = assignment_at(t);
  walk_code(t, [&](std::size_t i, int) {
    const std::size_t j = identifier_end(t, i);
    if (j == i || t.substr(i, j - i) != name) return false;
    out.named = true;
    std::size_t k = j;
    while (k < t.size() && t[k] == ' ') ++k;
    out.touched = out.touched || (k < t.size() && (t[k] == '.' || t[k] == '['));
    out.bound = out.bound || (assign != std::string_view::npos && i < assign) || (k + 1 < t.size() && t[k + 1] == '=' && t[k] == ':');
    // `with f() as name:`: named after `as`.
    std::size_t b = i;
    while (b > 0 && t[b - 1] == ' ') --b;
    as_target = as_target || (b >= 3 && t.substr(b - 2, 2) == "as" && t[b - 3] == ' ');
    return false;
  });
  // A `with` statement binds only its `as` targets (`with self.subTest(
  // bad=bad):` reads `bad`); the others bind any name they hold.
  const bool with = with_statement(t);
  out.bound = out.bound || (with && as_target);
  for (std::string_view w : {"for", "async", "del", "global", "nonlocal", "import", "from", "except"})
    out.bound = out.bound || (out.named && !with && starts_with_word(t, w));
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

// The first item of `for NAME in (A, B, ...):` (a tuple or list written
// out, brackets or none) whose target is `name` alone: what the loop's
// first round binds. The expectation in its body must hold on that round
// already. nullopt for any other statement.
std::optional<std::string> first_loop_item(std::string_view text, std::string_view name) {
  const std::string code = code_of(text);
  std::string_view t = code;
  if (!starts_with_word(t, "for")) return std::nullopt;
  t = trim(t.substr(3));
  if (!starts_with_word(t, name)) return std::nullopt;
  t = trim(t.substr(name.size()));
  if (!starts_with_word(t, "in") || !t.ends_with(':')) return std::nullopt;
  t = trim(t.substr(2, t.size() - 3));
  if (t.empty()) return std::nullopt;
  std::string bracketed = t.front() == '(' || t.front() == '[' ? std::string(t) : "(" + std::string(t) + ")";
  std::vector<std::string_view> items;
  if (split_args(bracketed, 0, items) + 1 != bracketed.size() || items.size() < 2) return std::nullopt;
  return std::string(items.front());
}

// Whether the loop `body[at]` runs the statement at `line` on every round:
// it is in the loop's block, inside no block around it there but `with`
// and `try` (an `if` may skip the first round: `if method == 'PUT':`), and
// no `continue` nor `break` comes before it in the loop.
bool runs_every_round(const std::vector<Statement>& body, std::size_t at, int line) {
  std::size_t j = at + 1;
  while (j < body.size() && body[j].indent > body[at].indent && body[j].line != line) ++j;
  if (j >= body.size() || body[j].line != line || body[j].indent <= body[at].indent) return false;
  std::uint32_t inner = body[j].indent;
  for (std::size_t k = j; k-- > at + 1;) {
    const std::string_view t = body[k].text;
    if (starts_with_word(t, "continue") || starts_with_word(t, "break")) return false;
    if (body[k].indent >= inner) continue;
    const bool with = with_statement(t);
    if (!with && !starts_with_word(t, "try")) return false;
    inner = body[k].indent;
  }
  return true;
}

}  // namespace

std::vector<std::string> steps_on(const TestFileBindings& b, const std::string& key, std::string_view name, int from, int to) {
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

std::vector<std::string> awaited_calls(const TestFileBindings& b, const model::TestExpectation& e) {
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

std::vector<std::pair<std::string, std::string>> local_values(const TestFileBindings& b, const model::TestExpectation& e) {
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
    std::string first_item;
    bool ok = true, touched = false, handed = false;
    for (std::size_t k = 0; k < body.size(); ++k) {
      const Statement& st = body[k];
      const NameUse u = use_of(st.text, name);
      if (u.bound) {
        // A loop over written-out items around the expectation: its first.
        if (auto item = first_loop_item(st.text, name); item && !value && runs_every_round(body, k, e.line)) {
          first_item = std::move(*item);
          value = first_item;
          continue;
        }
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
    if (!ok) continue;
    // Not bound in the test at all: the test module's constant, when it
    // is bound once at its top level and is no list, set or dict (any
    // test may change those).
    bool of_module = false;
    if (!value)
      if (auto m = b.module_texts.find(name); m != b.module_texts.end()) {
        value = m->second;
        of_module = true;
      }
    if (!value || value->empty()) continue;
    const char first = value->front();
    if ((first == '[' || first == '{') && (touched || handed || of_module)) continue;
    out.emplace_back(name, std::string(*value));
  }
  return out;
}

}  // namespace errdex::scan::python
