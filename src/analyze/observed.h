#pragma once
// Tests seen raising an error: what `python3 -m errdex.observe` wrote while
// the repository's tests ran (clients/python/errdex/observe.py), one JSON
// line per error a test expected and got, linked to the record raised
// there (evidence.tests). A link the code only suggests is analyze/
// evidence.h's; this one was watched happen.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/error_record.h"
#include "util/expected.h"

namespace errdex::analyze {

struct Observation {
  // The frames the error came from, innermost first, as the interpreter
  // named them (absolute paths, most often), down to the test's own.
  std::vector<std::pair<std::string, int>> raised;
  std::string error_class;           // "JSONDecodeError"
  std::vector<std::string> bases;    // "ValueError", "Exception"
  std::string test_file;             // as the interpreter named it
  int test_line = 0;                 // the assertRaises call or `with`
  std::string test_name;             // "TestDecode.test_extra_data"
  std::string code;                  // the test's lines that raise it
};

struct Observations {
  std::vector<Observation> items;
  std::size_t bad_lines = 0;  // not JSON, or without the fields above
};

// The observations of `text` (JSON lines); a line that cannot be read is
// counted, not fatal.
Observations parse_observations(std::string_view text);

// The observations in `file`; an error when it cannot be read.
Expected<Observations> read_observations(const std::string& file);
// Those of every file together; an error for the first that cannot be read.
Expected<Observations> read_observations(const std::vector<std::string>& files);

// Which of a scan's files a path the interpreter printed is: under `root`
// (the scanned folder, absolute) the file at the same place, with
// `prefix` before it; elsewhere (an installed copy, another checkout) the
// one file whose path ends the same way, by whole components, longest
// first. None when no file, or several, end so.
class ObservedPaths {
 public:
  ObservedPaths(std::string root, std::string prefix, const std::vector<std::string>& paths);
  std::optional<std::string> resolve(std::string_view printed) const;

 private:
  std::string m_root, m_prefix;
  std::unordered_map<std::string, std::string> m_paths;     // each path, itself
  std::unordered_map<std::string, std::string> m_suffixes;  // "" when several files end so
};

struct ObservedCounts {
  std::size_t observations = 0;
  std::size_t linked = 0;   // observations that met a record
  std::size_t records = 0;  // records that got a test
};

// What the tests were seen doing, by record and by expectation.
struct ObservedLinks {
  // Each record's tests seen raising it, at most `max_tests`, one per test
  // line, in the order of the test's path and line.
  std::vector<std::vector<model::TestEvidence>> tests;
  // Each expectation seen getting its error ("path:line" of the test, the
  // path from the repository's top), with the records it was seen raised
  // at: none when each time it came from elsewhere (C code, another
  // package). An expectation that was watched and never raised a record
  // is no link to it, whatever its code suggests.
  std::unordered_map<std::string, std::vector<std::size_t>> by_expectation;

  // Whether the test at `path`:`line` was watched and never got its error
  // from `record`.
  bool contradicts(const std::string& path, int line, std::size_t record) const;
};

// An observation links the record at the innermost frame that holds one
// (frames above it are calls on the way) whose class is the error's or
// one of its bases.
ObservedLinks observed_tests(const Observations& observations, const ObservedPaths& paths,
                             const std::vector<model::ErrorRecord>& records, ObservedCounts* counts = nullptr,
                             std::size_t max_tests = 3);

}  // namespace errdex::analyze
