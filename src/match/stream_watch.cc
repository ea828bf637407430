#include "match/stream_watch.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "match/traceback_parts.h"

namespace errdex::match {
namespace {

// The line without terminal colours and other escape sequences.
std::string plain(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b') {
      // CSI: ESC [ parameters final-byte.
      if (i + 1 < line.size() && line[i + 1] == '[') {
        i += 2;
        while (i < line.size() && !(line[i] >= '@' && line[i] <= '~')) ++i;
      }
      continue;
    }
    if (line[i] != '\r') out += line[i];
  }
  return out;
}

bool blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

bool starts_traceback(std::string_view s) {
  return s.find("Traceback (most recent call last):") != std::string_view::npos ||
         s.find("Exception Group Traceback (most recent call last):") != std::string_view::npos;
}

// A JavaScript error's first line as V8 prints it: `TypeError: msg`,
// `Error [ERR_X]: msg`, `Uncaught RangeError: msg` (a console), a class
// whose name ends in Error or Exception, or `Error` alone.
bool starts_js_error(std::string_view s) {
  if (s.starts_with("Uncaught ")) s.remove_prefix(9);
  std::size_t e = 0;
  while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_' || s[e] == '$' || s[e] == '.')) ++e;
  std::string_view name = s.substr(0, e);
  if (auto dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
  if (name.empty() || !std::isupper(static_cast<unsigned char>(name[0]))) return false;
  if (!name.ends_with("Error") && !name.ends_with("Exception")) return false;
  std::string_view rest = s.substr(e);
  return rest.empty() || rest.starts_with(": ") || rest == ":" || rest.starts_with(" [");
}

// A V8 frame: `    at fn (file:line:col)`.
bool js_frame(std::string_view s) {
  std::size_t i = s.find_first_not_of(" \t");
  return i != std::string_view::npos && i > 0 && s.substr(i).starts_with("at ");
}

// Node's header above an uncaught error: `file:line`, the source line, a
// caret line, a blank line.
bool node_header(const std::deque<std::string>& recent) {
  if (recent.size() < 4) return false;
  const std::string& where = recent[recent.size() - 4];
  const std::string& caret = recent[recent.size() - 2];
  auto colon = where.rfind(':');
  if (colon == std::string::npos || colon + 1 == where.size() ||
      where.find_first_not_of("0123456789", colon + 1) != std::string::npos)
    return false;
  auto c = caret.find_first_not_of(" \t");
  return c != std::string::npos && caret[c] == '^' && caret.find_first_not_of("^ \t", c) == std::string::npos &&
         blank(recent.back());
}

bool chains(std::string_view s) {
  return s.find("During handling of the above exception, another exception occurred:") != std::string_view::npos ||
         s.find("The above exception was the direct cause of the following exception:") != std::string_view::npos;
}

// pytest's rule of `ch` (`=`, `-`) around a title, `==== FAILURES ====`:
// the title ("" for a bare rule), else none.
std::optional<std::string_view> rule_title(std::string_view s, char ch) {
  if (s.size() < 3 || s.front() != ch || s.back() != ch) return std::nullopt;
  std::size_t a = s.find_first_not_of(ch), b = s.find_last_not_of(ch);
  if (a == std::string_view::npos) return std::string_view();
  if (s[a] != ' ' || s[b] != ' ' || b <= a) return std::nullopt;
  std::string_view title = s.substr(a + 1, b - a - 1);
  if (title.empty() || title.front() == ' ' || title.back() == ' ') return std::nullopt;
  return title;
}

// A failure's heading in pytest's report, `____ test_name ____` (its
// `_ _ _ _` lines between one failure's frames are none).
bool failure_heading(std::string_view s) {
  auto title = rule_title(s, '_');
  return title && !title->empty() && title->find_first_not_of("_ ") != std::string_view::npos;
}

// A line of pytest's short test summary other than a failure's.
bool summary_line(std::string_view s) {
  for (std::string_view w : {"PASSED ", "SKIPPED ", "XFAIL ", "XPASS ", "FAILED ", "ERROR "})
    if (s.starts_with(w)) return true;
  return false;
}

// The most of a failure kept (the matcher reads its end): `--showlocals`
// can print much.
constexpr std::size_t k_max_failure = 1u << 20;

}  // namespace

std::string_view pytest_summary_error(std::string_view block) {
  std::size_t i = block.starts_with("FAILED ") ? 7 : block.starts_with("ERROR ") ? 6 : 0;
  if (i == 0 || block.find('\n') != std::string_view::npos) return {};
  // The node id may hold spaces in a parameter's id, between brackets.
  int depth = 0;
  for (; i < block.size(); ++i) {
    if (block[i] == '[') ++depth;
    else if (block[i] == ']' && depth > 0) --depth;
    else if (block[i] == ' ' && depth == 0) break;
  }
  if (!block.substr(i).starts_with(" - ")) return {};
  return block.substr(i + 3);
}

std::optional<std::string> StreamWatch::feed_pytest(const std::string& line) {
  std::optional<std::string> done;
  auto flush = [&] {
    if (!m_block.empty()) done = std::exchange(m_block, std::string());
  };
  if (auto title = rule_title(line, '=')) {
    // A section of the report: each ends the one before.
    flush();
    m_failure = m_captured = false;
    m_state = *title == "FAILURES" || *title == "ERRORS"  ? State::pytest_report
              : *title == "short test summary info" ? State::pytest_summary
                                                    : State::idle;
    return done;
  }
  if (m_state == State::pytest_summary) {
    flush();
    if (!pytest_summary_error(line).empty()) m_block = line;
    else if (!summary_line(line) && !blank(line)) {
      // Not pytest's any more (it was stopped before its last line).
      m_state = State::idle;
      start(line);
    }
    return done;
  }
  if (failure_heading(line)) {
    flush();
    m_block = line;
    m_failure = true;
    m_captured = false;
    return done;
  }
  if (m_captured) return done;
  if (m_failure && rule_title(line, '-')) {
    // `--- Captured stdout call ---`: what the test printed, not its error.
    flush();
    m_captured = true;
    return done;
  }
  if (!m_failure) {
    // `--tb=line`: each line is one failure, `path.py:12: Class: message`.
    flush();
    if (!blank(line)) m_block = line;
    return done;
  }
  m_block += '\n';
  m_block += line;
  if (m_block.size() > k_max_failure) m_block.erase(0, m_block.size() - k_max_failure / 2);
  return done;
}

std::optional<std::string> StreamWatch::feed(std::string_view raw) {
  const std::string whole = plain(raw);
  // A traceback whose header followed a log's prefix (`docker logs -t`'s
  // time, on every line) is read without the prefix; the block keeps it.
  std::string_view line = whole;
  if (!m_prefix.empty() && (m_state == State::frames || m_state == State::after_exception) &&
      traceback_detail::same_shape(line, m_prefix))
    line.remove_prefix(m_prefix.size());
  auto append = [&](std::string_view) {
    if (!m_block.empty()) m_block += '\n';
    m_block += whole;
  };
  switch (m_state) {
    case State::idle:
      start(whole);
      return std::nullopt;
    case State::pytest_report:
    case State::pytest_summary:
      return feed_pytest(whole);
    case State::js_message:
      // The message may run over lines (assert's diffs); the first frame
      // makes it a stack. Without one soon, it was no error.
      if (js_frame(line)) {
        append(line);
        m_state = State::js_frames;
        return std::nullopt;
      }
      if (++m_js_lines <= 40 && !starts_traceback(line) && !starts_js_error(line)) {
        append(line);
        return std::nullopt;
      }
      m_block.clear();
      m_state = State::idle;
      start(whole);
      return std::nullopt;
    case State::js_frames:
      // Frames, a [cause]'s and an AggregateError's [errors] (indented),
      // and util.inspect's own properties after the last frame (` {` ...
      // `}`); the first other line ends the stack.
      if (js_frame(line) || (!blank(line) && (line[0] == ' ' || line[0] == '\t'))) {
        append(line);
        if (line.ends_with(" {") || line.ends_with("[")) m_state = State::js_inspect;
        return std::nullopt;
      }
      break;
    case State::js_inspect:
      append(line);
      if (line == "}" || line == "]" || (++m_js_lines > 200)) m_state = State::js_frames;
      return std::nullopt;
    case State::frames:
      // Frames, their source lines and carets are indented (a group's too,
      // behind "|"); the first line that is not ends the frames: the
      // exception.
      append(line);
      if (!line.empty() && (line[0] == ' ' || line[0] == '\t')) return std::nullopt;
      if (blank(line)) return std::nullopt;
      m_state = State::after_exception;
      m_continued = 0;
      m_indented = false;
      return std::nullopt;
    case State::after_exception:
      if (blank(line)) {
        m_pending += '\n';
        m_pending += line;
        return std::nullopt;
      }
      if (chains(line) || (m_chained && starts_traceback(line))) {
        // The same error goes on: the chain's next traceback. A traceback
        // with no such line before it is another error.
        m_block += m_pending;
        m_pending.clear();
        append(line);
        m_chained = chains(line);
        m_state = m_chained ? State::after_exception : State::frames;
        return std::nullopt;
      }
      if (m_pending.empty() && !m_chained && m_continued < 40 && !starts_traceback(line) && !starts_js_error(line)) {
        // The message goes on over lines: YAML's and Jinja's errors print
        // where in the input, indented, then more text. An indented line
        // continues it; once one has, so does any line up to a blank one.
        bool indented = line[0] == ' ' || line[0] == '\t';
        if (indented || m_indented) {
          append(line);
          ++m_continued;
          m_indented |= indented;
          return std::nullopt;
        }
      }
      break;
  }
  // Anything else: the traceback before it is whole.
  std::string done = std::move(m_block);
  m_block.clear();
  m_pending.clear();
  m_chained = false;
  m_state = State::idle;
  m_recent.clear();
  start(whole);
  return done;
}

bool StreamWatch::start(const std::string& line) {
  if (auto title = rule_title(line, '='); title && (*title == "FAILURES" || *title == "ERRORS" ||
                                                     *title == "short test summary info")) {
    m_block.clear();
    m_failure = m_captured = false;
    m_state = *title == "short test summary info" ? State::pytest_summary : State::pytest_report;
    m_recent.clear();
    return true;
  }
  if (starts_traceback(line)) {
    m_block = line;
    m_state = State::frames;
    m_recent.clear();
    const std::size_t at = std::min(line.find(traceback_detail::k_header), line.find("Exception Group Traceback"));
    m_prefix = line.substr(0, at);
    return true;
  }
  if (starts_js_error(line)) {
    m_block.clear();
    if (node_header(m_recent))
      for (std::size_t k = m_recent.size() - 4; k < m_recent.size(); ++k) m_block += m_recent[k] + '\n';
    m_block += line;
    m_state = State::js_message;
    m_js_lines = 0;
    m_recent.clear();
    return true;
  }
  m_recent.push_back(line);
  if (m_recent.size() > 4) m_recent.pop_front();
  return false;
}

std::optional<std::string> StreamWatch::finish() {
  m_recent.clear();
  if (m_state == State::pytest_report || m_state == State::pytest_summary) {
    m_state = State::idle;
    if (m_block.empty()) return std::nullopt;
    return std::exchange(m_block, std::string());
  }
  if (m_state == State::js_frames || m_state == State::js_inspect) {
    m_state = State::idle;
    return std::exchange(m_block, std::string());
  }
  if (m_state != State::after_exception) {
    m_state = State::idle;
    m_block.clear();
    return std::nullopt;
  }
  m_state = State::idle;
  m_pending.clear();
  m_chained = false;
  return std::exchange(m_block, std::string());
}

}  // namespace errdex::match
