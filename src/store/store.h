#pragma once
// Where records live, by repository and revision. One interface, backends
// chosen by URL (`sqlite:path`, `postgresql://…`). Readers see a whole
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
  // `scan --python` adds the absolute folder it is installed in.
  std::vector<std::string> import_roots;
  // Optional: model::body_json(records[i]) for every i, made by a caller
  // that can serialise on many threads (or kept from the revision before);
  // the store then stores these bytes. Empty means the store serialises,
  // inside its transaction. A body is stored once however many revisions
  // hold it, each with its own stamp (model/restamp.h).
  std::vector<std::string> record_bodies;
  // The revision's name ("v3.12.1", "main"); "" when it has none. A
  // repository keeps one dataset per (sha, ref): another ref, or another
  // sha, is another revision beside the others.
  std::string ref;
  // Optional, by record: what makes a site the same site in another
  // revision (file, class, function, exception class), so that a history
  // follows it when its message or line changes. Empty: unknown.
  std::vector<std::string> site_keys;
  // Optional, with record_bodies: util::content_key(record_bodies[i]) for
  // every i, from a caller that has them (kept from the revision before),
  // so the store does not hash the bodies again.
  std::vector<std::string> record_body_keys;
};

// One revision of a repository, as stored.
struct Revision {
  std::string ref;  // "" when it has none
  std::string sha;
  std::string dataset_version;
  std::int64_t records = 0;
  bool current = false;
};

// A record of one revision, in short: what a history or a diff reads.
struct SiteAt {
  std::string repo, ref, sha;
  std::string id, file_path, error_class, error_message, site_key;
  int line = 0;
};

struct RepoSummary {
  std::string repo;
  std::string sha;
  std::string dataset_version;
  std::int64_t records = 0;
  std::vector<std::string> import_roots;  // as ingested; empty when unknown
  std::string ref;                        // the current revision's name, "" when none
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

// A Store is used by one thread at a time (PostgreSQL's may be shared,
// see open_store); threads and processes that share a database each open
// their own Store on it.
class Store {
 public:
  virtual ~Store() = default;
  // Replaces the dataset of (repo, sha, ref) in one transaction, beside the
  // repository's other revisions. The current revision (what get, list,
  // search and repos answer with) is then the last one: in the order of
  // their refs read as versions (v3.9 < v3.12) when every revision has a
  // ref, else in the order they were ingested. On failure nothing changes.
  virtual Status ingest(const Dataset& dataset) = 0;
  // Drops one revision of `repo` (`rev` as revision() reads it), or all of
  // them; the current one is chosen again. The number dropped; 0 when none
  // matched.
  virtual Expected<std::size_t> forget(const std::string& repo, const std::optional<std::string>& rev) = 0;
  // The repository's revisions, first to last (see ingest); empty when the
  // repository is unknown.
  virtual Expected<std::vector<Revision>> revisions(const std::string& repo) = 0;
  // Every record of one revision, in short, by file and line. `rev` is a
  // ref, a sha or a sha's first 7+ digits; when several revisions fit, the
  // last. An empty optional when none does.
  virtual Expected<std::optional<std::pair<Revision, std::vector<SiteAt>>>> revision(const std::string& repo,
                                                                                   const std::string& rev) = 0;
  // Every revision's record with this id, or with the site key `key` in
  // `repo` when key is not empty, in no particular order.
  virtual Expected<std::vector<SiteAt>> occurrences(std::string_view id) = 0;
  virtual Expected<std::vector<SiteAt>> occurrences_of_key(const std::string& repo, const std::string& key) = 0;
  // The record with this id in its repository's current dataset.
  virtual Expected<std::optional<model::DatasetLine>> get(std::string_view id) = 0;
  // Current records, of one repository or all, ordered by repo, path, line.
  virtual Expected<std::vector<model::DatasetLine>> list(const std::optional<std::string>& repo) = 0;
  // Every record of one revision of `repo` (`rev` as revision() reads it),
  // ordered by path and line, each line naming its revision; an empty
  // optional when it is not stored.
  virtual Expected<std::optional<std::vector<model::DatasetLine>>> list_at(const std::string& repo,
                                                                          const std::string& rev) = 0;
  // Of current records (one repository or all, in list() order), only
  // what matching reads: id, repo, filePath, lineNumber, errorClass,
  // errorMessage, messagePattern, messageVariants, sourceCode,
  // sourceCodeStart and documentation; the other fields are left empty.
  // Cheaper than list(), which decodes every record whole.
  virtual Expected<std::vector<model::ErrorRecord>> match_fields(const std::optional<std::string>& repo) = 0;
  // The same of one revision of `repo` (`rev` as revision() reads it); an
  // empty optional when it is not stored.
  virtual Expected<std::optional<std::vector<model::ErrorRecord>>> match_fields_at(const std::string& repo,
                                                                                  const std::string& rev) = 0;
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
  // What changes whenever any revision is stored or dropped (current or
  // not): cheap, one small query.
  virtual Expected<std::string> datasets_state() = 0;
  // OK when this store takes writes; otherwise why not (a SQLite file this
  // user may not write, or in a read-only folder or mount, is opened
  // read-only). Cheap and writes nothing, so that a command that will write
  // can refuse before its work rather than at its end.
  virtual Status writable() { return ok(); }
};

// Each repository's import roots, by name (what match::Matcher::build
// takes); repositories whose roots are unknown are left out.
std::unordered_map<std::string, std::vector<std::string>> import_roots(const std::vector<RepoSummary>& repos);

// What matching reads (Store::match_fields) of every revision stored, for
// a Matcher that tells revisions apart (match::Matcher::build's
// `preference`).
struct RevisionFields {
  // The current revisions' records first, as match_fields gives them
  // (their indexes are the same as there), then the other revisions'.
  std::vector<model::ErrorRecord> records;
  // By record: 0 for a current revision's, then 1, 2, ... from the newest
  // other revision of its repository to the oldest.
  std::vector<std::uint32_t> preference;
  // By record: its revision, an index into `revisions` (whose `ref` and
  // `sha` name it), and the repository each of those belongs to.
  std::vector<std::uint32_t> revision_of;
  std::vector<Revision> revisions;
  std::vector<std::string> revision_repo;
  std::size_t current = 0;  // how many records are the current revisions'
};
// `repo`: that repository's only. `current_too` false leaves the current
// revisions' records out (a caller that holds them already): `records`
// then starts with the other revisions', and `current` is 0.
Expected<RevisionFields> match_fields_all(Store& store, const std::optional<std::string>& repo, bool current_too = true);

// Search within one revision of `repo` (rev as Store::revision reads it),
// with Store::search's semantics over the same fields (message,
// documentation, tags; words case-folded): records holding every word
// first, else records holding any; user text is never syntax. Ranked in
// memory over that revision's records (the full-text index holds current
// records only); rank: lower is better, as SearchHit says. An empty
// optional when the revision is not stored.
Expected<std::optional<std::vector<SearchHit>>> search_at(Store& store, std::string_view text, const std::string& repo,
                                                          const std::string& rev, int limit);

// Opens a store from a URL: "sqlite:path" (created if missing), or
// "postgresql://user:password@host:port/database?sslmode=…" (also
// postgres://; libpq's URI, the database must exist). Either is brought to
// this build's schema first. A PostgreSQL Store, unlike SQLite's, may be
// used by many threads at once (a pool of connections per URL and process).
Expected<std::unique_ptr<Store>> open_store(const std::string& url);
// Whether `url` names a PostgreSQL store.
bool is_postgresql(std::string_view url);
// Brings the store at `url` to this build's schema (numbered migrations, one
// process at a time) and says what it did in a line.
Expected<std::string> migrate_store(const std::string& url);

}  // namespace errdex::store
