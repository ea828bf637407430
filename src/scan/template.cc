#include "scan/template.h"

#include <cctype>
#include <cstdio>

namespace errdex::scan {
namespace {

// Python's %f/%e/%g (and format's f/e/g) output, including inf/nan spelled
// in either case (%F and %E print INF/NAN).
constexpr const char* k_float_group =
    "([-+]?(?:(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?|inf|nan|INF|NAN))";

std::string group_for(char conv) {
  switch (conv) {
    case 'd': case 'i': case 'u': return "(-?\\d+)";
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': return k_float_group;
    case 'x': return "(-?[0-9a-f]+)";
    case 'X': return "(-?[0-9A-F]+)";
    case 'o': return "(-?[0-7]+)";
    case 'c': return "(.)";
    default: return "(.+?)";
  }
}

void escape_literal(const std::string& text, std::string& out) {
  for (char c : text) {
    switch (c) {
      case '\\': case '.': case '^': case '$': case '|': case '?': case '*':
      case '+': case '(': case ')': case '[': case ']': case '{': case '}':
        out += '\\';
        out += c;
        break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\f': out += "\\f"; break;
      case '\v': out += "\\v"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

std::string template_text(const model::MessageTemplate& t) {
  std::string out;
  for (const auto& p : t.parts) {
    if (p.literal) {
      out += p.text;
    } else {
      out += '{';
      out += p.display.empty() ? p.text : p.display;
      out += '}';
    }
  }
  return out;
}

std::string template_pattern(const model::MessageTemplate& t) {
  std::string out;
  for (const auto& p : t.parts) {
    if (p.literal)
      escape_literal(p.text, out);
    else
      out += group_for(p.printf_conv);
  }
  return out;
}

bool matches_anything(const model::MessageTemplate& t) {
  for (const auto& p : t.parts) {
    if (!p.literal) continue;
    for (char c : p.text)
      if (!is_blank(c)) return false;
  }
  return true;
}

bool pattern_matches_anything(const std::string& pattern) {
  int depth = 0;
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\') {
      if (i + 1 >= pattern.size()) return false;
      char e = pattern[++i];
      bool blank = e == 'n' || e == 't' || e == 'r' || e == 'f' || e == 'v' || e == 's';
      if (depth == 0 && !in_class && !blank) return false;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '[') {
      in_class = true;
      if (depth == 0) return false;
      continue;
    }
    if (c == '(') { ++depth; continue; }
    if (c == ')') { if (depth > 0) --depth; continue; }
    if (depth == 0 && !is_blank(c)) return false;
  }
  return true;
}

std::string slugify(const std::string& message) {
  constexpr std::size_t k_max = 48;
  std::string out;
  bool dash = false;
  for (char c : message) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && std::isalnum(u)) {
      if (dash && !out.empty()) out += '-';
      dash = false;
      out += static_cast<char>(std::tolower(u));
      if (out.size() >= k_max) break;
    } else {
      dash = true;
    }
  }
  if (out.size() > k_max) out.resize(k_max);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

}  // namespace errdex::scan
