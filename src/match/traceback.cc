#include "match/traceback.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
};

// A dotted name at exactly `pos`, followed by ": message", ":" or the end.
bool class_at(std::string_view line, std::size_t pos, ClassAt& out) {
  std::size_t i = pos;
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
  std::string_view name = line.substr(pos, i - pos);
  std::string_view rest = line.substr(i);
  std::string_view last_name = line.substr(last, i - last);
  if (trim(rest).empty()) {
    out = {name, {}, last_name};
    return true;
  }
  if (rest.front() != ':') return false;
  rest.remove_prefix(1);
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '\t') return false;
  out = {name, trim(rest), last_name};
  return true;
}

// The leftmost `Class: message` in a line with no traceback around it. The
// name must look like an exception class: by convention, or known to the
// caller; and stand after the line start, a blank or punctuation.
bool find_exception(std::string_view line, KnownClass known, ClassAt& out, bool conventional_only = false) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (!is_ident_start(line[i])) continue;
    if (i > 0) {
      char p = line[i - 1];
      if (is_ident(p) || p == '.') continue;
      if (!(is_space(p) || p == ':' || p == ']' || p == '>' || p == '|' || p == ')' || p == '-' || p == '(' ||
            p == '[' || p == '"' || p == '\''))
        continue;
    }
    ClassAt c;
    if (class_at(line, i, c)) {
      std::string_view last = c.last;
      bool dotted = last.size() != c.name.size();
      // The caller's table first: one lookup, where the convention is ten
      // suffix tests, and most pasted classes are known.
      if ((!conventional_only && known && (dotted || !c.message.empty() || i == 0) && known(last)) ||
          conventional_class(last)) {
        out = c;
        return true;
      }
    }
    // Skip the rest of this word: later starts inside it are not names.
    while (i + 1 < line.size() && (is_ident(line[i + 1]) || line[i + 1] == '.')) ++i;
  }
  return false;
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

// pytest: `path.py:12: in func` or `path.py:12: ValueError` at line start.
bool parse_pytest_frame(std::string_view line, Frame& f) {
  auto colon = line.find(".py:");
  if (colon == std::string_view::npos || colon == 0) return false;
  for (std::size_t k = 0; k < colon; ++k)
    if (is_space(line[k])) return false;
  std::size_t i = colon + 4;
  std::size_t digits = 0;
  int n = read_line_number(line, i, digits);
  if (digits == 0 || i >= line.size() || line[i] != ':') return false;
  f.file = std::string(line.substr(0, colon + 3));
  f.line = n;
  std::string_view rest = trim(line.substr(i + 1));
  f.function = rest.substr(0, 3) == "in " ? std::string(rest.substr(3)) : "";
  return true;
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

// What one pass over a pasted line tells: where its first '\n' is, and
// whether it may hold a traceback, chain or group marker (each has
// "Traceback" or "xception": the pass looks for "Tr" and "xc").
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
    const __m128i pair = _mm_or_si128(_mm_and_si128(eq(c, 'T'), eq(next, 'r')), _mm_and_si128(eq(c, 'x'), eq(next, 'c')));
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
    note(i, p[i] == '\n', i + 1 < n && ((p[i] == 'T' && p[i + 1] == 'r') || (p[i] == 'x' && p[i + 1] == 'c')));
    if (out.newline != std::string_view::npos) return out;
  }
#endif
  return out;
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
  if (scan.maybe_marker)
    for (std::string_view marker : {k_header, k_during, k_cause, std::string_view("Exception Group Traceback")})
      if (line.find(marker) != std::string_view::npos) return false;
  ClassAt c;
  if (find_exception(line, known, c)) out = {c.name, c.message, c.last};
  else out = {{}, trim(text), {}};
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
  if (LineException one; parse_single_line(text, known, one)) {
    tb.exceptions.push_back({std::string(one.error_class), std::string(one.message), {}});
    return tb;
  }
  const bool group_mode = text.find("Exception Group Traceback") != std::string_view::npos;
  const bool has_header = text.find(k_header) != std::string_view::npos;

  enum class State { none, frames, message };
  State state = State::none;
  bool frameless = false;  // the current block has no traceback header
  std::size_t col = 0;     // where the traceback's own column 0 is in each line
  std::vector<ExceptionBlock>& blocks = tb.exceptions;

  // pytest (no Python traceback printed): the last run of `E   ` lines.
  std::vector<Frame> pytest_frames;
  std::vector<std::string_view> pytest_lines;  // after the `E`
  bool in_e_block = false;

  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);

    if (!has_header) {
      Frame f;
      if (raw.size() >= 2 && raw[0] == 'E' && (raw[1] == ' ' || raw[1] == '\t')) {
        if (!in_e_block) pytest_lines.clear();
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

    auto h = line.find(k_header);
    if (h != std::string_view::npos) {
      if (!blocks.empty()) finish(blocks.back());
      blocks.emplace_back();
      // "Exception Group Traceback": its own column is that of "Exception".
      auto eg = line.rfind("Exception Group ", h);
      col = (eg != std::string_view::npos && eg + 16 == h) ? eg : h;
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
          break;
        }
        std::string_view rest = line.size() > col ? line.substr(col) : std::string_view{};
        if (trim(rest).empty() || is_caret_line(rest)) break;
        if (rest.substr(0, 4) == "    " || rest.substr(0, 1) == "\t") break;  // a source line
        if (trim(rest).substr(0, 22) == "[Previous line repeate") break;
        ClassAt c;
        ExceptionBlock& b = blocks.back();
        if (class_at(rest, 0, c) || find_exception(line, known, c)) {
          b.error_class = std::string(c.name);
          b.message = std::string(c.message);
        } else {
          b.message = std::string(trim(rest));
        }
        state = State::message;
        break;
      }
      case State::message: {
        std::string_view rest = line.size() > col ? line.substr(col) : line;
        if (trim(line).empty()) {
          finish(blocks.back());
          state = State::none;
          break;
        }
        ClassAt c;
        // A continuation line may read `word: text`; only a conventional
        // class name starts another exception.
        if (frameless && find_exception(line, known, c, true)) {
          finish(blocks.back());
          blocks.push_back({std::string(c.name), std::string(c.message), {}});
          break;
        }
        append_line(blocks.back().message, rest);
        break;
      }
      case State::none: {
        ClassAt c;
        if (find_exception(line, known, c)) {
          blocks.push_back({std::string(c.name), std::string(c.message), {}});
          col = static_cast<std::size_t>(c.name.data() - line.data());
          state = State::message;
          frameless = true;
        }
        break;
      }
    }
  }
  if (!blocks.empty()) finish(blocks.back());

  if (!has_header && !pytest_lines.empty()) {
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
      b.message = std::string(c.message);
      if (first_nl != std::string_view::npos) append_line(b.message, pb.substr(first_nl + 1));
    } else {
      b.message = std::string(pb);
    }
    finish(b);
    b.frames = std::move(pytest_frames);
    blocks.push_back(std::move(b));
  }

  if (blocks.empty()) {
    ExceptionBlock b;
    b.message = std::string(trim(text));
    blocks.push_back(std::move(b));
  }
  return tb;
}

}  // namespace errdex::match
