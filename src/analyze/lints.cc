#include "analyze/lints.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "analyze/python_check.h"
#include "analyze/static_prose.h"

namespace errdex::analyze {
namespace {

using model::Guard;
using model::Lint;
using model::ThrowSite;

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

std::string root_of(const std::string& name) { return name.substr(0, name.find('.')); }

// Offsets where `needle` occurs as a whole (dotted) name in `hay`.
std::vector<std::size_t> whole_name_at(const std::string& hay, const std::string& needle) {
  std::vector<std::size_t> out;
  if (needle.empty()) return out;
  for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) {
    bool left = at == 0 || (!ident_char(hay[at - 1]) && hay[at - 1] != '.');
    std::size_t end = at + needle.size();
    bool right = end >= hay.size() || (!ident_char(hay[end]) && hay[end] != '.');
    if (left && right) out.push_back(at);
  }
  return out;
}

bool has_whole(const std::string& hay, const std::string& needle) {
  if (needle.empty()) return false;
  for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) {
    bool left = at == 0 || !ident_char(hay[at - 1]);
    std::size_t end = at + needle.size();
    bool right = end >= hay.size() || !ident_char(hay[end]);
    if (left && right) return true;
  }
  return false;
}

std::string replace_name(const std::string& expr, const std::string& from, const std::string& to) {
  std::string out;
  std::size_t last = 0;
  for (std::size_t at : whole_name_at(expr, from)) {
    out.append(expr, last, at - last);
    out += to;
    last = at + from.size();
  }
  out.append(expr, last);
  return out;
}

bool is_condition(const Guard& g) {
  return !g.condition.empty() && (g.kind == "if" || g.kind == "elif" || g.kind == "while" || g.kind == "assert" ||
                                  g.kind == "else");
}

std::string literal_text(const ThrowSite& s) {
  std::string t;
  for (const auto& p : s.message.parts)
    if (p.literal) t += p.text;
  return t;
}

bool has_interpolation(const ThrowSite& s) {
  return std::any_of(s.message.parts.begin(), s.message.parts.end(), [](const auto& p) { return !p.literal; });
}

int word_count(const std::string& text) {
  int n = 0;
  bool in = false;
  for (char c : text) {
    bool w = !(c == ' ' || c == '\t' || c == '\n' || c == '\r');
    if (w && !in) ++n;
    in = w;
  }
  return n;
}

// A name the condition calls (`callable(x)`, `os.path.exists(p)`) is a
// function, not a tested value.
bool called_in(const std::string& cond, const std::string& name) {
  for (std::size_t at : whole_name_at(cond, name)) {
    std::size_t e = at + name.size();
    while (e < cond.size() && cond[e] == ' ') ++e;
    if (e < cond.size() && cond[e] == '(') return true;
  }
  return false;
}

// `x is None`, `x is not None`, `not x`, `x`: the failing value is implied
// by the condition, so showing it tells the user nothing.
bool value_is_implied(const Guard& g) {
  const std::string& c = g.condition;
  if (c.size() > 8 && (c.compare(c.size() - 8, 8, " is None") == 0)) return true;
  if (c.size() > 12 && (c.compare(c.size() - 12, 12, " is not None") == 0)) return true;
  std::string bare = c.compare(0, 4, "not ") == 0 ? c.substr(4) : c;
  return !bare.empty() && std::all_of(bare.begin(), bare.end(), [](char ch) { return ident_char(ch) || ch == '.'; });
}

const std::set<std::string>& exempt_from_terse() {
  static const std::set<std::string> k = {"StopIteration", "StopAsyncIteration", "NotImplementedError",
                                          "KeyboardInterrupt", "SystemExit", "GeneratorExit"};
  return k;
}

}  // namespace

std::vector<std::string> expression_names(const std::string& expr) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < expr.size();) {
    char c = expr[i];
    if (c == '"' || c == '\'') {  // skip a string literal, prefixes already consumed as names
      char q = c;
      ++i;
      while (i < expr.size() && expr[i] != q) i += expr[i] == '\\' ? 2 : 1;
      ++i;
      continue;
    }
    if (ident_start(c) && (i == 0 || (!ident_char(expr[i - 1]) && expr[i - 1] != '.'))) {
      std::size_t j = i;
      for (;;) {
        while (j < expr.size() && ident_char(expr[j])) ++j;
        if (j + 1 < expr.size() && expr[j] == '.' && ident_start(expr[j + 1])) {
          ++j;
          continue;
        }
        break;
      }
      std::string name = expr.substr(i, j - i);
      // A string prefix (f"...", rb'...') is not a name.
      bool prefix = j < expr.size() && (expr[j] == '"' || expr[j] == '\'');
      if (!prefix && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
      i = j;
      continue;
    }
    ++i;
  }
  return out;
}

std::optional<Misleading> find_misleading(const ThrowSite& s) {
  if (!has_interpolation(s)) return std::nullopt;
  std::set<std::string> tested;
  for (const auto& g : s.guards)
    if (is_condition(g))
      for (const auto& n : g.names) tested.insert(n);
  std::set<std::string> interpolated;
  for (const auto& p : s.message.parts)
    if (!p.literal)
      for (const auto& n : expression_names(p.text)) interpolated.insert(n);
  std::string text = literal_text(s);
  for (const auto& g : s.guards) {
    if (!is_condition(g)) continue;
    for (const auto& p : s.message.parts) {
      if (p.literal) continue;
      for (const auto& n : expression_names(p.text)) {
        if (tested.count(n) || is_python_builtin(n)) continue;
        for (const auto& w : g.names) {
          if (w == n || is_python_builtin(w) || interpolated.count(w) || root_of(w) == "self") continue;
          if (!has_whole(text, w)) continue;
          std::string meant = replace_name(p.text, n, w);
          // `{n}` → `w` is a different value, not a slip: only an
          // expression built the same way around a different name counts.
          if (meant == p.text || meant == w || !has_whole(g.condition, meant)) continue;
          return Misleading{p.text, n, w, meant, g.condition};
        }
      }
    }
  }
  return std::nullopt;
}

std::vector<Lint> lint_site(const ThrowSite& s, const std::string& builtin_base) {
  std::vector<Lint> out;
  if (auto m = find_misleading(s)) {
    out.push_back({k_rule_misleading, "warning",
                   "The message shows `" + m->shown + "`, but the check is `" + m->condition + "` on `" + m->tested +
                       "`, which the message text names: it probably meant `" + m->meant + "`."});
  }

  // A tested argument that the message does not show.
  const Guard* g = nullptr;
  for (const auto& x : s.guards)
    if (is_condition(x)) {
      g = &x;
      break;
    }
  bool plain = s.message.from_literals || (s.message.style == "none" && !s.reraise);
  bool exempt = exempt_from_terse().count(s.error_class) || exempt_from_terse().count(builtin_base);
  if (g && plain && !exempt && s.kind != "assert" && !value_is_implied(*g)) {
    auto params = parameter_names(s.function_params);
    std::set<std::string> shown;
    for (const auto& p : s.message.parts)
      if (!p.literal)
        for (const auto& n : expression_names(p.text)) shown.insert(root_of(n));
    std::vector<std::string> unshown;
    for (const auto& n : g->names) {
      std::string r = root_of(n);
      if (std::find(params.begin(), params.end(), r) == params.end() || shown.count(r) || called_in(g->condition, n)) continue;
      if (std::find(unshown.begin(), unshown.end(), r) == unshown.end()) unshown.push_back(r);
    }
    if (!unshown.empty() && shown.empty()) {
      std::string list;
      for (std::size_t i = 0; i < unshown.size(); ++i) list += (i ? ", `" : "`") + unshown[i] + "`";
      out.push_back({k_rule_unshown, "note",
                     "The check `" + g->condition + "` tests " + list +
                         ", but the message does not show the value that failed it."});
    }
  }

  // An empty or one-word message.
  if (s.kind != "assert" && !s.reraise && !s.error_class.empty() && !exempt && !has_interpolation(s)) {
    int words = word_count(literal_text(s));
    if (words == 0)
      out.push_back({k_rule_terse, "note", s.error_class + " is raised with no message: users see only the class name."});
    else if (words == 1)
      out.push_back({k_rule_terse, "note",
                     "The message is one word (\"" + literal_text(s) + "\"): it names neither the value nor the rule."});
  }
  return out;
}

void lint_duplicates(std::vector<model::ErrorRecord*>& records) {
  std::map<std::pair<std::string, std::string>, std::vector<model::ErrorRecord*>> groups;
  for (auto* r : records) {
    if (word_count(r->error_message) < 2) continue;
    groups[{r->error_class, r->error_message}].push_back(r);
  }
  constexpr std::size_t k_listed = 3;  // places named in one lint
  for (auto& [key, rs] : groups) {
    if (rs.size() < 2) continue;
    std::sort(rs.begin(), rs.end(), [](auto* a, auto* b) {
      return std::tie(a->file_path, a->line_number) < std::tie(b->file_path, b->line_number);
    });
    for (auto* r : rs) {
      std::string others;
      std::size_t listed = 0;
      for (auto* o : rs) {
        if (o == r) continue;
        if (listed == k_listed) {
          others += ", ...";
          break;
        }
        others += (listed ? ", " : "") + o->file_path + ":" + std::to_string(o->line_number);
        ++listed;
      }
      r->lints.push_back({k_rule_duplicate, "note",
                          "The same " + key.first + " message is raised from " + std::to_string(rs.size()) +
                              " places in this repository (also " + others + "): users cannot tell them apart."});
    }
  }
}

}  // namespace errdex::analyze
