#include "analyze/call_text.h"

#include <algorithm>
#include <cctype>

namespace errdex::analyze {
namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Top-level pieces of an argument list, split at commas outside brackets.
std::vector<std::string_view> split_top(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  walk_code(s, 0, [&](std::size_t i, char c, int depth) {
    if (c == ',' && depth == 0) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
    return false;
  });
  out.push_back(s.substr(start));
  for (auto& p : out) {
    while (!p.empty() && std::isspace(static_cast<unsigned char>(p.front()))) p.remove_prefix(1);
    while (!p.empty() && std::isspace(static_cast<unsigned char>(p.back()))) p.remove_suffix(1);
  }
  if (out.size() == 1 && out[0].empty()) out.clear();
  if (!out.empty() && out.back().empty()) out.pop_back();  // a trailing comma
  return out;
}

// The keyword of `name=value` (not `==`), or "".
std::string_view keyword_of(std::string_view arg, std::string_view* value) {
  std::size_t i = 0;
  while (i < arg.size() && word_char(arg[i])) ++i;
  std::size_t j = i;
  while (j < arg.size() && arg[j] == ' ') ++j;
  if (i == 0 || j >= arg.size() || arg[j] != '=' || (j + 1 < arg.size() && arg[j + 1] == '=')) return {};
  *value = arg.substr(j + 1);
  while (!value->empty() && value->front() == ' ') value->remove_prefix(1);
  return arg.substr(0, i);
}

// The text of the bracketed run opening at `open` (a `(`), without its
// brackets; empty when it is not closed.
std::optional<std::string_view> bracketed(std::string_view s, std::size_t open) {
  std::optional<std::string_view> out;
  walk_code(s, open, [&](std::size_t i, char c, int depth) {
    if ((c == ')' || c == ']' || c == '}') && depth == 0) out = s.substr(open + 1, i - open - 1);
    return out.has_value();
  });
  return out;
}

// The opening bracket of the innermost bracket pair around `at` in `code`
// (`assertRaises(` of `assertRaises(E, P('/').f, x)` for `f`, not `P(`),
// strings skipped; npos when none is open there.
std::size_t enclosing_bracket(std::string_view code, std::size_t at) {
  std::vector<std::size_t> open;
  walk_code(code, 0, [&](std::size_t i, char c, int) {
    if (i >= at) return true;
    if (c == '(' || c == '[' || c == '{') open.push_back(i);
    else if ((c == ')' || c == ']' || c == '}') && !open.empty()) open.pop_back();
    return false;
  });
  return open.empty() ? std::string_view::npos : open.back();
}

}  // namespace

std::optional<Bindings> bind_call(const std::string& params, std::string_view args, bool skip_first,
                                  bool* misfit, const Bindings* scope) {
  if (misfit) *misfit = false;
  // The call surely does not fit: Python refuses it.
  auto refused = [&] {
    if (misfit) *misfit = true;
    return std::nullopt;
  };
  struct Param {
    std::string name;
    std::string_view default_text;
    bool keyword_only = false;
    bool positional_only = false;  // before a `/`
  };
  std::vector<Param> list;
  bool star_args = false, star_kwargs = false, keyword_only = false;
  std::string star_name;  // `*args`: its name
  std::vector<std::string_view> extra;  // the positionals it takes
  auto pieces = split_top(params);
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    std::string_view p = pieces[k];
    if (k == 0 && skip_first) continue;
    if (p == "/") {
      for (auto& q : list) q.positional_only = true;
      continue;
    }
    if (p.starts_with("**")) {
      star_kwargs = true;
      continue;
    }
    if (p.starts_with("*")) {
      star_args = star_args || p.size() > 1;
      if (p.size() > 1) {
        std::size_t i = 1;
        while (i < p.size() && word_char(p[i])) ++i;
        star_name = std::string(p.substr(1, i - 1));
      }
      keyword_only = true;
      continue;
    }
    Param q;
    std::size_t i = 0;
    while (i < p.size() && word_char(p[i])) ++i;
    q.name = std::string(p.substr(0, i));
    if (q.name.empty()) return std::nullopt;
    // `x: int = 1`: the default after the annotation's top-level `=`.
    int depth = 0;
    for (std::size_t j = i; j < p.size(); ++j) {
      if (p[j] == '(' || p[j] == '[' || p[j] == '{') ++depth;
      if (p[j] == ')' || p[j] == ']' || p[j] == '}') --depth;
      if (p[j] == '=' && depth == 0) {
        q.default_text = p.substr(j + 1);
        while (!q.default_text.empty() && q.default_text.front() == ' ') q.default_text.remove_prefix(1);
        break;
      }
    }
    q.keyword_only = keyword_only;
    list.push_back(q);
  }
  std::unordered_map<std::string, std::string_view> given;
  std::size_t positional = 0;
  for (std::string_view a : split_top(args)) {
    if (a.starts_with("*")) return std::nullopt;
    std::string_view value;
    if (auto kw = keyword_of(a, &value); !kw.empty()) {
      // A positional-only parameter's name given as a keyword goes to `**kw`.
      auto it = std::find_if(list.begin(), list.end(), [&](const Param& q) { return q.name == kw && !q.positional_only; });
      if (it == list.end()) {
        if (!star_kwargs) return refused();
        continue;
      }
      if (!given.emplace(it->name, value).second) return refused();
      continue;
    }
    if (positional < list.size() && !list[positional].keyword_only) {
      if (!given.emplace(list[positional].name, a).second) return refused();
      ++positional;
    } else if (!star_args) {
      return refused();
    } else {
      extra.push_back(a);
    }
  }
  auto value_of = [&](std::string_view text) { return scope ? evaluate_value(text, *scope) : literal_value(text); };
  Bindings out;
  // `*args` is the tuple of the extra positionals, when all are literals.
  if (!star_name.empty()) {
    PyValue t;
    t.kind = PyValue::Kind::tuple;
    for (std::string_view a : extra)
      if (auto v = value_of(a)) t.items.push_back(std::move(*v));
    if (t.items.size() == extra.size()) out.emplace(star_name, std::move(t));
  }
  for (const auto& q : list) {
    auto it = given.find(q.name);
    std::string_view text = it != given.end() ? it->second : q.default_text;
    if (it == given.end() && q.default_text.empty()) return refused();  // a required parameter not given
    if (text.empty()) continue;
    if (auto v = it != given.end() ? value_of(text) : literal_value(text)) out.emplace(q.name, std::move(*v));
  }
  return out;
}

std::optional<std::vector<std::string>> call_argument_lists(std::string_view code, std::string_view callee) {
  if (callee.empty()) return std::nullopt;
  std::vector<std::string> found;
  for (auto at = code.find(callee); at != std::string_view::npos; at = code.find(callee, at + 1)) {
    const std::size_t end = at + callee.size();
    if ((at > 0 && word_char(code[at - 1])) || (end < code.size() && word_char(code[end]))) continue;
    std::size_t next = end;
    while (next < code.size() && code[next] == ' ') ++next;
    if (next < code.size() && code[next] == '(') {
      auto inner = bracketed(code, next);
      if (!inner) return std::nullopt;
      found.emplace_back(*inner);
      continue;
    }
    if (next < code.size() && (code[next] == ',' || code[next] == ')')) {
      // A callable handed to assertRaises(E, f, args...) or raises(E, f, ...):
      // the arguments after it in the enclosing call.
      const std::size_t open = enclosing_bracket(code, at);
      if (open == std::string_view::npos || code[open] != '(') return std::nullopt;
      std::string_view before = code.substr(0, open);
      if (!(before.ends_with("assertRaises") || before.ends_with("assertRaisesRegex") ||
            before.ends_with("assertWarns") || before.ends_with("assertWarnsRegex") || before.ends_with("raises") ||
            before.ends_with("warns")))
        return std::nullopt;
      auto inner = bracketed(code, open);
      if (!inner) return std::nullopt;
      auto parts = split_top(*inner);
      std::string rest;
      bool after = false;
      for (std::string_view p : parts) {
        if (after) {
          std::string_view value;
          if (keyword_of(p, &value) == "match" || keyword_of(p, &value) == "msg") continue;
          rest += (rest.empty() ? "" : ", ") + std::string(p);
        }
        if (!after && p.ends_with(callee) && (p.size() == callee.size() || p[p.size() - callee.size() - 1] == '.'))
          after = true;
      }
      if (!after) return std::nullopt;
      found.push_back(std::move(rest));
    }
  }
  if (found.empty()) return std::nullopt;
  return found;
}

std::optional<std::string> call_arguments(std::string_view code, std::string_view callee) {
  auto all = call_argument_lists(code, callee);
  if (!all || all->size() != 1) return std::nullopt;
  return std::move(all->front());
}

}  // namespace errdex::analyze
