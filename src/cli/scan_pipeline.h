#pragma once
// The repository-wide pass shared by `errdex scan` and `errdex lint`: list
// the tree, parse every file, index the classes the repository defines, then
// analyze every site with that index and lint across files.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyze/call_graph.h"
#include "analyze/docs.h"
#include "analyze/observed.h"
#include "analyze/prose_memo.h"
#include "cli/store_caches.h"
#include "model/error_record.h"
#include "model/throw_site.h"
#include "scan/python/earlier_trees.h"
#include "source/source_tree.h"
#include "store/history.h"
#include "store/store.h"
#include "util/expected.h"

namespace errdex::cli {

// Values by key that a scan of many revisions keeps while they are used:
// an entry that neither the last revision nor the one before it used is
// dropped at the end of a revision (the store's cache still holds it), so
// memory follows the files of a revision or two, not of every one. Not
// thread-safe: ScanMemo's mutex guards it.
template <class T>
class RecentMap {
 public:
  std::shared_ptr<const T> find(const std::string& key) {
    auto it = m_map.find(key);
    if (it == m_map.end()) return nullptr;
    it->second.second = m_generation;
    return it->second.first;
  }
  void put(std::string key, T value) { put(std::move(key), std::make_shared<const T>(std::move(value))); }
  void put(std::string key, std::shared_ptr<const T> value) {
    m_map.insert_or_assign(std::move(key), std::pair(std::move(value), m_generation));
  }
  // One revision is done.
  void next_revision() {
    ++m_generation;
    std::erase_if(m_map, [&](const auto& kv) { return kv.second.second + 2 < m_generation; });
  }

 private:
  std::unordered_map<std::string, std::pair<std::shared_ptr<const T>, std::uint64_t>> m_map;
  std::uint64_t m_generation = 0;
};

// What one `errdex scan` learnt, kept in memory between the revisions it
// scans, beside the facts cache that keeps it between processes: a
// revision's unchanged files then cost neither reading, nor decoding
// cached JSON. Used only with a facts cache (a scan without one parses
// everything). `mutex` guards every member where the pipeline's threads
// share it.
struct ScanMemo {
  std::mutex mutex;
  // "blob:<scanner version>:<language>:<mode>:<git blob id>" -> the facts
  // key of its content ("-": not worth parsing). Persisted too.
  std::unordered_map<std::string, std::string> blob_facts;
  // Facts key -> the file's facts as parsed (before linking across files).
  RecentMap<model::FileFacts> facts;
  // Records key -> the file's analyzed records (stamped with the revision
  // that analyzed them; analyze::stamp re-stamps).
  RecentMap<std::vector<model::ErrorRecord>> records;
  // The tree each path's last parsed content gave (one revision's files):
  // a file changed since is parsed incrementally from it.
  scan::EarlierTrees trees;
  // Each path's sites' prose from its last analysis (pass 4): a changed
  // file's sites whose prose reads the same take it from there.
  analyze::ProseMemo prose;
  // Git blob id -> a doc file's text and its index for evidence.docs
  // (nullopt: left out).
  struct DocText {
    std::string text;
    analyze::DocTextIndex index;
  };
  RecentMap<std::optional<DocText>> doc_texts;
  // "<facts key>\n<path>\n<module name>" -> what that code file gives
  // the call graph on its own (analyze::call_graph_module).
  RecentMap<analyze::CallGraphModule> graph_modules;
  // Facts key -> the index of each of a code file's docstrings, in order
  // (FileFacts::docstrings), for evidence.docs.
  RecentMap<std::vector<analyze::DocTextIndex>> docstring_indexes;
  // "<repo>\n<sha>\n<ref>\n<dataset version>" -> that stored revision's
  // sites (Store::revision), for keeping site ids across revisions.
  std::map<std::string, std::vector<store::SiteAt>> sites;
  // The site-id index (store::SiteIdIndex) of the stored revisions named, in order, by
  // `site_index_of` (keys as in `sites`): the next revision of the same
  // repository adds only the revisions stored since.
  store::SiteIdIndex site_index;
  std::vector<std::string> site_index_of;
  // The records this command stored last, with their bodies: a record of
  // the next revision of the same repository that differs only in its
  // stamp takes that body (model/restamp.h) instead of serialising. One
  // revision's only, as memory should follow one revision.
  struct Stored {
    std::string repo;
    std::unordered_map<std::string, std::size_t> by_id;
    std::vector<model::ErrorRecord> records;
    std::vector<std::string> bodies, body_keys;  // body_keys[i]: util::content_key(bodies[i])
  };
  Stored last_stored;
};

struct PipelineInput {
  std::string path;
  std::optional<std::string> rev, repo, prefix, sha, ref;
  int jobs = 0;
  bool progress = true;  // draw progress bars (on a terminal)
  // Test code (source::is_test_path) gives records too; by default it is
  // left out.
  bool include_tests = false;
  // Facts of files scanned before, by content and scanner version
  // (cli/store_caches.h): a file found there is not parsed again, and the
  // facts of those parsed are added. Null: every file is parsed.
  FactsCache* facts_cache = nullptr;
  // With facts_cache: the same process's memory of earlier revisions.
  ScanMemo* memo = nullptr;
  // Only these files of `path` (a distribution's RECORD), not a walk.
  std::optional<std::vector<std::string>> files;
  // Test files are read for the tests that raise each record's error
  // (analyze/evidence.h); off, they are not read at all.
  bool evidence = true;
  // With `rev` and `evidence`: evidence.introduced of each record, by blame
  // of its line (cli/scan_evidence.h).
  bool blame = false;
  // With `evidence`: the tests seen raising errors while this tree's tests
  // ran (analyze/observed.h), linked before those read from the code.
  const analyze::Observations* observed = nullptr;
};

struct PipelineOutput {
  std::string repo, sha, link_ref, analyzed_at;
  bool dirty = false;
  std::size_t files = 0;   // read without a problem
  std::size_t parsed = 0;  // of those, parsed (may hold a site), or read from the facts cache
  std::size_t cached = 0;  // of those, whose facts came from the facts cache
  std::size_t reused = 0;  // files whose records came from the cache, analyzed at another revision
  std::size_t incremental = 0;  // parses that started from the tree of the file's earlier content (ScanMemo::trees)
  std::size_t prose_reused = 0;  // sites analyzed whose prose came from their file's last analysis (ScanMemo::prose)
  std::size_t classes = 0; // class definitions indexed
  std::vector<std::string> import_roots;  // source/import_roots.h, of every listed file
  std::vector<source::Skip> skipped;
  std::size_t test_files = 0;  // left out as test code (PipelineInput::include_tests)
  std::size_t doc_files = 0;   // doc files read for evidence.docs
  std::size_t blamed = 0;      // files blamed for evidence.introduced (not from the cache)
  analyze::ObservedCounts observed;  // PipelineInput::observed linked
  // In dataset order (file order, then line); sites[i] gave records[i].
  std::vector<model::ErrorRecord> records;
  std::vector<model::ThrowSite> sites;
};

// Errors: bad --repo/--sha, a tree that cannot be opened.
Expected<PipelineOutput> run_pipeline(const PipelineInput& in);

}  // namespace errdex::cli
