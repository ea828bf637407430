#include "match/stream_watch.h"

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
      if (starts_traceback(line)) {
        m_block = line;
        m_state = State::frames;
      }
      return std::nullopt;
    case State::frames:
      // Frames, their source lines and carets are indented (a group's too,
      // behind "|"); the first line that is not ends the frames: the
      // exception.
      append(line);
      if (!line.empty() && (line[0] == ' ' || line[0] == '\t')) return std::nullopt;
      if (blank(line)) return std::nullopt;
      m_state = State::after_exception;
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
      break;
  }
  // Anything else: the traceback before it is whole.
  std::string done = std::move(m_block);
  m_block.clear();
  m_pending.clear();
  m_chained = false;
  m_state = State::idle;
  if (starts_traceback(line)) {
    m_block = line;
    m_state = State::frames;
  }
  return done;
}

std::optional<std::string> StreamWatch::finish() {
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
