// Feeds arbitrary bytes to the matcher, as pasted text against a fixed
// index and, split on the first NUL, as patterns of an index built from the
// input itself. Checks the result's contract: candidates best first, ties
// flagged, indexes in range, one capture per group.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "match/matcher.h"

namespace {

using errdex::match::Matcher;
using errdex::match::MatchResult;
using errdex::model::ErrorRecord;

ErrorRecord rec(std::string cls, std::string message, std::string pattern, std::string file, int line) {
  ErrorRecord r;
  r.id = std::to_string(line);
  r.error_class = std::move(cls);
  r.error_message = std::move(message);
  r.message_pattern = std::move(pattern);
  r.file_path = std::move(file);
  r.line_number = line;
  r.source_code = "    raise X('" + r.error_message + "')";
  r.source_code_start = line;
  return r;
}

const Matcher& fixed() {
  static const Matcher m = Matcher::build({
      rec("ValueError", "bad value {x}", "bad value (.+?)", "pkg/a.py", 1),
      rec("KeyError", "{key}", "(.+?)", "pkg/b.py", 2),
      rec("StopIteration", "", "", "pkg/c.py", 3),
      rec("TypeError", "expected {n} got {m}", "expected (-?\\d+) got (-?\\d+)", "src/pkg/d.py", 4),
      rec("error", "missing ), unterminated", "missing \\), unterminated", "re/_parser.py", 5),
      rec("RuntimeError", "broken (", "broken (", "pkg/e.py", 6),
      rec("OSError", "{a}: {b}", "(.+?): (.+?)", "pkg/f.py", 7),
  });
  return m;
}

void check(const Matcher& m, const MatchResult& r, std::size_t records) {
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    const auto& c = r.candidates[i];
    if (c.index >= records) std::abort();
    if (i > 0 && c.score > r.candidates[i - 1].score) std::abort();
  }
  bool tie = r.candidates.size() > 1 && r.candidates[0].score == r.candidates[1].score;
  if (tie != r.ambiguous) std::abort();
  if (m.size() != records) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const Matcher& m = fixed();
  check(m, m.match(in, 3), m.size());

  auto nul = in.find('\0');
  if (nul == std::string_view::npos) return 0;
  std::vector<ErrorRecord> records;
  std::string_view patterns = in.substr(0, nul);
  std::size_t pos = 0;
  int line = 1;
  while (pos <= patterns.size() && records.size() < 64) {
    auto nl = patterns.find('\n', pos);
    std::string p(patterns.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    records.push_back(rec(line % 2 ? "ValueError" : "x.Err", p, p, "f" + std::to_string(line % 3) + ".py", line));
    ++line;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  Matcher own = Matcher::build(records);
  check(own, own.match(in.substr(nul + 1), 2), records.size());
  return 0;
}
