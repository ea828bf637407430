#pragma once
// The repository-wide pass shared by `errdex scan` and `errdex lint`: list
// the tree, parse every file, index the classes the repository defines, then
// analyze every site with that index and lint across files.
#include <optional>
#include <string>
#include <vector>

#include "cli/store_caches.h"
#include "model/error_record.h"
#include "model/throw_site.h"
#include "source/source_tree.h"
#include "util/expected.h"

namespace errdex::cli {

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
  // Only these files of `path` (a distribution's RECORD), not a walk.
  std::optional<std::vector<std::string>> files;
  // Test files are read for the tests that raise each record's error
  // (analyze/evidence.h); off, they are not read at all.
  bool evidence = true;
  // With `rev` and `evidence`: evidence.introduced of each record, by blame
  // of its line (cli/scan_evidence.h).
  bool blame = false;
};

struct PipelineOutput {
  std::string repo, sha, link_ref, analyzed_at;
  bool dirty = false;
  std::size_t files = 0;   // read without a problem
  std::size_t parsed = 0;  // of those, parsed (may hold a site), or read from the facts cache
  std::size_t cached = 0;  // of those, whose facts came from the facts cache
  std::size_t reused = 0;  // files whose records came from the cache, analyzed at another revision
  std::size_t classes = 0; // class definitions indexed
  std::vector<std::string> import_roots;  // source/import_roots.h, of every listed file
  std::vector<source::Skip> skipped;
  std::size_t test_files = 0;  // left out as test code (PipelineInput::include_tests)
  std::size_t doc_files = 0;   // doc files read for evidence.docs
  std::size_t blamed = 0;      // files blamed for evidence.introduced (not from the cache)
  // In dataset order (file order, then line); sites[i] gave records[i].
  std::vector<model::ErrorRecord> records;
  std::vector<model::ThrowSite> sites;
};

// Errors: bad --repo/--sha, a tree that cannot be opened.
Expected<PipelineOutput> run_pipeline(const PipelineInput& in);

}  // namespace errdex::cli
