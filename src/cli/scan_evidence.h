#pragma once
// The scan pipeline's evidence pass (pass 5 of cli/scan_pipeline.h): the
// tests, entry points, docs and introducing commit of each record, and the
// parts of it that read the tree itself (the repository's doc files and
// package.json files, blame of the raise lines on a git revision).
#include <memory>
#include <string>
#include <vector>

#include "analyze/class_index.h"
#include "analyze/js_call_graph.h"
#include "analyze/observed.h"
#include "cli/scan_pipeline.h"
#include "cli/store_caches.h"
#include "model/error_record.h"
#include "model/throw_site.h"
#include "source/source_tree.h"

namespace errdex::cli {

// Doc file endings read as documentation (evidence.docs).
const std::vector<std::string>& doc_extensions();

// Moves the doc files (doc_extensions, not test code) out of `entries`
// into the result; `paths_of(entry)` gives an entry's path from the
// repository's top, for the test-code check.
std::vector<source::Entry> take_doc_files(std::vector<source::Entry>& entries, const std::string& prefix);

// The package.json files of `entries`, taken out of them (they are no
// code); those under test folders are dropped.
std::vector<source::Entry> take_package_files(std::vector<source::Entry>& entries, const std::string& prefix);

// Each package.json of `files` read: its folder from the repository's top
// and the entry files it names (analyze::read_package). One that
// cannot be read names none.
std::vector<analyze::JsPackage> read_packages(const source::SourceTree& tree, const std::vector<source::Entry>& files,
                                              const std::string& prefix);

// A doc file's path from the repository's top, its text and the text's
// index for evidence.docs (both shared with the memo that keeps them
// between revisions).
struct DocFile {
  std::string path;
  std::shared_ptr<const std::string> text;
  std::shared_ptr<const analyze::DocTextIndex> index;
};

// Reads `files` on `jobs` threads: each at most 1 MiB, valid UTF-8 and not
// binary, 64 MiB in all; the others are left out silently (a doc file is
// evidence, not a scanned file), and indexes each (analyze::index_doc_text).
// With `memo`, a git blob read at an earlier revision of this command is
// neither read nor indexed again.
std::vector<DocFile> read_doc_files(const source::SourceTree& tree, const std::vector<source::Entry>& files,
                                    const std::string& prefix, int jobs, ScanMemo* memo = nullptr);

// evidence.introduced of each record, by blame of its line in `tree` (only
// a git revision has history; a folder gives none). `entries[i]` is the
// file recorded as `paths[i]`. Only files with records are blamed, each once
// for the span of its records' lines, on `jobs` threads. With `cache`, a
// file's origins are kept by its content id and lines, so an unchanged file
// at another revision is not blamed again. Returns the files blamed (not
// from the cache).
std::size_t add_introduced(const source::SourceTree& tree, const std::vector<source::Entry>& entries,
                           const std::vector<std::string>& paths, std::vector<model::ErrorRecord>& records,
                           FactsCache* cache, int jobs);

// What pass 5 reads of the scan so far. The code files as pass 2 left
// them, one index across the vectors per file: its entry, its path from the
// repository's top, whether it is test code, its facts whole (the sites
// are read from `sites` instead), its facts when shared with the memo
// (null when parsed by this pass) and its facts key (empty without the
// cache). The doc and package.json files pass 1 set aside, the import roots
// and the repository's classes (pass 3).
struct EvidenceInput {
  const source::SourceTree& tree;
  const std::string& prefix;
  const std::vector<source::Entry>& entries;
  const std::vector<std::string>& paths;
  const std::vector<char>& is_test;
  const std::vector<const model::FileFacts*>& facts;
  const std::vector<std::shared_ptr<const model::FileFacts>>& held;
  const std::vector<std::string>& facts_keys;
  const std::vector<source::Entry>& doc_entries;
  const std::vector<source::Entry>& package_entries;
  const std::vector<std::string>& import_roots;
  const analyze::ClassIndex& classes;
  bool blame;  // --blame on a git revision: evidence.introduced
  // Tests seen raising errors (may be null), their paths as the scanned
  // folder `root` (absolute) printed them.
  const analyze::Observations* observed;
  const std::string& root;
  FactsCache* facts_cache;  // may be null
  ScanMemo* memo;           // may be null; only with facts_cache
  int jobs;
};
struct EvidenceCounts {
  std::size_t doc_files = 0;  // doc files read
  std::size_t blamed = 0;     // files blamed (not from the cache)
  analyze::ObservedCounts observed;
};

// Pass 5: fills the evidence of `records` (of `sites`, one to one): the
// public functions that lead to each raise over the repository's call graph
// (evidence.entryPoints; Python's and JavaScript's graphs), the tests that
// raise its error on purpose (evidence.tests), the docs that quote its
// message or name its class with its function (evidence.docs) and, with
// `blame`, the commit that introduced its raise line (evidence.introduced).
// With the memo, each file's part of the call graph and its docstrings'
// index are kept by content for the next revision.
EvidenceCounts add_evidence(const EvidenceInput& in, std::vector<model::ThrowSite>& sites,
                            std::vector<model::ErrorRecord>& records);

}  // namespace errdex::cli
