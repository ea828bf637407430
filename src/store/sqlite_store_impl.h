#pragma once
// The SQLite backend's class (sqlite_store.h opens it), internal to the
// store stage: its schema, migration and statements in sqlite_store.cc,
// its writes (ingest, forget, which revision is current) in
// sqlite_ingest.cc, its reads in sqlite_queries.cc.
#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/error_record.h"
#include "store/dataset_rules.h"
#include "store/sqlite_statement.h"
#include "store/store.h"

namespace errdex::store::sqlite {

// A whole record, as read_record reads it: its body, then its stamp (of
// records r, datasets d, record_bodies b).
#define ERRDEX_RECORD_COLUMNS                                                                                      \
  "b.json, r.github_url, CASE r.analyzed_sha WHEN '' THEN d.sha ELSE r.analyzed_sha END, r.analyzed_at, r.analysis_at," \
  " r.line_number, r.source_code_start, r.source_code_end"
// How many they are: the columns a query selects after them start here.
constexpr int k_record_columns = 8;

// The record of a row that starts with ERRDEX_RECORD_COLUMNS.
Expected<model::ErrorRecord> read_record(const Run& run);

// Each search word (dataset_rules.h) quoted as an FTS5 string: nothing the
// user types reaches the FTS5 query parser as syntax.
std::vector<std::string> quoted_words(std::string_view text);

// `parts` joined with `sep` between them.
std::string join(const std::vector<std::string>& parts, std::string_view sep);

// The Store of one SQLite connection (sqlite_store.h: open). Used by one
// thread at a time.
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

  // The schema version found on opening: 0 when the store was created
  // then, the current version when there was nothing to upgrade.
  int schema_found() const { return m_schema_found; }

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
  int m_schema_found = 0;
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

}  // namespace errdex::store::sqlite
