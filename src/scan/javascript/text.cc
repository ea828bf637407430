#include <cctype>
#include "scan/javascript/text.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "util/text.h"

namespace errdex::scan::javascript {
namespace {

using model::TemplatePart;
using util::hex_value;

// The number `digits` spell in hex; nullopt when one is not a hex digit or
// the value leaves Unicode.
std::optional<std::uint32_t> hex_number(std::string_view digits) {
  if (digits.empty() || digits.size() > 8) return std::nullopt;
  std::uint32_t v = 0;
  for (char c : digits) {
    int h = hex_value(c);
    if (h < 0) return std::nullopt;
    v = v * 16 + static_cast<std::uint32_t>(h);
  }
  if (v > 0x10FFFF) return std::nullopt;
  return v;
}

// The code unit of `\uXXXX` or `\u{X…}`; nullopt for anything else.
std::optional<std::uint32_t> unicode_escape(std::string_view e) {
  if (e.size() < 3 || e[0] != '\\' || e[1] != 'u') return std::nullopt;
  if (e[2] == '{') {
    if (e.back() != '}') return std::nullopt;
    return hex_number(e.substr(3, e.size() - 4));
  }
  return e.size() == 6 ? hex_number(e.substr(2)) : std::nullopt;
}

bool is_high(std::uint32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
bool is_low(std::uint32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

std::size_t utf8_len(std::string_view s, std::size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  return util::is_valid_utf8(s.substr(i, n)) ? n : 0;
}

}  // namespace

void decode_escape(std::string_view e, std::string_view next, std::string& out, bool& consumed_next) {
  consumed_next = false;
  if (e.size() < 2 || e[0] != '\\') {
    append_fragment(e, out);
    return;
  }
  if (auto u = unicode_escape(e)) {
    std::uint32_t cp = *u;
    if (is_high(cp)) {
      auto low = unicode_escape(next);
      if (low && is_low(*low)) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (*low - 0xDC00);
        consumed_next = true;
      }
    }
    util::append_utf8(is_high(cp) || is_low(cp) ? 0xFFFD : cp, out);
    return;
  }
  switch (e[1]) {
    case 'n': out += '\n'; return;
    case 't': out += '\t'; return;
    case 'r': out += '\r'; return;
    case 'b': out += '\b'; return;
    case 'f': out += '\f'; return;
    case 'v': out += '\v'; return;
    case '0': if (e.size() == 2) { out += '\0'; return; } break;
    case '\n': case '\r': return;  // a line continuation adds nothing
    case 'x':
      if (e.size() == 4)
        if (auto v = hex_number(e.substr(2))) {
          util::append_utf8(*v, out);
          return;
        }
      break;
    default: break;
  }
  // `\'`, `\"`, `\\` and any other character stand for themselves.
  append_fragment(e.substr(1), out);
}

void append_fragment(std::string_view s, std::string& out) {
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '\r') {
      out += '\n';
      i += (i + 1 < s.size() && s[i + 1] == '\n') ? 2 : 1;
      continue;
    }
    std::size_t n = utf8_len(s, i);
    if (n == 0) {
      util::append_utf8(0xFFFD, out);
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
}

std::vector<TemplatePart> format_parts(std::string_view fmt, const std::vector<std::string>& args) {
  std::vector<TemplatePart> parts;
  auto literal = [&](std::string_view t) {
    if (t.empty()) return;
    if (parts.empty() || !parts.back().literal) parts.push_back(TemplatePart{});
    append_fragment(t, parts.back().text);
  };
  auto value = [&](std::string text, char conv) {
    TemplatePart p;
    p.literal = false;
    p.text = std::move(text);
    p.printf_conv = conv;
    parts.push_back(std::move(p));
  };
  std::size_t used = 0, from = 0;
  for (std::size_t i = 0; i + 1 < fmt.size(); ++i) {
    if (fmt[i] != '%') continue;
    char c = fmt[i + 1];
    if (c == '%') {
      literal(fmt.substr(from, i + 1 - from));
      from = i + 2;
      ++i;
      continue;
    }
    if (c != 's' && c != 'd' && c != 'i' && c != 'f' && c != 'j' && c != 'o' && c != 'O' && c != 'c') continue;
    literal(fmt.substr(from, i - from));
    from = i + 2;
    ++i;
    if (used >= args.size()) {
      literal(fmt.substr(i - 1, 2));
      continue;
    }
    const std::string& arg = args[used++];
    if (c == 'c') continue;  // CSS for the browser console: Node prints nothing
    // %d of a float prints it whole (`1.5`), so only %i is an integer.
    value(arg, c == 'i' ? 'd' : 0);
  }
  literal(fmt.substr(from));
  for (; used < args.size(); ++used) {
    literal(" ");
    value(args[used], 0);
  }
  return parts;
}

namespace {

bool ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
bool ascii_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

// The text before and after the word at `source[at, at + size)`, blanks
// next to it left out; false when the word is part of a longer one (a
// letter next to it) or a property (a dot before), or nothing is on
// either side.
bool around_word(std::string_view source, std::size_t at, std::size_t size, std::string_view& before,
                 std::string_view& after) {
  if (at + size > source.size()) return false;
  before = source.substr(0, at);
  after = source.substr(at + size);
  if (!before.empty() && (ascii_word(before.back()) || before.back() == '.')) return false;
  if (!after.empty() && ascii_word(after.front())) return false;
  while (!before.empty() && ascii_space(before.back())) before.remove_suffix(1);
  while (!after.empty() && ascii_space(after.front())) after.remove_prefix(1);
  return !before.empty() && !after.empty();
}

}  // namespace

bool may_declare_name(std::string_view source, std::size_t at, std::size_t size) {
  std::string_view before, after;
  if (!around_word(source, at, size, before, after)) return false;
  const unsigned char last = static_cast<unsigned char>(before.back()), next = static_cast<unsigned char>(after.front());
  bool declares = last >= 0x80 || last == '*' || last == ',' || last == '/';
  for (std::string_view word : {"function", "var", "let", "const", "using"})
    declares = declares || before.ends_with(word);
  return declares && (next >= 0x80 || std::string_view("(<=:!/").find(static_cast<char>(next)) != std::string_view::npos);
}

bool may_open_argument(std::string_view source, std::size_t at, std::size_t size) {
  if (at + size > source.size()) return false;
  std::string_view before = source.substr(0, at), after = source.substr(at + size);
  if (!before.empty() && (ascii_word(before.back()) || before.back() == '.')) return false;
  if (!after.empty() && ascii_word(after.front())) return false;
  while (!before.empty() && ascii_space(before.back())) {
    if (before.back() == '\n' || before.back() == '\r') return true;
    before.remove_suffix(1);
  }
  if (before.empty()) return false;
  const unsigned char last = static_cast<unsigned char>(before.back());
  return last >= 0x80 || last == '(' || last == '/' || last == '>' || before.ends_with("await");
}

std::string expression_text(std::string_view expr) {
  std::string out;
  bool blank = false;
  auto put = [&](char c) {
    const bool closing = c == ')' || c == ']' || c == ',';
    if (blank && !out.empty() && !closing && out.back() != '(' && out.back() != '[') out.push_back(' ');
    blank = false;
    // `f(a, )`: the trailing comma goes.
    if ((c == ')' || c == ']') && !out.empty() && out.back() == ',') out.pop_back();
    out.push_back(c);
  };
  for (std::size_t i = 0; i < expr.size(); ++i) {
    const char c = expr[i];
    if (c == '\'' || c == '"' || c == '`') {
      put(c);
      for (++i; i < expr.size() && expr[i] != c; ++i) {
        out.push_back(expr[i]);
        if (expr[i] == '\\' && i + 1 < expr.size()) out.push_back(expr[++i]);
      }
      if (i < expr.size()) out.push_back(c);
    } else if (c == '/' && i + 1 < expr.size() && expr[i + 1] == '/') {
      i = expr.find('\n', i);
      if (i == std::string_view::npos) break;
      blank = true;
    } else if (c == '/' && i + 1 < expr.size() && expr[i + 1] == '*') {
      const std::size_t end = expr.find("*/", i + 2);
      if (end == std::string_view::npos) break;
      i = end + 1;
      blank = true;
    } else if (ascii_space(c)) {
      blank = true;
    } else {
      put(c);
    }
  }
  return out;
}

std::vector<std::string_view> names_bound_to_new(std::string_view source) {
  std::vector<std::string_view> out;
  for (std::size_t at = source.find("new"); at != std::string_view::npos; at = source.find("new", at + 3)) {
    if ((at > 0 && ascii_word(source[at - 1])) || (at + 3 < source.size() && ascii_word(source[at + 3]))) continue;
    std::size_t k = at;
    while (k > 0 && ascii_space(source[k - 1])) --k;
    // `=`, not `==`, `===`, `!=`, `<=`, `>=`, `=>`.
    if (k < 2 || source[k - 1] != '=' || std::string_view("=!<>+-*/%&|^?").find(source[k - 2]) != std::string_view::npos)
      continue;
    --k;
    while (k > 0 && ascii_space(source[k - 1])) --k;
    std::size_t begin = k;
    while (begin > 0 && ascii_word(source[begin - 1])) --begin;
    if (begin == k || (begin > 0 && source[begin - 1] == '.')) continue;
    const std::string_view name = source.substr(begin, k - begin);
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

bool may_be_argument(std::string_view source, std::size_t at, std::size_t size) {
  std::string_view before, after;
  return around_word(source, at, size, before, after) && (before.back() == '(' || before.back() == ',') &&
         (after.front() == ')' || after.front() == ',');
}

bool is_code_string(std::string_view source, std::size_t at) {
  if (at >= source.size() || (source[at] != '\'' && source[at] != '"')) return false;
  const char quote = source[at];
  std::size_t end = at + 1;
  bool underscore = false;
  for (; end < source.size(); ++end) {
    const char c = source[end];
    if (c == '_')
      underscore = true;
    else if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      break;
  }
  const std::size_t size = end - at - 1;
  return end < source.size() && source[end] == quote && underscore && size >= 3 && source[at + 1] >= 'A' && source[at + 1] <= 'Z';
}

bool names_class(std::string_view name) {
  const std::size_t i = name.find_first_not_of("_$");
  return i != std::string_view::npos && std::isupper(static_cast<unsigned char>(name[i]));
}

bool builtin_value_class(std::string_view name) {
  for (std::string_view global : {"globalThis.", "window.", "global.", "self."})
    if (name.starts_with(global)) name.remove_prefix(global.size());
  static constexpr std::string_view k_values[] = {
      "Array", "ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array", "Uint8ClampedArray",
      "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array",
      "BigUint64Array", "Map", "Set", "WeakMap", "WeakSet", "WeakRef", "Date", "RegExp", "Promise", "Proxy",
      "Object", "Function", "String", "Number", "Boolean", "Symbol", "URL", "URLSearchParams", "Buffer",
      "TextEncoder", "TextDecoder", "Headers", "Request", "Response", "Blob", "File", "FormData",
      "AbortController", "Event", "EventTarget", "MessageChannel", "ReadableStream", "WritableStream",
      "TransformStream"};
  for (std::string_view v : k_values)
    if (name == v) return true;
  return false;
}

}  // namespace errdex::scan::javascript
