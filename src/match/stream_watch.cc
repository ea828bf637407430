#include "match/stream_watch.h"

#include <cctype>
#include <utility>

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

}  // namespace

std::optional<std::string> StreamWatch::feed(std::string_view raw) {
  const std::string line = plain(raw);
  auto append = [&](std::string_view l) {
    if (!m_block.empty()) m_block += '\n';
    m_block += l;
  };
  switch (m_state) {
    case State::idle:
      start(line);
      return std::nullopt;
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
      start(line);
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
  start(line);
  return done;
}

bool StreamWatch::start(const std::string& line) {
  if (starts_traceback(line)) {
    m_block = line;
    m_state = State::frames;
    m_recent.clear();
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
