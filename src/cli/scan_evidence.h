#pragma once
// The scan pipeline's evidence passes that read the tree itself
// (cli/scan_pipeline.h): the repository's doc files, and blame of the
// raise lines on a git revision.
#include <memory>
#include <string>
#include <vector>

#include "analyze/js_call_graph.h"
#include "cli/scan_pipeline.h"
#include "cli/store_caches.h"
#include "model/error_record.h"
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

}  // namespace errdex::cli
