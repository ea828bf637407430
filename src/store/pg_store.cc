#include "store/pg_store.h"

#include <algorithm>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "model/record_json.h"
#include "model/restamp.h"
#include "store/dataset_rules.h"
#include "store/pg_pool.h"
#include "util/text.h"

namespace errdex::store::pg {
namespace {

// Advisory locks of errdex, in a class of their own (the first key): one
// for migrating, one per repository for writing its datasets.
constexpr const char* k_migrate_lock = "SELECT pg_advisory_lock(1162106880, 0)";
constexpr const char* k_migrate_unlock = "SELECT pg_advisory_unlock(1162106880, 0)";
// Rows sent to the server per INSERT when ingesting: one round trip each.
constexpr std::size_t k_batch_records = 1000;
constexpr std::size_t k_batch_bytes = 8 << 20;

struct Step {
  int version;
  const char* description;
  const char* sql;
};

// Numbered migrations; one is never edited once released, a change is a
// new one. Texts compare as bytes (COLLATE "C"), as SQLite's do, so that
// both stores answer in the same order.
const Step k_migrations[] = {
    {1, "datasets, repos and records, with a tsvector for search", R"sql(
-- One revision of a repository each; several of one repository side by side.
CREATE TABLE datasets(
  id BIGSERIAL PRIMARY KEY,
  repo TEXT COLLATE "C" NOT NULL,
  sha TEXT COLLATE "C" NOT NULL,
  ref TEXT COLLATE "C" NOT NULL DEFAULT '',
  dataset_version TEXT NOT NULL,
  ingested_at TEXT NOT NULL,
  record_count BIGINT NOT NULL,
  import_roots TEXT NOT NULL DEFAULT '[]',
  UNIQUE(repo, sha, ref)
);
-- The current dataset of each repository. Deferred so that one ingest can
-- drop and replace the dataset a row points to before repointing it.
CREATE TABLE repos(
  repo TEXT COLLATE "C" PRIMARY KEY,
  dataset_id BIGINT NOT NULL REFERENCES datasets(id) DEFERRABLE INITIALLY DEFERRED
);
-- json is to_json(record) exactly, so export is byte-exact; the other
-- columns are copies for ordering and lookup. search holds the words of
-- message (A), class (B), tags (C) and documentation (D), split as
-- store/dataset_rules.h splits a query; tokens counts those words (what
-- bm25 calls the record's length).
CREATE TABLE records(
  seq BIGSERIAL PRIMARY KEY,
  dataset_id BIGINT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  id TEXT COLLATE "C" NOT NULL,
  repo TEXT COLLATE "C" NOT NULL,
  file_path TEXT COLLATE "C" NOT NULL,
  line_number INTEGER NOT NULL,
  error_class TEXT COLLATE "C" NOT NULL,
  error_message TEXT COLLATE "C" NOT NULL,
  json TEXT NOT NULL,
  site_key TEXT COLLATE "C" NOT NULL DEFAULT '',
  search TSVECTOR NOT NULL,
  tokens INTEGER NOT NULL,
  UNIQUE(dataset_id, id)
);
CREATE INDEX records_by_id ON records(id);
CREATE INDEX records_by_location ON records(dataset_id, file_path, line_number);
CREATE INDEX records_by_site_key ON records(site_key) WHERE site_key <> '';
CREATE INDEX records_search ON records USING GIN(search);
)sql"},
    {2, "caches of file facts and LLM answers", R"sql(
CREATE TABLE file_facts(key TEXT PRIMARY KEY, facts TEXT NOT NULL);
CREATE TABLE llm_answers(key TEXT PRIMARY KEY, answer TEXT NOT NULL, created_at TEXT NOT NULL);
)sql"},
    {3, "a queue of scan jobs for workers", R"sql(
-- state: queued, running (by worker until lease_until, unless its lease ran
-- out: then it is taken again), done or failed (error says why).
CREATE TABLE jobs(
  id BIGSERIAL PRIMARY KEY,
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  source TEXT NOT NULL,
  revs TEXT[] NOT NULL DEFAULT '{}',
  repo TEXT,
  ref TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  worker TEXT NOT NULL DEFAULT '',
  error TEXT NOT NULL DEFAULT '',
  enqueued_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  started_at TIMESTAMPTZ,
  heartbeat_at TIMESTAMPTZ,
  lease_until TIMESTAMPTZ,
  finished_at TIMESTAMPTZ
);
CREATE INDEX jobs_open ON jobs(id) WHERE state IN ('queued', 'running');
)sql"},
    // pglz compresses a record's JSON (the TOAST of every row) at about half
    // lz4's speed: a scan into PostgreSQL took 1.35x SQLite's time with it,
    // 1.24x with lz4 (bench/RESULTS.md). A server built without lz4 keeps
    // pglz: the store works the same either way.
    {4, "records' JSON compressed with lz4 where the server has it", R"sql(
DO $$
BEGIN
  EXECUTE 'ALTER TABLE records ALTER COLUMN json SET COMPRESSION lz4';
EXCEPTION WHEN OTHERS THEN
  NULL;
END
$$;
)sql"},
    // A record's JSON without its stamp (model/restamp.h) is its body,
    // stored once however many revisions hold the record (key:
    // util::content_key of json); a row keeps the stamp (analyzed_sha ''
    // when it is the dataset's sha, as check_dataset has it for every
    // record ingested now). Each record stored before this step keeps its
    // JSON as a body of its own, its stamp read off it.
    {5, "record bodies shared by revisions, a stamp per record", R"sql(
CREATE TABLE record_bodies(
  id BIGSERIAL PRIMARY KEY,
  key TEXT COLLATE "C" NOT NULL UNIQUE,
  json TEXT NOT NULL
);
DO $$
BEGIN
  EXECUTE 'ALTER TABLE record_bodies ALTER COLUMN json SET COMPRESSION lz4';
EXCEPTION WHEN OTHERS THEN
  NULL;
END
$$;
ALTER TABLE records ADD COLUMN body BIGINT, ADD COLUMN github_url TEXT NOT NULL DEFAULT '',
  ADD COLUMN analyzed_sha TEXT NOT NULL DEFAULT '', ADD COLUMN analyzed_at TEXT NOT NULL DEFAULT '', ADD COLUMN analysis_at TEXT NOT NULL DEFAULT '';
INSERT INTO record_bodies(id, key, json) SELECT seq, 'seq:' || seq, json FROM records;
SELECT setval(pg_get_serial_sequence('record_bodies', 'id'), coalesce((SELECT max(id) FROM record_bodies), 0) + 1, false);
UPDATE records SET body = seq, github_url = coalesce(json::json->>'githubUrl', ''),
  analyzed_sha = coalesce(json::json->>'analyzedSha', ''),
  analyzed_at = coalesce(json::json->>'analyzedAt', ''), analysis_at = coalesce(json::json#>>'{analysis,at}', '');
ALTER TABLE records ALTER COLUMN body SET NOT NULL, DROP COLUMN json;
CREATE INDEX records_by_body ON records(body);
)sql"},
    // A record's place in its file (model/restamp.h) is kept by its row,
    // beside line_number, so that a record whose lines moved shares its
    // body. A body stored before keeps it; its row takes it from there.
    {6, "a record's place kept by its row", R"sql(
ALTER TABLE records ADD COLUMN source_code_start INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN source_code_end INTEGER NOT NULL DEFAULT 0;
UPDATE records r SET source_code_start = coalesce((b.json::json->>'sourceCodeStart')::int, 0),
  source_code_end = coalesce((b.json::json->>'sourceCodeEnd')::int, 0)
  FROM record_bodies b WHERE b.id = r.body;
)sql"},
    // scan's other options a job carries (store/jobs.h), as a JSON object:
    // {"revsGlob", "prefix", "sha", "includeTests", "noEvidence", "blame",
    // "noCache"}, each only when set. A job queued before has none.
    {7, "a job's other scan options", R"sql(
ALTER TABLE IF EXISTS jobs ADD COLUMN IF NOT EXISTS options TEXT NOT NULL DEFAULT '{}';
)sql"},
};
constexpr int k_schema_version = 7;

// Sites in short (SiteAt), in this column order.
#define ERRDEX_SITE_COLUMNS \
  "d.repo, d.ref, d.sha, r.id, r.file_path, r.line_number, r.error_class, r.error_message, r.site_key"
// Hits ranked by FTS5's bm25 as SQLite computes it (k1 1.2, b 0.75; column
// weights message 10, class 4, tags 3, documentation 1), so that both
// stores rank alike: over the current records, the number of records
// holding each word (its IDF), each record's length in words (tokens) and
// the mean length. Lower is better. $1 is the query's words, read by
// to_tsvector as the records' were; $4 the operator between them (& or |);
// each word is quoted, never query syntax.
// stats and idf are MATERIALIZED: computed once per query, not once per
// hit scored (PostgreSQL would inline them into the per-hit subquery).
#define ERRDEX_SEARCH_WITH                                                                               \
  "WITH terms AS (SELECT l AS t FROM unnest(tsvector_to_array(to_tsvector('simple', $1))) AS l),"         \
  " q AS (SELECT string_agg(quote_literal(t), $4)::tsquery AS q FROM terms),"                             \
  " stats AS MATERIALIZED (SELECT count(*)::float8 AS n, coalesce(avg(tokens), 1)::float8 AS avgdl"       \
  "           FROM records r JOIN repos p ON p.dataset_id = r.dataset_id),"                               \
  " idf AS MATERIALIZED (SELECT terms.t, greatest(ln((s.n - h.c + 0.5) / (h.c + 0.5)), 1e-6) AS idf"      \
  "         FROM terms CROSS JOIN stats s CROSS JOIN LATERAL (SELECT count(*)::float8 AS c"               \
  "         FROM records r JOIN repos p ON p.dataset_id = r.dataset_id"                                   \
  "         WHERE r.search @@ quote_literal(terms.t)::tsquery) h),"                                       \
  " hits AS (SELECT r.* FROM records r JOIN repos p ON p.dataset_id = r.dataset_id, q"                    \
  "          WHERE r.search @@ q.q AND ($2::text IS NULL OR p.repo = $2))"
#define ERRDEX_SEARCH_SCORE                                                                              \
  ", -(SELECT sum(i.idf * f.freq * 2.2 / (f.freq + 1.2 * (0.25 + 0.75 * h.tokens / s.avgdl)))"           \
  "    FROM idf i CROSS JOIN LATERAL (SELECT coalesce(sum(CASE w WHEN 'A' THEN 10 WHEN 'B' THEN 4"        \
  "    WHEN 'C' THEN 3 ELSE 1 END), 0)::float8 AS freq"                                                   \
  "    FROM unnest(h.search) u CROSS JOIN unnest(u.weights) w WHERE u.lexeme = i.t) f) AS score"          \
  " FROM hits h CROSS JOIN stats s"                                                                       \
  " ORDER BY score, h.repo, h.file_path, h.line_number, h.id LIMIT $3"

// Servers LISTEN on this channel (store/change_feed.h); the payload is the
// repository. Sent inside the writing transaction, so it is delivered at
// commit, and never for a write that rolled back.
const Sql k_notify{"notify", "SELECT pg_notify('errdex_datasets', $1)"};
const Sql k_lock_repo{"lock_repo", "SELECT pg_advisory_xact_lock(1162106881, hashtext($1))"};
const Sql k_find_same{"find_same", "SELECT id FROM datasets WHERE repo = $1 AND sha = $2 AND ref = $3"};
const Sql k_delete_dataset{"delete_dataset", "DELETE FROM datasets WHERE id = $1"};
// Before a dataset goes: the bodies no other dataset's record refers to.
const Sql k_delete_bodies{"delete_bodies",
                          "DELETE FROM record_bodies b WHERE b.id IN (SELECT body FROM records WHERE dataset_id = $1)"
                          " AND NOT EXISTS (SELECT 1 FROM records o WHERE o.body = b.id AND o.dataset_id <> $1)"};
const Sql k_find_bodies{"find_bodies", "SELECT key, id FROM record_bodies WHERE key = ANY($1::text[])"};
const Sql k_insert_bodies{"insert_bodies",
                          "INSERT INTO record_bodies(key, json) SELECT * FROM unnest($1::text[], $2::text[])"
                          " ON CONFLICT(key) DO NOTHING RETURNING key, id"};
const Sql k_insert_dataset{
    "insert_dataset",
    "INSERT INTO datasets(repo, sha, dataset_version, ingested_at, record_count, import_roots, ref)"
    " VALUES($1, $2, $3, $4, $5, $6, $7) RETURNING id"};
const Sql k_insert_records{
    "insert_records",
    "INSERT INTO records(dataset_id, id, repo, file_path, line_number, error_class, error_message, body, site_key,"
    " search, tokens, github_url, analyzed_at, analysis_at, source_code_start, source_code_end)"
    " SELECT $1::bigint, u.id, u.repo, u.file_path, u.line_number, u.error_class, u.error_message, u.body,"
    " u.site_key, setweight(to_tsvector('simple', u.w_message), 'A') || setweight(to_tsvector('simple', u.w_class), 'B')"
    " || setweight(to_tsvector('simple', u.w_tags), 'C') || setweight(to_tsvector('simple', u.w_doc), 'D'), u.tokens,"
    " u.github_url, u.analyzed_at, u.analysis_at, u.source_code_start, u.source_code_end"
    " FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::bigint[], $9::text[],"
    " $10::text[], $11::text[], $12::text[], $13::text[], $14::int[], $15::text[], $16::text[], $17::text[],"
    " $18::int[], $19::int[])"
    " AS u(id, repo, file_path, line_number, error_class, error_message, body, site_key, w_message, w_class,"
    " w_tags, w_doc, tokens, github_url, analyzed_at, analysis_at, source_code_start, source_code_end)"};
const Sql k_set_current{"set_current",
                        "INSERT INTO repos(repo, dataset_id) VALUES($1, $2)"
                        " ON CONFLICT(repo) DO UPDATE SET dataset_id = excluded.dataset_id"};
const Sql k_unset_current{"unset_current", "DELETE FROM repos WHERE repo = $1"};
const Sql k_datasets_of{"datasets_of",
                        "SELECT id, ref, sha, dataset_version, record_count FROM datasets WHERE repo = $1 ORDER BY id"};
const Sql k_revision_sites{"revision_sites", "SELECT " ERRDEX_SITE_COLUMNS
                                             " FROM records r JOIN datasets d ON d.id = r.dataset_id"
                                             " WHERE r.dataset_id = $1 ORDER BY r.file_path, r.line_number, r.id"};
const Sql k_occurrences{"occurrences", "SELECT " ERRDEX_SITE_COLUMNS
                                       " FROM records r JOIN datasets d ON d.id = r.dataset_id WHERE r.id = $1"};
const Sql k_occurrences_key{"occurrences_key",
                            "SELECT " ERRDEX_SITE_COLUMNS
                            " FROM records r JOIN datasets d ON d.id = r.dataset_id WHERE r.site_key = $2 AND d.repo = $1"};
// A whole record, as read_record reads it: its body, then its stamp (of
// records r, datasets d, record_bodies b).
#define ERRDEX_RECORD_COLUMNS                                                                                      \
  "b.json, r.github_url, CASE r.analyzed_sha WHEN '' THEN d.sha ELSE r.analyzed_sha END, r.analyzed_at, r.analysis_at," \
  " r.line_number, r.source_code_start, r.source_code_end"
// How many they are: the columns a query selects after them start here.
constexpr int k_record_columns = 8;
// What match_fields reads: a body and its record's place.
#define ERRDEX_MATCH_COLUMNS "b.json, r.line_number, r.source_code_start, r.source_code_end"
#define ERRDEX_BODY_JOIN " JOIN record_bodies b ON b.id = r.body"
const Sql k_get{"get",
                "SELECT " ERRDEX_RECORD_COLUMNS ", d.dataset_version, d.ref FROM records r"
                " JOIN repos p ON p.dataset_id = r.dataset_id JOIN datasets d ON d.id = r.dataset_id" ERRDEX_BODY_JOIN
                " WHERE r.id = $1 ORDER BY p.repo LIMIT 1"};
const Sql k_list{"list",
                 "SELECT " ERRDEX_RECORD_COLUMNS ", d.dataset_version, d.ref FROM repos p"
                 " JOIN datasets d ON d.id = p.dataset_id JOIN records r ON r.dataset_id = p.dataset_id" ERRDEX_BODY_JOIN
                 " WHERE $1::text IS NULL OR p.repo = $1 ORDER BY p.repo, r.file_path, r.line_number, r.id"};
const Sql k_list_at{"list_at",
                    "SELECT " ERRDEX_RECORD_COLUMNS ", d.dataset_version, d.ref FROM records r"
                    " JOIN datasets d ON d.id = r.dataset_id" ERRDEX_BODY_JOIN
                    " WHERE r.dataset_id = $1 ORDER BY r.file_path, r.line_number, r.id"};
const Sql k_match_fields{"match_fields",
                         "SELECT " ERRDEX_MATCH_COLUMNS " FROM repos p JOIN records r ON r.dataset_id = p.dataset_id"
                         ERRDEX_BODY_JOIN
                         " WHERE $1::text IS NULL OR p.repo = $1 ORDER BY p.repo, r.file_path, r.line_number, r.id"};
const Sql k_match_fields_at{"match_fields_at",
                            "SELECT " ERRDEX_MATCH_COLUMNS " FROM records r" ERRDEX_BODY_JOIN " WHERE r.dataset_id = $1"
                            " ORDER BY r.file_path, r.line_number, r.id"};
const Sql k_search{"search", ERRDEX_SEARCH_WITH
                   " SELECT (SELECT b.json FROM record_bodies b WHERE b.id = h.body), h.github_url,"
                   " CASE h.analyzed_sha WHEN '' THEN (SELECT d.sha FROM datasets d WHERE d.id = h.dataset_id)"
                   " ELSE h.analyzed_sha END, h.analyzed_at, h.analysis_at,"
                   " h.line_number, h.source_code_start, h.source_code_end"
                   ERRDEX_SEARCH_SCORE};
const Sql k_search_ids{"search_ids", ERRDEX_SEARCH_WITH " SELECT h.id" ERRDEX_SEARCH_SCORE};
const Sql k_repos{"repos",
                  "SELECT p.repo, d.sha, d.dataset_version, d.record_count, d.import_roots, d.ref FROM repos p"
                  " JOIN datasets d ON d.id = p.dataset_id ORDER BY p.repo"};
const Sql k_datasets_state{"datasets_state", "SELECT count(*), coalesce(max(id), 0) FROM datasets"};

// Of a whole record, what Store::match_fields answers.
model::ErrorRecord match_view(model::ErrorRecord&& whole) {
  model::ErrorRecord r;
  r.id = std::move(whole.id);
  r.repo = std::move(whole.repo);
  r.file_path = std::move(whole.file_path);
  r.line_number = whole.line_number;
  r.error_class = std::move(whole.error_class);
  r.error_message = std::move(whole.error_message);
  r.message_pattern = std::move(whole.message_pattern);
  r.message_variants = std::move(whole.message_variants);
  r.source_code = std::move(whole.source_code);
  r.source_code_start = whole.source_code_start;
  r.documentation = std::move(whole.documentation);
  return r;
}

// The record of row i, whose columns start with ERRDEX_RECORD_COLUMNS.
Expected<model::ErrorRecord> read_record(const Result& r, int i) {
  auto record = model::record_from_json(field(r, i, 0));
  if (!record) return Error{record.error()};
  model::restore_stamp(*record, {std::string(field(r, i, 1)), std::string(field(r, i, 2)),
                                 std::string(field(r, i, 3)), std::string(field(r, i, 4)),
                                 static_cast<int>(field_int(r, i, 5)), static_cast<int>(field_int(r, i, 6)),
                                 static_cast<int>(field_int(r, i, 7))});
  return record;
}

Expected<int> schema_version(Connection& c) {
  const Sql read{"schema_version", "SELECT coalesce(max(version), 0) FROM schema_migrations"};
  auto r = c.run(read, Params(), "read the schema version");
  if (!r) return Error{r.error()};
  return static_cast<int>(field_int(*r, 0, 0));
}

// Under the migration lock: the steps the database lacks, each in its own
// transaction with its row in schema_migrations.
Expected<Migration> migrate_locked(Connection& c) {
  if (auto s = c.exec("CREATE TABLE IF NOT EXISTS schema_migrations(version INTEGER PRIMARY KEY,"
                      " description TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                      "create schema_migrations");
      !s)
    return Error{s.error()};
  auto from = schema_version(c);
  if (!from) return Error{from.error()};
  if (*from > k_schema_version)
    return Error{"store schema version " + std::to_string(*from) + " is not supported (this errdex reads versions 1 to " +
                 std::to_string(k_schema_version) + ")"};
  Migration out{*from, 0};
  for (const Step& step : k_migrations) {
    if (step.version <= *from) continue;
    const std::string what = "migrate to schema version " + std::to_string(step.version);
    auto done = c.in_transaction(what, [&]() -> Status {
      if (auto s = c.exec(step.sql, what); !s) return s;
      const Sql record{"record_migration", "INSERT INTO schema_migrations(version, description) VALUES($1, $2)"};
      auto r = c.run(record, Params().integer(step.version).text(step.description), what);
      if (!r) return Error{r.error()};
      return ok();
    });
    if (!done) return Error{done.error()};
    out.version = step.version;
    ++out.applied;
  }
  return out;
}

Expected<Migration> migrate_on(Connection& c) {
  auto encoding = c.run(Sql{"server_encoding", "SELECT current_setting('server_encoding')"}, Params(),
                        "read the database's encoding");
  if (!encoding) return Error{encoding.error()};
  if (field(*encoding, 0, 0) != "UTF8")
    return Error{"postgresql: the database's encoding is " + std::string(field(*encoding, 0, 0)) +
                 "; errdex needs UTF8 (CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0)"};
  // A session lock: processes starting together wait here, and the second
  // finds the migrations applied by the first.
  // Waiting for another process's migrations, or building an index over a
  // large table, may take longer than a statement may otherwise.
  if (auto s = c.exec("SET statement_timeout = 0", "lift the statement timeout"); !s) return Error{s.error()};
  if (auto s = c.exec(k_migrate_lock, "take the migration lock"); !s) return Error{s.error()};
  auto out = migrate_locked(c);
  c.exec(k_migrate_unlock, "release the migration lock");
  c.exec("RESET statement_timeout", "restore the statement timeout");
  return out;
}

Status notify(Connection& c, const std::string& repo) {
  auto r = c.run(k_notify, Params().text(repo), "notify servers");
  if (!r) return Error{r.error()};
  return ok();
}

class PgStore final : public Store {
 public:
  explicit PgStore(std::shared_ptr<Pool> pool) : m_pool(std::move(pool)) {}

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
  Expected<std::vector<SearchHit>> search(std::string_view text, const std::optional<std::string>& repo,
                                          int limit) override;
  Expected<std::vector<RankedId>> search_ids(std::string_view text, const std::optional<std::string>& repo,
                                             int limit) override;
  Expected<std::vector<RepoSummary>> repos() override;
  Expected<std::optional<std::vector<model::DatasetLine>>> list_at(const std::string& repo, const std::string& rev) override;
  Expected<std::string> datasets_state() override;

 private:
  Status ingest_locked(Connection& c, const Dataset& dataset);
  Status insert_records(Connection& c, std::int64_t dataset_id, const Dataset& dataset);
  // The id of each record's body (Dataset::record_bodies), stored first
  // when no revision holds it yet.
  Expected<std::vector<std::int64_t>> body_ids(Connection& c, const Dataset& dataset);
  // A repository's datasets in revision order (Store::ingest).
  Expected<std::vector<StoredRevision>> datasets_of(Connection& c, const std::string& repo);
  // The revision of `repo` that `rev` names (find_revision), if stored.
  Expected<std::optional<StoredRevision>> revision_named(Connection& c, const std::string& repo,
                                                         const std::string& rev);
  // In a write transaction: makes the last revision current, or forgets
  // the repository when it has none left.
  Status choose_current(Connection& c, const std::string& repo);
  Expected<std::vector<SiteAt>> read_sites(Connection& c, const Sql& sql, const Params& params);
  Expected<std::vector<model::ErrorRecord>> read_match_fields(Connection& c, const Sql& sql, const Params& params);
  Expected<std::vector<model::DatasetLine>> read_lines(Connection& c, const Sql& sql, const Params& params);
  // Every word of `text`; if no record has them all, any of them. `read`
  // turns row i of the result into a hit.
  template <class Hit, class Read>
  Expected<std::vector<Hit>> search_words_of(const Sql& sql, std::string_view text,
                                             const std::optional<std::string>& repo, int limit, Read read);

  std::shared_ptr<Pool> m_pool;
};

Status PgStore::ingest(const Dataset& dataset) {
  if (auto s = check_dataset(dataset); !s) return s;
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  return (*c)->in_transaction("ingest", [&] { return ingest_locked(**c, dataset); });
}

Status PgStore::ingest_locked(Connection& c, const Dataset& dataset) {
  // Writers of one repository take turns: which revision is current
  // depends on all of them.
  if (auto r = c.run(k_lock_repo, Params().text(dataset.repo), "lock the repository"); !r) return Error{r.error()};
  auto same = c.run(k_find_same, Params().text(dataset.repo).text(dataset.sha).text(dataset.ref), "find dataset");
  if (!same) return Error{same.error()};
  if (PQntuples(same->get()) > 0) {
    // Its records go with it (ON DELETE CASCADE), and their bodies that no
    // other revision holds.
    const std::int64_t old = field_int(*same, 0, 0);
    if (auto b = c.run(k_delete_bodies, Params().integer(old), "delete old bodies"); !b) return Error{b.error()};
    auto del = c.run(k_delete_dataset, Params().integer(old), "delete old dataset");
    if (!del) return Error{del.error()};
  }
  auto inserted = c.run(k_insert_dataset,
                        Params()
                            .text(dataset.repo)
                            .text(dataset.sha)
                            .text(dataset.dataset_version)
                            .text(util::iso_now_ms())
                            .integer(static_cast<std::int64_t>(dataset.records.size()))
                            .text(nlohmann::json(dataset.import_roots).dump())
                            .text(dataset.ref),
                        "insert dataset");
  if (!inserted) return Error{inserted.error()};
  if (auto s = insert_records(c, field_int(*inserted, 0, 0), dataset); !s) return s;
  if (auto s = choose_current(c, dataset.repo); !s) return s;
  return notify(c, dataset.repo);
}

Expected<std::vector<std::int64_t>> PgStore::body_ids(Connection& c, const Dataset& dataset) {
  const std::size_t n = dataset.records.size();
  const bool serialised = dataset.record_bodies.size() == n;
  const bool keyed = serialised && dataset.record_body_keys.size() == n;
  std::vector<std::int64_t> ids(n, 0);
  std::vector<std::string> own, keys;  // of one batch
  for (std::size_t from = 0, to = 0; from < n; from = to) {
    own.clear();
    keys.clear();
    std::size_t bytes = 0;
    for (to = from; to < n && to - from < k_batch_records && bytes < k_batch_bytes; ++to) {
      if (!serialised) {
        model::ErrorRecord lent = dataset.records[to];
        own.push_back(model::body_json(lent));
      }
      const std::string& text = serialised ? dataset.record_bodies[to] : own.back();
      keys.push_back(keyed ? dataset.record_body_keys[to] : util::content_key(text));
      bytes += text.size();
    }
    auto body = [&](std::size_t i) -> const std::string& {
      return serialised ? dataset.record_bodies[i] : own[i - from];
    };
    std::unordered_map<std::string, std::int64_t> found;
    auto read = [&](const Result& r) {
      for (int row = 0, rows = PQntuples(r.get()); row < rows; ++row)
        found.emplace(std::string(field(r, row, 0)), field_int(r, row, 1));
    };
    ArrayLiteral all;
    for (const auto& k : keys) all.add(k);
    auto known = c.run(k_find_bodies, Params().text(all.finish()), "find record bodies");
    if (!known) return Error{known.error()};
    read(*known);
    // Only the bodies no revision holds yet are sent.
    ArrayLiteral new_keys, new_texts;
    bool any = false;
    for (std::size_t i = from; i < to; ++i)
      if (!found.contains(keys[i - from])) {
        new_keys.add(keys[i - from]);
        new_texts.add(body(i));
        any = true;
      }
    if (any) {
      auto added = c.run(k_insert_bodies, Params().text(new_keys.finish()).text(new_texts.finish()),
                         "insert record bodies of " + dataset.repo);
      if (!added) return Error{added.error()};
      read(*added);
    }
    for (std::size_t i = from; i < to; ++i) {
      auto it = found.find(keys[i - from]);
      if (it == found.end()) return Error{"record body of " + dataset.records[i].id + " was not stored"};
      ids[i] = it->second;
    }
  }
  return ids;
}

Status PgStore::insert_records(Connection& c, std::int64_t dataset_id, const Dataset& dataset) {
  auto bodies = body_ids(c, dataset);
  if (!bodies) return Error{bodies.error()};
  constexpr int k_columns = 18;
  ArrayLiteral columns[k_columns];
  std::size_t pending = 0;
  auto flush = [&]() -> Status {
    if (pending == 0) return ok();
    Params p;
    p.integer(dataset_id);
    for (auto& column : columns) p.text(column.finish());
    pending = 0;
    auto r = c.run(k_insert_records, p, "insert records of " + dataset.repo);
    if (!r) return Error{r.error()};
    return ok();
  };
  std::string tags;
  for (std::size_t i = 0; i < dataset.records.size(); ++i) {
    const auto& r = dataset.records[i];
    tags.clear();
    for (const auto& t : r.tags) tags += t + " ";
    const std::string line = std::to_string(r.line_number), body = std::to_string((*bodies)[i]),
                      start = std::to_string(r.source_code_start), end = std::to_string(r.source_code_end);
    const std::string words[4] = {indexed_words(r.error_message), indexed_words(r.error_class), indexed_words(tags),
                                  indexed_words(r.documentation)};
    std::size_t count = 0;
    for (const auto& w : words) count += w.empty() ? 0 : 1 + std::count(w.begin(), w.end(), ' ');
    const std::string tokens = std::to_string(count);
    const std::string_view values[k_columns] = {
        r.id,
        r.repo,
        r.file_path,
        line,
        r.error_class,
        r.error_message,
        body,
        dataset.site_keys.empty() ? std::string_view() : std::string_view(dataset.site_keys[i]),
        words[0],
        words[1],
        words[2],
        words[3],
        tokens,
        r.github_url,
        r.analyzed_at,
        r.analysis ? std::string_view(r.analysis->at) : std::string_view(),
        start,
        end,
    };
    for (int k = 0; k < k_columns; ++k) columns[k].add(values[k]);
    ++pending;
    if (pending == k_batch_records || columns[11].bytes() > k_batch_bytes)
      if (auto s = flush(); !s) return s;
  }
  return flush();
}

Status PgStore::choose_current(Connection& c, const std::string& repo) {
  auto rows = datasets_of(c, repo);
  if (!rows) return Error{rows.error()};
  if (rows->empty()) {
    auto r = c.run(k_unset_current, Params().text(repo), "forget repository");
    if (!r) return Error{r.error()};
    return ok();
  }
  auto r = c.run(k_set_current, Params().text(repo).integer(rows->back().id), "set current dataset");
  if (!r) return Error{r.error()};
  return ok();
}

Expected<std::vector<StoredRevision>> PgStore::datasets_of(Connection& c, const std::string& repo) {
  std::vector<StoredRevision> rows;
  if (!sendable(repo)) return rows;
  auto r = c.run(k_datasets_of, Params().text(repo), "list revisions");
  if (!r) return Error{r.error()};
  for (int i = 0, n = PQntuples(r->get()); i < n; ++i)
    rows.push_back({field_int(*r, i, 0), Revision{std::string(field(*r, i, 1)), std::string(field(*r, i, 2)),
                                                  std::string(field(*r, i, 3)), field_int(*r, i, 4), false}});
  order_revisions(rows);
  return rows;
}

Expected<std::optional<StoredRevision>> PgStore::revision_named(Connection& c, const std::string& repo,
                                                                const std::string& rev) {
  auto rows = datasets_of(c, repo);
  if (!rows) return Error{rows.error()};
  const StoredRevision* r = find_revision(*rows, rev);
  return r ? std::optional<StoredRevision>(*r) : std::nullopt;
}

Expected<std::size_t> PgStore::forget(const std::string& repo, const std::optional<std::string>& rev) {
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  Connection& conn = **c;
  return conn.in_transaction("forget", [&]() -> Expected<std::size_t> {
    if (!sendable(repo)) return std::size_t{0};
    if (auto r = conn.run(k_lock_repo, Params().text(repo), "lock the repository"); !r) return Error{r.error()};
    auto rows = datasets_of(conn, repo);
    if (!rows) return Error{rows.error()};
    const std::vector<std::int64_t> drop = datasets_to_forget(*rows, rev);
    if (drop.empty()) return std::size_t{0};
    for (std::int64_t id : drop) {
      if (auto r = conn.run(k_delete_bodies, Params().integer(id), "delete bodies"); !r) return Error{r.error()};
      if (auto r = conn.run(k_delete_dataset, Params().integer(id), "delete dataset"); !r) return Error{r.error()};
    }
    if (auto s = choose_current(conn, repo); !s) return Error{s.error()};
    if (auto s = notify(conn, repo); !s) return Error{s.error()};
    return drop.size();
  });
}

Expected<std::vector<Revision>> PgStore::revisions(const std::string& repo) {
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  auto rows = datasets_of(**c, repo);
  if (!rows) return Error{rows.error()};
  std::vector<Revision> out;
  for (auto& r : *rows) out.push_back(std::move(r.revision));
  return out;
}

Expected<std::vector<SiteAt>> PgStore::read_sites(Connection& c, const Sql& sql, const Params& params) {
  auto r = c.run(sql, params, "read sites");
  if (!r) return Error{r.error()};
  std::vector<SiteAt> out;
  for (int i = 0, n = PQntuples(r->get()); i < n; ++i) {
    SiteAt s;
    s.repo = field(*r, i, 0);
    s.ref = field(*r, i, 1);
    s.sha = field(*r, i, 2);
    s.id = field(*r, i, 3);
    s.file_path = field(*r, i, 4);
    s.line = static_cast<int>(field_int(*r, i, 5));
    s.error_class = field(*r, i, 6);
    s.error_message = field(*r, i, 7);
    s.site_key = field(*r, i, 8);
    out.push_back(std::move(s));
  }
  return out;
}

Expected<std::optional<std::pair<Revision, std::vector<SiteAt>>>> PgStore::revision(const std::string& repo,
                                                                                  const std::string& rev) {
  using Answer = std::optional<std::pair<Revision, std::vector<SiteAt>>>;
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  auto r = revision_named(**c, repo, rev);
  if (!r) return Error{r.error()};
  if (!*r) return Answer();
  auto sites = read_sites(**c, k_revision_sites, Params().integer((*r)->id));
  if (!sites) return Error{sites.error()};
  return Answer(std::pair((*r)->revision, std::move(*sites)));
}

Expected<std::vector<SiteAt>> PgStore::occurrences(std::string_view id) {
  if (!sendable(id)) return std::vector<SiteAt>();
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  return read_sites(**c, k_occurrences, Params().text(id));
}

Expected<std::vector<SiteAt>> PgStore::occurrences_of_key(const std::string& repo, const std::string& key) {
  if (key.empty() || !sendable(key) || !sendable(repo)) return std::vector<SiteAt>();
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  return read_sites(**c, k_occurrences_key, Params().text(repo).text(key));
}

Expected<std::optional<model::DatasetLine>> PgStore::get(std::string_view id) {
  if (!sendable(id)) return std::optional<model::DatasetLine>();
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  auto r = (*c)->run(k_get, Params().text(id), "get record");
  if (!r) return Error{r.error()};
  if (PQntuples(r->get()) == 0) return std::optional<model::DatasetLine>();
  auto record = read_record(*r, 0);
  if (!record) return Error{"stored record " + std::string(id) + " is unreadable: " + record.error()};
  return std::optional<model::DatasetLine>(
      model::DatasetLine{std::move(*record), std::string(field(*r, 0, k_record_columns)),
                         std::string(field(*r, 0, k_record_columns + 1))});
}

Expected<std::vector<model::DatasetLine>> PgStore::list(const std::optional<std::string>& repo) {
  if (repo && !sendable(*repo)) return std::vector<model::DatasetLine>();
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  return read_lines(**c, k_list, Params().text_or_null(repo));
}

Expected<std::optional<std::vector<model::DatasetLine>>> PgStore::list_at(const std::string& repo, const std::string& rev) {
  using Answer = std::optional<std::vector<model::DatasetLine>>;
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  auto r = revision_named(**c, repo, rev);
  if (!r) return Error{r.error()};
  if (!*r) return Answer();
  auto lines = read_lines(**c, k_list_at, Params().integer((*r)->id));
  if (!lines) return Error{lines.error()};
  return Answer(std::move(*lines));
}

// Rows of (ERRDEX_RECORD_COLUMNS, dataset_version, ref) as dataset lines.
Expected<std::vector<model::DatasetLine>> PgStore::read_lines(Connection& c, const Sql& sql, const Params& params) {
  auto r = c.run(sql, params, "list records");
  if (!r) return Error{r.error()};
  std::vector<model::DatasetLine> out;
  const int n = PQntuples(r->get());
  out.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto record = read_record(*r, i);
    if (!record) return Error{"stored record is unreadable: " + record.error()};
    out.push_back(model::DatasetLine{std::move(*record), std::string(field(*r, i, k_record_columns)),
                                     std::string(field(*r, i, k_record_columns + 1))});
  }
  return out;
}

Expected<std::vector<model::ErrorRecord>> PgStore::read_match_fields(Connection& c, const Sql& sql,
                                                                     const Params& params) {
  auto r = c.run(sql, params, "list records for matching");
  if (!r) return Error{r.error()};
  std::vector<model::ErrorRecord> out;
  const int n = PQntuples(r->get());
  out.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto record = model::record_from_json(field(*r, i, 0));
    if (!record) return Error{"stored record is unreadable: " + record.error()};
    // Its place, from its row (ERRDEX_MATCH_COLUMNS).
    record->line_number = static_cast<int>(field_int(*r, i, 1));
    record->source_code_start = static_cast<int>(field_int(*r, i, 2));
    record->source_code_end = static_cast<int>(field_int(*r, i, 3));
    out.push_back(match_view(std::move(*record)));
  }
  return out;
}

Expected<std::vector<model::ErrorRecord>> PgStore::match_fields(const std::optional<std::string>& repo) {
  if (repo && !sendable(*repo)) return std::vector<model::ErrorRecord>();
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  return read_match_fields(**c, k_match_fields, Params().text_or_null(repo));
}

Expected<std::optional<std::vector<model::ErrorRecord>>> PgStore::match_fields_at(const std::string& repo,
                                                                                 const std::string& rev) {
  using Answer = std::optional<std::vector<model::ErrorRecord>>;
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  auto r = revision_named(**c, repo, rev);
  if (!r) return Error{r.error()};
  if (!*r) return Answer();
  auto records = read_match_fields(**c, k_match_fields_at, Params().integer((*r)->id));
  if (!records) return Error{records.error()};
  return Answer(std::move(*records));
}

template <class Hit, class Read>
Expected<std::vector<Hit>> PgStore::search_words_of(const Sql& sql, std::string_view text,
                                                    const std::optional<std::string>& repo, int limit, Read read) {
  if (limit <= 0 || (repo && !sendable(*repo))) return std::vector<Hit>();
  std::string words;
  for (const auto& w : search_words(text)) {
    // Bytes that are not UTF-8 cannot be sent, and no stored word holds them.
    if (!util::is_valid_utf8(w)) continue;
    if (!words.empty()) words += ' ';
    words += w;
  }
  if (words.empty()) return std::vector<Hit>();
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  auto once = [&](const char* op) -> Expected<std::vector<Hit>> {
    auto r = (*c)->run(sql, Params().text(words).text_or_null(repo).integer(limit).text(op), "search");
    if (!r) return Error{r.error()};
    std::vector<Hit> out;
    for (int i = 0, n = PQntuples(r->get()); i < n; ++i) {
      auto hit = read(*r, i);
      if (!hit) return Error{hit.error()};
      out.push_back(std::move(*hit));
    }
    return out;
  };
  auto hits = once(" & ");
  if (!hits || !hits->empty() || words.find(' ') == std::string::npos) return hits;
  // No record has every word: rank those that have some.
  return once(" | ");
}

Expected<std::vector<SearchHit>> PgStore::search(std::string_view text, const std::optional<std::string>& repo,
                                                 int limit) {
  return search_words_of<SearchHit>(k_search, text, repo, limit, [](const Result& r, int i) -> Expected<SearchHit> {
    auto record = read_record(r, i);
    if (!record) return Error{"stored record is unreadable: " + record.error()};
    return SearchHit{std::move(*record), field_double(r, i, k_record_columns)};
  });
}

Expected<std::vector<RankedId>> PgStore::search_ids(std::string_view text, const std::optional<std::string>& repo,
                                                    int limit) {
  return search_words_of<RankedId>(k_search_ids, text, repo, limit, [](const Result& r, int i) -> Expected<RankedId> {
    return RankedId{std::string(field(r, i, 0)), field_double(r, i, 1)};
  });
}

Expected<std::vector<RepoSummary>> PgStore::repos() {
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  auto r = (*c)->run(k_repos, Params(), "list repos");
  if (!r) return Error{r.error()};
  std::vector<RepoSummary> out;
  for (int i = 0, n = PQntuples(r->get()); i < n; ++i)
    out.push_back(RepoSummary{std::string(field(*r, i, 0)), std::string(field(*r, i, 1)),
                              std::string(field(*r, i, 2)), field_int(*r, i, 3),
                              import_roots_from_json(field(*r, i, 4)), std::string(field(*r, i, 5))});
  return out;
}

Expected<std::string> PgStore::datasets_state() {
  // A dataset replaced is deleted and inserted again: a new id.
  auto c = m_pool->take();
  if (!c) return Error{c.error()};
  auto r = (*c)->run(k_datasets_state, Params(), "read the datasets' state");
  if (!r) return Error{r.error()};
  return std::string(field(*r, 0, 0)) + ":" + std::string(field(*r, 0, 1));
}

class PgKeyValueTable final : public KeyValueTable {
 public:
  // `stamped`: `put` takes the time of writing as its third parameter.
  PgKeyValueTable(std::shared_ptr<Pool> pool, Sql get, Sql put, bool stamped)
      : m_pool(std::move(pool)), m_get(get), m_put(put), m_stamped(stamped) {}

  Expected<std::optional<std::string>> get(const std::string& key) override {
    if (!sendable(key)) return std::optional<std::string>();
    auto c = m_pool->take();
    if (!c) return Error{c.error()};
    auto r = (*c)->run(m_get, Params().text(key), "read cache");
    if (!r) return Error{r.error()};
    if (PQntuples(r->get()) == 0) return std::optional<std::string>();
    return std::optional<std::string>(std::string(field(*r, 0, 0)));
  }

  Status put_all(const std::vector<std::pair<std::string, std::string>>& entries) override {
    // One row per key (the last given wins): an upsert may not touch a row
    // twice. What cannot be sent as text is left out of the cache.
    std::unordered_map<std::string_view, std::string_view> last;
    for (const auto& [key, value] : entries)
      if (sendable(key) && sendable(value)) last[key] = value;
    if (last.empty()) return ok();
    ArrayLiteral keys, values;
    for (const auto& [key, value] : last) {
      keys.add(key);
      values.add(value);
    }
    auto c = m_pool->take();
    if (!c) return Error{c.error()};
    Params params;
    params.text(keys.finish()).text(values.finish());
    if (m_stamped) params.text(util::iso_now_ms());
    auto r = (*c)->run(m_put, params, "write cache");
    if (!r) return Error{r.error()};
    return ok();
  }

 private:
  std::shared_ptr<Pool> m_pool;
  Sql m_get, m_put;
  bool m_stamped;
};

}  // namespace

Expected<std::shared_ptr<Pool>> migrated_pool(const std::string& url) {
  auto pool = Pool::of(url);
  if (auto s = pool->once_migrated([](Connection& c) -> Status {
        auto m = migrate_on(c);
        if (!m) return Error{m.error()};
        return ok();
      });
      !s)
    return Error{s.error()};
  return pool;
}

Expected<std::unique_ptr<Store>> open(const std::string& url) {
  auto pool = migrated_pool(url);
  if (!pool) return Error{pool.error()};
  return std::unique_ptr<Store>(std::make_unique<PgStore>(std::move(*pool)));
}

Expected<Migration> migrate(const std::string& url) {
  auto pool = Pool::of(url);
  auto c = pool->take();
  if (!c) return Error{c.error()};
  return migrate_on(**c);
}

Expected<std::unique_ptr<KeyValueTable>> open_side_table(const std::string& url, SideTable table) {
  auto pool = migrated_pool(url);
  if (!pool) return Error{pool.error()};
  if (table == SideTable::file_facts)
    return std::unique_ptr<KeyValueTable>(std::make_unique<PgKeyValueTable>(
        std::move(*pool), Sql{"facts_get", "SELECT facts FROM file_facts WHERE key = $1"},
        Sql{"facts_put",
            "INSERT INTO file_facts(key, facts) SELECT * FROM unnest($1::text[], $2::text[])"
            " ON CONFLICT(key) DO UPDATE SET facts = excluded.facts"},
        false));
  return std::unique_ptr<KeyValueTable>(std::make_unique<PgKeyValueTable>(
      std::move(*pool), Sql{"answers_get", "SELECT answer FROM llm_answers WHERE key = $1"},
      Sql{"answers_put",
          "INSERT INTO llm_answers(key, answer, created_at) SELECT k, a, $3 FROM unnest($1::text[], $2::text[]) AS u(k, a)"
          " ON CONFLICT(key) DO UPDATE SET answer = excluded.answer, created_at = excluded.created_at"},
      true));
}

}  // namespace errdex::store::pg
