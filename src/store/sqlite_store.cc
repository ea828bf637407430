#include "store/sqlite_store.h"

#include <sqlite3.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <unordered_map>
#include <string_view>
#include <utility>

#include "model/record_json.h"
#include "model/restamp.h"
#include "store/dataset_rules.h"
#include "store/sqlite_statement.h"
#include "util/text.h"

namespace errdex::store::sqlite {
namespace {

// Version 1: meta, datasets, repos, records, records_fts.
// Version 2: datasets.import_roots (a JSON array of folders).
// Version 3: datasets.ref, unique (repo, sha, ref); records.site_key.
// Version 4: records.search_doc and search_hash; records_fts keyed by
// search_doc.
// Version 5: record_bodies; records.json gives way to records.body and the
// record's stamp (github_url, analyzed_sha, analyzed_at, analysis_at).
// Version 6: records' indexes by id, site key and body lead with the
// dataset (records_by_dataset_key, records_by_dataset_body,
// records_by_dataset_doc; records_fts holds each row's repository); a record's
// place (source_code_start and _end beside line_number) is kept by its row,
// no longer by its body.
constexpr int k_schema_version = 6;
// A writer holds the lock for the length of one ingest; a second writer
// (another process importing) waits this long before giving up.
constexpr int k_busy_timeout_ms = 30000;
// Column weights for bm25 in records_fts column order: a hit in the message
// or class says more than one in the prose.
constexpr const char* k_rank = "bm25(records_fts, 10.0, 4.0, 3.0, 1.0)";
// A whole record, as read_record reads it: its body, then its stamp (of
// records r, datasets d, record_bodies b).
#define ERRDEX_RECORD_COLUMNS                                                                                      \
  "b.json, r.github_url, CASE r.analyzed_sha WHEN '' THEN d.sha ELSE r.analyzed_sha END, r.analyzed_at, r.analysis_at," \
  " r.line_number, r.source_code_start, r.source_code_end"
// How many they are: the columns a query selects after them start here.
constexpr int k_record_columns = 8;
#define ERRDEX_BODY_JOIN "JOIN record_bodies b ON b.id = r.body"
// A search index row, read off a record's stored body (of records r,
// record_bodies b).
#define ERRDEX_FTS_INSERT                                                                   \
  "INSERT INTO records_fts(rowid, error_message, error_class, tags, documentation, repo)" \
  " SELECT r.search_doc, r.error_message, r.error_class,"                                 \
  " COALESCE((SELECT group_concat(t.value, ' ') FROM json_each(b.json, '$.tags') t), '')," \
  " COALESCE(json_extract(b.json, '$.documentation'), ''), r.repo"
// The search index, holding the current records only (see the schema).
#define ERRDEX_FTS_TABLE                                                                       \
  "CREATE VIRTUAL TABLE records_fts USING fts5(error_message, error_class, tags, documentation," \
  " repo UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');"

constexpr const char* k_schema = R"sql(
-- One revision of a repository each; several of one repository side by side.
CREATE TABLE datasets(
  id INTEGER PRIMARY KEY,
  repo TEXT NOT NULL,
  sha TEXT NOT NULL,
  ref TEXT NOT NULL DEFAULT '',
  dataset_version TEXT NOT NULL,
  ingested_at TEXT NOT NULL,
  record_count INTEGER NOT NULL,
  import_roots TEXT NOT NULL DEFAULT '[]',
  UNIQUE(repo, sha, ref)
);
-- The current dataset of each repository. Deferred so that one ingest can
-- drop and replace the dataset a row points to before repointing it.
CREATE TABLE repos(
  repo TEXT PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) DEFERRABLE INITIALLY DEFERRED
);
-- A record's JSON without what it owes to its revision (model/restamp.h:
-- its stamp and place), stored once however many revisions hold the
-- record; key is
-- util::content_key of json. A record reads back as its body with its row's
-- stamp put back, so export is byte-exact. A record ingested now was
-- analyzed at its dataset's sha (check_dataset): analyzed_sha is '' then. A body lives while a record refers to it.
CREATE TABLE record_bodies(
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  json TEXT NOT NULL
);
-- One record of one revision: its body and stamp; the other columns are
-- copies for ordering and lookup.
CREATE TABLE records(
  seq INTEGER PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  repo TEXT NOT NULL,
  file_path TEXT NOT NULL,
  line_number INTEGER NOT NULL,
  error_class TEXT NOT NULL,
  error_message TEXT NOT NULL,
  site_key TEXT NOT NULL DEFAULT '',
  search_doc INTEGER NOT NULL,
  search_hash TEXT NOT NULL DEFAULT '',
  body INTEGER NOT NULL,
  github_url TEXT NOT NULL DEFAULT '',
  analyzed_sha TEXT NOT NULL DEFAULT '',  -- '': its dataset's sha
  analyzed_at TEXT NOT NULL DEFAULT '',
  analysis_at TEXT NOT NULL DEFAULT '',
  source_code_start INTEGER NOT NULL DEFAULT 0,
  source_code_end INTEGER NOT NULL DEFAULT 0,
  UNIQUE(dataset_id, id)
);
-- Every index leads with the dataset: a new
-- revision's rows go to the end of each, whatever their ids, keys, bodies
-- and search docs. An index led by the id (or key, body, doc) would take each of a
-- revision's rows to another page, beside that record's rows of the other
-- revisions, and so rewrite about all of its pages with every revision.
-- Lookups across revisions (by id: UNIQUE(dataset_id, id) above; by site
-- key; by body; a search hit by its repository's current dataset) go
-- through the datasets instead, one probe each.
CREATE INDEX records_by_location ON records(dataset_id, file_path, line_number);
CREATE INDEX records_by_dataset_key ON records(dataset_id, site_key) WHERE site_key != '';
CREATE INDEX records_by_dataset_doc ON records(dataset_id, search_doc);
CREATE INDEX records_by_dataset_body ON records(dataset_id, body);
-- The search index holds the current records only, one row per record,
-- rowid = its search_doc, with its repository (unindexed: the join back to
-- the current revision's row goes through repos and records_by_dataset_doc
-- without reading the other revisions'); ingest keeps it so. A record whose id and searched text
-- (search_hash) are those of a record of the repository's current revision
-- when it is stored takes that record's search_doc, so making its revision
-- current leaves its row as it is: only the records that changed are
-- indexed again.
)sql" ERRDEX_FTS_TABLE;

// The record of a row that starts with ERRDEX_RECORD_COLUMNS.
Expected<model::ErrorRecord> read_record(const Run& run) {
  auto record = model::record_from_json(run.column_text(0));
  if (!record) return Error{record.error()};
  model::restore_stamp(*record, {std::string(run.column_text(1)), std::string(run.column_text(2)),
                                 std::string(run.column_text(3)), std::string(run.column_text(4)),
                                 static_cast<int>(run.column_int(5)), static_cast<int>(run.column_int(6)),
                                 static_cast<int>(run.column_int(7))});
  return record;
}

// Each search word (dataset_rules.h) quoted as an FTS5 string: nothing the
// user types reaches the FTS5 query parser as syntax.
std::vector<std::string> quoted_words(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& word : search_words(text)) {
    std::string q = "\"";
    for (char c : word) {
      if (c == '"') q += '"';
      q += c;
    }
    q += '"';
    out.push_back(std::move(q));
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

// What the search index reads of a record (records_fts' columns), with its
// id, hashed: two records with the same hash share a search doc.
std::string search_hash(const model::ErrorRecord& r) {
  std::string text = r.id;
  for (const std::string* part : {&r.error_message, &r.error_class, &r.documentation}) {
    text += '\0';
    text += *part;
  }
  text += '\0';
  for (const auto& tag : r.tags) {
    text += tag;
    text += ' ';
  }
  // 128 bits: a collision would index one record with another's text.
  return util::content_key(text);
}

class SqliteStore final : public Store {
 public:
  explicit SqliteStore(sqlite3* db) : m_owner(db), m_db(db) {}

  Status init();

  Status ingest(const Dataset& dataset) override;
  Expected<std::size_t> forget(const std::string& repo, const std::optional<std::string>& rev) override;
  Expected<std::vector<Revision>> revisions(const std::string& repo) override;
  Expected<std::optional<std::pair<Revision, std::vector<SiteAt>>>> revision(const std::string& repo,
                                                                           const std::string& rev) override;
  Expected<std::vector<SiteAt>> occurrences(std::string_view id) override;
  Expected<std::vector<SiteAt>> occurrences_of_key(const std::string& repo, const std::string& key) override;
  Expected<std::optional<model::DatasetLine>> get(std::string_view id) override;
  Expected<std::vector<model::DatasetLine>> list(const std::optional<std::string>& repo) override;
  Expected<std::vector<model::ErrorRecord>> match_fields(const std::optional<std::string>& repo) override;
  Expected<std::optional<std::vector<model::ErrorRecord>>> match_fields_at(const std::string& repo,
                                                                          const std::string& rev) override;
  Expected<std::vector<model::ErrorRecord>> read_match_fields(Run& run);
  Expected<std::vector<model::DatasetLine>> read_lines(Run& run);
  Expected<std::optional<std::vector<model::DatasetLine>>> list_at(const std::string& repo, const std::string& rev) override;
  Expected<std::vector<SearchHit>> search(std::string_view text, const std::optional<std::string>& repo,
                                          int limit) override;
  Expected<std::vector<RepoSummary>> repos() override;
  Expected<std::string> datasets_state() override;
  Status writable() override {
    if (sqlite3_db_readonly(m_db, "main") != 1) return ok();
    return Error{"sqlite: attempt to write a readonly database: this user may not write the file or its folder"};
  }

 private:
  Status exec(const char* sql, std::string_view what) {
    char* msg = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &msg) == SQLITE_OK) return ok();
    std::string text = msg ? msg : sqlite3_errmsg(m_db);
    sqlite3_free(msg);
    return Error{"sqlite: " + std::string(what) + ": " + text};
  }
  Status prepare(Statement& s, const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(m_db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK)
      return db_error(m_db, std::string("prepare ") + sql);
    s = Statement(stmt);
    return ok();
  }
  void rollback() {
    if (!sqlite3_get_autocommit(m_db)) sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Status migrate();
  // For a store opened read-only: its schema must be this errdex's, as it
  // cannot be upgraded in place.
  Status check_schema();
  // The first column of the first row of `sql`, or "" when there is none.
  std::string read_one(const char* sql) {
    Statement stmt;
    if (!prepare(stmt, sql)) return {};
    Run run(stmt);
    return run.step() == SQLITE_ROW ? std::string(run.column_text(0)) : std::string();
  }
  Status prepare_all();
  Status ingest_locked(const Dataset& dataset);
  // In a write transaction: the id of the record body `body`
  // (model::body_json) whose key is `key` (util::content_key of it),
  // stored first when no revision holds it yet.
  Expected<std::int64_t> body_id(const std::string& body, const std::string& key);
  // A repository's datasets in revision order (Store::ingest).
  using DatasetRow = StoredRevision;
  Expected<std::vector<DatasetRow>> datasets_of(const std::string& repo);
  // The repository's current dataset, if it has one.
  Expected<std::optional<std::int64_t>> current_dataset(const std::string& repo);
  // The search docs of a dataset's records, sorted; of the repository's
  // current dataset when `dataset` is empty (none when it has none).
  Expected<std::vector<std::int64_t>> search_docs(std::optional<std::int64_t> dataset, const std::string& repo);
  // In a write transaction: makes the last revision current, or forgets
  // the repository when it has none left. The search index held `indexed`
  // (the docs of the current dataset before its datasets changed) for it,
  // and holds the new current's after: docs in both are left alone.
  // `inserted`, when given, is the dataset just inserted with its docs
  // sorted: when it becomes current they are not read back.
  Status choose_current(const std::string& repo, const std::vector<std::int64_t>& indexed,
                        const std::pair<std::int64_t, const std::vector<std::int64_t>*>& inserted = {0, nullptr});
  // The datasets table's count, last id, records in all and the last row's
  // ingest time: another connection's ingest or forget changes it (a
  // dataset replaced as the last one gets its id again, not its time).
  Expected<std::string> datasets_mark();
  Expected<std::vector<SiteAt>> read_sites(Statement& stmt, const std::function<void(Run&)>& bind);
  // Runs `work` in one write transaction: all of it lands, or none.
  template <class Work>
  auto in_transaction(const char* what, Work&& work) -> decltype(work()) {
    if (auto s = exec("BEGIN IMMEDIATE", std::string("begin ") + what); !s) return Error{s.error()};
    auto result = work();
    if (!result) {
      rollback();
      return result;
    }
    if (auto c = exec("COMMIT", std::string("commit ") + what); !c) {
      rollback();
      return Error{c.error()};
    }
    return result;
  }
  Expected<std::vector<RankedId>> search_ids(std::string_view text, const std::optional<std::string>& repo,
                                             int limit) override;
  // Every word of `text` (quoted, never FTS syntax); if no record has them
  // all, any of them. `read` turns a row of `stmt` into a hit.
  template <class Hit, class Read>
  Expected<std::vector<Hit>> search_words(Statement& stmt, std::string_view text, const std::optional<std::string>& repo,
                                          int limit, Read read) {
    if (limit <= 0) return std::vector<Hit>();
    auto words = quoted_words(text);
    if (words.empty()) return std::vector<Hit>();
    auto once = [&](const std::string& query) -> Expected<std::vector<Hit>> {
      std::vector<Hit> out;
      Run run(stmt);
      run.text(1, query).text_or_null(2, repo).integer(3, limit);
      int rc;
      while ((rc = run.step()) == SQLITE_ROW) {
        auto hit = read(run);
        if (!hit) return Error{hit.error()};
        out.push_back(std::move(*hit));
      }
      if (rc != SQLITE_DONE) return db_error(m_db, "search");
      return out;
    };
    auto hits = once(join(words, " "));
    if (!hits || !hits->empty() || words.size() == 1) return hits;
    // No record has every word: rank those that have some.
    return once(join(words, " OR "));
  }

  struct Closer {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
  };
  // Declared before the statements so that it is destroyed after them.
  std::unique_ptr<sqlite3, Closer> m_owner;
  sqlite3* m_db;
  Statement m_find_same, m_find_current, m_fts_delete, m_delete_records, m_delete_dataset;
  Statement m_insert_dataset, m_insert_record, m_fts_fill, m_set_current, m_unset_current, m_datasets_of;
  Statement m_search_docs, m_docs_by_id, m_max_doc, m_fts_add, m_find_body, m_insert_body, m_delete_bodies;
  Statement m_revision_sites, m_occurrences, m_occurrences_key, m_match_fields_at;
  Statement m_get, m_list, m_list_at, m_match_fields, m_search, m_search_ids, m_repos, m_datasets_state;
  Statement m_datasets_mark;

  // What this connection's last ingest wrote, so that the next one (a later
  // revision of the same repository, in the same command) need not read it
  // back: the bodies stored with their records' search hashes, the next
  // search doc, and the current dataset's records by id with their docs.
  // Kept only after a commit; used only while the datasets table is as that
  // commit left it (`mark`): another writer's ingest or forget, or this
  // connection's forget or replacement of a dataset, drops it.
  struct LastIngest {
    std::string mark;
    std::int64_t next_doc = 0;
    std::unordered_map<std::string, std::pair<std::int64_t, std::string>> bodies;  // key -> row, search hash
    std::string repo;
    std::int64_t current = 0;  // of `repo`; 0: its docs are not known
    std::unordered_map<std::string, std::pair<std::string, std::int64_t>> docs_by_id;  // of `current`
    std::vector<std::int64_t> indexed;  // their docs, sorted
  };
  std::optional<LastIngest> m_last;
};

Status SqliteStore::init() {
  sqlite3_busy_timeout(m_db, k_busy_timeout_ms);
  sqlite3_extended_result_codes(m_db, 1);
  // WAL: readers keep their snapshot while a writer ingests, and a killed
  // writer leaves only uncommitted frames that the next open ignores.
  // synchronous=NORMAL is durable against process crashes; only a power loss
  // may drop the last commits. A large ingest grows the WAL to the size of
  // the dataset; journal_size_limit gives that space back after checkpoints.
  // Foreign keys are turned on after the schema is migrated: an upgrade
  // that makes a table anew must not cascade its drop to the records.
  // A file this process may not write (another user's, a read-only mount)
  // is opened read-only by SQLite: reading commands work on it as long as
  // its schema is this errdex's, and a write fails as read-only. Asking for
  // WAL again would be a write, so it is asked only when not yet set.
  const bool read_only = sqlite3_db_readonly(m_db, "main") == 1;
  if (!read_only || read_one("PRAGMA journal_mode") != "wal")
    if (auto s = exec("PRAGMA journal_mode=WAL", "configure"); !s) return s;
  if (auto s = exec("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF; PRAGMA journal_size_limit=67108864;",
                    "configure");
      !s)
    return s;
  if (auto s = read_only ? check_schema() : migrate(); !s) return s;
  if (auto s = exec("PRAGMA foreign_keys=ON", "configure foreign keys"); !s) return s;
  return prepare_all();
}

Status SqliteStore::migrate() {
  // Immediate: two processes opening a fresh file must not both create it.
  if (auto s = exec("BEGIN IMMEDIATE", "begin schema transaction"); !s) return s;
  auto fail = [&](Status s) {
    rollback();
    return s;
  };
  if (auto s = exec("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)", "create meta");
      !s)
    return fail(s);
  Statement version_stmt;
  if (auto s = prepare(version_stmt, "SELECT value FROM meta WHERE key = 'schema_version'"); !s) return fail(s);
  std::optional<std::string> version;
  {
    Run run(version_stmt);
    int rc = run.step();
    if (rc == SQLITE_ROW) version = std::string(run.column_text(0));
    else if (rc != SQLITE_DONE) return fail(db_error(m_db, "read schema version"));
  }
  version_stmt = Statement();
  if (!version) {
    if (auto s = exec(k_schema, "create schema"); !s) return fail(s);
    std::string set = "INSERT INTO meta(key, value) VALUES('schema_version', '" +
                      std::to_string(k_schema_version) + "')";
    if (auto s = exec(set.c_str(), "write schema version"); !s) return fail(s);
  } else {
    // An older store is upgraded in place, one numbered step at a time, in
    // this transaction; a newer one is left alone.
    static const char* const k_upgrades[] = {
        nullptr,
        // 1 -> 2
        "ALTER TABLE datasets ADD COLUMN import_roots TEXT NOT NULL DEFAULT '[]'",
        // 2 -> 3: a unique key changes, so the table is made anew (foreign
        // keys are off while migrating: records and repos keep pointing at
        // the same ids).
        "CREATE TABLE datasets_v3(id INTEGER PRIMARY KEY, repo TEXT NOT NULL, sha TEXT NOT NULL,"
        " ref TEXT NOT NULL DEFAULT '', dataset_version TEXT NOT NULL, ingested_at TEXT NOT NULL,"
        " record_count INTEGER NOT NULL, import_roots TEXT NOT NULL DEFAULT '[]', UNIQUE(repo, sha, ref));"
        " INSERT INTO datasets_v3(id, repo, sha, dataset_version, ingested_at, record_count, import_roots)"
        "  SELECT id, repo, sha, dataset_version, ingested_at, record_count, import_roots FROM datasets;"
        " DROP TABLE datasets;"
        " ALTER TABLE datasets_v3 RENAME TO datasets;"
        " ALTER TABLE records ADD COLUMN site_key TEXT NOT NULL DEFAULT '';"
        " CREATE INDEX records_by_site_key ON records(site_key) WHERE site_key != '';",
        // 3 -> 4: the search index's rows were the records' seq.
        "ALTER TABLE records ADD COLUMN search_doc INTEGER NOT NULL DEFAULT 0;"
        " ALTER TABLE records ADD COLUMN search_hash TEXT NOT NULL DEFAULT '';"
        " UPDATE records SET search_doc = seq;"
        " CREATE INDEX records_by_search_doc ON records(search_doc, repo, dataset_id);"
        " CREATE INDEX records_docs ON records(dataset_id, id, search_hash, search_doc);",
        // 4 -> 5: each record's JSON becomes a body of its own (revisions
        // that shared one keep a copy each; records stored from now on
        // share), its stamp read off it. records_docs covered what an
        // ingest read past the JSON in a row; rows are small now.
        "CREATE TABLE record_bodies(id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, json TEXT NOT NULL);"
        " INSERT INTO record_bodies(id, key, json) SELECT seq, 'seq:' || seq, json FROM records;"
        " ALTER TABLE records ADD COLUMN body INTEGER NOT NULL DEFAULT 0;"
        " ALTER TABLE records ADD COLUMN github_url TEXT NOT NULL DEFAULT '';"
        " ALTER TABLE records ADD COLUMN analyzed_sha TEXT NOT NULL DEFAULT '';"
        " ALTER TABLE records ADD COLUMN analyzed_at TEXT NOT NULL DEFAULT '';"
        " ALTER TABLE records ADD COLUMN analysis_at TEXT NOT NULL DEFAULT '';"
        " UPDATE records SET body = seq, github_url = coalesce(json_extract(json, '$.githubUrl'), ''),"
        "  analyzed_sha = coalesce(json_extract(json, '$.analyzedSha'), ''),"
        "  analyzed_at = coalesce(json_extract(json, '$.analyzedAt'), ''),"
        "  analysis_at = coalesce(json_extract(json, '$.analysis.at'), '');"
        " DROP INDEX records_docs;"
        " ALTER TABLE records DROP COLUMN json;"
        " CREATE INDEX records_by_body ON records(body);",
        // 5 -> 6: indexes led by the dataset (see the schema); each row
        // takes its record's place from its body (which keeps it: bodies
        // stored from now on have it 0, and a row's place is put back).
        "DROP INDEX IF EXISTS records_by_id; DROP INDEX IF EXISTS records_by_site_key; DROP INDEX IF EXISTS records_by_body;"
        " CREATE INDEX records_by_dataset_key ON records(dataset_id, site_key) WHERE site_key != '';"
        " CREATE INDEX records_by_dataset_body ON records(dataset_id, body);"
        " ALTER TABLE records ADD COLUMN source_code_start INTEGER NOT NULL DEFAULT 0;"
        " ALTER TABLE records ADD COLUMN source_code_end INTEGER NOT NULL DEFAULT 0;"
        " UPDATE records SET"
        "  source_code_start = (SELECT coalesce(json_extract(json, '$.sourceCodeStart'), 0) FROM record_bodies"
        "   WHERE record_bodies.id = records.body),"
        "  source_code_end = (SELECT coalesce(json_extract(json, '$.sourceCodeEnd'), 0) FROM record_bodies"
        "   WHERE record_bodies.id = records.body);"
        // The search index gains each row's repository: made again from
        // the current records.
        " DROP INDEX IF EXISTS records_by_search_doc;"
        " CREATE INDEX records_by_dataset_doc ON records(dataset_id, search_doc);"
        " DROP TABLE records_fts; " ERRDEX_FTS_TABLE
        " " ERRDEX_FTS_INSERT " FROM repos p JOIN records r ON r.dataset_id = p.dataset_id " ERRDEX_BODY_JOIN ";",
    };
    int from = 0;
    for (char c : *version) from = c >= '0' && c <= '9' && from < 1000 ? from * 10 + (c - '0') : 1000;
    if (from < 1 || from > k_schema_version)
      return fail(Error{"store schema version " + *version + " is not supported (this errdex reads versions 1 to " +
                        std::to_string(k_schema_version) + ")"});
    for (int v = from; v < k_schema_version; ++v)
      if (auto s = exec(k_upgrades[v], ("upgrade schema from version " + std::to_string(v)).c_str()); !s)
        return fail(s);
    if (from != k_schema_version) {
      std::string set = "UPDATE meta SET value = '" + std::to_string(k_schema_version) + "' WHERE key = 'schema_version'";
      if (auto s = exec(set.c_str(), "write schema version"); !s) return fail(s);
    }
  }
  return exec("COMMIT", "commit schema");
}

Status SqliteStore::check_schema() {
  std::string version = read_one("SELECT value FROM meta WHERE key = 'schema_version'");
  if (version == std::to_string(k_schema_version)) return ok();
  if (version.empty()) return Error{"sqlite: the file is read-only and holds no errdex store"};
  return Error{"sqlite: the file is read-only and its store has schema version " + version + " (this errdex reads " +
               std::to_string(k_schema_version) + "): open it once where it can be written to upgrade it"};
}

Status SqliteStore::prepare_all() {
  struct Item {
    Statement* stmt;
    const char* sql;
  };
  // Hits joined to their current rows; `joins` adds what the select reads.
  auto search_from = [](const std::string& joins) {
    return std::string(", ") + k_rank +
           " AS score FROM records_fts JOIN repos p ON p.repo = records_fts.repo"
           " JOIN records r ON r.dataset_id = p.dataset_id AND r.search_doc = records_fts.rowid" +
           joins +
           " WHERE records_fts MATCH ?1 AND (?2 IS NULL OR r.repo = ?2)"
           " ORDER BY score, r.repo, r.file_path, r.line_number LIMIT ?3";
  };
  static const std::string search_sql = "SELECT " ERRDEX_RECORD_COLUMNS +
                                         search_from(" JOIN datasets d ON d.id = r.dataset_id " ERRDEX_BODY_JOIN);
  static const std::string fts_insert = ERRDEX_FTS_INSERT;
  // A dataset's records all, or one record by its search doc.
  static const std::string fts_fill = fts_insert + " FROM records r " ERRDEX_BODY_JOIN " WHERE r.dataset_id = ?1";
  static const std::string fts_add = fts_insert +
                                     " FROM records r INDEXED BY records_by_dataset_doc " ERRDEX_BODY_JOIN
                                     " WHERE r.dataset_id = ?1 AND r.search_doc = ?2";
  static const std::string search_ids_sql = "SELECT r.id" + search_from("");
  const Item items[] = {
      {&m_find_same, "SELECT id FROM datasets WHERE repo = ?1 AND sha = ?2 AND ref = ?3"},
      {&m_find_current, "SELECT dataset_id FROM repos WHERE repo = ?1"},
      {&m_fts_delete, "DELETE FROM records_fts WHERE rowid = ?1"},
      {&m_search_docs, "SELECT search_doc FROM records WHERE dataset_id = ?1 ORDER BY search_doc"},
      {&m_docs_by_id, "SELECT id, search_hash, search_doc FROM records WHERE dataset_id = ?1"},
      {&m_find_body, "SELECT id FROM record_bodies WHERE key = ?1"},
      {&m_insert_body, "INSERT INTO record_bodies(key, json) VALUES(?1, ?2)"},
      // Before a dataset's records go: the bodies no other dataset's record
      // refers to. A body holds its record's id and repository (ids hash
      // the repository), so only the repository's datasets can share it.
      {&m_delete_bodies,
       "DELETE FROM record_bodies WHERE id IN (SELECT body FROM records WHERE dataset_id = ?1"
       " EXCEPT SELECT o.body FROM datasets d JOIN records o ON o.dataset_id = d.id"
       " WHERE d.repo = (SELECT repo FROM datasets WHERE id = ?1) AND d.id != ?1)"},
      // Each dataset's last doc, one probe each.
      {&m_max_doc,
       "SELECT coalesce(max((SELECT max(r.search_doc) FROM records r WHERE r.dataset_id = d.id)), 0) FROM datasets d"},
      {&m_delete_records, "DELETE FROM records WHERE dataset_id = ?1"},
      {&m_delete_dataset, "DELETE FROM datasets WHERE id = ?1"},
      {&m_insert_dataset,
       "INSERT INTO datasets(repo, sha, dataset_version, ingested_at, record_count, import_roots, ref)"
       " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)"},
      {&m_insert_record,
       "INSERT INTO records(dataset_id, id, repo, file_path, line_number, error_class, error_message, site_key,"
       " search_doc, search_hash, body, github_url, analyzed_at, analysis_at, source_code_start, source_code_end)"
       " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"},
      // The search index holds the current records only, read off their
      // stored bodies.
      {&m_fts_fill, fts_fill.c_str()},
      {&m_fts_add, fts_add.c_str()},
      {&m_set_current,
       "INSERT INTO repos(repo, dataset_id) VALUES(?1, ?2)"
       " ON CONFLICT(repo) DO UPDATE SET dataset_id = excluded.dataset_id"},
      {&m_unset_current, "DELETE FROM repos WHERE repo = ?1"},
      {&m_datasets_of, "SELECT id, ref, sha, dataset_version, record_count FROM datasets WHERE repo = ?1 ORDER BY id"},
      {&m_revision_sites,
       "SELECT d.repo, d.ref, d.sha, r.id, r.file_path, r.line_number, r.error_class, r.error_message, r.site_key"
       " FROM records r JOIN datasets d ON d.id = r.dataset_id WHERE r.dataset_id = ?1"
       " ORDER BY r.file_path, r.line_number, r.id"},
      // By id and by site key: one probe per dataset (the indexes lead
      // with it).
      {&m_occurrences,
       "SELECT d.repo, d.ref, d.sha, r.id, r.file_path, r.line_number, r.error_class, r.error_message, r.site_key"
       " FROM datasets d CROSS JOIN records r ON r.dataset_id = d.id AND r.id = ?1"},
      {&m_occurrences_key,
       "SELECT d.repo, d.ref, d.sha, r.id, r.file_path, r.line_number, r.error_class, r.error_message, r.site_key"
       " FROM datasets d CROSS JOIN records r INDEXED BY records_by_dataset_key"
       " ON r.dataset_id = d.id AND r.site_key = ?2 AND r.site_key != '' WHERE d.repo = ?1"},
      {&m_get,
       "SELECT " ERRDEX_RECORD_COLUMNS ", d.dataset_version, d.ref FROM repos p"
       " CROSS JOIN records r ON r.dataset_id = p.dataset_id AND r.id = ?1 JOIN datasets d ON d.id = r.dataset_id "
       ERRDEX_BODY_JOIN " ORDER BY p.repo LIMIT 1"},
      {&m_list,
       "SELECT " ERRDEX_RECORD_COLUMNS ", d.dataset_version, d.ref FROM repos p"
       " JOIN datasets d ON d.id = p.dataset_id JOIN records r ON r.dataset_id = p.dataset_id " ERRDEX_BODY_JOIN
       " WHERE ?1 IS NULL OR p.repo = ?1 ORDER BY p.repo, r.file_path, r.line_number, r.id"},
      {&m_list_at,
       "SELECT " ERRDEX_RECORD_COLUMNS ", d.dataset_version, d.ref FROM records r"
       " JOIN datasets d ON d.id = r.dataset_id " ERRDEX_BODY_JOIN
       " WHERE r.dataset_id = ?1 ORDER BY r.file_path, r.line_number, r.id"},
      {&m_match_fields,
       "SELECT r.id, r.repo, r.file_path, r.line_number, r.error_class, r.error_message,"
       " json_extract(b.json, '$.messagePattern'), json_extract(b.json, '$.sourceCode'),"
       " r.source_code_start, json_extract(b.json, '$.documentation'),"
       " json_extract(b.json, '$.messageVariants') FROM repos p"
       " JOIN records r ON r.dataset_id = p.dataset_id " ERRDEX_BODY_JOIN
       " WHERE ?1 IS NULL OR p.repo = ?1 ORDER BY p.repo, r.file_path, r.line_number, r.id"},
      {&m_match_fields_at,
       "SELECT r.id, r.repo, r.file_path, r.line_number, r.error_class, r.error_message,"
       " json_extract(b.json, '$.messagePattern'), json_extract(b.json, '$.sourceCode'),"
       " r.source_code_start, json_extract(b.json, '$.documentation'),"
       " json_extract(b.json, '$.messageVariants') FROM records r " ERRDEX_BODY_JOIN
       " WHERE r.dataset_id = ?1 ORDER BY r.file_path, r.line_number, r.id"},
      {&m_search, search_sql.c_str()},
      {&m_search_ids, search_ids_sql.c_str()},
      {&m_repos,
       "SELECT p.repo, d.sha, d.dataset_version, d.record_count, d.import_roots, d.ref FROM repos p"
       " JOIN datasets d ON d.id = p.dataset_id ORDER BY p.repo"},
      {&m_datasets_state, "SELECT count(*), coalesce(max(id), 0) FROM datasets"},
      {&m_datasets_mark,
       "SELECT count(*), coalesce(max(id), 0), coalesce(sum(record_count), 0),"
       " coalesce((SELECT ingested_at FROM datasets ORDER BY id DESC LIMIT 1), '') FROM datasets"},
  };
  for (const auto& item : items)
    if (auto s = prepare(*item.stmt, item.sql); !s) return s;
  return ok();
}

Status SqliteStore::ingest(const Dataset& dataset) {
  if (auto s = check_dataset(dataset); !s) return s;
  // Everything below commits together or not at all: a reader or a process
  // opening after a crash sees the previous dataset or this one.
  auto s = in_transaction("ingest", [&] { return ingest_locked(dataset); });
  // What the ingest kept for the next one holds only once committed.
  if (!s) m_last.reset();
  return s;
}

Expected<std::string> SqliteStore::datasets_mark() {
  Run run(m_datasets_mark);
  if (run.step() != SQLITE_ROW) return db_error(m_db, "read the datasets' mark");
  return std::to_string(run.column_int(0)) + ":" + std::to_string(run.column_int(1)) + ":" +
         std::to_string(run.column_int(2)) + ":" + std::string(run.column_text(3));
}

Status SqliteStore::ingest_locked(const Dataset& dataset) {
  // What the last ingest kept, if no one has written since.
  std::optional<LastIngest> last = std::exchange(m_last, std::nullopt);
  if (last) {
    auto mark = datasets_mark();
    if (!mark) return Error{mark.error()};
    if (*mark != last->mark) last.reset();
  }
  // The current revision's records by id, with what search reads of them:
  // a record stored now with the same text keeps its search doc.
  auto found = current_dataset(dataset.repo);
  if (!found) return Error{found.error()};
  const std::optional<std::int64_t> current = *found;
  std::unordered_map<std::string, std::pair<std::string, std::int64_t>> docs_by_id;
  std::vector<std::int64_t> indexed;
  if (current && last && last->repo == dataset.repo && last->current == *current) {
    docs_by_id = std::move(last->docs_by_id);
    indexed = std::move(last->indexed);
  } else if (current) {
    Run run(m_docs_by_id);
    run.integer(1, *current);
    int rc;
    while ((rc = run.step()) == SQLITE_ROW) {
      indexed.push_back(run.column_int(2));
      docs_by_id.emplace(std::string(run.column_text(0)), std::pair(std::string(run.column_text(1)), run.column_int(2)));
    }
    if (rc != SQLITE_DONE) return db_error(m_db, "read the current records' search docs");
    std::sort(indexed.begin(), indexed.end());
  }
  // A new doc number is above every one in use: the search index holds
  // only docs of stored records.
  std::int64_t next_doc = 0;
  if (last) {
    next_doc = last->next_doc;
  } else {
    Run run(m_max_doc);
    if (run.step() != SQLITE_ROW) return db_error(m_db, "read the last search doc");
    next_doc = run.column_int(0) + 1;
  }
  std::optional<std::int64_t> same;
  {
    Run run(m_find_same);
    int rc = run.text(1, dataset.repo).text(2, dataset.sha).text(3, dataset.ref).step();
    if (rc == SQLITE_ROW) same = run.column_int(0);
    else if (rc != SQLITE_DONE) return db_error(m_db, "find dataset");
  }
  if (same) {
    // Bodies and docs go with it: nothing known is sure to hold after.
    last.reset();
    Run del_bodies(m_delete_bodies);
    if (del_bodies.integer(1, *same).step() != SQLITE_DONE) return db_error(m_db, "delete old bodies");
    Run del_records(m_delete_records);
    if (del_records.integer(1, *same).step() != SQLITE_DONE) return db_error(m_db, "delete old records");
    Run del_dataset(m_delete_dataset);
    if (del_dataset.integer(1, *same).step() != SQLITE_DONE) return db_error(m_db, "delete old dataset");
  }
  std::int64_t dataset_id;
  {
    Run run(m_insert_dataset);
    run.text(1, dataset.repo).text(2, dataset.sha).text(3, dataset.dataset_version).text(4, util::iso_now_ms());
    run.text(6, nlohmann::json(dataset.import_roots).dump()).text(7, dataset.ref);
    if (run.integer(5, static_cast<std::int64_t>(dataset.records.size())).step() != SQLITE_DONE)
      return db_error(m_db, "insert dataset");
    dataset_id = sqlite3_last_insert_rowid(m_db);
  }
  // Kept for the next ingest: the bodies known, and this dataset's docs.
  LastIngest next;
  if (last) next.bodies = std::move(last->bodies);
  next.repo = dataset.repo;
  next.docs_by_id.reserve(dataset.records.size());
  next.indexed.reserve(dataset.records.size());
  const bool serialised = dataset.record_bodies.size() == dataset.records.size();
  const bool keyed = serialised && dataset.record_body_keys.size() == dataset.records.size();
  std::string own;  // a body this store serialised
  for (std::size_t i = 0; i < dataset.records.size(); ++i) {
    const auto& r = dataset.records[i];
    if (!serialised) {
      model::ErrorRecord lent = r;
      own = model::body_json(lent);
    }
    const std::string& text = serialised ? dataset.record_bodies[i] : own;
    std::string key = keyed ? dataset.record_body_keys[i] : util::content_key(text);
    // A body holds all that the search hash reads: one known gives both.
    auto known = next.bodies.find(key);
    if (known == next.bodies.end()) {
      auto body = body_id(text, key);
      if (!body) return Error{body.error()};
      known = next.bodies.emplace(std::move(key), std::pair(*body, search_hash(r))).first;
    }
    const auto& [body, hash] = known->second;
    std::int64_t doc;
    if (auto it = docs_by_id.find(r.id); it != docs_by_id.end() && it->second.first == hash) {
      doc = it->second.second;
      docs_by_id.erase(it);  // one record per doc
    } else {
      doc = next_doc++;
    }
    // Every text bound lives in the dataset or in `next` past this Run.
    Run run(m_insert_record);
    run.integer(1, dataset_id).text_static(2, r.id).text_static(3, r.repo).text_static(4, r.file_path);
    run.integer(5, r.line_number).text_static(6, r.error_class).text_static(7, r.error_message);
    run.text_static(8, dataset.site_keys.empty() ? std::string_view() : dataset.site_keys[i]);
    run.integer(9, doc).text_static(10, hash).integer(11, body).text_static(12, r.github_url);
    run.text_static(13, r.analyzed_at);
    run.text_static(14, r.analysis ? std::string_view(r.analysis->at) : std::string_view());
    run.integer(15, r.source_code_start).integer(16, r.source_code_end);
    int rc = run.step();
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
      return Error{"duplicate record id " + r.id + " in dataset " + dataset.repo + "@" + dataset.sha};
    if (rc != SQLITE_DONE) return db_error(m_db, "insert record " + r.id);
    next.docs_by_id.emplace(r.id, std::pair(hash, doc));
    next.indexed.push_back(doc);
  }
  std::sort(next.indexed.begin(), next.indexed.end());
  if (auto s = choose_current(dataset.repo, indexed, {dataset_id, &next.indexed}); !s) return s;
  next.next_doc = next_doc;
  if (same) return ok();  // the last doc may have gone with it: read again next time
  // The docs are known when this dataset became current. The mark is read
  // while this transaction holds the write lock: it is what the commit
  // leaves, and no other writer's change can slip under it.
  auto now = current_dataset(dataset.repo);
  if (!now) return Error{now.error()};
  if (*now == dataset_id) {
    next.current = dataset_id;
  } else {
    next.docs_by_id.clear();
    next.indexed.clear();
  }
  auto mark = datasets_mark();
  if (!mark) return Error{mark.error()};
  next.mark = std::move(*mark);
  m_last = std::move(next);
  return ok();
}

Expected<std::int64_t> SqliteStore::body_id(const std::string& body, const std::string& key) {
  {
    Run find(m_find_body);
    int rc = find.text(1, key).step();
    if (rc == SQLITE_ROW) return find.column_int(0);
    if (rc != SQLITE_DONE) return db_error(m_db, "find record body");
  }
  Run add(m_insert_body);
  if (add.text(1, key).text(2, body).step() != SQLITE_DONE) return db_error(m_db, "insert record body");
  return sqlite3_last_insert_rowid(m_db);
}

Expected<std::optional<std::int64_t>> SqliteStore::current_dataset(const std::string& repo) {
  Run run(m_find_current);
  int rc = run.text(1, repo).step();
  if (rc == SQLITE_ROW) return std::optional<std::int64_t>(run.column_int(0));
  if (rc != SQLITE_DONE) return db_error(m_db, "find current dataset");
  return std::optional<std::int64_t>();
}

Expected<std::vector<std::int64_t>> SqliteStore::search_docs(std::optional<std::int64_t> dataset,
                                                            const std::string& repo) {
  if (!dataset) {
    auto found = current_dataset(repo);
    if (!found) return Error{found.error()};
    dataset = *found;
  }
  std::vector<std::int64_t> docs;
  if (!dataset) return docs;
  Run run(m_search_docs);
  run.integer(1, *dataset);
  int rc;
  while ((rc = run.step()) == SQLITE_ROW) docs.push_back(run.column_int(0));
  if (rc != SQLITE_DONE) return db_error(m_db, "read search docs");
  return docs;
}

Status SqliteStore::choose_current(const std::string& repo, const std::vector<std::int64_t>& indexed,
                                   const std::pair<std::int64_t, const std::vector<std::int64_t>*>& inserted) {
  auto rows = datasets_of(repo);
  if (!rows) return Error{rows.error()};
  std::vector<std::int64_t> wanted;
  if (!rows->empty() && inserted.second && rows->back().id == inserted.first) {
    wanted = *inserted.second;
  } else if (!rows->empty()) {
    auto docs = search_docs(rows->back().id, repo);
    if (!docs) return Error{docs.error()};
    wanted = std::move(*docs);
  }
  // Out of the index: what the old current held and the new one does not;
  // into it: the reverse. Both lists are sorted.
  std::vector<std::int64_t> drop, add;
  std::set_difference(indexed.begin(), indexed.end(), wanted.begin(), wanted.end(), std::back_inserter(drop));
  std::set_difference(wanted.begin(), wanted.end(), indexed.begin(), indexed.end(), std::back_inserter(add));
  for (std::int64_t doc : drop) {
    Run run(m_fts_delete);
    if (run.integer(1, doc).step() != SQLITE_DONE) return db_error(m_db, "clear search index");
  }
  if (rows->empty()) {
    Run run(m_unset_current);
    if (run.text(1, repo).step() != SQLITE_DONE) return db_error(m_db, "forget repository");
    return ok();
  }
  const std::int64_t last = rows->back().id;
  if (add.size() == wanted.size()) {
    // Nothing kept: one statement indexes them all.
    Run run(m_fts_fill);
    if (run.integer(1, last).step() != SQLITE_DONE) return db_error(m_db, "index records for search");
  } else {
    for (std::int64_t doc : add) {
      Run run(m_fts_add);
      if (run.integer(1, last).integer(2, doc).step() != SQLITE_DONE) return db_error(m_db, "index records for search");
    }
  }
  Run run(m_set_current);
  if (run.text(1, repo).integer(2, last).step() != SQLITE_DONE) return db_error(m_db, "set current dataset");
  return ok();
}

Expected<std::vector<SqliteStore::DatasetRow>> SqliteStore::datasets_of(const std::string& repo) {
  std::vector<DatasetRow> rows;
  {
    Run run(m_datasets_of);
    run.text(1, repo);
    int rc;
    while ((rc = run.step()) == SQLITE_ROW)
      rows.push_back({run.column_int(0), Revision{std::string(run.column_text(1)), std::string(run.column_text(2)),
                                                  std::string(run.column_text(3)), run.column_int(4), false}});
    if (rc != SQLITE_DONE) return db_error(m_db, "list revisions");
  }
  order_revisions(rows);
  return rows;
}

Expected<std::size_t> SqliteStore::forget(const std::string& repo, const std::optional<std::string>& rev) {
  m_last.reset();  // bodies and docs go
  return in_transaction("forget", [&]() -> Expected<std::size_t> {
    auto rows = datasets_of(repo);
    if (!rows) return Error{rows.error()};
    std::vector<std::int64_t> drop;
    if (!rev) {
      for (const auto& r : *rows) drop.push_back(r.id);
    } else if (const DatasetRow* r = find_revision(*rows, *rev)) {
      drop.push_back(r->id);
    }
    if (drop.empty()) return std::size_t{0};
    auto indexed = search_docs(std::nullopt, repo);
    if (!indexed) return Error{indexed.error()};
    for (std::int64_t id : drop) {
      Run del_bodies(m_delete_bodies);
      if (del_bodies.integer(1, id).step() != SQLITE_DONE) return db_error(m_db, "delete bodies");
      Run del_records(m_delete_records);
      if (del_records.integer(1, id).step() != SQLITE_DONE) return db_error(m_db, "delete records");
      Run del_dataset(m_delete_dataset);
      if (del_dataset.integer(1, id).step() != SQLITE_DONE) return db_error(m_db, "delete dataset");
    }
    if (auto s = choose_current(repo, *indexed); !s) return Error{s.error()};
    return drop.size();
  });
}

Expected<std::vector<Revision>> SqliteStore::revisions(const std::string& repo) {
  auto rows = datasets_of(repo);
  if (!rows) return Error{rows.error()};
  std::vector<Revision> out;
  for (auto& r : *rows) out.push_back(std::move(r.revision));
  return out;
}

Expected<std::vector<SiteAt>> SqliteStore::read_sites(Statement& stmt, const std::function<void(Run&)>& bind) {
  std::vector<SiteAt> out;
  Run run(stmt);
  bind(run);
  int rc;
  while ((rc = run.step()) == SQLITE_ROW) {
    SiteAt s;
    s.repo = run.column_text(0);
    s.ref = run.column_text(1);
    s.sha = run.column_text(2);
    s.id = run.column_text(3);
    s.file_path = run.column_text(4);
    s.line = static_cast<int>(run.column_int(5));
    s.error_class = run.column_text(6);
    s.error_message = run.column_text(7);
    s.site_key = run.column_text(8);
    out.push_back(std::move(s));
  }
  if (rc != SQLITE_DONE) return db_error(m_db, "read sites");
  return out;
}

Expected<std::optional<std::pair<Revision, std::vector<SiteAt>>>> SqliteStore::revision(const std::string& repo,
                                                                                      const std::string& rev) {
  using Answer = std::optional<std::pair<Revision, std::vector<SiteAt>>>;
  auto rows = datasets_of(repo);
  if (!rows) return Error{rows.error()};
  const DatasetRow* r = find_revision(*rows, rev);
  if (!r) return Answer();
  auto sites = read_sites(m_revision_sites, [&](Run& run) { run.integer(1, r->id); });
  if (!sites) return Error{sites.error()};
  return Answer(std::pair(r->revision, std::move(*sites)));
}

Expected<std::vector<SiteAt>> SqliteStore::occurrences(std::string_view id) {
  return read_sites(m_occurrences, [&](Run& run) { run.text(1, id); });
}

Expected<std::vector<SiteAt>> SqliteStore::occurrences_of_key(const std::string& repo, const std::string& key) {
  if (key.empty()) return std::vector<SiteAt>();
  return read_sites(m_occurrences_key, [&](Run& run) { run.text(1, repo).text(2, key); });
}

Expected<std::optional<model::DatasetLine>> SqliteStore::get(std::string_view id) {
  Run run(m_get);
  int rc = run.text(1, id).step();
  if (rc == SQLITE_DONE) return std::optional<model::DatasetLine>();
  if (rc != SQLITE_ROW) return db_error(m_db, "get record");
  auto record = read_record(run);
  if (!record) return Error{"stored record " + std::string(id) + " is unreadable: " + record.error()};
  return std::optional<model::DatasetLine>(
      model::DatasetLine{std::move(*record), std::string(run.column_text(k_record_columns)),
                         std::string(run.column_text(k_record_columns + 1))});
}

Expected<std::vector<model::DatasetLine>> SqliteStore::list(const std::optional<std::string>& repo) {
  Run run(m_list);
  run.text_or_null(1, repo);
  return read_lines(run);
}

Expected<std::optional<std::vector<model::DatasetLine>>> SqliteStore::list_at(const std::string& repo,
                                                                             const std::string& rev) {
  using Answer = std::optional<std::vector<model::DatasetLine>>;
  auto rows = datasets_of(repo);
  if (!rows) return Error{rows.error()};
  const DatasetRow* r = find_revision(*rows, rev);
  if (!r) return Answer();
  Run run(m_list_at);
  run.integer(1, r->id);
  auto lines = read_lines(run);
  if (!lines) return Error{lines.error()};
  return Answer(std::move(*lines));
}

// Rows of (ERRDEX_RECORD_COLUMNS, dataset_version, ref) as dataset lines.
Expected<std::vector<model::DatasetLine>> SqliteStore::read_lines(Run& run) {
  std::vector<model::DatasetLine> out;
  int rc;
  while ((rc = run.step()) == SQLITE_ROW) {
    auto record = read_record(run);
    if (!record) return Error{"stored record is unreadable: " + record.error()};
    out.push_back(model::DatasetLine{std::move(*record), std::string(run.column_text(k_record_columns)),
                                     std::string(run.column_text(k_record_columns + 1))});
  }
  if (rc != SQLITE_DONE) return db_error(m_db, "list records");
  return out;
}

Expected<std::vector<model::ErrorRecord>> SqliteStore::match_fields(const std::optional<std::string>& repo) {
  Run run(m_match_fields);
  run.text_or_null(1, repo);
  return read_match_fields(run);
}

Expected<std::optional<std::vector<model::ErrorRecord>>> SqliteStore::match_fields_at(const std::string& repo,
                                                                                     const std::string& rev) {
  using Answer = std::optional<std::vector<model::ErrorRecord>>;
  auto rows = datasets_of(repo);
  if (!rows) return Error{rows.error()};
  const DatasetRow* r = find_revision(*rows, rev);
  if (!r) return Answer();
  Run run(m_match_fields_at);
  run.integer(1, r->id);
  auto records = read_match_fields(run);
  if (!records) return Error{records.error()};
  return Answer(std::move(*records));
}

Expected<std::vector<model::ErrorRecord>> SqliteStore::read_match_fields(Run& run) {
  std::vector<model::ErrorRecord> out;
  int rc;
  while ((rc = run.step()) == SQLITE_ROW) {
    model::ErrorRecord r;
    r.id = run.column_text(0);
    r.repo = run.column_text(1);
    r.file_path = run.column_text(2);
    r.line_number = static_cast<int>(run.column_int(3));
    r.error_class = run.column_text(4);
    r.error_message = run.column_text(5);
    r.message_pattern = run.column_text(6);
    r.source_code = run.column_text(7);
    r.source_code_start = static_cast<int>(run.column_int(8));
    r.documentation = run.column_text(9);
    if (auto variants = run.column_text(10); !variants.empty()) {
      // The same reading as record_from_json's, on the one field.
      auto parsed = model::record_variants_from_json(variants);
      if (!parsed) return Error{"stored record " + r.id + " is unreadable: " + parsed.error()};
      r.message_variants = std::move(*parsed);
    }
    out.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) return db_error(m_db, "list records for matching");
  return out;
}

Expected<std::vector<SearchHit>> SqliteStore::search(std::string_view text, const std::optional<std::string>& repo,
                                                     int limit) {
  return search_words<SearchHit>(m_search, text, repo, limit, [](const Run& run) -> Expected<SearchHit> {
    auto record = read_record(run);
    if (!record) return Error{"stored record is unreadable: " + record.error()};
    return SearchHit{std::move(*record), run.column_double(k_record_columns)};
  });
}

Expected<std::vector<RankedId>> SqliteStore::search_ids(std::string_view text, const std::optional<std::string>& repo,
                                                        int limit) {
  return search_words<RankedId>(m_search_ids, text, repo, limit, [](const Run& run) -> Expected<RankedId> {
    return RankedId{std::string(run.column_text(0)), run.column_double(1)};
  });
}

Expected<std::vector<RepoSummary>> SqliteStore::repos() {
  std::vector<RepoSummary> out;
  Run run(m_repos);
  int rc;
  while ((rc = run.step()) == SQLITE_ROW) {
    out.push_back(RepoSummary{std::string(run.column_text(0)), std::string(run.column_text(1)),
                              std::string(run.column_text(2)), run.column_int(3),
                              import_roots_from_json(run.column_text(4)), std::string(run.column_text(5))});
  }
  if (rc != SQLITE_DONE) return db_error(m_db, "list repos");
  return out;
}

Expected<std::string> SqliteStore::datasets_state() {
  // A dataset replaced is deleted and inserted again: a new id.
  Run run(m_datasets_state);
  if (run.step() != SQLITE_ROW) return db_error(m_db, "read the datasets' state");
  return std::to_string(run.column_int(0)) + ":" + std::to_string(run.column_int(1));
}

}  // namespace

namespace {

// `read_only` says whether SQLite opened the file read-only (it does when
// the file is not writable), also when init failed.
Expected<std::unique_ptr<Store>> open_as(const std::string& name, const std::string& path, int flags,
                                         bool& read_only) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(name.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    Error e{"sqlite: open " + path + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc))};
    sqlite3_close(db);
    return e;
  }
  read_only = sqlite3_db_readonly(db, "main") == 1;
  auto store = std::make_unique<SqliteStore>(db);
  if (auto s = store->init(); !s) return Error{s.error() + " (" + path + ")"};
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace

Expected<std::unique_ptr<Store>> open(const std::string& path) {
  bool read_only = false;
  auto store = open_as(path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, read_only);
  if (store || !read_only) return store;
  // A read-only file in a folder this process cannot write either (a
  // read-only mount, another user's folder) cannot hold the WAL index SQLite
  // reads through: it is read as immutable, as it stands (a scan writing it
  // meanwhile is not seen).
  std::string uri = "file:" + util::url_path_encode(path);
  uri += "?immutable=1";
  auto again = open_as(uri, path, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, read_only);
  if (!again) return store;
  return again;
}

}  // namespace errdex::store::sqlite
