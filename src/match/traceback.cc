#include "match/traceback.h"

#include "match/js_stack.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "match/traceback_parts.h"
#include "util/text.h"

namespace errdex::match::traceback_detail {
namespace {

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

// A class as a frame prints it: `AssertionError`, `json.decoder.JSONDecodeError`.
bool dotted_name(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.' || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  for (char ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '.') return false;
  return true;
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

}  // namespace

void finish(ExceptionBlock& b) {
  std::string_view t = trim(b.message);
  if (t.size() != b.message.size()) b.message = std::string(t);
}

}  // namespace errdex::match::traceback_detail

namespace errdex::match {

using namespace traceback_detail;

namespace {

// Node's util.inspect puts an error's code after its name:
// `TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument …`,
// `FastifyError [FST_ERR_OPTIONS_NOT_OBJ]: Options must be an object`.
bool node_coded(std::string_view line, LineException& out) {
  std::size_t i = 0;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_' || line[i] == '$')) ++i;
  const std::string_view name = line.substr(0, i);
  if (!(name.ends_with("Error") || name.ends_with("Exception")) || !std::isupper(static_cast<unsigned char>(name[0])) ||
      line.substr(i, 2) != " [")
    return false;
  std::size_t k = i + 2;
  const std::size_t code_start = k;
  while (k < line.size() && (std::isupper(static_cast<unsigned char>(line[k])) || std::isdigit(static_cast<unsigned char>(line[k])) ||
                             line[k] == '_'))
    ++k;
  if (k == code_start || line.substr(k, 2) != "]:") return false;
  out = {name, trim(line.substr(k + 2)), name};
  return true;
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
  } else if (!node_coded(line, out)) {
    out = {{}, trim(text), {}};
  }
  return true;
}

std::string_view last_component(std::string_view dotted) {
  auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

namespace {

// Reads a Python text's lines into exception blocks, one line at a time
// (read_line), then settles what the lines left open (finish_text). The
// layouts it knows are listed in traceback.h; what each line means depends
// on where the reader is: in a block's frames, in its message, or between
// blocks.
class LineReader {
 public:
  LineReader(std::string_view text, KnownClass known, std::vector<ExceptionBlock>& blocks)
      : m_known(known),
        m_blocks(blocks),
        m_group_mode(text.find("Exception Group Traceback") != std::string_view::npos),
        // Python's header, or IPython's (the same words, no colon).
        m_has_header(text.find(k_header.substr(0, k_header.size() - 1)) != std::string_view::npos) {}

  // One line of the text, without its '\n' (a '\r' before it is dropped).
  void read_line(std::string_view raw) {
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    if (pytest_line(raw)) return;
    std::string_view line = raw;
    if (m_group_mode) {
      GroupLine g = strip_group(raw);
      if (g.separator) {
        end_block();
        return;
      }
      line = g.text;
    }
    const bool after_quote = m_quote_before;
    m_quote_before = line.size() >= 3 && line.size() <= 8 && trim(line) == R"(""")";  // short lines only: cheap
    if (m_in_quote && m_quote_before) {
      end_block();
      m_in_quote = false;
      return;
    }
    if (m_in_box && box_line(line)) return;
    if (header_line(line, after_quote)) return;
    if (line.size() >= k_during.size() &&
        (line.find(k_during) != std::string_view::npos || line.find(k_cause) != std::string_view::npos)) {
      end_block();
      m_intro_before = false;
      return;
    }
    switch (m_state) {
      case State::frames: frames_line(line); break;
      case State::message: message_line(line); break;
      case State::none: between_line(line); break;
    }
  }

  // After the last line: closes the last block, lets go of headerless
  // frames no exception line ended, adds pytest's exception when it was
  // printed last, and joins an exception's line printed before its
  // traceback to it.
  void finish_text() {
    if (!m_blocks.empty()) finish(m_blocks.back());
    drop_empty_headerless();
    add_pytest_block();
    // An exception's line printed before its traceback, which then ends with
    // no line of its own (AWS Lambda's log: `[ERROR] Class: message`, then
    // `Traceback (most recent call last):` and the frames): one exception.
    if (m_blocks.size() >= 2) {
      ExceptionBlock& tail = m_blocks.back();
      ExceptionBlock& head = m_blocks[m_blocks.size() - 2];
      if (tail.error_class.empty() && tail.message.empty() && !tail.frames.empty() && !head.error_class.empty() &&
          head.frames.empty()) {
        head.frames = std::move(tail.frames);
        m_blocks.pop_back();
      }
    }
  }

 private:
  enum class State { none, frames, message };
  // Django's report: its `Exception Type:` line was read; then its value.
  enum class Django { none, type, value };

  void set_col(std::string_view l, std::size_t at) {
    m_col = at;
    m_col_prefix = l.substr(0, at);
  }
  // The last block is over: its message is trimmed, and the lines after
  // it are between blocks.
  void end_block() {
    if (!m_blocks.empty()) finish(m_blocks.back());
    m_state = State::none;
  }

  // Whether the line is pytest's and read here: a whole pytest report's
  // headings and the summary sections under them, and the `E   ` lines and
  // `path.py:12: in f` frames of a failure. Python prints neither of the
  // last two (its frames are indented), so they are read wherever they
  // are; a frame is noted and the line still read as any other.
  bool pytest_line(std::string_view raw) {
    // A whole pytest report: its `=== warnings summary ===` and `=== short
    // test summary info ===` sections name other exceptions (warnings read
    // `path.py:12: DeprecationWarning: ...`); `___ test_x ___` opens the
    // section of a failure, whose frames are its own.
    if (std::string_view title = pytest_heading(raw, '='); !title.empty()) {
      m_in_summary = title.starts_with("warnings summary") || title == "short test summary info";
      return true;
    }
    if (m_in_summary) return true;
    if (!pytest_heading(raw, '_').empty()) {
      m_pytest_frames.clear();
      return true;
    }
    ++m_line_no;
    if (raw.size() >= 2 && raw[0] == 'E' && (raw[1] == ' ' || raw[1] == '\t')) {
      if (!m_in_e_block) {
        m_pytest_lines.clear();
        m_last_e_block = m_line_no;
      }
      m_in_e_block = true;
      m_pytest_lines.push_back(raw.substr(1));
      return true;
    }
    m_in_e_block = false;
    if (Frame f; parse_pytest_frame(raw, f)) m_pytest_frames.push_back(std::move(f));
    return false;
  }

  // Inside rich's box of frames: whether the line was read as the box's
  // (its frames, or its end). A line of no box ends it, unread.
  bool box_line(std::string_view line) {
    std::string_view t = trim(line);
    if (t.starts_with(k_box_bottom)) {
      m_in_box = false;
      return true;
    }
    if (t.starts_with(k_box_side)) {
      // Frames only: excerpts, blank lines and the boxes of locals (a
      // value may read `x.py:3`) say nothing here.
      std::string_view in = inside_box(t);
      bool nested = in.starts_with(k_box_side) || in.starts_with(k_box_top) || in.starts_with(k_box_bottom);
      if (Frame f; !nested && parse_path_frame(in, f)) m_blocks.back().frames.push_back(std::move(f));
      return true;
    }
    m_in_box = false;  // a box cut short: read on as usual
    return false;
  }

  // Whether the line is a traceback's header (Python's, rich's box top or
  // IPython's): it opens a block, whose frames follow, and sets the
  // traceback's own column.
  bool header_line(std::string_view line, bool after_quote) {
    auto h = m_has_header ? line.find(k_header.substr(0, k_header.size() - 1)) : std::string_view::npos;
    const bool python_header = h != std::string_view::npos && line.substr(h).starts_with(k_header);
    const bool rich_header = h != std::string_view::npos && !python_header && trim(line).starts_with(k_box_top);
    const std::size_t ipython_at =
        h != std::string_view::npos && !python_header && !rich_header ? ipython_header(line, h) : std::string_view::npos;
    if (!python_header && !rich_header && ipython_at == std::string_view::npos) return false;
    // Right after a traceback's frames, `pkg.BackendUnavailable: Traceback
    // (most recent call last):` is that exception's line: its message is
    // the traceback of another process (pip's build backend, a worker)
    // and the lines under it, not a traceback of this one.
    if (python_header && h > 0 && m_state == State::frames && !m_blocks.empty() && !m_blocks.back().frames.empty())
      if (ClassAt c; class_at(line, std::min(line.find_first_not_of(" \t"), h), c) && c.message.data() == line.data() + h)
        return false;
    if (!m_blocks.empty()) finish(m_blocks.back());
    m_blocks.emplace_back();
    m_blank_ended = false;
    m_intro_before = false;
    m_last_header = m_line_no;
    m_in_quote |= after_quote && python_header;
    m_source_next = false;
    if (python_header) {
      // "Exception Group Traceback": its own column is that of "Exception".
      auto eg = line.rfind("Exception Group ", h);
      set_col(line, (eg != std::string_view::npos && eg + 16 == h) ? eg : h);
    } else if (rich_header) {
      set_col(line, line.find(k_box_top));  // the box's left side
      m_in_box = true;
    } else {
      set_col(line, ipython_at);  // the class in the header starts the exception's line
    }
    m_ipython = ipython_at != std::string_view::npos;
    m_state = State::frames;
    m_frameless = false;
    return true;
  }

  // In a block's frames: a frame, a frame's source line, IPython's
  // excerpts, or the first line after them (the exception's, or the
  // earlier exception Django's report chains inside one traceback).
  void frames_line(std::string_view line) {
    Frame f;
    if (parse_frame(line, f)) {
      std::vector<Frame>& frames = m_blocks.back().frames;
      if (frames.empty()) frames.reserve(8);
      frames.push_back(std::move(f));
      m_source_next = true;
      return;
    }
    // A prefix before the header that the lines after it do not repeat
    // (`>>> >>> Traceback ...` of a REPL fed by a pipe) is not theirs.
    std::string_view rest = !same_shape(line, m_col_prefix) ? line : line.size() > m_col ? line.substr(m_col) : std::string_view{};
    if (trim(rest).empty() || is_caret_line(rest)) return;
    if (rest_is_source(rest)) {
      // Django's report puts `<source code not available>` where the
      // file could not be read (a frozen module, a .pyc alone): no source.
      if (m_source_next && !m_blocks.back().frames.empty() && trim(rest) != "<source code not available>") {
        Frame& last = m_blocks.back().frames.back();
        last.reraise = raises_object(rest);
        last.source = trim(rest);
      }
      m_source_next = false;
      return;
    }
    if (trim(rest).substr(0, 22) == "[Previous line repeate") return;
    // IPython's frames (its SyntaxError layout has them under Python's
    // header too), the excerpt's marked line, hidden frames.
    if (parse_ipython_frame(rest.substr(std::min(rest.find_first_not_of(' '), rest.size())), f) ||
        (m_ipython && parse_ipython7_frame(rest, f))) {
      m_blocks.back().frames.push_back(std::move(f));
      return;
    }
    std::string_view source;
    if (int n = m_ipython ? ipython_arrow(rest, source) : -1; n >= 0) {
      std::vector<Frame>& frames = m_blocks.back().frames;
      if (!frames.empty() && frames.back().line == 0) frames.back().line = n;
      if (!frames.empty() && frames.back().line == n) {
        frames.back().reraise = raises_object(source);
        frames.back().source = trim(source);
      }
      return;
    }
    if (m_ipython && (ipython_excerpt(rest) || rest.starts_with("[... skipping"))) return;
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
      earlier.frames = std::move(m_blocks.back().frames);
      m_blocks.back().frames.clear();
      m_blocks.insert(m_blocks.end() - 1, std::move(earlier));
      return;
    }
    exception_after_frames(line, rest);
  }

  // The first line after a block's frames that is none of theirs: its
  // exception's class and message (`rest` is the line from the
  // traceback's column).
  void exception_after_frames(std::string_view line, std::string_view rest) {
    ClassAt c;
    ExceptionBlock& b = m_blocks.back();
    if (rest.starts_with(k_django_type)) {
      // Django's report: `Exception Type: Class at /path`, then
      // `Exception Value: message`.
      std::string_view type = trim(rest.substr(k_django_type.size()));
      b.error_class = std::string(type.substr(0, type.find(" at ")));
      b.message.clear();
      m_django = Django::type;
    } else if (!m_headerless.empty() && m_headerless.back() + 1 == m_blocks.size()) {
      // Frames with no header: only a line that reads as an exception
      // ends them (`Message: 'x'` after logging's stack does not).
      if (find_exception(line, m_known, c)) {
        b.error_class = std::string(c.name);
        b.message = message_text(c);
        m_state = State::message;
      } else {
        m_state = State::none;
      }
      return;
    } else if (class_at(rest, 0, c) || find_exception(line, m_known, c)) {
      b.error_class = std::string(c.name);
      b.message = message_text(c);
    } else {
      b.message = std::string(trim(rest));
    }
    m_state = State::message;
  }

  // In an exception's message: another line of it, the line that ends it
  // (a blank one, a stack logging prints, what the text was copied from,
  // Django's next section), or another exception's line.
  void message_line(std::string_view line) {
    std::string_view rest = line.size() > m_col && same_shape(line, m_col_prefix) ? line.substr(m_col) : line;
    if (m_django == Django::type && rest.starts_with(k_django_value)) {
      m_blocks.back().message = std::string(trim(rest.substr(k_django_value.size())));
      m_django = Django::value;
      return;
    }
    // What Django prints after the value (or in its place).
    if (m_django != Django::none && (rest == "Request data not supplied" || rest.starts_with("Request information:"))) {
      m_django = Django::none;
      end_block();
      return;
    }
    // A blank line ends the message, and so does the stack that
    // logging prints after it with stack_info=True, or after an error
    // raised while logging, and what the text was copied from.
    const bool stack = rest.starts_with(k_stack) || (rest.starts_with(k_call_stack) && trim(rest) == k_call_stack);
    if (trim(line).empty() || stack || copied_around(rest)) {
      m_blank_ended = trim(line).empty();
      m_intro_before = m_blank_ended && trim(m_blocks.back().message).ends_with(':');
      m_in_stack = stack;
      m_django = Django::none;
      end_block();
      return;
    }
    ClassAt c;
    // A continuation line may read `word: text`; only a conventional
    // class name starts another exception, or any class after a
    // `path.py:12: ` frame (pytest --tb=line prints one per failure).
    Frame f;
    // A message line ending in `:` introduces what follows (`failed,
    // because of exception being raised:` then `SyntaxError: ...`): the
    // same message goes on.
    const std::string_view so_far = trim(m_blocks.back().message);
    if (m_frameless && !so_far.empty() && so_far.back() == ':') {
      append_line(m_blocks.back().message, rest);
      return;
    }
    // Nor does one in parentheses: `(UnicodeDecodeError: 'ascii' codec
    // …)` under docutils' message quotes the error it caught.
    auto in_parentheses = [&] { return c.name.data() > line.data() && c.name.data()[-1] == '('; };
    if (m_frameless && ((find_exception(line, m_known, c, true) && !in_parentheses()) ||
                        (line.find(".py:") != std::string_view::npos && find_exception(line, m_known, c) &&
                         line_frame(line, c, f)))) {
      finish(m_blocks.back());
      m_blocks.push_back({std::string(c.name), message_text(c), {}});
      if (line_frame(line, c, f)) m_blocks.back().frames.push_back(std::move(f));
      set_col(line, static_cast<std::size_t>(c.name.data() - line.data()));
      return;
    }
    append_line(m_blocks.back().message, rest);
  }

  // Between blocks: a frame with no header before it (a traceback copied
  // from its last frames), logging's stack, or an exception's line with
  // no traceback (a log's, pytest --tb=line's, AWS Lambda's).
  void between_line(std::string_view line) {
    ClassAt c;
    // AWS Lambda's log names the class bare after `[ERROR] `, whatever it is.
    auto lambda_error = [&] {
      return line.starts_with(k_lambda_error) && class_at(line, k_lambda_error.size(), c) && !c.message.empty() &&
             c.last[0] >= 'A' && c.last[0] <= 'Z';
    };
    if (std::string_view t = trim(line); t.starts_with(k_stack) || t == k_call_stack) {
      m_in_stack = true;
      return;
    }
    if (Frame f; line.find("  File \"") != std::string_view::npos && parse_frame(line, f)) {
      if (m_in_stack) return;
      m_headerless.push_back(m_blocks.size());
      m_blocks.emplace_back();
      m_blocks.back().frames.push_back(std::move(f));
      set_col(line, line.find("  File \""));
      m_state = State::frames;
      m_source_next = true;
      m_frameless = false;
      m_ipython = false;
      return;
    }
    if (rest_is_source(line)) return;  // a frame's source line: the frames go on
    m_in_stack = false;
    const bool after_blank = std::exchange(m_blank_ended, false) && !trim(line).empty();
    if (trim(line).empty()) m_blank_ended = true;
    const bool after_intro = !trim(line).empty() && std::exchange(m_intro_before, false);
    // `Error: Process completed with exit code 1.` names no exception.
    if (!(find_exception(line, m_known, c) || lambda_error()) || copied_around(line)) {
      if (!trim(line).empty()) m_intro_before = trim(line).ends_with(':');
      return;
    }
    // A message may hold blank lines and quote another exception after a
    // line that introduces it (werkzeug's ImportStringError: `Original
    // exception:`, a blank line, `ImportError: module 'os' has no
    // attribute 'x'`): with no chain separator since the framed block,
    // that line is its message going on, not another exception.
    if (after_intro && !m_blocks.empty() && !m_blocks.back().frames.empty()) return;
    // A message may hold blank lines: after one, `error: invalid
    // command 'x'` (a usage text's last line, under SystemExit) goes
    // on with it. A bare name in lower case is a word of the text
    // there; a dotted one (`re.error`) or a capitalised class still
    // starts another exception.
    if (after_blank && !m_blocks.empty() && c.name.find('.') == std::string_view::npos &&
        std::islower(static_cast<unsigned char>(c.name[0]))) {
      append_line(m_blocks.back().message, "");
      append_line(m_blocks.back().message, trim(line));
      m_state = State::message;
      return;
    }
    m_blocks.push_back({std::string(c.name), message_text(c), {}});
    set_col(line, static_cast<std::size_t>(c.name.data() - line.data()));
    // pytest --tb=line: `path.py:12: Class: message`, its frame first.
    if (Frame f; line_frame(line, c, f)) m_blocks.back().frames.push_back(std::move(f));
    m_state = State::message;
    m_frameless = true;
  }

  // Blocks opened by frames with no header that no exception line ended
  // (logging's stack, traceback.print_stack) are let go, in one pass: a
  // text may hold a great many.
  void drop_empty_headerless() {
    if (m_headerless.empty()) return;
    std::size_t kept = 0, h = 0;
    for (std::size_t k = 0; k < m_blocks.size(); ++k) {
      bool empty_headerless = false;
      if (h < m_headerless.size() && m_headerless[h] == k) {
        ++h;
        empty_headerless = m_blocks[k].error_class.empty() && m_blocks[k].message.empty();
      }
      if (empty_headerless) continue;
      if (kept != k) m_blocks[kept] = std::move(m_blocks[k]);
      ++kept;
    }
    m_blocks.resize(kept);
  }

  // pytest's last run of `E   ` lines, when printed after the last
  // traceback header: the exception explained, with its failure's frames.
  void add_pytest_block() {
    if (m_pytest_lines.empty() || m_last_e_block <= m_last_header) return;
    // pytest indents the block as deep as the failing source line; lines
    // after the first keep whatever indentation they have beyond that.
    std::size_t indent = 0;
    while (indent < m_pytest_lines[0].size() && m_pytest_lines[0][indent] == ' ') ++indent;
    std::string pytest_block;
    for (std::string_view l : m_pytest_lines) {
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
    if (class_at(first, 0, c) || find_exception(first, m_known, c)) {
      b.error_class = std::string(c.name);
      b.message = message_text(c);
      if (first_nl != std::string_view::npos) append_line(b.message, pb.substr(first_nl + 1));
    } else {
      b.message = std::string(pb);
      // pytest prints every exception as `Class: message` but a failed
      // `assert`'s, which its rewriting strips of `AssertionError: ` (`E
      // assert 1 == 2`); the raising frame names the class in the long
      // style (`test_x.py:9: AssertionError`), the short one not at all.
      const bool named = !m_pytest_frames.empty() && m_pytest_frames.back().raised_here &&
                         dotted_name(m_pytest_frames.back().raised_as);
      b.error_class = named ? m_pytest_frames.back().raised_as : "AssertionError";
    }
    finish(b);
    b.frames = std::move(m_pytest_frames);
    m_blocks.push_back(std::move(b));
  }

  const KnownClass m_known;
  std::vector<ExceptionBlock>& m_blocks;
  const bool m_group_mode;  // an exception group's drawing is read through
  const bool m_has_header;  // the text holds a traceback header somewhere
  State m_state = State::none;
  bool m_frameless = false;  // the current block has no traceback header
  std::size_t m_col = 0;     // where the traceback's own column 0 is in each line
  // What stands before `m_col` on the line that set it: a message's later
  // lines lose their first `m_col` bytes only when those are shaped alike
  // (a log prefix on every line, its time changing).
  std::string_view m_col_prefix;
  bool m_ipython = false;      // the current block is IPython's (its own header)
  bool m_source_next = false;  // the next source line is the last frame's
  // multiprocessing and concurrent.futures print a worker's traceback as
  // the message of the exception they chain it to, between lines of `"""`:
  // the line before was one, and the traceback inside ends at the next.
  bool m_quote_before = false, m_in_quote = false;
  // A traceback copied without its header (its last frames and the
  // exception) starts at its first frame line: the blocks so opened. Such
  // a block that no exception line ends (logging's stack,
  // traceback.print_stack) is let go at the end; so are frames under
  // logging's `Stack (most recent call last):` and `Call stack:`
  // (m_in_stack), which are no exception's.
  std::vector<std::size_t> m_headerless;
  bool m_in_stack = false;
  // A blank line ended the last exception's message, nothing but blank
  // lines since.
  bool m_blank_ended = false;
  // The last line between blocks with text ended in `:` (blank lines
  // after it aside): it introduces what follows.
  bool m_intro_before = false;
  bool m_in_box = false;  // inside rich's box of frames
  Django m_django = Django::none;
  // pytest: the last run of `E   ` lines, and the frames of its failure.
  std::vector<Frame> m_pytest_frames;
  std::vector<std::string_view> m_pytest_lines;  // after the `E`
  bool m_in_e_block = false;
  bool m_in_summary = false;  // in pytest's warnings or short summary
  // Where the last run of `E   ` lines and the last traceback header start
  // (line numbers from 1; 0 none): the one printed last is explained.
  std::size_t m_line_no = 0, m_last_e_block = 0, m_last_header = 0;
};

}  // namespace

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
  LineReader reader(text, known, tb.exceptions);
  for (std::size_t pos = 0; pos <= text.size();) {
    auto nl = text.find('\n', pos);
    reader.read_line(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
  }
  reader.finish_text();
  if (tb.exceptions.empty()) {
    ExceptionBlock b;
    b.message = std::string(trim(text));
    tb.exceptions.push_back(std::move(b));
  }
  return tb;
}

}  // namespace errdex::match
