// errdex explain and errdex run: the answer printed where the error is.
// Output passes through unchanged, byte for byte; under each Python
// traceback in it (and each failure of pytest's report), a few lines say where it was raised, the values its
// message holds, the first fix and the page.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "cli/store_url.h"
#include "match/chain_cause.h"
#include "match/matcher.h"
#include "match/path_suffix.h"
#include "match/result_json.h"
#include "match/stream_watch.h"
#include "store/store.h"
#include "util/process.h"
#include "web/url.h"

namespace errdex::cli {
namespace {

// Explains one traceback at a time. The store is opened and the matcher
// built at the first traceback: a run without errors costs nothing.
class Explainer {
 public:
  Explainer(std::string db, std::string base_url) : m_db(std::move(db)), m_base(std::move(base_url)) {
    while (!m_base.empty() && m_base.back() == '/') m_base.pop_back();
  }

  // The lines to print under `traceback`, each ending in '\n'; "" when no
  // throw site explains it. When no indexed raise explains the last
  // exception of a chain (the program's own `raise AppError(…) from e`),
  // the nearest exception up the chain that one explains is named too, as
  // its cause (match::match_cause, as `errdex match` does).
  // A line of pytest's short test summary repeats a failure its report
  // showed whole: it is answered only when no error of its class whose
  // message starts as its (cut) message was answered before from a report
  // (with `--tb=no` each line is answered: two failures, two answers).
  std::string explain(const std::string& traceback) {
    if (!ready()) return "";
    auto match = [&](std::string_view text) { return m_matcher->match(text, 3); };
    std::string_view summary = match::pytest_summary_error(traceback);
    std::string_view text = summary.empty() ? std::string_view(traceback) : summary;
    match::MatchResult res = match(text);
    std::string asserted;
    if (!summary.empty() && res.exception.error_class.empty() && !res.exception.message.empty()) {
      // pytest prints every error as `Class: message` but a failed
      // `assert`, whose class its rewriting strips.
      asserted = "AssertionError: " + std::string(summary);
      text = asserted;
      res = match(text);
    }
    const std::string cls = last_name(res.exception.error_class);
    std::string_view message = res.exception.message;
    const bool cut = !summary.empty() && message.ends_with("...");
    if (cut) message.remove_suffix(3);
    if (!summary.empty()) {
      // (`--tb=line` prints a failed `assert` as `path.py:12: assert x`,
      // read as a message without a class.)
      for (const auto& [c, m] : m_answered)
        if ((c == cls && std::string_view(m).starts_with(message)) || (c.empty() && std::string_view(m).ends_with(message)))
          return "";
      // Cut short, the message may fit a site it would not whole.
      if (cut && !match::explains(res)) return "";
    }
    if (summary.empty()) {
      // A long-running program prints errors without end: pytest's summary
      // repeats the failures of its own report, the last ones printed.
      if (m_answered.size() >= k_max_answered) m_answered.erase(m_answered.begin(), m_answered.begin() + k_max_answered / 2);
      m_answered.emplace_back(cls, std::string(message));
    }
    auto cause = match::match_cause(match, text, res);
    if (!cause) return answer(res);
    // An exception of a class no record raises has no line of its own
    // until then.
    return miss(res) + answer(cause->result, cause->direct ? "its cause, " : "it was raised while handling ");
  }

 private:
  // The class as the traceback prints it (its last name): the site's may
  // be a variable (`raise error`) or an alias (`nx.NodeNotFound`); else
  // the first candidate's.
  std::string shown_class(const match::MatchResult& res) const {
    std::string cls = last_name(res.exception.error_class);
    if (cls.empty() && !res.candidates.empty()) return m_records[res.candidates.front().index].error_class;
    return cls;
  }

  // That no indexed raise explains the exception, and where it was raised
  // when a frame says; "" when not even a class is known.
  std::string miss(const match::MatchResult& res, const std::string& lead = "") const {
    std::string cls = shown_class(res);
    if (cls.empty()) return "";
    std::string out = "errdex: " + lead + cls + " matches no raise statement errdex has indexed";
    if (!res.frames.empty()) {
      const match::ParsedFrame& f = res.frames.back();
      // The module path of an installed file (`markupsafe/__init__.py`),
      // else the file's name.
      auto parts = match::path_components(f.file);
      int from = match::module_start(parts, f.file.find('\\') != std::string::npos);
      if (from < 0) from = parts.empty() ? 0 : static_cast<int>(parts.size()) - 1;
      std::string file;
      for (std::size_t k = static_cast<std::size_t>(from); k < parts.size(); ++k)
        file += (file.empty() ? "" : "/") + std::string(parts[k]);
      out += "; it was raised at or below " + file + ":" + std::to_string(f.line) +
             ", in code with no record (a built-in, C code or a file not indexed)";
    }
    return out + "\n";
  }

  // The lines naming the site that explains `res` (match::explains), or
  // else that none does; `lead` goes before the class on the first line.
  // Only the class agreeing (`open()` raising FileNotFoundError under
  // pathlib) names no site: one of the file's other raises would mislead;
  // nor does only the message, of a site raising another class than the
  // printed one, no frame agreeing (a test's own `assert x == 2` and a
  // package's `raise Failure("assert %s" % …)`: match::unexplained).
  // Raised by C code under the innermost frame, a site printing the same
  // message elsewhere is not named either: its fix is another function's
  // (base64's `Incorrect padding` from binascii, and b32decode's raise).
  std::string answer(const match::MatchResult& res, const std::string& lead = "") {
    if (match::unexplained(res)) return miss(res, lead);
    const match::Candidate& best = res.candidates.front();
    const model::ErrorRecord& r = m_records[best.index];
    std::string out = "errdex: " + lead + shown_class(res) + " raised at " + r.file_path + ":" +
                      std::to_string(r.line_number) + " (" + r.repo;
    if (const std::string& rev = m_revision[best.index]; !rev.empty()) out += " " + rev;
    out += ")";
    if (res.ambiguous) {
      std::size_t tied = 0;
      for (const auto& c : res.candidates) tied += c.score == best.score;
      out += ", one of " + std::to_string(tied) + " sites raising this message";
    }
    out += "\n";
    for (const auto& [name, value] : match::shown_captures(best.captures))
      out += "errdex:   " + std::string(name) + " = " + std::string(value) + "\n";
    // The fix and the page come from the whole record.
    if (auto line = m_store->get(r.id); line && *line) {
      const model::ErrorRecord& full = (*line)->record;
      if (!full.solutions.empty()) out += "errdex:   fix: " + full.solutions.front() + "\n";
      out += "errdex:   " + m_base + web::record_page_path(full) + "\n";
    }
    return out;
  }

  bool ready() {
    if (m_tried) return m_matcher != nullptr;
    m_tried = true;
    auto st = open_store_for_read(m_db);
    if (!st) {
      std::fprintf(stderr, "errdex: cannot explain errors: %s\n", st.error().c_str());
      return false;
    }
    m_store = std::move(*st);
    // Every revision: the one the traceback's lines agree with is named.
    auto fields = store::match_fields_all(*m_store, std::nullopt);
    auto repos = m_store->repos();
    if (!fields || !repos) {
      std::fprintf(stderr, "errdex: cannot explain errors: %s\n", (!fields ? fields.error() : repos.error()).c_str());
      return false;
    }
    m_records = std::move(fields->records);
    std::vector<std::string> refs;
    for (std::uint32_t k : fields->revision_of) {
      const store::Revision& r = fields->revisions[k];
      m_revision.push_back(!r.ref.empty() ? r.ref : r.sha == std::string(40, '0') ? "" : r.sha.substr(0, 10));
      refs.push_back(r.ref);
    }
    m_matcher = std::make_unique<match::Matcher>(
        match::Matcher::build(m_records, store::import_roots(*repos), fields->preference, refs));
    return true;
  }

  static std::string last_name(std::string_view cls) {
    if (auto dot = cls.rfind('.'); dot != std::string_view::npos) cls.remove_prefix(dot + 1);
    return std::string(cls);
  }

  std::string m_db, m_base;
  bool m_tried = false;
  static constexpr std::size_t k_max_answered = 4096;
  // The errors answered so far (class, message) but pytest's summary lines.
  std::vector<std::pair<std::string, std::string>> m_answered;
  std::unique_ptr<store::Store> m_store;
  std::vector<model::ErrorRecord> m_records;
  std::vector<std::string> m_revision;  // by record: its revision's name
  std::unique_ptr<match::Matcher> m_matcher;
};

bool write_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// One output stream. Each line goes to the watch, then on to `out_fd`; when
// it shows a traceback whole, the explanation is written first, so it
// stands right under the traceback. The start of a line not yet ended (a
// prompt) passes on once nothing more came for k_partial_wait_ms: a line
// written in pieces (pytest's heading of the next failure, its newline
// after it) is seen whole before it passes, or the explanation would cut it.
constexpr int k_partial_wait_ms = 50;

struct Stream {
  int out_fd;
  int explain_fd;
  std::string partial;      // the line not yet ended
  std::size_t written = 0;  // of `partial`, the bytes already passed on
  match::StreamWatch watch;

  void take(const char* data, std::size_t n, Explainer& ex) {
    partial.append(data, n);
    std::size_t start = 0;
    for (std::size_t nl; (nl = partial.find('\n', start)) != std::string::npos; start = nl + 1) {
      if (auto tb = watch.feed(std::string_view(partial).substr(start, nl - start))) say(ex.explain(*tb));
      std::size_t from = std::max(start, written);
      write_all(out_fd, partial.data() + from, nl + 1 - from);
    }
    partial.erase(0, start);
    written = written > start ? written - start : 0;
    // A line longer than any traceback's is not one: keep memory bounded.
    if (partial.size() > (1u << 20)) {
      pass_partial();
      partial.clear();
      written = 0;
    }
  }
  // Whether part of a line waits to be passed on.
  bool holding() const { return partial.size() > written; }
  void pass_partial() {
    write_all(out_fd, partial.data() + written, partial.size() - written);
    written = partial.size();
  }
  void end(Explainer& ex) {
    // The last line, unended.
    if (!partial.empty())
      if (auto tb = watch.feed(partial)) say(ex.explain(*tb));
    pass_partial();
    partial.clear();
    written = 0;
    if (auto tb = watch.finish()) say(ex.explain(*tb));
  }
  void say(const std::string& text) {
    if (!text.empty()) write_all(explain_fd, text.data(), text.size());
  }
};

}  // namespace

int run_explain(const std::string& db, const std::string& base_url) {
  Explainer ex(db, base_url);
  Stream in{STDOUT_FILENO, STDOUT_FILENO, {}, 0, {}};
  char buf[65536];
  for (;;) {
    if (in.holding()) {
      pollfd fd{STDIN_FILENO, POLLIN, 0};
      if (poll(&fd, 1, k_partial_wait_ms) == 0) in.pass_partial();
    }
    ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    in.take(buf, static_cast<std::size_t>(n), ex);
  }
  in.end(ex);
  return 0;
}

int run_command(const std::string& db, const std::string& base_url, const std::vector<std::string>& command) {
  if (command.empty()) {
    std::cerr << "errdex run: no command (errdex run -- COMMAND [ARGS...])\n";
    return 2;
  }
  auto child = util::spawn_piped(command, true);
  if (!child) {
    std::cerr << "errdex run: " << child.error() << "\n";
    return 127;  // as a shell says "command not found"
  }
  // Ctrl-C on a terminal reaches the command too; errdex stays to pass on
  // what it prints while it stops, and to return its status.
  struct sigaction ignore {}, old_int{}, old_term{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGTERM, &ignore, &old_term);

  Explainer ex(db, base_url);
  Stream streams[2] = {{STDOUT_FILENO, STDOUT_FILENO, {}, 0, {}}, {STDERR_FILENO, STDERR_FILENO, {}, 0, {}}};
  pollfd fds[2] = {{child->out, POLLIN, 0}, {child->err, POLLIN, 0}};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    const bool holding = streams[0].holding() || streams[1].holding();
    const int ready = poll(fds, 2, holding ? k_partial_wait_ms : -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (ready == 0) {
      for (Stream& s : streams) s.pass_partial();
      continue;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        streams[i].end(ex);
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      streams[i].take(buf, static_cast<std::size_t>(n), ex);
    }
  }
  const int code = util::wait_exit(child->pid);
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  return code;
}

}  // namespace errdex::cli
