#include "match/excerpt.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace errdex::match {

std::uint32_t statement_hash(std::string_view line) {
  std::size_t b = 0, e = line.size();
  while (b < e && (line[b] == ' ' || line[b] == '\t')) ++b;
  while (e > b && (line[e - 1] == ' ' || line[e - 1] == '\t' || line[e - 1] == '\r')) --e;
  if (b == e) return 0;
  std::uint32_t h = 2166136261u;
  for (std::size_t i = b; i < e; ++i) h = (h ^ static_cast<unsigned char>(line[i])) * 16777619u;
  return h == 0 ? 1 : h;
}

std::uint32_t excerpt_line_hash(std::string_view excerpt, int start, int line) {
  if (line < start || start <= 0) return 0;
  for (int at = start; at < line; ++at) {
    auto nl = excerpt.find('\n');
    if (nl == std::string_view::npos) return 0;
    excerpt.remove_prefix(nl + 1);
  }
  return statement_hash(excerpt.substr(0, excerpt.find('\n')));
}

std::uint32_t excerpt_function_hash(std::string_view excerpt, int start, int line) {
  if (line < start || start <= 0) return 0;
  std::vector<std::string_view> lines;
  for (int at = start; at <= line; ++at) {
    auto nl = excerpt.find('\n');
    lines.push_back(excerpt.substr(0, nl));
    if (nl == std::string_view::npos) break;
    excerpt.remove_prefix(nl + 1);
  }
  if (static_cast<int>(lines.size()) != line - start + 1) return 0;
  auto indent = [](std::string_view l) { return l.find_first_not_of(" \t"); };
  std::size_t limit = indent(lines.back());
  for (std::size_t i = lines.size() - 1; i-- > 0;) {
    std::size_t in = indent(lines[i]);
    if (in == std::string_view::npos || in >= limit) continue;
    std::string_view t = lines[i].substr(in);
    if (t.starts_with("async ")) t = t.substr(std::min(t.find_first_not_of(' ', 6), t.size()));
    if (t.starts_with("def ")) {
      t = t.substr(4);
      std::size_t e = 0;
      while (e < t.size() && (t[e] == '_' || std::isalnum(static_cast<unsigned char>(t[e])) || static_cast<unsigned char>(t[e]) >= 0x80)) ++e;
      return statement_hash(t.substr(0, e));
    }
    // A statement at a smaller indentation that is not a def: a class or
    // module-level block holds the line, not a function.
    if (!t.starts_with("@") && !t.starts_with("#")) {
      if (t.starts_with("class ")) return 0;
      limit = in;
    }
  }
  return 0;
}

}  // namespace errdex::match
