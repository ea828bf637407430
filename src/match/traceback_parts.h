#pragma once
// Internal to the traceback reader (traceback.h): what parse_traceback
// reads in one line of a pasted text, an exception (`Class: message`, a
// repr; traceback_exception.cc) or a frame in one of the layouts
// (traceback_frames.cc), and what a log kept of a traceback, inside an
// escaped string or as JSON data (traceback_logged.cc).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "match/traceback.h"

namespace errdex::match::traceback_detail {

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
inline bool is_space(char c) { return k_char_class[static_cast<unsigned char>(c)] & k_space; }
inline bool is_ident_start(char c) { return k_char_class[static_cast<unsigned char>(c)] & k_ident_start; }
inline bool is_ident(char c) { return k_char_class[static_cast<unsigned char>(c)] & k_ident; }

// Whether `line` opens with text shaped as `prefix`: the same bytes but
// for a digit in place of a digit and a letter in place of a letter (a
// log's prefix on every line, its time changing).
inline bool same_shape(std::string_view line, std::string_view prefix) {
  if (line.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    const char a = line[i], b = prefix[i];
    const bool digits = a >= '0' && a <= '9' && b >= '0' && b <= '9';
    const bool letters = ((a | 0x20) >= 'a' && (a | 0x20) <= 'z') && ((b | 0x20) >= 'a' && (b | 0x20) <= 'z');
    if (a != b && !digits && !letters) return false;
  }
  return true;
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_space(s.front()) || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\n')) s.remove_suffix(1);
  return s;
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
bool class_at(std::string_view line, std::size_t pos, ClassAt& out, std::size_t* name_end = nullptr);

// A found exception's message, as the text it stands for.
std::string message_text(const ClassAt& c);

// The text of a string literal's body as repr() or JSON escapes it: `\n`,
// `\'`, `\xNN`, `\uNNNN` and the rest read back (util::append_python_escape),
// and JSON's own `\/` and a character past U+FFFF as two `\uXXXX`;
// `\N{...}`, which neither writes, stays as written.
void append_unescaped(std::string_view body, std::string& out);

// The leftmost `Class: message` in a line with no traceback around it, or
// `Class('message')` as repr() prints one. The name must look like an
// exception class: by convention, or known to the caller (capitalised, for
// a repr), or else be dotted and capitalised; and stand after the line
// start, a blank, an escaped `\n` or punctuation ('=' too, for a repr).
bool find_exception(std::string_view line, KnownClass known, ClassAt& out, bool conventional_only = false);

// Decimal digits at `i` (advanced past them). A number too long for any
// file reads as line 0, unknown.
int read_line_number(std::string_view line, std::size_t& i, std::size_t& digits);

// `File "path", line N[, in func]` anywhere in the line.
bool parse_frame(std::string_view line, Frame& f);

// pytest: `path.py:12: in func` or `path.py:12: ValueError` at line start;
// a frozen module's frame is `<frozen os>:679: in __getitem__`.
bool parse_pytest_frame(std::string_view line, Frame& f);

// `PATH:LINE, in func(args)`, `PATH:LINE in func` or `PATH:LINE`: a frame as
// IPython (after `File `) and rich print it. A path may hold ':' (`C:\...`):
// the line number is after the first ':' followed by digits and then the
// end, ',' or ' in '.
bool parse_path_frame(std::string_view rest, Frame& f);

// IPython and Jupyter: `File PATH:LINE, in func(args)` (IPython 8; `File
// PATH:LINE in func` and `File PATH:LINE` in its SyntaxError layout),
// `Cell In[3], line 1` and `Input In [3], in <cell line: 1>()` for a cell,
// at the traceback's column.
bool parse_ipython_frame(std::string_view line, Frame& f);

// IPython 7: `PATH in func(args)` or `<ipython-input-3-...> in <module>`;
// the line is the one its source excerpt marks with `---->`.
bool parse_ipython7_frame(std::string_view line, Frame& f);

// IPython's mark on the executing line of a source excerpt: `---> 12 ...`
// (a run of '-', then '>', then the line number). Its number, or -1;
// `source` is set to the line's text after the number.
int ipython_arrow(std::string_view line, std::string_view& source);

// A line of an IPython source excerpt: its number right-aligned (so
// indented less than Python's four spaces past line 999), or `(...)` where
// lines are left out.
bool ipython_excerpt(std::string_view line);

// pytest --tb=line prints an error as `path.py:12: Class: message`: the
// frame of exception `c`, found in `line`, when the line opens with one
// that ends where the class starts.
bool line_frame(std::string_view line, const ClassAt& c, Frame& f);

// Whether a frame's source line raises an object made elsewhere: `raise`
// and an expression that is no call and starts in lower case (a variable,
// an attribute, an item: `raise exc`, `raise self._value`, `raise
// errors[0]`), or such an expression's `.with_traceback(...)`; `from ...`
// may follow. `raise ValueError` and `raise make_error(x)` make a new one.
bool raises_object(std::string_view source);

// Whether `line` reads as a frame's source line in Python's layout: four
// spaces (or a tab) and text.
bool rest_is_source(std::string_view line);

// `b` with its message's surrounding blanks trimmed (traceback.cc).
void finish(ExceptionBlock& b);

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
bool escaped_traceback(std::string_view text, std::string& out);

// Whether `text` may hold an exception kept as JSON data: it names a key
// only such data has.
bool may_be_structured(std::string_view text);

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
bool structured_exceptions(std::string_view text, std::vector<ExceptionBlock>& out);

}  // namespace errdex::match::traceback_detail
