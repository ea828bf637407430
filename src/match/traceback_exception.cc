// An exception in one line of a pasted text: `Class: message` as Python
// prints it, `Class('message')` as repr() does, inside a quoted string or
// not; its message with the escapes of a literal read back.
#include <string>
#include <string_view>

#include "match/traceback_parts.h"
#include "util/text.h"

namespace errdex::match::traceback_detail {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Names exception classes end with by convention.
bool conventional_class(std::string_view name) {
  for (std::string_view s : {"Error", "Exception", "Warning", "Exit", "Interrupt", "Iteration", "Group", "Failure",
                             "Fault", "Timeout"})
    if (ends_with(name, s) && name.size() > s.size()) return true;
  return name == "Exception" || name == "Warning";
}

// The end of the Python string literal opening at `pos` (' or ", as repr()
// quotes), past its closing quote; npos when it does not close on the line.
// `escaped` is set when its body holds a backslash.
std::size_t literal_end(std::string_view s, std::size_t pos, bool& escaped) {
  const char quote = s[pos];
  for (std::size_t i = pos + 1; i < s.size(); ++i) {
    if (s[i] == '\\') {
      escaped = true;
      ++i;
    } else if (s[i] == quote) {
      return i + 1;
    } else if (s[i] == '\n') {
      break;
    }
  }
  return std::string_view::npos;
}

// An exception as repr() prints it, `Class('message')`, its bare name from
// `pos` to `open` (the '('): what logs show (`raised unexpected:
// ValueError('x')`, asyncio's `exception=KeyError('k')`). The message is
// what str() would print: a string argument's text (KeyError's: its repr,
// quotes and all), nothing for `Class()`, and the arguments as written for
// anything else.
bool repr_at(std::string_view line, std::size_t pos, std::size_t open, ClassAt& out) {
  std::string_view name = line.substr(pos, open - pos);
  // repr() names the class bare: a dotted name is a call (`log.Warning(`).
  if (name.find('.') != std::string_view::npos) return false;
  std::string_view last = name;
  std::size_t i = open + 1;
  bool escaped = false;
  std::string_view message;
  const bool literal = i < line.size() && (line[i] == '\'' || line[i] == '"');
  if (literal) {
    std::size_t end = literal_end(line, i, escaped);
    if (end == std::string_view::npos || end >= line.size() || line[end] != ')') return false;
    if (last == "KeyError") {
      message = line.substr(i, end - i);
      escaped = false;  // str(KeyError) is the key's repr, as printed
    } else {
      message = trim(line.substr(i + 1, end - i - 2));  // messages are trimmed (escapes: once read)
    }
  } else {
    // Other arguments: up to the parenthesis that closes the call.
    int depth = 1;
    std::size_t k = i;
    for (; k < line.size() && depth > 0; ++k) {
      if (line[k] == '\'' || line[k] == '"') {
        bool ignored = false;
        std::size_t end = literal_end(line, k, ignored);
        if (end == std::string_view::npos) return false;
        k = end - 1;
      } else {
        depth += (line[k] == '(') - (line[k] == ')');
      }
    }
    if (depth != 0) return false;
    message = trim(line.substr(i, k - 1 - i));
  }
  out = {name, message, last, escaped, literal};
  return true;
}

std::string unescape_literal(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  append_unescaped(body, out);
  return out;
}

// Whether the word before `pos` is `raise` (a source line, not an error).
bool after_raise(std::string_view line, std::size_t pos) {
  std::string_view before = line.substr(0, pos);
  while (!before.empty() && is_space(before.back())) before.remove_suffix(1);
  return before.ends_with("raise") && (before.size() == 5 || !is_ident(before[before.size() - 6]));
}

// Whether the name at `name_at` opens a quoted string.
bool opens_string(std::string_view line, std::size_t name_at) {
  return name_at > 0 && (line[name_at - 1] == '"' || line[name_at - 1] == '\'');
}

// A `Class: message` that opens a quoted string (a JSON log's `"error":
// "ValueError: x"`, logfmt's `error="..."`, a repr's `'...'`; opens_string
// says so): its message ends at the string's closing quote, escapes to be
// read back. Left as it is when the quote does not close on the line, or
// is itself escaped (a string inside a string).
void quoted_message(std::string_view line, std::size_t name_at, ClassAt& c) {
  if (c.message.empty() || (name_at >= 2 && line[name_at - 2] == '\\')) return;
  bool escaped = false;
  const std::size_t end = literal_end(line, name_at - 1, escaped);
  if (end == std::string_view::npos) return;
  const std::size_t from = static_cast<std::size_t>(c.message.data() - line.data());
  c.message = trim(line.substr(from, end - 1 - from));
  c.escaped = escaped;
}

}  // namespace

bool class_at(std::string_view line, std::size_t pos, ClassAt& out, std::size_t* name_end) {
  std::size_t i = pos;
  if (name_end) *name_end = pos;
  if (i >= line.size() || !is_ident_start(line[i])) return false;
  std::size_t last = pos;
  while (true) {
    while (i < line.size() && is_ident(line[i])) ++i;
    if (i + 1 < line.size() && line[i] == '.' && is_ident_start(line[i + 1])) {
      last = ++i;
      continue;
    }
    break;
  }
  if (name_end) *name_end = i;
  std::string_view name = line.substr(pos, i - pos);
  std::string_view rest = line.substr(i);
  std::string_view last_name = line.substr(last, i - last);
  if (trim(rest).empty()) {
    out = {name, {}, last_name};
    return true;
  }
  if (rest.front() != ':') {
    // A quoted name alone (a JSON log's `"message": "EOFError"`).
    if (pos == 0 || (line[pos - 1] != '"' && line[pos - 1] != '\'') || rest.front() != line[pos - 1]) return false;
    out = {name, {}, last_name};
    return true;
  }
  rest.remove_prefix(1);
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '\t') return false;
  out = {name, trim(rest), last_name};
  return true;
}

void append_unescaped(std::string_view body, std::string& out) {
  for (std::size_t i = 0; i < body.size();) {
    const std::size_t esc = body.find('\\', i);
    out.append(body.substr(i, esc == std::string_view::npos ? std::string_view::npos : esc - i));
    if (esc == std::string_view::npos) break;
    i = esc;
    std::uint32_t hi = 0, lo = 0;
    if (i + 1 == body.size() || body[i + 1] == 'N' || body[i + 1] == '\n' || body[i + 1] == '\r') {
      out += body[i++];
    } else if (body[i + 1] == '/') {
      out += '/';
      i += 2;
    } else if (body[i + 1] == 'u' && util::read_hex(body, i + 2, 4, hi) && hi >= 0xd800 && hi < 0xdc00 &&
               i + 7 < body.size() && body[i + 6] == '\\' && body[i + 7] == 'u' && util::read_hex(body, i + 8, 4, lo) &&
               lo >= 0xdc00 && lo < 0xe000) {
      util::append_utf8(0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00), out);
      i += 12;
    } else {
      i = util::append_python_escape(body, i, false, out);
    }
  }
}

std::string message_text(const ClassAt& c) { return c.escaped ? unescape_literal(c.message) : std::string(c.message); }

bool find_exception(std::string_view line, KnownClass known, ClassAt& out, bool conventional_only) {
  // A dotted, capitalised name with a message (`decimal.InvalidOperation:
  // x / 0`) is how Python prints an exception whatever its name: the first
  // such is the answer when no name the convention or the caller knows is.
  ClassAt fallback;
  bool has_fallback = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (!is_ident_start(line[i])) continue;
    bool after_equals = false;
    if (i > 0) {
      char p = line[i - 1];
      // An escaped line break (`\n` in a JSON string or a repr) starts a line.
      bool escaped_break = false;
      if (is_ident(p)) {
        if ((p != 'n' && p != 't') || i < 2 || line[i - 2] != '\\') continue;
        escaped_break = true;
      }
      if (p == '.') continue;
      after_equals = p == '=';
      if (!(is_space(p) || p == ':' || p == ']' || p == '>' || p == '|' || p == ')' || p == '-' || p == '(' ||
            p == '[' || p == '"' || p == '\'' || after_equals || escaped_break))
        continue;
    }
    ClassAt c;
    std::size_t name_end = i;
    // After '=' only a repr is an exception (`exception=KeyError('k')`).
    if (class_at(line, i, c, &name_end) && !after_equals) {
      std::string_view last = c.last;
      bool dotted = last.size() != c.name.size();
      // The caller's table first: one lookup, where the convention is ten
      // suffix tests, and most pasted classes are known.
      if ((!conventional_only && known && (dotted || !c.message.empty() || i == 0) && known(last)) ||
          conventional_class(last)) {
        if (opens_string(line, i)) quoted_message(line, i, c);
        out = c;
        return true;
      }
      if (!has_fallback && !conventional_only && dotted && !c.message.empty() && last[0] >= 'A' && last[0] <= 'Z') {
        if (opens_string(line, i)) quoted_message(line, i, c);
        fallback = c;
        has_fallback = true;
      }
    }
    // A known class in lower case (re's `error`) only with one string
    // argument: `log('x')` is as likely a call.
    if (!conventional_only && name_end < line.size() && line[name_end] == '(' && repr_at(line, i, name_end, c) &&
        !after_raise(line, i) &&
        (conventional_class(c.last) ||
         (known && ((c.last[0] >= 'A' && c.last[0] <= 'Z') || c.literal) && known(c.last)))) {
      out = c;
      return true;
    }
    // Skip the rest of this word: later starts inside it are not names.
    while (i + 1 < line.size() && (is_ident(line[i + 1]) || line[i + 1] == '.')) ++i;
  }
  if (has_fallback) out = fallback;
  return has_fallback;
}

}  // namespace errdex::match::traceback_detail
