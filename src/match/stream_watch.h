#pragma once
// Finds whole Python tracebacks, JavaScript stack traces (V8, as Node
// prints an uncaught error or console.error(err) does) and pytest's
// failures in a stream of output lines, as a program prints them, for
// `errdex run` and `errdex explain`: the lines pass on unchanged, and each
// is handed back once it is complete, so its explanation can be printed
// right under it.
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace errdex::match {

class StreamWatch {
 public:
  // One line as printed, without its newline. Returns a traceback that the
  // line shows is complete (the line itself is not part of it), else none.
  // A traceback whose header follows other text (a log's time) is read in
  // the lines after it without text shaped the same (the time changes).
  // A traceback ends at its exception line, or after the lines that
  // continue its message (an indented line, and once one is, any line up
  // to a blank one); a chained one ("During handling
  // of the above exception…", "The above exception was the direct cause…")
  // goes on through the blank lines and the chain's next traceback.
  // pytest's report is read as pytest prints it: under `== FAILURES ==`
  // (or `== ERRORS ==`), each failure from its `___ test_name ___` line to
  // the next one, the end of the section or its captured output (in every
  // `--tb` style but `line`, where each line is a failure), then each
  // `FAILED …`/`ERROR …` line of the short test summary on its own
  // (pytest_summary_error says which blocks those are).
  std::optional<std::string> feed(std::string_view line);
  // At the end of the stream: the traceback still open, if any.
  std::optional<std::string> finish();

 private:
  enum class State { idle, frames, after_exception, js_message, js_frames, js_inspect, pytest_report, pytest_summary };
  // A line of pytest's report or summary; the failure it shows is whole.
  std::optional<std::string> feed_pytest(const std::string& line);
  // A line met while idle; false when it starts nothing.
  bool start(const std::string& line);
  State m_state = State::idle;
  // The last lines seen while idle: Node prints the throwing line
  // (file:line, its source, a caret, a blank line) above the error.
  std::deque<std::string> m_recent;
  int m_js_lines = 0;  // lines of a JavaScript error's message before its first frame
  std::string m_block;    // the traceback so far, lines joined by '\n'
  std::string m_pending;  // blank lines after an exception line, held
  std::string m_prefix;   // what stood before the traceback's header (a log's prefix), each line's too
  bool m_chained = false; // the last line kept was a chain's "During handling…"
  int m_continued = 0;    // lines of the exception's message after its first
  bool m_indented = false;  // one of them was indented: the message runs over lines
  bool m_failure = false;   // in pytest's report, a failure's `___ name ___` line was seen
  bool m_captured = false;  // in pytest's report, past the failure: its captured output
};

// The error a line of pytest's short test summary names (`FAILED
// t.py::test_x - ValueError: bad` gives `ValueError: bad`; pytest cuts it
// to the terminal's width, ending it in `...`), else "" (no such line).
std::string_view pytest_summary_error(std::string_view block);

}  // namespace errdex::match
