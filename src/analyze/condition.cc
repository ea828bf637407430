#include "analyze/condition.h"

#include <algorithm>

#include "analyze/call_text.h"
#include "analyze/python_check.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

using util::collapse_ws;

// Guards combined into one condition: more reads worse than it helps.
constexpr int k_max_guards = 4;

bool is_identifier(std::string_view s) {
  return !s.empty() && !(s[0] >= '0' && s[0] <= '9') && std::all_of(s.begin(), s.end(), util::is_word_char);
}

// Where `op` (an operator or a comma, never a bracket or quote) occurs at
// bracket depth 0 outside strings, every occurrence.
std::vector<std::size_t> top_level(const std::string& c, std::string_view op) {
  std::vector<std::size_t> at;
  walk_code(c, 0, [&](std::size_t i, char, int depth) {
    if (depth == 0 && c.compare(i, op.size(), op) == 0) at.push_back(i);
    return false;
  });
  return at;
}

bool has_top_level(const std::string& c, std::string_view op) { return !top_level(c, op).empty(); }

bool needs_parens(const std::string& term) {
  return has_top_level(term, " or ") || has_top_level(term, " and ") || has_top_level(term, " if ") ||
         term.find("lambda") != std::string::npos || term.find(":=") != std::string::npos;
}

}  // namespace

std::string clean_condition(const std::string& raw) {
  std::string c = collapse_ws(raw);
  std::string out;
  char quote = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    char ch = c[i];
    if (quote) {
      out += ch;
      if (ch == '\\' && i + 1 < c.size()) out += c[++i];
      else if (ch == quote) quote = 0;
      continue;
    }
    if (ch == '"' || ch == '\'') quote = ch;
    if (ch == '\\' && (i + 1 == c.size() || c[i + 1] == ' ')) continue;
    out += ch;
  }
  return collapse_ws(out);
}

std::string strip_parens(std::string c) {
  while (c.size() >= 2 && c.front() == '(' && c.back() == ')') {
    int depth = 0;
    bool whole = true;
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (c[i] == '(') ++depth;
      if (c[i] == ')' && --depth == 0 && i + 1 != c.size()) {
        whole = false;
        break;
      }
    }
    if (!whole) break;
    c = collapse_ws(c.substr(1, c.size() - 2));
  }
  return c;
}

std::optional<Comparison> comparison(const std::string& c) {
  if (has_top_level(c, " and ") || has_top_level(c, " or ") || has_top_level(c, " if ") || c.find("lambda") != std::string::npos)
    return std::nullopt;
  static const char* k_ops[] = {" is not ", " not in ", " != ", " == ", " >= ", " <= ", " is ", " in ", " > ", " < "};
  std::optional<Comparison> found;
  std::size_t count = 0;
  std::vector<bool> taken(c.size() + 1, false);
  for (const char* op : k_ops) {
    std::string_view o(op);
    for (std::size_t at : top_level(c, o)) {
      if (taken[at] || taken[at + o.size() - 1]) continue;
      for (std::size_t k = at; k < at + o.size(); ++k) taken[k] = true;
      ++count;
      found = Comparison{c.substr(0, at), std::string(util::trim(o)), c.substr(at + o.size())};
    }
  }
  if (count != 1) return std::nullopt;
  return found;
}

std::optional<CallCond> call_condition(std::string c) {
  CallCond out;
  c = strip_parens(c);
  if (c.compare(0, 4, "not ") == 0) {
    out.negated = true;
    c = strip_parens(c.substr(4));
  }
  auto open = c.find('(');
  if (open == std::string::npos || c.back() != ')' || !is_identifier(c.substr(0, open))) return std::nullopt;
  std::string inner = c.substr(open + 1, c.size() - open - 2);
  int depth = 0;
  for (char ch : inner) {  // the first '(' must close at the end
    if (ch == '(') ++depth;
    if (ch == ')' && --depth < 0) return std::nullopt;
  }
  out.fn = c.substr(0, open);
  out.args = inner;
  return out;
}

std::vector<std::string> split_args(const std::string& args) {
  std::vector<std::string> out;
  std::size_t last = 0;
  for (std::size_t at : top_level(args, ",")) {
    out.push_back(std::string(util::trim(std::string_view(args).substr(last, at - last))));
    last = at + 1;
  }
  out.push_back(std::string(util::trim(std::string_view(args).substr(last))));
  return out;
}

std::string type_phrase(std::string t) {
  t = strip_parens(t);
  if (t.find(',') != std::string::npos) return "one of " + t;
  char c = t.empty() ? 'x' : static_cast<char>(std::tolower(static_cast<unsigned char>(t[0])));
  return (std::string("aeiou").find(c) != std::string::npos ? "an " : "a ") + t;
}

std::string gloss(const std::string& cond) {
  std::string c = strip_parens(cond);
  if (auto call = call_condition(c)) {
    auto args = split_args(call->args);
    if ((call->fn == "isinstance" || call->fn == "issubclass") && args.size() == 2) {
      std::string what = call->fn == "isinstance" ? " an instance of " : " a subclass of ";
      std::string t = strip_parens(args[1]);
      if (t.find(',') != std::string::npos) t = "any of " + t;
      return "`" + args[0] + "` is " + (call->negated ? "not" : "") + what + t;
    }
    if (call->fn == "hasattr" && args.size() == 2)
      return "`" + args[0] + "` has " + (call->negated ? "no" : "an") + " attribute " + args[1];
    if (call->fn == "callable" && args.size() == 1)
      return "`" + args[0] + "` is " + (call->negated ? "not " : "") + "callable";
  }
  if (auto cmp = comparison(c)) {
    const std::string& l = cmp->lhs;
    const std::string& r = cmp->rhs;
    if (cmp->op == "is" && r == "None") return "`" + l + "` is None";
    if (cmp->op == "is not" && r == "None") return "`" + l + "` is set (not None)";
    if (cmp->op == "!=") return "`" + l + "` differs from `" + r + "`";
    if (cmp->op == "==") return "`" + l + "` equals `" + r + "`";
    if (cmp->op == "<") return "`" + l + "` is less than `" + r + "`";
    if (cmp->op == "<=") return "`" + l + "` is at most `" + r + "`";
    if (cmp->op == ">") return "`" + l + "` is greater than `" + r + "`";
    if (cmp->op == ">=") return "`" + l + "` is at least `" + r + "`";
    if (cmp->op == "not in") return "`" + l + "` is not in `" + r + "`";
    if (cmp->op == "in") return "`" + l + "` is in `" + r + "`";
  }
  if (c.compare(0, 4, "not ") == 0) {
    std::string rest = strip_parens(c.substr(4));
    if (rest.find(' ') == std::string::npos) return "`" + rest + "` is empty, zero, None or false";
  }
  if (c.find(' ') == std::string::npos && c.find('(') == std::string::npos) return "`" + c + "` is true";
  return {};
}

std::string remedy(const std::string& cond) {
  std::string c = strip_parens(cond);
  if (auto call = call_condition(c)) {
    auto args = split_args(call->args);
    if (call->fn == "isinstance" && args.size() == 2)
      return call->negated ? "Pass `" + args[0] + "` as " + type_phrase(args[1])
                           : "Do not pass `" + args[0] + "` as " + type_phrase(args[1]);
    if (call->fn == "hasattr" && args.size() == 2 && call->negated)
      return "Give `" + args[0] + "` the attribute " + args[1];
    if (call->fn == "callable" && args.size() == 1 && call->negated) return "Pass a callable as `" + args[0] + "`";
  }
  if (auto cmp = comparison(c)) {
    const std::string& l = cmp->lhs;
    const std::string& r = cmp->rhs;
    if (cmp->op == "is" && r == "None") return "Give `" + l + "` a value (it must not be None)";
    if (cmp->op == "is not" && r == "None") return "Leave `" + l + "` as None here";
    if (cmp->op == "!=") return "Make `" + l + "` equal `" + r + "`";
    if (cmp->op == "==") return "Make `" + l + "` differ from `" + r + "`";
    if (cmp->op == "<") return "Keep `" + l + "` at least `" + r + "`";
    if (cmp->op == "<=") return "Keep `" + l + "` above `" + r + "`";
    if (cmp->op == ">") return "Keep `" + l + "` at most `" + r + "`";
    if (cmp->op == ">=") return "Keep `" + l + "` below `" + r + "`";
    if (cmp->op == "not in") return "Use a value of `" + l + "` that is in `" + r + "`";
    if (cmp->op == "in") return "Use a value of `" + l + "` that is not in `" + r + "`";
  }
  if (c.compare(0, 4, "not ") == 0) {
    std::string rest = strip_parens(c.substr(4));
    if (rest.find(' ') == std::string::npos) return "Give `" + rest + "` a non-empty, true value";
  }
  return {};
}

bool is_condition_guard(const model::Guard& g) {
  return !g.condition.empty() && (g.kind == "if" || g.kind == "elif" || g.kind == "while" || g.kind == "assert" ||
                                  g.kind == "else");
}

std::vector<std::string> parameter_names(const std::string& params) {
  std::vector<std::string> names;
  int depth = 0;
  std::string cur;
  auto flush = [&] {
    std::string p(util::trim(cur));
    cur.clear();
    while (!p.empty() && p[0] == '*') p.erase(p.begin());
    auto end = std::find_if(p.begin(), p.end(), [](char c) { return !util::is_word_char(c); });
    p.erase(end, p.end());
    if (!p.empty() && p != "self" && p != "cls") names.push_back(p);
  };
  for (char c : params) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) flush();
    else cur += c;
  }
  flush();
  return names;
}

std::string negate_condition(const std::string& raw) {
  std::string cond = strip_parens(clean_condition(raw));
  if (cond.compare(0, 4, "not ") == 0 && !has_top_level(cond, " and ") && !has_top_level(cond, " or ") &&
      !has_top_level(cond, " if "))
    return strip_parens(cond.substr(4));
  if (auto cmp = comparison(cond)) {
    static const std::pair<const char*, const char*> k_neg[] = {{"is not", "is"}, {"not in", "in"}, {"!=", "=="},
                                                                {"==", "!="},     {">=", "<"},      {"<=", ">"},
                                                                {"is", "is not"}, {"in", "not in"}, {">", "<="},
                                                                {"<", ">="}};
    for (const auto& [op, neg] : k_neg)
      if (cmp->op == op) return cmp->lhs + " " + neg + " " + cmp->rhs;
  }
  if (cond.find(' ') == std::string::npos || (call_condition(cond) && !call_condition(cond)->negated))
    return "not " + cond;
  // De Morgan over a chain of one operator, up to three parts, each of
  // which negates without `not (…)`: `not (n <= 0 or a <= 0)` reads
  // `n > 0 and a > 0`, `not (text and binary)` `not text or not binary`.
  const auto ands = top_level(cond, " and "), ors = top_level(cond, " or ");
  if (ands.empty() != ors.empty() && !has_top_level(cond, " if ") && cond.find("lambda") == std::string::npos &&
      cond.find(":=") == std::string::npos && ands.size() + ors.size() <= 2) {
    const auto& at = ands.empty() ? ors : ands;
    const std::string_view op = ands.empty() ? " or " : " and ", dual = ands.empty() ? " and " : " or ";
    std::string out;
    std::size_t from = 0;
    for (std::size_t i = 0; i <= at.size(); ++i) {
      const std::size_t to = i < at.size() ? at[i] : cond.size();
      std::string part = negate_condition(cond.substr(from, to - from));
      if (part.starts_with("not (") || needs_parens(part)) return "not (" + cond + ")";
      out += (i ? std::string(dual) : std::string()) + part;
      from = to + op.size();
    }
    return out;
  }
  return "not (" + cond + ")";
}

Conditions site_conditions(const model::ThrowSite& s) {
  Conditions out;
  std::vector<std::string> reach, ok;
  for (const auto& g : s.guards) {
    if (!is_condition_guard(g)) break;
    if (static_cast<int>(reach.size()) == k_max_guards) break;
    std::string c = strip_parens(clean_condition(g.condition));
    if (!parses_as_expression(c)) break;
    bool negated_branch = g.kind == "else" || g.kind == "assert";
    reach.push_back(negated_branch ? negate_condition(c) : c);
    ok.push_back(negated_branch ? c : negate_condition(c));
    for (const auto& n : g.names)
      if (std::find(out.names.begin(), out.names.end(), n) == out.names.end()) out.names.push_back(n);
  }
  // Outermost first reads naturally: "when a and b".
  std::reverse(reach.begin(), reach.end());
  std::reverse(ok.begin(), ok.end());
  out.count = static_cast<int>(reach.size());
  for (std::size_t i = 0; i < reach.size(); ++i) {
    bool many = reach.size() > 1;
    out.reach += (i ? " and " : "") + (many && needs_parens(reach[i]) ? "(" + reach[i] + ")" : reach[i]);
    out.ok += (i ? " or " : "") + (many && needs_parens(ok[i]) ? "(" + ok[i] + ")" : ok[i]);
  }
  return out;
}


}  // namespace errdex::analyze
