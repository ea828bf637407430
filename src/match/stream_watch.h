#pragma once
// Finds whole Python tracebacks and JavaScript stack traces (V8, as Node
// prints an uncaught error or console.error(err) does) in a stream of
// output lines, as a program prints them, for `errdex run` and `errdex
// explain`: the lines pass on unchanged, and each is handed back once it is
// complete, so its explanation can be printed right under it.
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace errdex::match {

class StreamWatch {
 public:
  // One line as printed, without its newline. Returns a traceback that the
  // line shows is complete (the line itself is not part of it), else none.
  // A traceback ends at its exception line, or after the lines that
  // continue its message (an indented line, and once one is, any line up
  // to a blank one); a chained one ("During handling
  // of the above exception…", "The above exception was the direct cause…")
  // goes on through the blank lines and the chain's next traceback.
  std::optional<std::string> feed(std::string_view line);
  // At the end of the stream: the traceback still open, if any.
  std::optional<std::string> finish();

 private:
  enum class State { idle, frames, after_exception, js_message, js_frames, js_inspect };
  // A line met while idle; false when it starts nothing.
  bool start(const std::string& line);
  State m_state = State::idle;
  // The last lines seen while idle: Node prints the throwing line
  // (file:line, its source, a caret, a blank line) above the error.
  std::deque<std::string> m_recent;
  int m_js_lines = 0;  // lines of a JavaScript error's message before its first frame
  std::string m_block;    // the traceback so far, lines joined by '\n'
  std::string m_pending;  // blank lines after an exception line, held
  bool m_chained = false; // the last line kept was a chain's "During handling…"
  int m_continued = 0;    // lines of the exception's message after its first
  bool m_indented = false;  // one of them was indented: the message runs over lines
};

}  // namespace errdex::match
