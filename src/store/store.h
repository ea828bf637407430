#pragma once
// Where records live, by repository and revision. One interface, backends
// chosen by URL (`sqlite:path`; PostgreSQL later). Readers see a whole
// dataset or the one before it, never a mix.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/error_record.h"
#include "util/expected.h"

namespace errdex::store {

// All records of one repository at one revision.
struct Dataset {
  std::string repo;
  std::string sha;
  std::string dataset_version;  // ISO time
  std::vector<model::ErrorRecord> records;
  // Folders the repository's Python modules are imported from
  // (source/import_roots.h); empty when unknown (an imported dataset).
  std::vector<std::string> import_roots;
  // Optional: model::to_json(records[i]) for every i, made by a caller that
  // can serialise on many threads; the store then stores these bytes. Empty
  // means the store serialises, inside its transaction.
  std::vector<std::string> record_json;
};

struct RepoSummary {
  std::string repo;
  std::string sha;
  std::string dataset_version;
  std::int64_t records = 0;
  std::vector<std::string> import_roots;  // as ingested; empty when unknown
};

// A search hit by id only, for callers that hold the records already.
struct RankedId {
  std::string id;
  double rank = 0;  // as SearchHit::rank
};

struct SearchHit {
  model::ErrorRecord record;
  double rank = 0;  // lower is better (FTS5 bm25)
};

// A Store is used by one thread at a time; threads and processes that share
// a database each open their own Store on it.
class Store {
 public:
  virtual ~Store() = default;
  // Replaces the dataset of (repo, sha) in one transaction and makes it the
  // repository's current one. On failure nothing changes.
  virtual Status ingest(const Dataset& dataset) = 0;
  // The record with this id in its repository's current dataset.
  virtual Expected<std::optional<model::DatasetLine>> get(std::string_view id) = 0;
  // Current records, of one repository or all, ordered by repo, path, line.
  virtual Expected<std::vector<model::DatasetLine>> list(const std::optional<std::string>& repo) = 0;
  // Of current records (one repository or all, in list() order), only
  // what matching reads: id, repo, filePath, lineNumber, errorClass,
  // errorMessage, messagePattern, messageVariants, sourceCode,
  // sourceCodeStart and documentation; the other fields are left empty.
  // Cheaper than list(), which decodes every record whole.
  virtual Expected<std::vector<model::ErrorRecord>> match_fields(const std::optional<std::string>& repo) = 0;
  // Full-text search over message, documentation and tags of current
  // records. `text` is user input: it is quoted, never parsed as FTS syntax.
  // Records with every word come first; if none has them all, records with
  // any word. Empty text or limit <= 0 gives no hits.
  virtual Expected<std::vector<SearchHit>> search(std::string_view text,
                                                  const std::optional<std::string>& repo,
                                                  int limit) = 0;
  // The same search, answering ids only: no record is read or decoded.
  virtual Expected<std::vector<RankedId>> search_ids(std::string_view text, const std::optional<std::string>& repo,
                                                     int limit) = 0;
  // Repositories with their current dataset.
  virtual Expected<std::vector<RepoSummary>> repos() = 0;
};

// Each repository's import roots, by name (what match::Matcher::build
// takes); repositories whose roots are unknown are left out.
std::unordered_map<std::string, std::vector<std::string>> import_roots(const std::vector<RepoSummary>& repos);

// Opens a store from a URL: "sqlite:path" (created if missing).
Expected<std::unique_ptr<Store>> open_store(const std::string& url);

}  // namespace errdex::store
