#include "match/traceback.h"

#include "match/js_stack.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <nlohmann/json.hpp>

#include "util/text.h"

namespace errdex::match {
namespace {

constexpr std::string_view k_header = "Traceback (most recent call last):";
constexpr std::string_view k_during = "During handling of the above exception, another exception occurred:";
constexpr std::string_view k_cause = "The above exception was the direct cause of the following exception:";
static_assert(k_during.size() <= k_cause.size());  // a line shorter than k_during holds neither

// Character classes by table: one load per character, where chained
// comparisons branch on whether a letter is upper or lower case.
enum : std::uint8_t { k_space = 1, k_ident_start = 2, k_ident = 4 };
constexpr std::array<std::uint8_t, 256> k_char_class = [] {
  std::array<std::uint8_t, 256> t{};
  for (char c : {' ', '\t', '\r', '\f', '\v'}) t[static_cast<unsigned char>(c)] = k_space;
  for (int c = 0; c < 256; ++c) {
    bool start = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    if (start) t[c] = k_ident_start | k_ident;
    if (c >= '0' && c <= '9') t[c] = k_ident;
  }
  return t;
}();
bool is_space(char c) { return k_char_class[static_cast<unsigned char>(c)] & k_space; }
bool is_ident_start(char c) { return k_char_class[static_cast<unsigned char>(c)] & k_ident_start; }
bool is_ident(char c) { return k_char_class[static_cast<unsigned char>(c)] & k_ident; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_space(s.front()) || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

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

struct ClassAt {
  std::string_view name;
  std::string_view message;
  std::string_view last;  // the name's last dotted component
  // `message` is the body of a Python string literal as repr() prints it,
  // backslash escapes still in (see unescape_literal).
  bool escaped = false;
  bool literal = false;  // a repr whose one argument is a string literal
};

// A dotted name at exactly `pos`, followed by ": message", ":" or the end
// (or, quoted, by its closing quote).
// `name_end`, when given, is set to where the name ends, found or not.
bool class_at(std::string_view line, std::size_t pos, ClassAt& out, std::size_t* name_end = nullptr) {
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

// The text of a string literal's body as repr() or JSON escapes it: `\n`,
// `\'`, `\xNN`, `\uNNNN` and the rest read back (util::append_python_escape),
// and JSON's own `\/` and a character past U+FFFF as two `\uXXXX`;
// `\N{...}`, which neither writes, stays as written.
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

std::string unescape_literal(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  append_unescaped(body, out);
  return out;
}

// A found exception's message, as the text it stands for.
std::string message_text(const ClassAt& c) { return c.escaped ? unescape_literal(c.message) : std::string(c.message); }

// Whether the word before `pos` is `raise` (a source line, not an error).
bool after_raise(std::string_view line, std::size_t pos) {
  std::string_view before = line.substr(0, pos);
  while (!before.empty() && is_space(before.back())) before.remove_suffix(1);
  return before.ends_with("raise") && (before.size() == 5 || !is_ident(before[before.size() - 6]));
}

// Whether a frame's source line raises an object made elsewhere: `raise`
// and an expression that is no call and starts in lower case (a variable,
// an attribute, an item: `raise exc`, `raise self._value`, `raise
// errors[0]`), or such an expression's `.with_traceback(...)`; `from ...`
// may follow. `raise ValueError` and `raise make_error(x)` make a new one.
bool raises_object(std::string_view source) {
  std::size_t at = 0;
  while (at < source.size() && is_space(source[at])) ++at;
  if (source.substr(at, 5) != "raise") return false;  // most lines, at once
  at += 5;
  const std::size_t word_end = at;
  while (at < source.size() && is_space(source[at])) ++at;
  // `raise ValueError(...)`, the usual raise, ends here too.
  if (at == word_end || at == source.size() || !((source[at] >= 'a' && source[at] <= 'z') || source[at] == '_')) return false;
  std::string_view t = trim(source.substr(at));
  if (auto hash = t.find('#'); hash != std::string_view::npos) t = trim(t.substr(0, hash));
  if (auto from = t.find(" from "); from != std::string_view::npos) t = trim(t.substr(0, from));
  constexpr std::string_view k_with = ".with_traceback(";
  if (auto with = t.find(k_with); with != std::string_view::npos && t.back() == ')') t = t.substr(0, with);
  return std::all_of(t.begin(), t.end(), [](char c) { return is_ident(c) || c == '.' || c == '[' || c == ']' || c == '\'' || c == '"'; });
}

// Whether `line` reads as a frame's source line in Python's layout: four
// spaces (or a tab) and text.
bool rest_is_source(std::string_view line) {
  return (line.starts_with("    ") || line.starts_with("\t")) && !trim(line).empty();
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

// The leftmost `Class: message` in a line with no traceback around it, or
// `Class('message')` as repr() prints one. The name must look like an
// exception class: by convention, or known to the caller (capitalised, for
// a repr), or else be dotted and capitalised; and stand after the line
// start, a blank, an escaped `\n` or punctuation ('=' too, for a repr).
bool find_exception(std::string_view line, KnownClass known, ClassAt& out, bool conventional_only = false) {
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

// Decimal digits at `i` (advanced past them). A number too long for any
// file reads as line 0, unknown.
int read_line_number(std::string_view line, std::size_t& i, std::size_t& digits) {
  long n = 0;
  digits = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') {
    if (digits < 9) n = n * 10 + (line[i] - '0');
    ++i;
    ++digits;
  }
  return digits > 9 ? 0 : static_cast<int>(n);
}

// `File "path", line N[, in func]` anywhere in the line.
bool parse_frame(std::string_view line, Frame& f) {
  auto at = line.find("File \"");
  if (at == std::string_view::npos) return false;
  std::size_t start = at + 6;
  auto mid = line.find("\", line ", start);
  if (mid == std::string_view::npos) return false;
  std::size_t i = mid + 8;
  std::size_t digits = 0;
  int n = read_line_number(line, i, digits);
  if (digits == 0) return false;
  f.file = std::string(line.substr(start, mid - start));
  f.line = n;
  f.function.clear();
  std::string_view rest = line.substr(i);
  if (rest.substr(0, 5) == ", in ") f.function = std::string(trim(rest.substr(5)));
  return true;
}

// pytest: `path.py:12: in func` or `path.py:12: ValueError` at line start;
// a frozen module's frame is `<frozen os>:679: in __getitem__`.
bool parse_pytest_frame(std::string_view line, Frame& f) {
  std::size_t file_end;
  if (line.starts_with("<frozen ")) {
    file_end = line.find(">:");
    if (file_end == std::string_view::npos) return false;
    ++file_end;
  } else {
    auto colon = line.find(".py:");
    if (colon == std::string_view::npos || colon == 0) return false;
    for (std::size_t k = 0; k < colon; ++k)
      if (is_space(line[k])) return false;
    file_end = colon + 3;
  }
  std::size_t i = file_end + 1;
  std::size_t digits = 0;
  int n = read_line_number(line, i, digits);
  if (digits == 0 || i >= line.size() || line[i] != ':') return false;
  f.file = std::string(line.substr(0, file_end));
  f.line = n;
  std::string_view rest = trim(line.substr(i + 1));
  f.function = rest.substr(0, 3) == "in " ? std::string(rest.substr(3)) : "";
  return true;
}

// `PATH:LINE, in func(args)`, `PATH:LINE in func` or `PATH:LINE`: a frame as
// IPython (after `File `) and rich print it. A path may hold ':' (`C:\...`):
// the line number is after the first ':' followed by digits and then the
// end, ',' or ' in '.
bool parse_path_frame(std::string_view rest, Frame& f) {
  for (std::size_t colon = rest.find(':'); colon != std::string_view::npos; colon = rest.find(':', colon + 1)) {
    std::size_t end = colon + 1, digits = 0;
    int n = read_line_number(rest, end, digits);
    if (digits == 0 || colon == 0) continue;
    std::string_view after = rest.substr(end);
    std::string_view function;
    if (after.starts_with(", in ")) function = after.substr(5);
    else if (after.starts_with(" in ")) function = after.substr(4);
    else if (!trim(after).empty()) continue;
    f.file = std::string(rest.substr(0, colon));
    f.line = n;
    // `loads(s, cls, ...)`: the name, as Python prints it.
    function = trim(function);
    f.function = std::string(function.substr(0, function.find('(')));
    return true;
  }
  return false;
}

// IPython and Jupyter: `File PATH:LINE, in func(args)` (IPython 8; `File
// PATH:LINE in func` and `File PATH:LINE` in its SyntaxError layout),
// `Cell In[3], line 1` and `Input In [3], in <cell line: 1>()` for a cell,
// at the traceback's column.
bool parse_ipython_frame(std::string_view line, Frame& f) {
  if (line.starts_with("File ")) return parse_path_frame(line.substr(5), f);
  // A cell: its name as printed stands for the file.
  for (std::string_view cell : {std::string_view("Cell In"), std::string_view("Input In")}) {
    if (!line.starts_with(cell)) continue;
    auto close = line.find(']', cell.size());
    if (close == std::string_view::npos) return false;
    std::string_view rest = line.substr(close + 1);
    std::size_t at = 0;
    if (rest.starts_with(", line ")) at = 7;
    else if (auto k = rest.find("<cell line: "); k != std::string_view::npos) at = k + 12;
    else return false;
    std::size_t digits = 0;
    int n = read_line_number(rest, at, digits);
    if (digits == 0) return false;
    f.file = std::string(line.substr(0, close + 1));
    f.line = n;
    f.function.clear();
    return true;
  }
  return false;
}

// IPython 7: `PATH in func(args)` or `<ipython-input-3-...> in <module>`;
// the line is the one its source excerpt marks with `---->`.
bool parse_ipython7_frame(std::string_view line, Frame& f) {
  if (line.empty() || is_space(line[0])) return false;
  auto in = line.find(" in ");
  if (in == std::string_view::npos || in == 0) return false;
  std::string_view file = line.substr(0, in);
  bool path_like = file.front() == '/' || file.front() == '~' || file.front() == '<' || file.front() == '.' ||
                   (file.size() > 2 && file[1] == ':' && (file[2] == '\\' || file[2] == '/'));
  if (!path_like || (file.find(' ') != std::string_view::npos && file.front() != '<')) return false;
  std::string_view function = trim(line.substr(in + 4));
  if (function.empty() || !(is_ident_start(function[0]) || function[0] == '<')) return false;
  f.file = std::string(file);
  f.line = 0;
  f.function = std::string(function.substr(0, function.find('(')));
  return true;
}

// IPython's mark on the executing line of a source excerpt: `---> 12 ...`
// (a run of '-', then '>', then the line number). Its number, or -1;
// `source` is set to the line's text after the number.
int ipython_arrow(std::string_view line, std::string_view& source) {
  std::size_t i = 0;
  while (i < line.size() && line[i] == '-') ++i;
  if (i == 0 || i >= line.size() || line[i] != '>') return -1;
  ++i;
  while (i < line.size() && line[i] == ' ') ++i;
  std::size_t digits = 0;
  int n = read_line_number(line, i, digits);
  source = line.substr(i);
  return digits == 0 ? -1 : n;
}

// A line of an IPython source excerpt: its number right-aligned (so
// indented less than Python's four spaces past line 999), or `(...)` where
// lines are left out.
bool ipython_excerpt(std::string_view line) {
  std::string_view t = trim(line);
  if (t == "(...)") return true;
  std::size_t digits = 0;
  while (digits < t.size() && t[digits] >= '0' && t[digits] <= '9') ++digits;
  return digits > 0 && (digits == t.size() || t[digits] == ' ');
}

// rich's traceback (typer, pip and many CLIs print it): a box opened by
// `╭─── Traceback (most recent call last) ───╮` and closed by `╰───╯`, its
// lines `│ path.py:12 in f │` (a frame) or excerpts and locals, then the
// exception's line.
constexpr std::string_view k_box_top = "\u256d", k_box_bottom = "\u2570", k_box_side = "\u2502";

// The text inside a box line `│ text │` (its right side may be cut off).
std::string_view inside_box(std::string_view line) {
  std::string_view t = trim(line);
  t.remove_prefix(k_box_side.size());
  if (t.ends_with(k_box_side)) t.remove_suffix(k_box_side.size());
  return trim(t);
}

// Django's error report (the debug page's copy-and-paste view, its e-mails)
// ends its traceback with these lines.
constexpr std::string_view k_django_type = "Exception Type: ", k_django_value = "Exception Value: ";

// How AWS Lambda's Python runtime logs an error: `[ERROR] Class: message`,
// then the traceback's header and frames, with no exception line.
constexpr std::string_view k_lambda_error = "[ERROR] ";

// Whether `line` opens with text shaped as `prefix`: the same bytes but
// for a digit in place of a digit and a letter in place of a letter.
bool same_shape(std::string_view line, std::string_view prefix) {
  if (line.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    const char a = line[i], b = prefix[i];
    const bool digits = a >= '0' && a <= '9' && b >= '0' && b <= '9';
    const bool letters = ((a | 0x20) >= 'a' && (a | 0x20) <= 'z') && ((b | 0x20) >= 'a' && (b | 0x20) <= 'z');
    if (a != b && !digits && !letters) return false;
  }
  return true;
}

// What Python's logging prints after an exception when asked for the
// stack too (stack_info=True): the frames of the logging call, no error's.
constexpr std::string_view k_stack = "Stack (most recent call last):";
// What logging's handleError prints after the traceback of an error raised
// while logging (`--- Logging error ---`): the frames of the logging call.
constexpr std::string_view k_call_stack = "Call stack:";

// Whether `line` is no part of an error but of where it was copied from: a
// Markdown fence (```), a CI runner's or make's line on the step's failure
// (`##[error]Process completed with exit code 1.`, `make: *** [x] Error
// 1`), a prompt of Python's or IPython's REPL (`>>> `,
// `In [3]: `), or a shell's (`$ python x.py`, `user@host:~/p$ `, `(venv)
// C:\p> `, `PS C:\p> `, `% make`): a token ending in `$`, `%`, `#` or `>`
// at the start, alone or holding a path's or a host's characters (`@`,
// `:`, `~`, `/`, `\`) or a shell's name (`bash-5.2$ `), then a space or
// nothing; cmd.exe's `C:\p>` runs into the command. A message's own lines do
// not read so, and one that did would end the message early, not lose
// the site.
bool copied_around(std::string_view line) {
  std::size_t at = 0;
  while (at < line.size() && is_space(line[at])) ++at;
  std::string_view t = line.substr(at);
  if (t.starts_with("```") || t.starts_with("~~~")) return true;
  // What a CI runner or a build tool prints when the step fails.
  for (std::string_view runner : {"##[", "::error", "::endgroup", "Error: Process completed with exit code",
                                  "ERROR: Job failed", "Finished: FAILURE", "make: *** ", "make["})
    if (t.starts_with(runner)) return true;
  if (t.starts_with(">>>") && (t.size() == 3 || is_space(t[3]))) return true;
  if (t.starts_with("In [")) {
    std::size_t i = 4, digits = 0;
    read_line_number(t, i, digits);
    return digits > 0 && t.substr(i).starts_with("]:");
  }
  if (t.starts_with('(')) {  // a virtualenv's or conda's name
    const std::size_t close = t.find(") ");
    if (close == std::string_view::npos || close > 64) return false;
    t = t.substr(close + 2);
  }
  if (t.starts_with("PS ")) t.remove_prefix(3);
  // cmd.exe's prompt runs into the command: `C:\Users\me>python x.py`.
  if (t.size() >= 3 && ((t[0] | 0x20) >= 'a' && (t[0] | 0x20) <= 'z') && t[1] == ':' && t[2] == '\\')
    return t.find('>') != std::string_view::npos;
  const std::string_view token = t.substr(0, t.find(' '));
  if (token.empty() || token.size() > 256 || token[0] == '<') return false;  // `</div>` is markup
  const char end = token.back();
  if (end != '$' && end != '%' && end != '#' && end != '>') return false;
  if (token.size() == 1) return end == '$' || end == '%';  // `# x` is a comment, `> x` a quote
  const std::string_view body = token.substr(0, token.size() - 1);
  return body.find_first_of("@:~/\\") != std::string_view::npos || body.starts_with("bash-") || body.starts_with("sh-");
}

// IPython's header: `JSONDecodeError        Traceback (most recent call
// last)`, the class then the words Python prints, with no colon. Where the
// class starts, or npos.
std::size_t ipython_header(std::string_view line, std::size_t h) {
  if (!trim(line.substr(h + k_header.size() - 1)).empty()) return std::string_view::npos;
  std::string_view before = line.substr(0, h);
  std::size_t end = before.size();
  if (end == 0 || !is_space(before[end - 1])) return std::string_view::npos;
  while (end > 0 && is_space(before[end - 1])) --end;
  std::size_t start = before.find_first_not_of(" \t");
  if (start == std::string_view::npos || start >= end) return std::string_view::npos;
  ClassAt c;
  if (!class_at(before.substr(0, end), start, c) || !c.message.empty()) return std::string_view::npos;
  return start;
}

// pytest --tb=line prints an error as `path.py:12: Class: message`: the
// frame of exception `c`, found in `line`, when the line opens with one
// that ends where the class starts.
bool line_frame(std::string_view line, const ClassAt& c, Frame& f) {
  const std::size_t at = static_cast<std::size_t>(c.name.data() - line.data());
  if (at < 6 || line.substr(at - 2, 2) != ": ") return false;
  return parse_pytest_frame(line.substr(0, at), f) && f.function.empty();
}

// pytest's headings: `=== FAILURES ===` (`fill` '=') and a failure's
// `___ test_x ___` ('_'): the title between the runs, or "" for any other
// line (a ruler of '=' in a message is none).
std::string_view pytest_heading(std::string_view line, char fill) {
  if (line.size() < 8 || line[0] != fill || line.back() != fill) return {};
  const std::size_t a = line.find_first_not_of(fill), b = line.find_last_not_of(fill);
  if (a == std::string_view::npos || a < 3 || line[a] != ' ' || line[b] != ' ' || line.size() - b < 4) return {};
  return trim(line.substr(a, b - a));
}

bool is_caret_line(std::string_view line) {
  std::string_view t = trim(line);
  if (t.empty()) return false;
  return std::all_of(t.begin(), t.end(), [](char c) { return c == '^' || c == '~' || c == ' '; });
}

// Exception-group drawing: "  | ", "  + ", "  +-+---- 1 ----".
struct GroupLine {
  std::string_view text;
  bool separator = false;
};

GroupLine strip_group(std::string_view line) {
  std::size_t i = 0;
  while (true) {
    while (i < line.size() && line[i] == ' ') ++i;
    if (i < line.size() && line[i] == '|') {
      ++i;
      if (i < line.size() && line[i] == ' ') ++i;
      // Keep the frame indentation after the bar: it is the traceback's own.
      if (i < line.size() && line[i] != '|' && line[i] != '+') return {line.substr(i), false};
      continue;
    }
    if (i + 1 < line.size() && line[i] == '+' && line[i + 1] == '-') return {{}, true};
    if (i + 1 < line.size() && line[i] == '+' && line[i + 1] == ' ') {
      i += 2;
      continue;
    }
    return {line.substr(i), false};
  }
}

void append_line(std::string& message, std::string_view line) {
  message += '\n';
  message.append(line.data(), line.size());
}

void finish(ExceptionBlock& b) {
  std::string_view t = trim(b.message);
  if (t.size() != b.message.size()) b.message = std::string(t);
}

// Terminal control sequences (ECMA-48) left in copied text: colours
// (IPython, pytest --color=yes, Python 3.13), window titles. Appends
// `text` to `out` without them: CSI `ESC [ params intermediates final`;
// the strings OSC, DCS, SOS, PM and APC (`ESC ]`, `P`, `X`, `^`, `_`) up to
// BEL or `ESC \`, and never past the line's end (an unterminated one loses
// only the rest of its line); any other `ESC intermediates final`.
void strip_escapes(std::string_view text, std::string& out) {
  constexpr char k_esc = '\x1b';
  out.reserve(out.size() + text.size());
  std::size_t i = 0;
  const std::size_t n = text.size();
  auto in = [](char c, char lo, char hi) { return c >= lo && c <= hi; };
  while (i < n) {
    const std::size_t esc = text.find(k_esc, i);
    out.append(text.substr(i, esc == std::string_view::npos ? std::string_view::npos : esc - i));
    if (esc == std::string_view::npos) break;
    i = esc + 1;
    if (i >= n) break;
    const char kind = text[i];
    if (kind == '[') {
      ++i;
      while (i < n && in(text[i], 0x30, 0x3f)) ++i;
      while (i < n && in(text[i], 0x20, 0x2f)) ++i;
      if (i < n && in(text[i], 0x40, 0x7e)) ++i;
    } else if (kind == ']' || kind == 'P' || kind == 'X' || kind == '^' || kind == '_') {
      ++i;
      while (i < n && text[i] != '\a' && text[i] != '\n' && !(text[i] == k_esc && i + 1 < n && text[i + 1] == '\\')) ++i;
      if (i < n && text[i] == '\a') ++i;
      else if (i < n && text[i] == k_esc) i += 2;
    } else {
      while (i < n && in(text[i], 0x20, 0x2f)) ++i;
      if (i < n && in(text[i], 0x30, 0x7e)) ++i;
    }
  }
}

// What one pass over a pasted line tells: where its first '\n' is, and
// whether it may hold a traceback, chain or group marker (each has
// "Traceback" or "xception": the pass looks for "Tr" and "xc") or an ESC
// (a terminal control sequence): both rare, so one flag says either.
struct LineScan {
  std::size_t newline = std::string_view::npos;
  bool maybe_marker = false;
};

LineScan scan_line(std::string_view text) {
  LineScan out;
  const char* p = text.data();
  const std::size_t n = text.size();
  auto note = [&](std::size_t base, std::uint32_t nl, std::uint32_t pairs) {
    if (nl != 0 && out.newline == std::string_view::npos) out.newline = base + static_cast<std::size_t>(std::countr_zero(nl));
    out.maybe_marker |= pairs != 0;
  };
#if defined(__SSE2__)
  // 16 bytes at a time, with the byte after each (a pair may straddle two
  // groups); the last group is copied out, zero padded, so no read passes
  // the text.
  auto group = [&](const char* g, std::size_t base) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(g));
    const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(g + 1));
    auto eq = [](__m128i v, char ch) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(ch)); };
    const __m128i pair = _mm_or_si128(_mm_or_si128(_mm_and_si128(eq(c, 'T'), eq(next, 'r')), _mm_and_si128(eq(c, 'x'), eq(next, 'c'))),
                                      eq(c, '\x1b'));
    note(base, static_cast<std::uint32_t>(_mm_movemask_epi8(eq(c, '\n'))), static_cast<std::uint32_t>(_mm_movemask_epi8(pair)));
  };
  std::size_t at = 0;
  for (; at + 17 <= n; at += 16) {
    group(p + at, at);
    if (out.newline != std::string_view::npos) return out;
  }
  char tail[17] = {};  // n - at <= 16 here
  if (n > at) std::memcpy(tail, p + at, n - at);
  group(tail, at);
#else
  for (std::size_t i = 0; i < n; ++i) {
    note(i, p[i] == '\n', p[i] == '\x1b' || (i + 1 < n && ((p[i] == 'T' && p[i + 1] == 'r') || (p[i] == 'x' && p[i + 1] == 'c'))));
    if (out.newline != std::string_view::npos) return out;
  }
#endif
  return out;
}

// A traceback a log wrote inside a string, its newlines escaped: a JSON log
// line (python-json-logger's `"exc_info": "Traceback (most recent call
// last):\n  File \"...`, structlog's JSONRenderer, a log shipper's JSON), a
// Python repr (structlog's KeyValueRenderer: `exception='Traceback ...\n
// File "..."'`), logfmt (`exception="Traceback (most recent call last):`
// opening a quoted value over several lines, its quotes `\"`), or a log of
// one JSON object per line of text (Docker's json-file driver). Appends the
// string's text, escapes read back, to `out`: from its opening quote (the
// nearest one before the header on its line, not inside a word; the
// header itself when there is none) to its closing quote or the end of the
// text, then the string of each later line that opens as its line does.
// False, with `out` untouched, when the first header is not in a string.
bool escaped_traceback(std::string_view text, std::string& out) {
  const std::size_t h = text.find(k_header);
  if (h == std::string_view::npos) return false;
  const std::size_t after = h + k_header.size();
  auto unescaped = [&](std::size_t i) {  // text[i] follows an even run of backslashes
    std::size_t k = i;
    while (k > 0 && text[k - 1] == '\\') --k;
    return (i - k) % 2 == 0;
  };
  const std::size_t line_start = h == 0 ? 0 : text.rfind('\n', h - 1) + 1;  // npos + 1 == 0
  std::size_t open = std::string_view::npos;
  for (std::size_t i = h; i > line_start; --i) {
    const char c = text[i - 1];
    // An apostrophe inside a word (`can't`) opens nothing.
    if ((c == '"' || c == '\'') && unescaped(i - 1) && (i - 1 == line_start || !is_ident(text[i - 2]))) {
      open = i - 1;
      break;
    }
  }
  const bool escaped_newline = after < text.size() && text[after] == '\\';
  const bool quoted_value = open != std::string_view::npos && open + 1 == h &&
                            (after == text.size() || text[after] == '\n' || text[after] == '\r');
  if (!escaped_newline && !quoted_value) return false;
  const char quote = open == std::string_view::npos ? '\0' : text[open];
  // Where the string from `from` closes (its quote), or npos: to the end.
  auto string_end = [&](std::size_t from) {
    for (std::size_t k = from; quote != '\0' && k < text.size(); ++k) {
      if (text[k] == '\\') ++k;
      else if (text[k] == quote) return k;
    }
    return std::string_view::npos;
  };
  const std::size_t from = open == std::string_view::npos ? h : open + 1;
  const std::size_t end = string_end(from);
  const std::string_view body = text.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from);
  if (!escaped_newline) {
    // A value over several lines (logfmt) escapes its quotes and nothing
    // else: `\n` and `\\` in a source line of the traceback are as written.
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (body[i] == '\\' && i + 1 < body.size() && body[i + 1] == quote) ++i;
      out += body[i];
    }
    return true;
  }
  append_unescaped(body, out);
  if (end == std::string_view::npos) return true;
  // A log of one JSON object per line of text (Docker's json-file driver,
  // log shippers): each later line that opens as this one does, up to the
  // string, adds its string's text.
  const std::string_view lead = text.substr(line_start, from - line_start);
  for (std::size_t at = text.find('\n', end); at != std::string_view::npos;) {
    ++at;
    const std::size_t next = text.find('\n', at);
    const std::size_t line_end = next == std::string_view::npos ? text.size() : next;
    if (text.substr(at, line_end - at).starts_with(lead)) {
      if (!out.empty() && out.back() != '\n') out += '\n';
      const std::size_t e = std::min(string_end(at + lead.size()), line_end);
      append_unescaped(text.substr(at + lead.size(), e - at - lead.size()), out);
    }
    at = next;
  }
  return true;
}

// JSON longer than k_max_json, or nesting deeper than k_max_json_depth, is
// not read as such (an error tracker's event is far smaller and flatter),
// so no input makes the document's memory grow past a few times its size.
constexpr std::size_t k_max_json = 4u << 20;
constexpr int k_max_json_depth = 64;

// Whether JSON text nests no deeper than k_max_json_depth (strings skipped).
bool shallow_json(std::string_view json) {
  int depth = 0;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '"') {
      for (++i; i < json.size() && json[i] != '"'; ++i)
        if (json[i] == '\\') ++i;
    } else if (c == '[' || c == '{') {
      if (++depth > k_max_json_depth) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

// Whether `text` may hold an exception kept as JSON data: it names a key
// only such data has.
bool may_be_structured(std::string_view text) {
  for (std::string_view key : {"\"exc_type\"", "\"stacktrace\"", "\"errorType\"", "\"ename\""})
    if (text.find(key) != std::string_view::npos) return true;
  return false;
}

// How deep parse_traceback is inside a notebook output's traceback (its
// lines are parsed again, and they may hold JSON of their own).
thread_local int t_structured_depth = 0;

// An exception a log or an error tracker kept as JSON data rather than as
// text: structlog's dict_tracebacks (`"exception": [{"exc_type": ...,
// "exc_value": ..., "frames": [{"filename", "lineno", "name"}]}]`, the
// exception raised last first, then its causes), a Sentry event
// (`"exception": {"values": [{"module", "type", "value", "stacktrace":
// {"frames": [{"abs_path", "filename", "lineno", "function"}]}}]}`, oldest
// first), AWS Lambda's error result (`{"errorMessage", "errorType",
// "stackTrace": ["  File \"...\", line 5, in handler\n ..."]}`), and a
// Jupyter notebook's error output (`{"ename", "evalue", "traceback"}`).
// The JSON is the text from its first '{' to its last '}' (a log prefix
// before it is fine); the first object holding such an exception, at any
// depth, is read. False, with `out` untouched, when there is none.
bool structured_exceptions(std::string_view text, std::vector<ExceptionBlock>& out) {
  using Json = nlohmann::json;
  const std::size_t open = text.find('{'), close = text.rfind('}');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return false;
  const std::string_view json = text.substr(open, close - open + 1);
  if (json.size() > k_max_json || !shallow_json(json)) return false;
  const Json doc = Json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return false;
  auto string_at = [](const Json& o, const char* key) -> std::string {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto frames_of = [&](const Json* list, const char* file_key, const char* alt_file_key, const char* function_key) {
    std::vector<Frame> frames;
    if (list == nullptr || !list->is_array()) return frames;
    for (const Json& f : *list) {
      if (!f.is_object()) continue;
      Frame frame;
      frame.file = string_at(f, file_key);
      if (frame.file.empty() && alt_file_key) frame.file = string_at(f, alt_file_key);
      if (auto it = f.find("lineno"); it != f.end() && it->is_number_integer()) {
        const auto n = it->get<std::int64_t>();
        frame.line = n > 0 && n < (1 << 30) ? static_cast<int>(n) : 0;
      }
      frame.function = string_at(f, function_key);
      if (!frame.file.empty()) frames.push_back(std::move(frame));
    }
    return frames;
  };
  auto member = [](const Json& o, const char* key) -> const Json* {
    auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
  };
  // Depth first, with a stack of its own: any nesting is read in bounded stack.
  std::vector<const Json*> stack{&doc};
  while (!stack.empty()) {
    const Json& o = *stack.back();
    stack.pop_back();
    if (o.is_object()) {
      if (const Json* e = member(o, "exception")) {
        std::vector<ExceptionBlock> blocks;
        if (e->is_array()) {  // structlog
          for (const Json& x : *e) {
            if (!x.is_object() || !member(x, "exc_type")) continue;
            ExceptionBlock b{string_at(x, "exc_type"), string_at(x, "exc_value"),
                             frames_of(member(x, "frames"), "filename", nullptr, "name")};
            finish(b);
            blocks.insert(blocks.begin(), std::move(b));
          }
        } else if (const Json* values = e->is_object() ? member(*e, "values") : nullptr;
                   values && values->is_array()) {  // Sentry
          for (const Json& x : *values) {
            if (!x.is_object() || !member(x, "type")) continue;
            std::string module = string_at(x, "module");
            std::string type = string_at(x, "type");
            if (!module.empty() && module != "builtins" && type.find('.') == std::string::npos)
              type = module + "." + type;
            const Json* st = member(x, "stacktrace");
            const Json* frames = st && st->is_object() ? member(*st, "frames") : nullptr;
            ExceptionBlock b{std::move(type), string_at(x, "value"), frames_of(frames, "abs_path", "filename", "function")};
            finish(b);
            blocks.push_back(std::move(b));
          }
        }
        if (!blocks.empty()) {
          out = std::move(blocks);
          return true;
        }
      }
      // A Jupyter notebook's error output (nbformat): `{"output_type":
      // "error", "ename", "evalue", "traceback": [...]}`, the traceback's
      // lines as IPython formats them, in colour: its frames are read there.
      if (const Json* ename = member(o, "ename"); ename && ename->is_string() && member(o, "evalue")) {
        ExceptionBlock b{ename->get<std::string>(), string_at(o, "evalue"), {}};
        if (const Json* lines = member(o, "traceback"); lines && lines->is_array() && t_structured_depth < 2) {
          std::string joined;
          for (const Json& line : *lines)
            if (line.is_string()) joined.append(line.get_ref<const std::string&>()).push_back('\n');
          struct Depth {
            Depth() { ++t_structured_depth; }
            ~Depth() { --t_structured_depth; }
          } depth;
          Traceback inner = parse_traceback(joined);
          b.frames = std::move(inner.exceptions.back().frames);
        }
        finish(b);
        out.assign(1, std::move(b));
        return true;
      }
      // AWS Lambda's error result: its stackTrace holds Python's frames as
      // traceback.format_list prints them.
      if (const Json* type = member(o, "errorType"); type && type->is_string() && member(o, "errorMessage")) {
        ExceptionBlock b{type->get<std::string>(), string_at(o, "errorMessage"), {}};
        if (const Json* st = member(o, "stackTrace"); st && st->is_array())
          for (const Json& entry : *st) {
            if (!entry.is_string()) continue;
            const std::string& lines = entry.get_ref<const std::string&>();
            for (std::string_view line : util::split_lines(lines))
              if (Frame f; parse_frame(line, f)) b.frames.push_back(std::move(f));
          }
        finish(b);
        out.assign(1, std::move(b));
        return true;
      }
      for (const auto& [key, value] : o.items())
        if (value.is_structured()) stack.push_back(&value);
    } else if (o.is_array()) {
      for (const Json& value : o)
        if (value.is_structured()) stack.push_back(&value);
    }
  }
  return false;
}

}  // namespace

bool parse_single_line(std::string_view text, KnownClass known, LineException& out) {
  if (text.size() > k_max_input) return false;
  std::string_view line = text;
  const LineScan scan = scan_line(text);
  if (scan.newline != std::string_view::npos) {
    if (scan.newline + 1 != text.size()) return false;
    line.remove_suffix(1);
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() >= 2 && line[0] == 'E' && (line[1] == ' ' || line[1] == '\t')) return false;
  if (scan.maybe_marker) {
    for (std::string_view marker : {k_header, k_during, k_cause, std::string_view("Exception Group Traceback")})
      if (line.find(marker) != std::string_view::npos) return false;
    if (line.find('\x1b') != std::string_view::npos) return false;  // read by parse_traceback, which strips it
    // An exception kept as JSON data (its line is marked too: "exception",
    // "exc_type", "stackTrace" or IPython's header is in it).
    if (may_be_structured(line)) return false;
  }
  ClassAt c;
  if (find_exception(line, known, c)) {
    if (c.escaped) return false;  // its text is not the line's: parse_traceback makes it
    if (Frame f; c.name.data() != line.data() && line_frame(line, c, f)) return false;  // a frame too
    out = {c.name, c.message, c.last};
  } else {
    out = {{}, trim(text), {}};
  }
  return true;
}

std::string_view last_component(std::string_view dotted) {
  auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

Traceback parse_traceback(std::string_view text, KnownClass known) {
  Traceback tb;
  if (text.size() > k_max_input) {
    text = text.substr(text.size() - k_max_input);
    auto nl = text.find('\n');
    if (nl != std::string_view::npos) text.remove_prefix(nl + 1);
    tb.truncated = true;
  }
  std::string plain;
  if (text.find('\x1b') != std::string_view::npos) {
    strip_escapes(text, plain);
    text = plain;
  }
  if (LineException one; parse_single_line(text, known, one)) {
    tb.exceptions.push_back({std::string(one.error_class), std::string(one.message), {}});
    return tb;
  }
  // One parser per trace format: a JavaScript stack has its own.
  if (looks_like_js_stack(text)) {
    parse_js_stack(text, tb);
    return tb;
  }
  // A traceback logged inside a string is read as the string's text; a
  // string inside a string (JSON logged by a JSON log) a level at a time.
  std::string unescaped[2];
  for (int level = 0; level < 4; ++level) {
    std::string& next = unescaped[level % 2];
    next.clear();
    if (!escaped_traceback(text, next)) break;
    text = next;
  }
  if (may_be_structured(text) && structured_exceptions(text, tb.exceptions))
    return tb;
  const bool group_mode = text.find("Exception Group Traceback") != std::string_view::npos;
  // Python's header, or IPython's (the same words, no colon).
  const bool has_header = text.find(k_header.substr(0, k_header.size() - 1)) != std::string_view::npos;

  enum class State { none, frames, message };
  State state = State::none;
  bool frameless = false;  // the current block has no traceback header
  std::size_t col = 0;     // where the traceback's own column 0 is in each line
  // What stands before `col` on the line that set it: a message's later
  // lines lose their first `col` bytes only when those are shaped alike
  // (a log prefix on every line, its time changing).
  std::string_view col_prefix;
  auto set_col = [&](std::string_view l, std::size_t at) {
    col = at;
    col_prefix = l.substr(0, at);
  };
  bool ipython = false;    // the current block is IPython's (its own header)
  bool source_next = false;  // the next source line is the last frame's
  // multiprocessing and concurrent.futures print a worker's traceback as
  // the message of the exception they chain it to, between lines of `"""`:
  // the line before was one, and the traceback inside ends at the next.
  bool quote_before = false, in_quote = false;
  // A traceback copied without its header (its last frames and the
  // exception) starts at its first frame line. Such a block that no
  // exception line ends (logging's stack, traceback.print_stack) is let
  // go at the end; so are frames under logging's `Stack (most recent
  // call last):` and `Call stack:`, which are no exception's.
  std::vector<std::size_t> headerless;
  bool in_stack = false;
  bool in_box = false;     // inside rich's box of frames
  // Django's report: its `Exception Type:` line was read; then its value.
  enum class Django { none, type, value };
  Django django = Django::none;
  std::vector<ExceptionBlock>& blocks = tb.exceptions;

  // pytest: the last run of `E   ` lines, and the frames of its failure.
  std::vector<Frame> pytest_frames;
  std::vector<std::string_view> pytest_lines;  // after the `E`
  bool in_e_block = false;
  bool in_summary = false;  // in pytest's warnings or short summary
  // Where the last run of `E   ` lines and the last traceback header start
  // (line numbers from 1; 0 none): the one printed last is explained.
  std::size_t line_no = 0, last_e_block = 0, last_header = 0;

  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);

    // A whole pytest report: its `=== warnings summary ===` and `=== short
    // test summary info ===` sections name other exceptions (warnings read
    // `path.py:12: DeprecationWarning: ...`); `___ test_x ___` opens the
    // section of a failure, whose frames are its own.
    if (std::string_view title = pytest_heading(raw, '='); !title.empty()) {
      in_summary = title.starts_with("warnings summary") || title == "short test summary info";
      continue;
    }
    if (in_summary) continue;
    if (!pytest_heading(raw, '_').empty()) {
      pytest_frames.clear();
      continue;
    }

    // pytest's `E   ` lines and `path.py:12: in f` frames; Python prints
    // neither (its frames are indented), so they are read wherever they are.
    ++line_no;
    {
      Frame f;
      if (raw.size() >= 2 && raw[0] == 'E' && (raw[1] == ' ' || raw[1] == '\t')) {
        if (!in_e_block) {
          pytest_lines.clear();
          last_e_block = line_no;
        }
        in_e_block = true;
        pytest_lines.push_back(raw.substr(1));
        continue;
      }
      in_e_block = false;
      if (parse_pytest_frame(raw, f)) pytest_frames.push_back(std::move(f));
    }

    std::string_view line = raw;
    if (group_mode) {
      GroupLine g = strip_group(raw);
      if (g.separator) {
        if (!blocks.empty()) finish(blocks.back());
        state = State::none;
        continue;
      }
      line = g.text;
    }

    const bool after_quote = quote_before;
    quote_before = line.size() >= 3 && line.size() <= 8 && trim(line) == R"(""")";  // short lines only: cheap
    if (in_quote && quote_before) {
      if (!blocks.empty()) finish(blocks.back());
      state = State::none;
      in_quote = false;
      continue;
    }

    if (in_box) {
      std::string_view t = trim(line);
      if (t.starts_with(k_box_bottom)) {
        in_box = false;
        continue;
      }
      if (t.starts_with(k_box_side)) {
        // Frames only: excerpts, blank lines and the boxes of locals (a
        // value may read `x.py:3`) say nothing here.
        std::string_view in = inside_box(t);
        bool nested = in.starts_with(k_box_side) || in.starts_with(k_box_top) || in.starts_with(k_box_bottom);
        if (Frame f; !nested && parse_path_frame(in, f)) blocks.back().frames.push_back(std::move(f));
        continue;
      }
      in_box = false;  // a box cut short: read on as usual
    }

    auto h = has_header ? line.find(k_header.substr(0, k_header.size() - 1)) : std::string_view::npos;
    const bool python_header = h != std::string_view::npos && line.substr(h).starts_with(k_header);
    const bool rich_header = h != std::string_view::npos && !python_header && trim(line).starts_with(k_box_top);
    const std::size_t ipython_at =
        h != std::string_view::npos && !python_header && !rich_header ? ipython_header(line, h) : std::string_view::npos;
    if (python_header || rich_header || ipython_at != std::string_view::npos) {
      if (!blocks.empty()) finish(blocks.back());
      blocks.emplace_back();
      last_header = line_no;
      in_quote |= after_quote && python_header;
      source_next = false;
      if (python_header) {
        // "Exception Group Traceback": its own column is that of "Exception".
        auto eg = line.rfind("Exception Group ", h);
        set_col(line, (eg != std::string_view::npos && eg + 16 == h) ? eg : h);
      } else if (rich_header) {
        set_col(line, line.find(k_box_top));  // the box's left side
        in_box = true;
      } else {
        set_col(line, ipython_at);  // the class in the header starts the exception's line
      }
      ipython = ipython_at != std::string_view::npos;
      state = State::frames;
      frameless = false;
      continue;
    }
    if (line.size() >= k_during.size() &&
        (line.find(k_during) != std::string_view::npos || line.find(k_cause) != std::string_view::npos)) {
      if (!blocks.empty()) finish(blocks.back());
      state = State::none;
      continue;
    }

    switch (state) {
      case State::frames: {
        Frame f;
        if (parse_frame(line, f)) {
          std::vector<Frame>& frames = blocks.back().frames;
          if (frames.empty()) frames.reserve(8);
          frames.push_back(std::move(f));
          source_next = true;
          break;
        }
        // A prefix before the header that the lines after it do not repeat
        // (`>>> >>> Traceback ...` of a REPL fed by a pipe) is not theirs.
        std::string_view rest = !same_shape(line, col_prefix) ? line : line.size() > col ? line.substr(col) : std::string_view{};
        if (trim(rest).empty() || is_caret_line(rest)) break;
        if (rest_is_source(rest)) {
          // Django's report puts `<source code not available>` where the
          // file could not be read (a frozen module, a .pyc alone): no source.
          if (source_next && !blocks.back().frames.empty() && trim(rest) != "<source code not available>") {
            Frame& last = blocks.back().frames.back();
            last.reraise = raises_object(rest);
            last.source = trim(rest);
          }
          source_next = false;
          break;
        }
        if (trim(rest).substr(0, 22) == "[Previous line repeate") break;
        // IPython's frames (its SyntaxError layout has them under Python's
        // header too), the excerpt's marked line, hidden frames.
        if (parse_ipython_frame(rest.substr(std::min(rest.find_first_not_of(' '), rest.size())), f) ||
            (ipython && parse_ipython7_frame(rest, f))) {
          blocks.back().frames.push_back(std::move(f));
          break;
        }
        std::string_view source;
        if (int n = ipython ? ipython_arrow(rest, source) : -1; n >= 0) {
          std::vector<Frame>& frames = blocks.back().frames;
          if (!frames.empty() && frames.back().line == 0) frames.back().line = n;
          if (!frames.empty() && frames.back().line == n) {
            frames.back().reraise = raises_object(source);
            frames.back().source = trim(source);
          }
          break;
        }
        if (ipython && (ipython_excerpt(rest) || rest.starts_with("[... skipping"))) break;
        // Django's report chains inside one traceback: `The above
        // exception (message) was the direct cause of the following
        // exception:` or `During handling of the above exception
        // (message), another exception occurred:`. The frames so far are
        // the earlier exception's.
        if (rest.starts_with("The above exception (") || rest.starts_with("During handling of the above exception (")) {
          const std::size_t open = rest.find('(');
          const std::size_t close = rest.rfind(')');
          ExceptionBlock earlier;
          if (close != std::string_view::npos && close > open) earlier.message = std::string(trim(rest.substr(open + 1, close - open - 1)));
          earlier.frames = std::move(blocks.back().frames);
          blocks.back().frames.clear();
          blocks.insert(blocks.end() - 1, std::move(earlier));
          break;
        }
        ClassAt c;
        ExceptionBlock& b = blocks.back();
        if (rest.starts_with(k_django_type)) {
          // Django's report: `Exception Type: Class at /path`, then
          // `Exception Value: message`.
          std::string_view type = trim(rest.substr(k_django_type.size()));
          b.error_class = std::string(type.substr(0, type.find(" at ")));
          b.message.clear();
          django = Django::type;
        } else if (!headerless.empty() && headerless.back() + 1 == blocks.size()) {
          // Frames with no header: only a line that reads as an exception
          // ends them (`Message: 'x'` after logging's stack does not).
          if (find_exception(line, known, c)) {
            b.error_class = std::string(c.name);
            b.message = message_text(c);
            state = State::message;
          } else {
            state = State::none;
          }
          break;
        } else if (class_at(rest, 0, c) || find_exception(line, known, c)) {
          b.error_class = std::string(c.name);
          b.message = message_text(c);
        } else {
          b.message = std::string(trim(rest));
        }
        state = State::message;
        break;
      }
      case State::message: {
        std::string_view rest = line.size() > col && same_shape(line, col_prefix) ? line.substr(col) : line;
        if (django == Django::type && rest.starts_with(k_django_value)) {
          blocks.back().message = std::string(trim(rest.substr(k_django_value.size())));
          django = Django::value;
          break;
        }
        // What Django prints after the value (or in its place).
        if (django != Django::none && (rest == "Request data not supplied" || rest.starts_with("Request information:"))) {
          django = Django::none;
          finish(blocks.back());
          state = State::none;
          break;
        }
        // A blank line ends the message, and so does the stack that
        // logging prints after it with stack_info=True, or after an error
        // raised while logging, and what the text was copied from.
        const bool stack = rest.starts_with(k_stack) || (rest.starts_with(k_call_stack) && trim(rest) == k_call_stack);
        if (trim(line).empty() || stack || copied_around(rest)) {
          in_stack = stack;
          django = Django::none;
          finish(blocks.back());
          state = State::none;
          break;
        }
        ClassAt c;
        // A continuation line may read `word: text`; only a conventional
        // class name starts another exception, or any class after a
        // `path.py:12: ` frame (pytest --tb=line prints one per failure).
        Frame f;
        if (frameless && (find_exception(line, known, c, true) ||
                          (line.find(".py:") != std::string_view::npos && find_exception(line, known, c) &&
                           line_frame(line, c, f)))) {
          finish(blocks.back());
          blocks.push_back({std::string(c.name), message_text(c), {}});
          if (line_frame(line, c, f)) blocks.back().frames.push_back(std::move(f));
          set_col(line, static_cast<std::size_t>(c.name.data() - line.data()));
          break;
        }
        append_line(blocks.back().message, rest);
        break;
      }
      case State::none: {
        ClassAt c;
        // AWS Lambda's log names the class bare after `[ERROR] `, whatever it is.
        auto lambda_error = [&] {
          return line.starts_with(k_lambda_error) && class_at(line, k_lambda_error.size(), c) && !c.message.empty() &&
                 c.last[0] >= 'A' && c.last[0] <= 'Z';
        };
        if (std::string_view t = trim(line); t.starts_with(k_stack) || t == k_call_stack) {
          in_stack = true;
          break;
        }
        if (Frame f; line.find("  File \"") != std::string_view::npos && parse_frame(line, f)) {
          if (in_stack) break;
          headerless.push_back(blocks.size());
          blocks.emplace_back();
          blocks.back().frames.push_back(std::move(f));
          set_col(line, line.find("  File \""));
          state = State::frames;
          source_next = true;
          frameless = false;
          ipython = false;
          break;
        }
        if (rest_is_source(line)) break;  // a frame's source line: the frames go on
        in_stack = false;
        // `Error: Process completed with exit code 1.` names no exception.
        if ((find_exception(line, known, c) || lambda_error()) && !copied_around(line)) {
          blocks.push_back({std::string(c.name), message_text(c), {}});
          set_col(line, static_cast<std::size_t>(c.name.data() - line.data()));
          // pytest --tb=line: `path.py:12: Class: message`, its frame first.
          if (Frame f; line_frame(line, c, f)) blocks.back().frames.push_back(std::move(f));
          state = State::message;
          frameless = true;
        }
        break;
      }
    }
  }
  if (!blocks.empty()) finish(blocks.back());
  if (!headerless.empty()) {  // one pass: a text may hold a great many
    std::size_t kept = 0, h = 0;
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      bool empty_headerless = false;
      if (h < headerless.size() && headerless[h] == k) {
        ++h;
        empty_headerless = blocks[k].error_class.empty() && blocks[k].message.empty();
      }
      if (empty_headerless) continue;
      if (kept != k) blocks[kept] = std::move(blocks[k]);
      ++kept;
    }
    blocks.resize(kept);
  }

  if (!pytest_lines.empty() && last_e_block > last_header) {
    // pytest indents the block as deep as the failing source line; lines
    // after the first keep whatever indentation they have beyond that.
    std::size_t indent = 0;
    while (indent < pytest_lines[0].size() && pytest_lines[0][indent] == ' ') ++indent;
    std::string pytest_block;
    for (std::string_view l : pytest_lines) {
      std::size_t k = 0;
      while (k < indent && k < l.size() && l[k] == ' ') ++k;
      if (!pytest_block.empty()) pytest_block += '\n';
      pytest_block.append(l.substr(k));
    }
    ExceptionBlock b;
    std::string_view pb = pytest_block;
    auto first_nl = pb.find('\n');
    std::string_view first = pb.substr(0, first_nl);
    ClassAt c;
    if (class_at(first, 0, c) || find_exception(first, known, c)) {
      b.error_class = std::string(c.name);
      b.message = message_text(c);
      if (first_nl != std::string_view::npos) append_line(b.message, pb.substr(first_nl + 1));
    } else {
      b.message = std::string(pb);
    }
    finish(b);
    b.frames = std::move(pytest_frames);
    blocks.push_back(std::move(b));
  }

  // An exception's line printed before its traceback, which then ends with
  // no line of its own (AWS Lambda's log: `[ERROR] Class: message`, then
  // `Traceback (most recent call last):` and the frames): one exception.
  if (blocks.size() >= 2) {
    ExceptionBlock& tail = blocks.back();
    ExceptionBlock& head = blocks[blocks.size() - 2];
    if (tail.error_class.empty() && tail.message.empty() && !tail.frames.empty() && !head.error_class.empty() &&
        head.frames.empty()) {
      head.frames = std::move(tail.frames);
      blocks.pop_back();
    }
  }

  if (blocks.empty()) {
    ExceptionBlock b;
    b.message = std::string(trim(text));
    blocks.push_back(std::move(b));
  }
  return tb;
}

}  // namespace errdex::match
