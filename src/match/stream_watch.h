#pragma once
// Finds whole Python tracebacks in a stream of output lines, as a program
// prints them, for `errdex run` and `errdex explain`: the lines pass on
// unchanged, and each traceback is handed back once it is complete, so its
// explanation can be printed right under it.
#include <optional>
#include <string>
#include <string_view>

namespace errdex::match {

class StreamWatch {
 public:
  // One line as printed, without its newline. Returns a traceback that the
  // line shows is complete (the line itself is not part of it), else none.
  // A traceback ends at its exception line; a chained one ("During handling
  // of the above exception…", "The above exception was the direct cause…")
  // goes on through the blank lines and the chain's next traceback.
  std::optional<std::string> feed(std::string_view line);
  // At the end of the stream: the traceback still open, if any.
  std::optional<std::string> finish();

 private:
  enum class State { idle, frames, after_exception };
  State m_state = State::idle;
  std::string m_block;    // the traceback so far, lines joined by '\n'
  std::string m_pending;  // blank lines after an exception line, held
  bool m_chained = false; // the last line kept was a chain's "During handling…"
};

}  // namespace errdex::match
