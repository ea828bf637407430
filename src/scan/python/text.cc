#include "scan/python/text.h"

#include <cstdint>

#include "util/text.h"

namespace errdex::scan::python {
namespace {

using util::append_utf8;
using util::utf8_length_at;

void append_sanitized(std::string_view s, std::string& out) {
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t n = utf8_length_at(s, i);
    if (n == 0) {
      append_utf8(0xFFFD, out);
      ++i;
    } else {
      out.append(s.data() + i, n);
      i += n;
    }
  }
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

StringPrefix parse_prefix(std::string_view start_token) {
  StringPrefix p;
  for (char c : start_token) {
    switch (c) {
      case 'r': case 'R': p.raw = true; break;
      case 'f': case 'F': p.fstring = true; break;
      case 'b': case 'B': p.bytes = true; break;
      default: break;
    }
    if (c == '"' || c == '\'') break;
  }
  return p;
}

void decode_literal(std::string_view body, const StringPrefix& prefix,
                    std::vector<model::TemplatePart>& parts) {
  std::string tmp;
  auto flush = [&] {
    if (tmp.empty()) return;
    if (parts.empty() || !parts.back().literal) parts.push_back(model::TemplatePart{});
    append_sanitized(tmp, parts.back().text);
    tmp.clear();
  };
  tmp.reserve(body.size());
  std::size_t i = 0;
  const std::size_t n = body.size();
  while (i < n) {
    char c = body[i];
    if (c == '\r') {  // universal newlines: "\r\n" and "\r" read as "\n"
      tmp += '\n';
      i += (i + 1 < n && body[i + 1] == '\n') ? 2 : 1;
      continue;
    }
    if (prefix.fstring && (c == '{' || c == '}') && i + 1 < n && body[i + 1] == c) {
      tmp += c;
      i += 2;
      continue;
    }
    if (c != '\\' || prefix.raw || i + 1 >= n) {
      tmp += c;
      ++i;
      continue;
    }
    const char e = body[i + 1];
    switch (e) {
      case '\n':  // line continuation
        i += 2;
        break;
      case '\r':
        i += 2;
        if (i < n && body[i] == '\n') ++i;
        break;
      case 'N': {
        i += 2;
        std::size_t close = body.find('}', i);
        if (prefix.bytes || i >= n || body[i] != '{' || close == std::string_view::npos) {
          tmp += "\\N";
          break;
        }
        flush();
        model::TemplatePart named;
        named.literal = false;
        append_sanitized(body.substr(i - 2, close + 1 - (i - 2)), named.text);
        named.printf_conv = 'c';
        parts.push_back(std::move(named));
        i = close + 1;
        break;
      }
      default:
        i = util::append_python_escape(body, i, prefix.bytes, tmp);
    }
  }
  flush();
}

std::string collapse_ws(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending = false;
  for (char c : s) {
    if (is_space(c)) {
      pending = !out.empty();
      continue;
    }
    if (pending) out += ' ';
    pending = false;
    out += c;
  }
  return out;
}

std::optional<std::vector<PrintfPiece>> parse_printf(std::string_view fmt) {
  std::vector<PrintfPiece> out;
  auto literal = [&](std::string_view t) {
    if (out.empty() || !out.back().literal) out.push_back(PrintfPiece{});
    out.back().text += t;
  };
  std::size_t i = 0;
  const std::size_t n = fmt.size();
  while (i < n) {
    std::size_t pct = fmt.find('%', i);
    if (pct == std::string_view::npos) {
      literal(fmt.substr(i));
      break;
    }
    if (pct > i) literal(fmt.substr(i, pct - i));
    i = pct + 1;
    if (i >= n) return std::nullopt;
    PrintfPiece p;
    p.literal = false;
    if (fmt[i] == '(') {
      int depth = 1;
      std::size_t j = i + 1;
      while (j < n && depth > 0) {
        if (fmt[j] == '(') ++depth;
        else if (fmt[j] == ')') --depth;
        ++j;
      }
      if (depth != 0) return std::nullopt;
      p.key = std::string(fmt.substr(i + 1, j - i - 2));
      i = j;
    }
    bool flags = false, width = false;
    while (i < n && (fmt[i] == '#' || fmt[i] == '0' || fmt[i] == '-' || fmt[i] == ' ' || fmt[i] == '+')) {
      flags = true;
      ++i;
    }
    if (i < n && fmt[i] == '*') {
      ++p.star_args;
      width = true;
      ++i;
    } else {
      while (i < n && is_digit(fmt[i])) {
        width = true;
        ++i;
      }
    }
    if (i < n && fmt[i] == '.') {
      ++i;
      if (i < n && fmt[i] == '*') {
        ++p.star_args;
        ++i;
      } else {
        while (i < n && is_digit(fmt[i])) ++i;
      }
    }
    while (i < n && (fmt[i] == 'h' || fmt[i] == 'l' || fmt[i] == 'L')) ++i;
    if (i >= n) return std::nullopt;
    char conv = fmt[i++];
    if (conv == '%' && p.key.empty() && p.star_args == 0) {
      literal("%");
      continue;
    }
    if (std::string_view("diouxXeEfFgGcrsa").find(conv) == std::string_view::npos) return std::nullopt;
    p.conv = conv == 'i' || conv == 'u' ? 'd' : conv;
    p.plain = !flags && !width;
    out.push_back(std::move(p));
  }
  return out;
}

std::optional<std::vector<FormatPiece>> parse_format(std::string_view fmt) {
  std::vector<FormatPiece> out;
  auto literal = [&](std::string_view t) {
    if (out.empty() || !out.back().literal) out.push_back(FormatPiece{});
    out.back().text += t;
  };
  std::size_t i = 0;
  const std::size_t n = fmt.size();
  while (i < n) {
    char c = fmt[i];
    if (c == '}') {
      if (i + 1 < n && fmt[i + 1] == '}') {
        literal("}");
        i += 2;
        continue;
      }
      return std::nullopt;
    }
    if (c != '{') {
      std::size_t j = fmt.find_first_of("{}", i);
      if (j == std::string_view::npos) j = n;
      literal(fmt.substr(i, j - i));
      i = j;
      continue;
    }
    if (i + 1 < n && fmt[i + 1] == '{') {
      literal("{");
      i += 2;
      continue;
    }
    // A replacement field; nested fields may occur only in the spec.
    std::size_t j = i + 1;
    int depth = 1;
    while (j < n) {
      if (fmt[j] == '{') ++depth;
      else if (fmt[j] == '}' && --depth == 0) break;
      ++j;
    }
    if (j >= n) return std::nullopt;
    std::string_view field = fmt.substr(i + 1, j - i - 1);
    i = j + 1;
    std::size_t k = 0;
    bool bracket = false;
    while (k < field.size()) {
      char f = field[k];
      if (bracket) {
        if (f == ']') bracket = false;
      } else if (f == '[') {
        bracket = true;
      } else if (f == '!' || f == ':') {
        break;
      } else if (f == '{' || f == '}') {
        return std::nullopt;
      }
      ++k;
    }
    FormatPiece p;
    p.literal = false;
    std::string_view name = field.substr(0, k);
    std::size_t cut = name.find_first_of(".[");
    if (cut == std::string_view::npos) cut = name.size();
    p.arg = std::string(name.substr(0, cut));
    p.rest = std::string(name.substr(cut));
    if (k < field.size() && field[k] == '!') {
      if (k + 1 >= field.size()) return std::nullopt;
      char conv = field[k + 1];
      if (conv != 'r' && conv != 's' && conv != 'a') return std::nullopt;
      p.conversion = std::string(1, conv);
      k += 2;
      if (k < field.size() && field[k] != ':') return std::nullopt;
    }
    if (k < field.size()) p.spec = std::string(field.substr(k + 1));
    out.push_back(std::move(p));
  }
  return out;
}

char spec_conversion(std::string_view spec) {
  if (spec.empty()) return 0;
  char conv = spec.back();
  std::string_view head = spec.substr(0, spec.size() - 1);
  bool integer = conv == 'd' || conv == 'x' || conv == 'X' || conv == 'o';
  bool floating = std::string_view("fFeEgG").find(conv) != std::string_view::npos;
  if (!integer && !floating) return 0;
  if (head.empty()) return conv;
  if (integer || head[0] != '.' || head.size() < 2) return 0;
  for (char c : head.substr(1))
    if (!is_digit(c)) return 0;
  return conv;
}

bool class_defines_methods(std::string_view source, std::string_view name) {
  auto indent_of = [](std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    return i;
  };
  const std::string head = "class " + std::string(name);
  for (std::size_t at = source.find(head); at != std::string_view::npos; at = source.find(head, at + 1)) {
    std::size_t line_start = source.rfind('\n', at);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    std::size_t after = at + head.size();
    if (source.substr(line_start, at - line_start).find_first_not_of(" \t") != std::string_view::npos) continue;
    if (after < source.size() && source[after] != '(' && source[after] != ':' && source[after] != ' ') continue;
    std::size_t class_indent = at - line_start;
    std::size_t pos = source.find('\n', at);
    while (pos != std::string_view::npos && pos + 1 < source.size()) {
      std::size_t end = source.find('\n', pos + 1);
      std::string_view line = source.substr(pos + 1, end == std::string_view::npos ? std::string_view::npos : end - pos - 1);
      std::size_t ind = indent_of(line);
      bool blank = ind == line.size() || line[ind] == '#';
      if (!blank && ind <= class_indent) break;
      std::string_view rest = line.substr(ind);
      if (rest.starts_with("def __init__") || rest.starts_with("def __str__")) return true;
      pos = end;
    }
    return false;
  }
  return false;
}

// An over-estimate of the scanner's indent stack depth: lines inside
// brackets count too.
bool too_deeply_indented(std::string_view src) {
  // tree-sitter-python's scanner overflows its 1 KiB state buffer (and trips
  // an assertion) once its indent stack holds ~380 levels. CPython rejects
  // more than 100 levels, so files beyond this are not Python.
  constexpr std::size_t k_max_indent_levels = 250;
  std::vector<std::uint32_t> stack{0};
  std::size_t i = 0;
  while (i < src.size()) {
    std::uint32_t width = 0;
    while (i < src.size() && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f')) {
      width = src[i] == '\t' ? (width / 8 + 1) * 8 : width + 1;
      ++i;
    }
    bool blank = i >= src.size() || src[i] == '\n' || src[i] == '\r' || src[i] == '#';
    if (!blank) {
      while (stack.back() > width) stack.pop_back();
      if (width > stack.back()) {
        stack.push_back(width);
        if (stack.size() > k_max_indent_levels) return true;
      }
    }
    std::size_t nl = src.find('\n', i);
    i = nl == std::string_view::npos ? src.size() : nl + 1;
  }
  return false;
}


std::string statement_lines(std::string_view text, std::uint32_t column, int max_lines) {
  std::string out;
  for (int l = 0; l < max_lines && !text.empty(); ++l) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    std::size_t strip = 0;
    while (strip < column && strip < line.size() && (line[strip] == ' ' || line[strip] == '\t')) ++strip;
    if (!out.empty()) out += '\n';
    out.append(line.substr(strip));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  while (!out.empty() && (out.back() == '\r' || out.back() == ' ')) out.pop_back();
  return out;
}

namespace {

// Without the blanks and line continuations around it.
std::string_view trimmed_blanks(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

// The end of the string literal opening at `at` (its quote), or npos.
std::size_t string_end(std::string_view t, std::size_t at) {
  const char q = t[at];
  auto three = [&](std::size_t i) { return i + 2 < t.size() && t[i] == q && t[i + 1] == q && t[i + 2] == q; };
  const bool triple = three(at);
  for (std::size_t i = at + (triple ? 3 : 1); i < t.size(); ++i) {
    if (t[i] == '\\') {
      ++i;
      continue;
    }
    if (t[i] != q) continue;
    if (!triple) return i + 1;
    if (three(i)) return i + 3;
  }
  return std::string_view::npos;
}

// Splits the text after an opening bracket at `open` into its top-level
// comma-separated parts, up to the closing bracket; npos-terminated input
// gives what was read.
std::size_t split_args(std::string_view t, std::size_t open, std::vector<std::string_view>& out) {
  int depth = 0;
  std::size_t start = open + 1;
  for (std::size_t i = open; i < t.size(); ++i) {
    char c = t[i];
    if (c == '\'' || c == '"') {
      i = string_end(t, i);
      if (i == std::string_view::npos) return t.size();
      --i;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) {
        if (auto a = trimmed_blanks(t.substr(start, i - start)); !a.empty()) out.push_back(a);
        return i;
      }
    } else if (c == ',' && depth == 1) {
      if (auto a = trimmed_blanks(t.substr(start, i - start)); !a.empty()) out.push_back(a);
      start = i + 1;
    }
  }
  return t.size();
}

}  // namespace errdex::scan::python
