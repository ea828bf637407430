#pragma once
// Reads a pasted Python error: plain and chained tracebacks, exception
// groups, SyntaxError layout, 3.11+ caret lines, pytest output (`E   `
// lines, `path.py:12: ` frames, --tb=line, a whole report: its last
// failure), IPython and Jupyter tracebacks (8's
// `File path:12, in f(...)` and `Cell In[3], line 1` frames, 7's `path in
// f(...)` with its `---->` line), rich's boxed traceback, Django's error
// report (`Exception Type:` and `Exception Value:` lines), multi-line
// messages, lines that carry a log prefix, exceptions a log prints by
// repr() (`raised unexpected: ValueError('x')`), and structured logs: a
// traceback inside a JSON string, a repr or a logfmt value (its escapes
// read back), an exception kept as JSON data (structlog's dict_tracebacks,
// a Sentry event, AWS Lambda's error result, a Jupyter notebook's error
// output), an exception alone as a quoted value, and a process pool's
// worker traceback printed between lines of `"""` as a message. Terminal colours
// and other control sequences are read through. Pure: text in, structure out;
// any bytes are accepted and time is linear in the input.
#include <string>
#include <string_view>
#include <vector>

namespace errdex::match {

struct Frame {
  std::string file;  // as printed
  int line = 0;
  std::string function;  // "" when not printed (SyntaxError, pytest)
  // The source line printed under it, trimmed; "" when none was printed.
  // Another version of the file may hold the statement on another line.
  std::string source;
  // Its source line raises an exception object made elsewhere (`raise
  // exc`, `raise self._value`): a Future or a pool handing a worker's
  // exception on. Read from Python's layout only.
  bool reraise = false;
  // pytest's last frame of a failure, `x.py:3: ValueError`: the line the
  // exception was raised on, naming the class where others name a function.
  bool raised_here = false;
  // What follows that frame's line number, as printed (the class).
  std::string raised_as;
};

struct ExceptionBlock {
  std::string error_class;  // as printed ("json.decoder.JSONDecodeError"); "" if none was seen
  std::string message;      // lines joined with '\n', trailing blanks trimmed
  std::vector<Frame> frames;  // outermost first
};

struct Traceback {
  // Every exception in the order printed. The last one is the exception to
  // explain (for a chain, the one raised last; for a group, its last
  // sub-exception). Never empty: text with no exception line becomes one
  // block whose message is the text itself (trimmed) and class is "".
  std::vector<ExceptionBlock> exceptions;
  bool truncated = false;  // only the last k_max_input bytes were read
};

// Inputs longer than this are read from their last part, where the
// exception is printed.
inline constexpr std::size_t k_max_input = 16u << 20;

// A borrowed question "is this bare name an exception class?": any
// callable taking a string_view, referred to (not copied) for the length
// of one call, so asking it costs no allocation. Empty: never asked.
class KnownClass {
 public:
  KnownClass() = default;
  template <class F>
  KnownClass(const F& f)  // NOLINT: implicit, as a function parameter
      : m_callable(&f), m_call([](const void* c, std::string_view name) { return static_cast<bool>((*static_cast<const F*>(c))(name)); }) {}
  explicit operator bool() const { return m_call != nullptr; }
  bool operator()(std::string_view name) const { return m_call(m_callable, name); }

 private:
  const void* m_callable = nullptr;
  bool (*m_call)(const void*, std::string_view) = nullptr;
};

// `known_class` is asked whether a bare name (last dotted component) is an
// exception class some record raises; it helps tell `Class: message` from
// `word: text` in lines with no traceback around them. May be empty.
Traceback parse_traceback(std::string_view text, KnownClass known_class = {});

// A single pasted line (what is pasted most), read as parse_traceback
// reads it but without building a Traceback: the class and message are
// views into `text`. False, with `out` untouched, for anything
// parse_traceback reads otherwise: more than one line, a traceback, chain
// or group marker, a pytest `E   ` line, or more than k_max_input bytes.
struct LineException {
  std::string_view error_class;  // "" when the line names none
  std::string_view message;      // the whole line (trimmed) when it names none
  std::string_view last_class;   // last_component(error_class)
};
bool parse_single_line(std::string_view text, KnownClass known, LineException& out);

// The last dotted component: "json.decoder.JSONDecodeError" -> "JSONDecodeError".
std::string_view last_component(std::string_view dotted);

}  // namespace errdex::match
