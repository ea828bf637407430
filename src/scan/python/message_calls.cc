// Calls that pass a message as a string literal (FileFacts::message_calls),
// read from the light pass's logical lines: what a helper of another file
// raises with (`_value_check(std > 0, "Standard deviation must be
// positive")` against `def _value_check(condition, message): ... raise
// ValueError(message)`), for scan::link_caller_messages.
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "scan/python/outline.h"
#include "scan/python/text.h"

namespace errdex::scan {
namespace {

using python::split_args;
using python::string_end;

// Calls kept per file, at most.
constexpr std::size_t k_max_message_calls = 256;

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

// Where a string literal's prefix (`r`, `b`, `u`, `f` and their pairs)
// starts at `i`: the quote's index, or npos when `i` starts no literal.
std::size_t quote_after_prefix(std::string_view s, std::size_t i) {
  std::size_t k = i;
  while (k < s.size() && k - i < 2 && std::string_view("rRbBuUfF").find(s[k]) != std::string_view::npos) ++k;
  if (k < s.size() && (s[k] == '\'' || s[k] == '"') && (i == 0 || !ident_char(s[i - 1]))) return k;
  return std::string_view::npos;
}

// Whether a literal as written reads as a message: one plain or f-string
// literal on one line, of two words or more with a letter.
bool reads_as_message(std::string_view arg) {
  if (arg.size() < 8 || arg.find('\n') != std::string_view::npos) return false;
  std::size_t k = 0;
  while (k < arg.size() && std::string_view("uUfF").find(arg[k]) != std::string_view::npos) ++k;
  if (k > 1 || k >= arg.size() || (arg[k] != '\'' && arg[k] != '"')) return false;
  std::string_view inside = arg.substr(k);
  if (inside.size() < 2 || inside.back() != inside.front()) return false;
  const char quote = inside.front();
  inside = inside.substr(1, inside.size() - 2);
  if (inside.find(quote) != std::string_view::npos) return false;  // two literals joined, or a quote escaped
  bool letter = false;
  for (char c : inside) letter = letter || std::isalpha(static_cast<unsigned char>(c));
  return letter && inside.find(' ') != std::string_view::npos;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The calls of one logical line whose arguments hold a message literal.
void read_line(std::string_view s, std::vector<model::MessageCall>& out) {
  // Up to its comment: a call whose arguments hold one is not read.
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '#') {
      s = s.substr(0, i);
      break;
    }
    if (s[i] == '\'' || s[i] == '"') {
      const std::size_t end = string_end(s, i);
      if (end == std::string_view::npos) return;
      i = end - 1;
    }
  }
  for (std::size_t i = 0; i < s.size() && out.size() < k_max_message_calls;) {
    const char c = s[i];
    if (std::size_t q = quote_after_prefix(s, i); q != std::string_view::npos) {
      std::size_t end = string_end(s, q);
      if (end == std::string_view::npos) return;
      i = end;
      continue;
    }
    if (c != '(' || i == 0) {
      ++i;
      continue;
    }
    // The callee: a dotted name right before the bracket.
    std::size_t b = i;
    while (b > 0 && (ident_char(s[b - 1]) || s[b - 1] == '.')) --b;
    std::string_view callee = s.substr(b, i - b);
    std::string_view before = trimmed(s.substr(0, b));
    const std::size_t open = i++;
    std::string_view last = callee.substr(callee.rfind('.') == std::string_view::npos ? 0 : callee.rfind('.') + 1);
    if (last.empty() || std::isdigit(static_cast<unsigned char>(last[0])) || callee.front() == '.' ||
        std::isupper(static_cast<unsigned char>(last[0])) || before.ends_with("def") || before.ends_with("class"))
      continue;
    // Its arguments, split at the top level; strings skipped whole.
    std::vector<std::string_view> args;
    if (split_args(s, open, args) >= s.size()) return;
    int position = 0;
    for (std::string_view a : args) {
      if (a.starts_with("*")) break;  // what follows has no known position
      std::string keyword;
      std::size_t n = 0;
      while (n < a.size() && ident_char(a[n])) ++n;
      if (n > 0 && n < a.size() && a[n] == '=' && (n + 1 == a.size() || a[n + 1] != '=')) {
        keyword = std::string(a.substr(0, n));
        a = trimmed(a.substr(n + 1));
      }
      if (reads_as_message(a))
        out.push_back({std::string(callee), keyword.empty() ? position : -1, keyword, std::string(a), {}});
      if (keyword.empty()) ++position;
      if (out.size() >= k_max_message_calls) return;
    }
    // Calls inside the arguments are read as the scan goes on from `open`.
  }
}

}  // namespace

void read_message_calls(const PythonLines& lines, model::FileFacts& facts) {
  for_each_logical_line(lines, [&](std::uint32_t, std::string_view text) {
    if (facts.message_calls.size() < k_max_message_calls) read_line(text, facts.message_calls);
  });
}

}  // namespace errdex::scan
