#pragma once
// The static analyst's prose of each site, kept from a file's last analysis
// for the analysis of its next content within one command (a scan of many
// revisions): a site whose prose reads the same as before takes the prose
// written then instead of writing it again.
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/error_record.h"

namespace errdex::analyze {

// The fields write_static_prose fills (static_prose.h), as written.
struct StaticProse {
  std::string documentation, trigger_scenarios, common_situations;
  std::vector<std::string> solutions;
  std::string example_fix, handling_strategy;
  std::optional<std::string> validation_code, type_guard, try_catch_pattern;
  std::vector<std::string> prevention_tips, tags;
  std::optional<std::string> background_tag;

  static StaticProse of(const model::ErrorRecord& r);
  void apply_to(model::ErrorRecord& r) const;
  bool operator==(const StaticProse&) const = default;
};

// One file's prose, by the text of everything each site's prose read
// (static_prose.cc: prose_key): the site's facts but its line numbers, its
// record's class, message, category, severity and path, its class
// resolution, and the answers it got from the file (the assignments and
// `super().__init__` arguments before its guard, the public callers of its
// private function, the documented caller it is reached from, the module's
// docstring). Equal keys give equal prose.
struct FileProse {
  std::unordered_map<std::string, std::shared_ptr<const StaticProse>> by_key;
};

// FileProse by path: each path's last analyzed content's. Thread-safe;
// one revision's threads each analyze their own paths.
class ProseMemo {
 public:
  // The prose of `path`'s last analysis; null when none.
  std::shared_ptr<const FileProse> earlier(const std::string& path) const;
  // `prose` replaces what `path` held.
  void keep(const std::string& path, std::shared_ptr<const FileProse> prose);
  // Drops the paths not in `paths` (the files of the revision just
  // scanned): memory follows one revision's files.
  void keep_only(const std::vector<std::string>& paths);

  // Sites whose prose came from an earlier analysis, and sites written.
  std::atomic<std::size_t> reused{0}, written{0};

 private:
  mutable std::mutex m_mutex;
  std::unordered_map<std::string, std::shared_ptr<const FileProse>> m_by_path;
};

}  // namespace errdex::analyze
