#include "match/excerpt.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "util/text.h"

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

namespace {

bool ident_char(char c) { return c == '_' || c == '$' || std::isalnum(static_cast<unsigned char>(c)); }

// Whether `line` binds `name`: 1 to a new error (`name = new …`,
// `name = …Error(…`), -1 to something else, 0 not at all.
int binds_new_error(std::string_view line, std::string_view name) {
  for (std::size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
    if ((at > 0 && (ident_char(line[at - 1]) || line[at - 1] == '.')) ||
        (at + name.size() < line.size() && ident_char(line[at + name.size()])))
      continue;
    std::string_view rest = util::trim(line.substr(at + name.size()));
    if (!rest.starts_with("=") || rest.starts_with("==") || rest.starts_with("=>")) continue;
    rest = util::trim(rest.substr(1));
    return rest.starts_with("new ") || rest.find("Error(") != std::string_view::npos ? 1 : -1;
  }
  return 0;
}

}  // namespace

int excerpt_made_above(std::string_view excerpt, int start, int line, std::uint32_t& made) {
  constexpr int k_max_above = 8;
  if (line < start || start <= 0) return 0;
  std::vector<std::string_view> lines;
  for (int at = start; at <= line; ++at) {
    auto nl = excerpt.find('\n');
    if (at >= line - k_max_above) lines.push_back(excerpt.substr(0, nl));
    if (nl == std::string_view::npos) break;
    excerpt.remove_prefix(nl + 1);
  }
  if (lines.empty() || static_cast<int>(lines.size()) != std::min(line - start, k_max_above) + 1) return 0;
  std::string_view t = util::trim(lines.back());
  if (!t.starts_with("throw ")) return 0;
  t = util::trim(t.substr(6));
  if (t.ends_with(";")) t = util::trim(t.substr(0, t.size() - 1));
  if (t.empty() || !std::all_of(t.begin(), t.end(), ident_char) || std::isdigit(static_cast<unsigned char>(t[0]))) return 0;
  for (std::size_t i = lines.size() - 1; i-- > 0;) {
    const int binds = binds_new_error(lines[i], t);
    if (binds == 0) continue;
    if (binds < 0) return 0;
    made = statement_hash(lines[i]);
    return static_cast<int>(lines.size() - 1 - i);
  }
  return 0;
}

}  // namespace errdex::match
