#include "web/html.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace errdex::web {
namespace {

constexpr std::array<std::string_view, 35> k_keywords = {
    "False", "None",   "True",    "and",      "as",       "assert", "async", "await",    "break",
    "class", "continue", "def",   "del",      "elif",     "else",   "except", "finally", "for",
    "from",  "global", "if",      "import",   "in",       "is",     "lambda", "nonlocal", "not",
    "or",    "pass",   "raise",   "return",   "try",      "while",  "with",  "yield"};
constexpr std::array<std::string_view, 20> k_builtins = {
    "self",  "cls",   "len",   "isinstance", "str",  "int",   "float", "list",  "dict",  "tuple",
    "set",   "print", "range", "type",       "bool", "super", "object", "bytes", "getattr", "hasattr"};

bool is_ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool is_ident(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// Appends escaped text wrapped in a span; a newline inside closes the span,
// ends the line and reopens the span on the next line.
class LineWriter {
 public:
  void text(std::string_view s, std::string_view cls = {}) {
    std::size_t start = 0;
    while (start <= s.size()) {
      auto nl = s.find('\n', start);
      std::string_view piece = s.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
      if (!piece.empty()) {
        if (!cls.empty()) m_cur += "<span class=\"tok-" + std::string(cls) + "\">";
        m_cur += html_escape(piece);
        if (!cls.empty()) m_cur += "</span>";
      }
      if (nl == std::string_view::npos) break;
      m_lines.push_back(std::move(m_cur));
      m_cur.clear();
      start = nl + 1;
    }
  }
  std::vector<std::string> finish(bool ends_with_newline) {
    if (!ends_with_newline || !m_cur.empty()) m_lines.push_back(std::move(m_cur));
    return std::move(m_lines);
  }

 private:
  std::vector<std::string> m_lines;
  std::string m_cur;
};

// Length of the string literal starting at i (prefix already consumed into
// `start`); unterminated strings run to the line end (or the text end for
// triple quotes).
std::size_t string_end(std::string_view s, std::size_t q) {
  char quote = s[q];
  bool triple = q + 2 < s.size() && s[q + 1] == quote && s[q + 2] == quote;
  std::size_t i = q + (triple ? 3 : 1);
  while (i < s.size()) {
    char c = s[i];
    if (c == '\\') {
      i += 2;
      continue;
    }
    if (triple) {
      if (c == quote && i + 2 < s.size() && s[i + 1] == quote && s[i + 2] == quote) return i + 3;
    } else {
      if (c == quote) return i + 1;
      if (c == '\n') return i;
    }
    ++i;
  }
  return s.size();
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::vector<std::string> highlight_python(std::string_view s) {
  LineWriter w;
  std::size_t i = 0, plain = 0;
  auto flush_plain = [&](std::size_t upto) {
    if (upto > plain) w.text(s.substr(plain, upto - plain));
  };
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '#') {
      flush_plain(i);
      auto e = s.find('\n', i);
      if (e == std::string_view::npos) e = s.size();
      w.text(s.substr(i, e - i), "comment");
      i = plain = e;
      continue;
    }
    if (c == '"' || c == '\'') {
      flush_plain(i);
      auto e = string_end(s, i);
      w.text(s.substr(i, e - i), "string");
      i = plain = e;
      continue;
    }
    if (std::isdigit(c) && (i == 0 || !is_ident(static_cast<unsigned char>(s[i - 1])))) {
      flush_plain(i);
      std::size_t e = i;
      while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '.' || s[e] == '_')) ++e;
      w.text(s.substr(i, e - i), "number");
      i = plain = e;
      continue;
    }
    if (c == '@' && (i == 0 || s[i - 1] == '\n' || s[i - 1] == ' ' || s[i - 1] == '\t')) {
      std::size_t e = i + 1;
      while (e < s.size() && (is_ident(static_cast<unsigned char>(s[e])) || s[e] == '.')) ++e;
      if (e > i + 1) {
        flush_plain(i);
        w.text(s.substr(i, e - i), "decorator");
        i = plain = e;
        continue;
      }
    }
    if (is_ident_start(c)) {
      std::size_t e = i;
      while (e < s.size() && is_ident(static_cast<unsigned char>(s[e]))) ++e;
      std::string_view word = s.substr(i, e - i);
      // String prefixes: r"", b'', f"""…""", rb'' and the like.
      if (e < s.size() && (s[e] == '"' || s[e] == '\'') && word.size() <= 2 &&
          std::all_of(word.begin(), word.end(), [](char ch) { return std::string_view("rRbBfFuU").find(ch) != std::string_view::npos; })) {
        flush_plain(i);
        auto end = string_end(s, e);
        w.text(s.substr(i, end - i), "string");
        i = plain = end;
        continue;
      }
      const char* cls = nullptr;
      if (std::find(k_keywords.begin(), k_keywords.end(), word) != k_keywords.end()) cls = "keyword";
      else if (std::find(k_builtins.begin(), k_builtins.end(), word) != k_builtins.end()) cls = "builtin";
      if (cls) {
        flush_plain(i);
        w.text(word, cls);
        plain = e;
      }
      i = e;
      continue;
    }
    ++i;
  }
  flush_plain(s.size());
  return w.finish(!s.empty() && s.back() == '\n');
}

std::vector<std::string> query_words(std::string_view query) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (cur.size() >= 2) out.push_back(cur);
    cur.clear();
  };
  for (char c : query) {
    if (std::isalnum(static_cast<unsigned char>(c))) cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else flush();
    if (out.size() >= 32) break;
  }
  flush();
  return out;
}

std::string highlight_terms(std::string_view text, const std::vector<std::string>& words) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t best = 0;
    // Whole words only, as the full-text index matches them.
    bool at_start = i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]));
    for (const auto& w : words) {
      if (!at_start) break;
      if (w.size() > text.size() - i || w.size() <= best) continue;
      if (i + w.size() < text.size() && std::isalnum(static_cast<unsigned char>(text[i + w.size()]))) continue;
      bool eq = true;
      for (std::size_t k = 0; k < w.size() && eq; ++k)
        eq = std::tolower(static_cast<unsigned char>(text[i + k])) == static_cast<unsigned char>(w[k]);
      if (eq) best = w.size();
    }
    if (best) {
      out += "<mark>" + html_escape(text.substr(i, best)) + "</mark>";
      i += best;
    } else {
      out += html_escape(text.substr(i, 1));
      ++i;
    }
  }
  return out;
}

std::string prose_html(std::string_view text) {
  const std::string escaped = html_escape(text);
  std::string out;
  out.reserve(escaped.size() + 32);
  std::size_t i = 0;
  while (i < escaped.size()) {
    std::size_t open = escaped.find('`', i);
    if (open == std::string::npos) break;
    std::size_t close = escaped.find('`', open + 1);
    // Code spans one line and holds something.
    std::size_t nl = escaped.find('\n', open + 1);
    if (close == std::string::npos || (nl != std::string::npos && nl < close)) break;
    if (close == open + 1) {
      out.append(escaped, i, close + 1 - i);
      i = close + 1;
      continue;
    }
    out.append(escaped, i, open - i);
    out += "<code>";
    out.append(escaped, open + 1, close - open - 1);
    out += "</code>";
    i = close + 1;
  }
  out.append(escaped, i, std::string::npos);
  return out;
}

}  // namespace errdex::web
