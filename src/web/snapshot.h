#pragma once
// What the server serves: every current record of the store in memory, with
// the indexes the pages need. Built once, then read-only (shared between
// threads without locks); a new dataset means a new Snapshot.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/error_record.h"
#include "store/history.h"
#include "store/store.h"
#include "util/expected.h"
#include "web/match_engine.h"

namespace errdex::web {

// Facts read off a record's source excerpt (the record format has no field
// for them): the enclosing function and the names the guarding condition
// tests. Empty when the excerpt does not show them.
struct SiteContext {
  std::string function;
  std::vector<std::string> guard_names;
};

// Reads the context of the throwing line out of the excerpt.
SiteContext site_context(const model::ErrorRecord& r);

struct Snapshot {
  // By repo, path, line (store order); shared with the snapshots loaded
  // after this one while their repository is unchanged.
  std::vector<std::shared_ptr<const model::DatasetLine>> lines;
  std::vector<SiteContext> contexts;      // parallel to lines
  std::vector<store::RepoSummary> repos;
  std::unordered_map<std::string, std::size_t> by_id;
  // Keys: repo '\n' file; repo '\n' class '\n' message.
  std::unordered_map<std::string, std::vector<std::size_t>> by_file;
  std::unordered_map<std::string, std::vector<std::size_t>> by_template;
  std::map<std::string, std::vector<std::size_t>> by_repo;
  // What identifies the store's state: every repo's dataset version.
  std::string signature;
  std::unique_ptr<MatchEngine> matcher;
  // What the matcher holds beyond `lines`: the records of revisions that
  // are not current (match fields only), at matcher indexes from
  // lines.size() on, and each one's revision (ref, sha).
  std::vector<model::ErrorRecord> other_records;
  std::vector<std::pair<std::string, std::string>> other_revision_of;
  std::vector<std::uint32_t> other_preference;  // as store::RevisionFields::preference
  // Each repository's state when its records were read (its current
  // dataset and its list of revisions): what a reload compares to read
  // again only the repositories that changed.
  std::map<std::string, std::string> repo_states;
  // The record at a matcher index, or nullptr; and its revision (ref, sha).
  const model::ErrorRecord* matched(std::size_t index) const;
  std::pair<std::string, std::string> revision_of(const model::ErrorRecord& r) const;
  // Whether a record matched() gave is a current one (one of `lines`).
  bool matched_current(const model::ErrorRecord& r) const {
    std::less<const model::ErrorRecord*> before;
    return other_records.empty() || before(&r, other_records.data()) ||
           !before(&r, other_records.data() + other_records.size());
  }

  const model::DatasetLine* find(const std::string& id) const;

  // Diffs between revisions, run once while this snapshot is served (the
  // History sections of pages and /api/errors/{id}/history read them, as
  // do the diff page and API). Locks inside: shared by the threads.
  std::unique_ptr<store::DiffMemo> diffs = std::make_unique<store::DiffMemo>();
};

// The state signature of a store (cheap: one small query).
Expected<std::string> store_signature(store::Store& store);
// Loads every current record and builds the indexes and the matcher. With
// `previous`, a repository whose state is the same as when `previous` was
// loaded keeps its records from there instead of being read again (a
// scan storing one dataset after another makes each reload read one
// repository, not the whole store); the result is the same.
Expected<std::shared_ptr<const Snapshot>> load_snapshot(store::Store& store, const Snapshot* previous = nullptr);

}  // namespace errdex::web
