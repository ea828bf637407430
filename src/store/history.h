#pragma once
// An error across the revisions of its repository: when a site appeared,
// moved, changed its message or class, and went away; and what changed
// between two revisions. Read through the Store interface, so every backend
// answers the same.
//
// Identity. A record's id hashes its repository, file, class, message and
// ordinal (analyze::record_id), so it survives moved lines but not a
// reworded message. A site is the same site in another revision when its
// site key (file, enclosing class and function) is the same and, once the
// sites whose ids both revisions hold are set aside, is held by no other
// site of either revision (a function's one reworded raise among unchanged
// ones) and keeps its class or its message: the scan then gives the
// reworded site its stored id (keep_site_ids), and a diff pairs the two as
// reworded or class-changed rather than as one removed and one added.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/error_record.h"
#include "store/store.h"
#include "util/expected.h"

namespace errdex::store {

// The site key of a throw site: its file, and the class and function that
// enclose it ("" at module level).
std::string site_key(std::string_view file_path, std::string_view class_name, std::string_view function);

// Gives each of `records` (keys[i] its site key) whose id is new the id a
// stored revision's site of the same key had, where that key is held by one
// record of a new id and by one stored site whose id no record holds, of
// the record's class or message. `stored` is
// every stored site of the repository (Store::revision over its
// revisions), later revisions after earlier ones. The number of ids kept.
std::size_t keep_site_ids(std::vector<model::ErrorRecord>& records, const std::vector<std::string>& keys,
                          const std::vector<SiteAt>& stored);
// The same with the stored sites given by revision, first to last (a
// caller that keeps them between scans need not copy them into one list).
std::size_t keep_site_ids(std::vector<model::ErrorRecord>& records, const std::vector<std::string>& keys,
                          const std::vector<const std::vector<SiteAt>*>& stored);

// What keep_site_ids reads of the stored revisions, built up one revision
// at a time: a scan of many revisions adds each stored one once instead of
// reading all of them again for every revision (which grows with the square
// of their number). keep() after add() of revisions r1..rn answers as
// keep_site_ids over r1..rn does.
class SiteIdIndex {
 public:
  // One stored revision's sites, after every revision added before it (a
  // later revision's id wins for a key).
  void add(const std::vector<SiteAt>& revision);
  // keep_site_ids of `records` against the revisions added.
  std::size_t keep(std::vector<model::ErrorRecord>& records, const std::vector<std::string>& keys) const;

 private:
  // First, a record whose site key, class and message the stored
  // revisions give one id (content_key), held by no other record, takes
  // that id: its ordinal among the file's equal messages names another
  // site once a raise of the same message was added or removed above it
  // (cachetools' five caches' `%s is empty`, one of the caches removed). A
  // record whose id that takes gets one hashed from it and its content.
  void realign(std::vector<model::ErrorRecord>& records, const std::vector<std::string>& keys) const;

  // Looked up by views too, without a copy.
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // site key -> the ids of its sites, in the last revision holding it; and
  // its id in the last revision holding it once
  std::unordered_map<std::string, std::vector<std::string>, Hash, std::equal_to<>> m_ids_of_key;
  std::unordered_map<std::string, std::string, Hash, std::equal_to<>> m_id_of_unique_key;
  // site key, class and message -> the id of the one site holding them in
  // the last revision holding them (content_key): a site kept an id from a
  // rewording, which its unchanged message in a later revision does not
  // hash to.
  std::unordered_map<std::string, std::string, Hash, std::equal_to<>> m_id_of_content;
  // Each stored id -> its class and message, joined by '\n', in the last
  // revision holding it: a site whose class and message both changed is
  // another statement, whatever function it is in.
  std::unordered_map<std::string, std::string, Hash, std::equal_to<>> m_stored_ids;
};

struct SiteHistory {
  std::string id, repo;
  // Every revision of the repository, first to last, with the site as it
  // stood there, or nothing where the revision does not hold it.
  struct At {
    Revision revision;
    std::optional<SiteAt> site;
  };
  std::vector<At> revisions;
  // Derived from `revisions`: indexes of the first and last revisions
  // holding the site, and of the first one after the last that does not
  // (removed in); -1 when there is none.
  int first = -1, last = -1, removed_in = -1;
  // Each change of the message or class between consecutive revisions that
  // hold the site: indexes of the revision before and after.
  struct Change {
    int from = 0, to = 0;
  };
  std::vector<Change> changes;
  // The same site in a file of another name, under another id (a file
  // renamed or split: RevisionDiff's `moved`): where it stood in the
  // revision just before `first`, and where it went in `removed_in`.
  // `revision` -1: nowhere.
  struct Elsewhere {
    int revision = -1;
    SiteAt site;
  };
  Elsewhere moved_from, moved_to;
};

class DiffMemo;

// The history of the site with this id. An empty optional when no stored
// revision holds it. A site added or removed in a revision is looked for
// in a renamed file through the diff across that edge; `diffs`, when
// given, answers those diffs (a server's snapshot keeps one).
Expected<std::optional<SiteHistory>> site_history(Store& store, std::string_view id, DiffMemo* diffs = nullptr);

struct RevisionDiff {
  Revision from, to;
  std::vector<SiteAt> added, removed;
  // Pairs (in `from`, in `to`) of one site. `moved`: to another line, or
  // to a file of another name with the same class, function and message,
  // when no other site removed or added says the same (a file renamed or
  // split: its sites' ids are new, as an id hashes the file).
  std::vector<std::pair<SiteAt, SiteAt>> reworded, class_changed, moved;
};

// What changed from revision `from` to `to` of `repo` (each as
// Store::revision reads it). An empty optional when either is not stored;
// `missing` then names it.
Expected<std::optional<RevisionDiff>> diff_revisions(Store& store, const std::string& repo, const std::string& from,
                                                     const std::string& to, std::string* missing = nullptr);

// Diffs already run, kept for the next caller asking for the same two
// revisions: every error page of a site added in one revision reads the
// diff across that edge, and two full revisions are read for each. Only
// for a store that does not change while the memo lives (a server keeps
// one per snapshot, which a new dataset replaces). Safe across threads;
// holds at most a few diffs, the oldest dropped first.
class DiffMemo {
 public:
  // diff_revisions(store, repo, from, to, missing), run once per
  // (repo, from, to) while it is held; nullptr where it answered nothing.
  Expected<std::shared_ptr<const RevisionDiff>> diff(Store& store, const std::string& repo, const std::string& from,
                                                     const std::string& to, std::string* missing = nullptr);
  // How many diffs were run rather than found (for tests).
  std::size_t runs() const;

 private:
  struct Held {
    std::shared_ptr<const RevisionDiff> diff;
    std::string missing;
    std::uint64_t age = 0;
  };
  static constexpr std::size_t k_held = 16;
  mutable std::mutex m_mu;
  std::map<std::string, Held> m_held;
  std::uint64_t m_clock = 0;
  std::size_t m_runs = 0;
};

// A revision as people name it: its ref, else its sha's first 10 digits.
std::string revision_name(const Revision& r);

// As JSON, the one shape of `errdex history --json`, `errdex diff --json`
// and the API: a site is {id, filePath, lineNumber, errorClass,
// errorMessage}; a history {id, repo, revisions: [{ref, sha, name, present,
// and the site's fields when present}], firstSeen, lastSeen, removedIn,
// changes: [{from, to, old: site, new: site}], movedFrom, movedTo: null or
// {revision: name, and the site's fields}}; a diff {repo, from, to,
// added, removed, reworded, classChanged, moved}, pairs as {old, new}.
std::string to_json(const SiteHistory& h);
std::string to_json(const std::string& repo, const RevisionDiff& d);

}  // namespace errdex::store
