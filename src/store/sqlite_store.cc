#include "store/sqlite_store.h"

#include <sqlite3.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "store/sqlite_statement.h"
#include "store/sqlite_store_impl.h"
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

}  // namespace

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
    m_schema_found = 0;
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
    m_schema_found = from;
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
  if (version == std::to_string(k_schema_version)) {
    m_schema_found = k_schema_version;
    return ok();
  }
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

Expected<Migration> migrate(const std::string& path) {
  auto store = open(path);
  if (!store) return Error{store.error()};
  return Migration{static_cast<SqliteStore&>(**store).schema_found(), k_schema_version};
}

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
