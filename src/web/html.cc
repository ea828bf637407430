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

constexpr std::array<std::string_view, 52> k_js_keywords = {
    "abstract", "as",     "async",   "await",     "break",   "case",    "catch",     "class",    "const",
    "continue", "debugger", "declare", "default", "delete",  "do",      "else",      "enum",     "export",
    "extends",  "false",  "finally", "for",       "from",    "function", "get",      "if",       "implements",
    "import",   "in",     "instanceof", "interface", "let",  "new",     "null",      "of",       "private",
    "protected", "public", "readonly", "return",  "set",     "static",  "super",     "switch",   "this",
    "throw",    "true",   "try",     "type",      "typeof",  "undefined", "var"};
constexpr std::array<std::string_view, 16> k_js_builtins = {
    "Error",   "TypeError", "RangeError", "SyntaxError", "ReferenceError", "AggregateError", "Promise", "Object",
    "Array",   "String",    "Number",     "Boolean",     "JSON",           "Math",           "console", "require"};

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

// A highlighter's walk over `s`: `i` is where it reads, `plain` where the
// text not yet written begins.
struct Tokens {
  std::string_view s;
  LineWriter w;
  std::size_t i = 0, plain = 0;

  void flush(std::size_t upto) {
    if (upto > plain) w.text(s.substr(plain, upto - plain));
  }
  // s[i, end) as one token of class `cls`; reading goes on after it.
  void emit(std::size_t end, std::string_view cls) {
    flush(i);
    w.text(s.substr(i, end - i), cls);
    i = plain = end;
  }
  // A number starting at i (not inside an identifier): emitted, true.
  bool number() {
    if (!std::isdigit(static_cast<unsigned char>(s[i])) || (i > 0 && is_ident(static_cast<unsigned char>(s[i - 1]))))
      return false;
    std::size_t e = i;
    while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '.' || s[e] == '_')) ++e;
    emit(e, "number");
    return true;
  }
  // The word s[i, end): emitted when `cls` is set, else left plain.
  void word(std::size_t end, const char* cls) {
    if (cls) emit(end, cls);
    i = end;
  }
  std::vector<std::string> finish() {
    flush(s.size());
    return w.finish(!s.empty() && s.back() == '\n');
  }
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
  Tokens t{s, {}};
  std::size_t& i = t.i;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '#') {
      auto e = s.find('\n', i);
      t.emit(e == std::string_view::npos ? s.size() : e, "comment");
      continue;
    }
    if (c == '"' || c == '\'') {
      t.emit(string_end(s, i), "string");
      continue;
    }
    if (t.number()) continue;
    if (c == '@' && (i == 0 || s[i - 1] == '\n' || s[i - 1] == ' ' || s[i - 1] == '\t')) {
      std::size_t e = i + 1;
      while (e < s.size() && (is_ident(static_cast<unsigned char>(s[e])) || s[e] == '.')) ++e;
      if (e > i + 1) {
        t.emit(e, "decorator");
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
        t.emit(string_end(s, e), "string");
        continue;
      }
      const char* cls = nullptr;
      if (std::find(k_keywords.begin(), k_keywords.end(), word) != k_keywords.end()) cls = "keyword";
      else if (std::find(k_builtins.begin(), k_builtins.end(), word) != k_builtins.end()) cls = "builtin";
      t.word(e, cls);
      continue;
    }
    ++i;
  }
  return t.finish();
}

std::vector<std::string> highlight_javascript(std::string_view s) {
  Tokens t{s, {}};
  std::size_t& i = t.i;
  // The end of a quoted string or template literal opened at q (a template
  // may span lines; a quoted string ends at its line).
  auto quoted_end = [&](std::size_t q) {
    const char quote = s[q];
    std::size_t e = q + 1;
    while (e < s.size() && s[e] != quote) {
      if (s[e] == '\\') ++e;
      else if (s[e] == '\n' && quote != '`') return e;
      ++e;
    }
    return std::min(e + 1, s.size());
  };
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '/' && i + 1 < s.size() && (s[i + 1] == '/' || s[i + 1] == '*')) {
      std::size_t e = s[i + 1] == '/' ? s.find('\n', i) : s.find("*/", i + 2);
      t.emit(e == std::string_view::npos ? s.size() : (s[i + 1] == '*' ? e + 2 : e), "comment");
      continue;
    }
    if (c == '"' || c == '\'' || c == '`') {
      t.emit(quoted_end(i), "string");
      continue;
    }
    if (t.number()) continue;
    if (c == '@' && i + 1 < s.size() && is_ident_start(static_cast<unsigned char>(s[i + 1]))) {
      std::size_t e = i + 1;
      while (e < s.size() && (is_ident(static_cast<unsigned char>(s[e])) || s[e] == '.')) ++e;
      t.emit(e, "decorator");
      continue;
    }
    if (is_ident_start(c) || c == '$') {
      std::size_t e = i;
      while (e < s.size() && (is_ident(static_cast<unsigned char>(s[e])) || s[e] == '$')) ++e;
      std::string_view word = s.substr(i, e - i);
      const bool member = i > 0 && s[i - 1] == '.';  // obj.type, obj.default: a property
      const char* cls = nullptr;
      if (!member && std::find(k_js_keywords.begin(), k_js_keywords.end(), word) != k_js_keywords.end()) cls = "keyword";
      else if (!member && std::find(k_js_builtins.begin(), k_js_builtins.end(), word) != k_js_builtins.end()) cls = "builtin";
      t.word(e, cls);
      continue;
    }
    ++i;
  }
  return t.finish();
}

std::vector<std::string> highlight_source(std::string_view file_path, std::string_view code) {
  for (std::string_view ext : {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"})
    if (file_path.ends_with(ext)) return highlight_javascript(code);
  return highlight_python(code);
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
