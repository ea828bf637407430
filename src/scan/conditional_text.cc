#include "scan/conditional_text.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace errdex::scan {
namespace {

using model::MessageTemplate;
using model::TemplatePart;

// Interpolations expanded per template, and templates made from one.
constexpr std::size_t k_max_expanded = 3;
constexpr std::size_t k_max_templates = 8;
// Branches one interpolation may choose between (nested conditionals).
constexpr std::size_t k_max_branches = 4;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The closing brace of a substitution whose text starts at `from`; npos
// when it holds a quote or a backtick (not followed) or does not close.
std::size_t substitution_end(std::string_view s, std::size_t from) {
  int depth = 0;
  for (std::size_t j = from; j < s.size(); ++j) {
    const char c = s[j];
    if (c == '\'' || c == '"' || c == '`') return std::string_view::npos;
    if (c == '{') ++depth;
    else if (c == '}' && depth-- == 0) return j;
  }
  return std::string_view::npos;
}

// Calls `at(i)` for each byte of `s` outside string literals and brackets
// until it returns false; false when the text is not one balanced
// expression, or holds a template literal's substitution with strings of
// its own (not followed).
template <typename F>
bool each_top_level(std::string_view s, F&& at) {
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\'' || c == '"' || c == '`') {
      std::size_t j = i + 1;
      for (; j < s.size() && s[j] != c; ++j) {
        if (s[j] == '\\') {
          ++j;
        } else if (c == '`' && s[j] == '$' && j + 1 < s.size() && s[j + 1] == '{') {
          // A substitution: to its closing brace (one without quotes or
          // template literals of its own).
          const std::size_t close = substitution_end(s, j + 2);
          if (close == std::string_view::npos) return false;
          j = close;
        }
      }
      if (j >= s.size()) return false;
      i = j;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return false;
    } else if (depth == 0 && !at(i)) {
      return true;
    }
  }
  return depth == 0;
}

// `(x)` → `x` when the parentheses hold all of it. Each layer reads the
// whole text, so layers past a few dozen, which only generated code nests,
// are left on (50,000 of them took 11 s).
std::string_view unwrap(std::string_view s) {
  constexpr int k_max_layers = 32;
  s = trim(s);
  for (int layer = 0; layer < k_max_layers && s.size() >= 2 && s.front() == '(' && s.back() == ')'; ++layer) {
    int depth = 0;
    bool whole = true;
    if (!each_top_level(s, [&](std::size_t) { return true; })) return s;
    for (std::size_t i = 0; i + 1 < s.size() && whole; ++i) {
      if (s[i] == '(') ++depth;
      else if (s[i] == ')' && --depth == 0) whole = false;
    }
    if (!whole) return s;
    s = trim(s.substr(1, s.size() - 2));
  }
  return s;
}

// A string literal's text when `s` is one (Python's '…', "…", r'…';
// JavaScript's '…', "…"), its parts; an f-string's `{x}` and a template
// literal's `${x}` are interpolations. Else nullopt.
std::optional<std::vector<TemplatePart>> literal_parts(std::string_view s) {
  bool raw = false, formatted = false;
  std::size_t q = 0;
  while (q < s.size() && q < 2 && std::string_view("rRuUfF").find(s[q]) != std::string_view::npos) {
    raw = raw || s[q] == 'r' || s[q] == 'R';
    formatted = formatted || s[q] == 'f' || s[q] == 'F';
    ++q;
  }
  if (q >= s.size() || (s[q] != '\'' && s[q] != '"' && s[q] != '`') || s.size() - q < 2 || s.back() != s[q]) return std::nullopt;
  const char quote = s[q];
  formatted = formatted || quote == '`';
  std::string_view body = s.substr(q + 1, s.size() - q - 2);
  std::vector<TemplatePart> out;
  std::string lit;
  auto flush = [&] {
    if (!lit.empty()) out.push_back(TemplatePart{true, std::move(lit), {}, 0});
    lit.clear();
  };
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == quote) return std::nullopt;  // two literals, or not one
    if (formatted && quote != '`' && (c == '{' || c == '}') && i + 1 < body.size() && body[i + 1] == c) {
      lit += c;  // `{{`, `}}`
      ++i;
      continue;
    }
    const bool field = formatted && (quote == '`' ? c == '$' && i + 1 < body.size() && body[i + 1] == '{' : c == '{');
    if (field) {
      const std::size_t open = quote == '`' ? i + 2 : i + 1;
      const std::size_t close = substitution_end(body, open);
      if (close == std::string_view::npos) return std::nullopt;
      flush();
      out.push_back(TemplatePart{false, std::string(trim(body.substr(open, close - open))), {}, 0});
      i = close;
      continue;
    }
    if (c != '\\' || raw || i + 1 >= body.size()) {
      lit += c;
      continue;
    }
    switch (const char e = body[++i]) {
      case 'n': lit += '\n'; break;
      case 't': lit += '\t'; break;
      case '\\': case '\'': case '"': case '`': case '$': case '{': lit += e; break;
      default: lit += '\\'; lit += e; break;
    }
  }
  flush();
  return out;
}

// What a branch shows: a literal's parts, or those of a concatenation
// with a literal among its operands (`' in ' + version`); else nullopt.
std::optional<std::vector<TemplatePart>> text_parts(std::string_view s) {
  if (auto parts = literal_parts(s)) return parts;
  std::vector<std::string_view> operands;
  std::size_t from = 0;
  if (!each_top_level(s, [&](std::size_t i) {
        if (s[i] == '+') {
          operands.push_back(s.substr(from, i - from));
          from = i + 1;
        }
        return true;
      }))
    return std::nullopt;
  if (operands.empty()) return std::nullopt;
  operands.push_back(s.substr(from));
  std::vector<TemplatePart> out;
  bool any_literal = false;
  for (std::string_view o : operands) {
    o = unwrap(o);
    if (o.empty()) return std::nullopt;  // `a ++ b`, `+x`
    if (auto parts = literal_parts(o)) {
      any_literal = true;
      for (auto& p : *parts) out.push_back(std::move(p));
    } else {
      out.push_back(TemplatePart{false, std::string(o), {}, 0});
    }
  }
  if (!any_literal) return std::nullopt;
  return out;
}

struct Branch {
  bool literal;  // text of its own (a literal, or one among its parts)
  std::vector<TemplatePart> parts;
};

// The conditional's condition-free parts: Python's `X if C else Y`,
// JavaScript's `C ? X : Y`; false when `s` is neither.
bool split_conditional(std::string_view s, std::string_view& first, std::string_view& second) {
  std::size_t if_at = std::string_view::npos, else_at = std::string_view::npos;
  std::size_t question = std::string_view::npos, colon = std::string_view::npos;
  int nested = 0;
  bool lambda = false;
  auto word_at = [&](std::size_t i, std::string_view w) {
    return s.substr(i, w.size()) == w && (i == 0 || s[i - 1] == ' ' || s[i - 1] == ')' || s[i - 1] == '\'' || s[i - 1] == '"') &&
           i + w.size() < s.size() && (s[i + w.size()] == ' ' || s[i + w.size()] == '(');
  };
  const bool balanced = each_top_level(s, [&](std::size_t i) {
    const char c = s[i];
    if (word_at(i, "lambda")) lambda = true;
    if (if_at == std::string_view::npos && word_at(i, "if")) if_at = i;
    else if (if_at != std::string_view::npos && else_at == std::string_view::npos && word_at(i, "else")) else_at = i;
    if (c == '?') {
      const bool chained = (i + 1 < s.size() && (s[i + 1] == '.' || s[i + 1] == '?')) || (i > 0 && s[i - 1] == '?');
      if (chained) return true;
      if (question == std::string_view::npos) question = i;
      else ++nested;
    } else if (c == ':' && question != std::string_view::npos && colon == std::string_view::npos) {
      if (nested == 0) colon = i;
      else --nested;
    }
    return true;
  });
  if (!balanced || lambda) return false;
  if (question != std::string_view::npos && colon != std::string_view::npos && if_at == std::string_view::npos) {
    first = s.substr(question + 1, colon - question - 1);
    second = s.substr(colon + 1);
    return true;
  }
  if (if_at != std::string_view::npos && else_at != std::string_view::npos && question == std::string_view::npos) {
    first = s.substr(0, if_at);
    second = s.substr(else_at + 4);
    return true;
  }
  return false;
}

// The texts expression `s` may show, nested conditionals read through.
void branches(std::string_view s, std::vector<Branch>& out, int depth) {
  s = unwrap(s);
  std::string_view first, second;
  if (depth < 4 && split_conditional(s, first, second)) {
    branches(first, out, depth + 1);
    branches(second, out, depth + 1);
    return;
  }
  if (auto parts = text_parts(s)) out.push_back({true, std::move(*parts)});
  else out.push_back({false, {TemplatePart{false, std::string(s), {}, 0}}});
}

std::optional<std::vector<Branch>> choices_of(const TemplatePart& p) {
  if (p.literal || (p.printf_conv != 0 && p.printf_conv != 's') || (!p.display.empty() && p.display != p.text))
    return std::nullopt;
  std::string_view first, second;
  if (!split_conditional(unwrap(p.text), first, second)) return std::nullopt;
  std::vector<Branch> out;
  branches(p.text, out, 0);
  bool any_literal = false;
  for (const Branch& b : out) any_literal = any_literal || b.literal;
  if (!any_literal || out.size() < 2 || out.size() > k_max_branches) return std::nullopt;
  return out;
}

void append(std::vector<TemplatePart>& parts, TemplatePart p) {
  if (p.literal && p.text.empty()) return;
  if (p.literal && !parts.empty() && parts.back().literal) {
    parts.back().text += p.text;
    return;
  }
  parts.push_back(std::move(p));
}

}  // namespace

std::vector<MessageTemplate> conditional_texts(const MessageTemplate& t) {
  std::vector<std::vector<TemplatePart>> made(1);
  std::size_t expanded = 0;
  for (const TemplatePart& p : t.parts) {
    std::optional<std::vector<Branch>> choices;
    if (expanded < k_max_expanded) choices = choices_of(p);
    if (!choices || made.size() * choices->size() > k_max_templates) {
      for (auto& parts : made) append(parts, p);
      continue;
    }
    ++expanded;
    std::vector<std::vector<TemplatePart>> next;
    for (const auto& parts : made)
      for (const Branch& b : *choices) {
        std::vector<TemplatePart> copy = parts;
        for (const TemplatePart& chosen : b.parts) append(copy, chosen);
        next.push_back(std::move(copy));
      }
    made = std::move(next);
  }
  if (expanded == 0) return {t};
  std::vector<MessageTemplate> out;
  for (auto& parts : made) {
    MessageTemplate m = t;
    m.parts = std::move(parts);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace errdex::scan
