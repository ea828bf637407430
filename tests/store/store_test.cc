#include <gtest/gtest.h>
#include <signal.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "model/record_json.h"
#include "model/restamp.h"
#include "store/pg_store.h"
#include "store/change_feed.h"
#include "store/jobs.h"
#include "store/store.h"
#include "support/postgres.h"
#include "util/text.h"

namespace errdex::store {
namespace {

namespace fs = std::filesystem;

const std::string k_sha1 = std::string(40, 'a');
const std::string k_sha2 = std::string(40, 'b');

class TempDir {
 public:
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "errdex-store-XXXXXX").string();
    char* made = mkdtemp(templ.data());
    if (!made) ADD_FAILURE() << "mkdtemp failed";
    m_path = templ;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
  std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  fs::path m_path;
};

// A record of `repo` at `sha`; `n` picks its id, place and words, `salt`
// lets two datasets of one repository hold different ids.
model::ErrorRecord make_record(const std::string& repo, const std::string& sha, int n,
                               const std::string& salt = "") {
  model::ErrorRecord r;
  r.id = util::hex64(util::fnv1a64(repo + "#" + std::to_string(n) + "#" + salt));
  r.repo = repo;
  r.slug = "value-n-is-invalid";
  r.error_message = "value {n} is invalid in step " + std::to_string(n);
  r.message_pattern = "value (.+?) is invalid in step " + std::to_string(n);
  r.error_type = "validation";
  r.error_class = n % 2 ? "ValueError" : "KeyError";
  r.severity = "error";
  r.file_path = "pkg/mod" + std::to_string(n % 7) + ".py";
  r.line_number = 10 + n;
  r.source_code = "if n < 0:\n    raise ValueError(f\"value {n} is invalid\")\n";
  r.source_code_start = r.line_number - 1;
  r.source_code_end = r.line_number;
  r.github_url = "https://github.com/" + repo + "/blob/" + sha + "/" + r.file_path;
  r.documentation = "Raised by step " + std::to_string(n) + " when the input is negative.";
  r.trigger_scenarios = "Calling step(-1).";
  r.common_situations = "Unchecked user input.";
  r.solutions = {"Check n before calling"};
  r.example_fix = "# before\nstep(-1)\n\n# after\nstep(1)";
  r.handling_strategy = "validation";
  r.tags = {"validation", n % 2 ? "valueerror" : "keyerror"};
  r.analyzed_sha = sha;
  r.analyzed_at = "2026-01-02T03:04:05.006Z";
  return r;
}

Dataset make_dataset(const std::string& repo, const std::string& sha, int count, const std::string& salt = "",
                     const std::string& version = "2026-01-02T03:04:05.000Z") {
  Dataset d{repo, sha, version, {}};
  d.records.reserve(count);
  for (int i = 0; i < count; ++i) d.records.push_back(make_record(repo, sha, i, salt));
  return d;
}

std::unique_ptr<Store> open_or_die(const std::string& path) {
  auto s = open_store("sqlite:" + path);
  if (!s) {
    ADD_FAILURE() << s.error();
    return nullptr;
  }
  return std::move(*s);
}

// Each test below runs on both backends: a fresh SQLite file, or a fresh
// database on this process's PostgreSQL server (tests/support/postgres.h).
class StoreTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "postgresql") {
      auto& server = testing::PostgresServer::shared();
      ASSERT_TRUE(server.ok()) << server.error();
      m_url = server.create_database();
      ASSERT_FALSE(m_url.empty()) << server.error();
    } else {
      m_url = "sqlite:" + m_dir.file("s.db");
    }
  }
  // Another Store on this test's database.
  std::unique_ptr<Store> open() {
    auto s = open_store(m_url);
    if (!s) {
      ADD_FAILURE() << s.error();
      return nullptr;
    }
    return std::move(*s);
  }

  TempDir m_dir;
  std::string m_url;
};

INSTANTIATE_TEST_SUITE_P(Backends, StoreTest, ::testing::Values("sqlite", "postgresql"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

std::size_t count_current(Store& store, const std::string& repo) {
  auto l = store.list(repo);
  EXPECT_TRUE(l) << (l ? "" : l.error());
  return l ? l->size() : 0;
}

TEST(OpenStore, ChoosesBackendByUrl) {
  auto unknown = open_store("mysql://x");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("unknown store URL"), std::string::npos);
  EXPECT_FALSE(open_store("sqlite:"));
  auto missing_dir = open_store("sqlite:/nonexistent-dir-errdex/x.db");
  ASSERT_FALSE(missing_dir);
  EXPECT_NE(missing_dir.error().find("sqlite"), std::string::npos);
  EXPECT_TRUE(open_store("sqlite::memory:"));
}

TEST_P(StoreTest, IngestGetListRepos) {
  auto store = open();
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->ingest(make_dataset("zeta/z", k_sha1, 3, "", "2026-05-05T00:00:00.000Z")));
  ASSERT_TRUE(store->ingest(make_dataset("acme/a", k_sha2, 10, "", "2026-06-06T00:00:00.000Z")));

  auto r = make_record("zeta/z", k_sha1, 2);
  auto got = store->get(r.id);
  ASSERT_TRUE(got) << got.error();
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ((*got)->record, r);
  EXPECT_EQ((*got)->dataset_version, "2026-05-05T00:00:00.000Z");

  auto none = store->get("0123456789abcdef");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());
  auto hostile = store->get("'; DROP TABLE records; --");
  ASSERT_TRUE(hostile);
  EXPECT_FALSE(hostile->has_value());

  auto all = store->list(std::nullopt);
  ASSERT_TRUE(all) << all.error();
  ASSERT_EQ(all->size(), 13u);
  for (std::size_t i = 1; i < all->size(); ++i) {
    const auto& a = (*all)[i - 1].record;
    const auto& b = (*all)[i].record;
    EXPECT_LE(std::tie(a.repo, a.file_path, a.line_number), std::tie(b.repo, b.file_path, b.line_number));
  }
  EXPECT_EQ(all->front().record.repo, "acme/a");
  EXPECT_EQ(all->back().record.repo, "zeta/z");
  EXPECT_EQ(count_current(*store, "zeta/z"), 3u);
  EXPECT_EQ(count_current(*store, "nobody/none"), 0u);

  auto repos = store->repos();
  ASSERT_TRUE(repos) << repos.error();
  ASSERT_EQ(repos->size(), 2u);
  EXPECT_EQ((*repos)[0].repo, "acme/a");
  EXPECT_EQ((*repos)[0].sha, k_sha2);
  EXPECT_EQ((*repos)[0].dataset_version, "2026-06-06T00:00:00.000Z");
  EXPECT_EQ((*repos)[0].records, 10);
  EXPECT_EQ((*repos)[1].repo, "zeta/z");
  EXPECT_EQ((*repos)[1].records, 3);
}

// match_fields gives list()'s records, in its order, with only the fields
// matching reads (variants included) and the rest left empty.
TEST_P(StoreTest, MatchFieldsAreListsFieldsForMatching) {
  auto store = open();
  ASSERT_TRUE(store);
  auto d = make_dataset("acme/a", k_sha2, 9);
  d.records[3].schema_version = 3;
  d.records[3].message_variants = {{"other {x}", "other (.+?)"}, {"\"quoted\" \u00e9", "\"quoted\" \u00e9"}};
  ASSERT_TRUE(store->ingest(d));
  ASSERT_TRUE(store->ingest(make_dataset("zeta/z", k_sha1, 2)));
  for (const std::optional<std::string>& repo : {std::optional<std::string>(), std::optional<std::string>("acme/a")}) {
    auto all = store->list(repo);
    auto fields = store->match_fields(repo);
    ASSERT_TRUE(all && fields);
    ASSERT_EQ(fields->size(), all->size());
    for (std::size_t i = 0; i < all->size(); ++i) {
      const auto& whole = (*all)[i].record;
      model::ErrorRecord expect;
      expect.id = whole.id;
      expect.repo = whole.repo;
      expect.file_path = whole.file_path;
      expect.line_number = whole.line_number;
      expect.error_class = whole.error_class;
      expect.error_message = whole.error_message;
      expect.message_pattern = whole.message_pattern;
      expect.message_variants = whole.message_variants;
      expect.source_code = whole.source_code;
      expect.source_code_start = whole.source_code_start;
      expect.documentation = whole.documentation;
      EXPECT_EQ((*fields)[i], expect) << i;
    }
  }
  auto none = store->match_fields(std::string("nobody/none"));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST_P(StoreTest, ExportIsByteExact) {
  std::ifstream in(std::string(ERRDEX_SOURCE_DIR) + "/tests/fixtures/dataset_lines.jsonl", std::ios::binary);
  std::vector<std::string> lines;
  Dataset d;
  for (std::string line; std::getline(in, line);) {
    auto parsed = model::dataset_line_from_json(line);
    ASSERT_TRUE(parsed) << parsed.error();
    d.repo = parsed->record.repo;
    d.sha = parsed->record.analyzed_sha;
    d.dataset_version = parsed->dataset_version;
    d.records.push_back(parsed->record);
    lines.push_back(line);
  }
  ASSERT_EQ(lines.size(), 2u);
  auto store = open();
  ASSERT_TRUE(store->ingest(d));
  store.reset();
  store = open();
  auto all = store->list(d.repo);
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 2u);
  // list orders by path: config/loader.py before net/server.py, as in the file.
  EXPECT_EQ(model::to_json((*all)[0]), lines[0]);
  EXPECT_EQ(model::to_json((*all)[1]), lines[1]);
}

// A caller that serialised the records' bodies itself (on many threads)
// has its bytes stored; they come back as the records, stamp and all.
TEST_P(StoreTest, IngestStoresPreserialisedJson) {
  Dataset d = make_dataset("acme/pre", k_sha1, 3);
  for (auto& r : d.records) d.record_bodies.push_back(model::body_json(r));
  auto store = open();
  ASSERT_TRUE(store->ingest(d));
  auto all = store->list(std::string("acme/pre"));
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ((*all)[i].record, d.records[i]);
}

TEST_P(StoreTest, ReingestOfSameShaReplaces) {
  auto store = open();
  ASSERT_TRUE(store->ingest(make_dataset("acme/a", k_sha1, 5, "old")));
  ASSERT_TRUE(store->ingest(make_dataset("acme/a", k_sha1, 2, "new", "2026-09-09T00:00:00.000Z")));
  EXPECT_EQ(count_current(*store, "acme/a"), 2u);
  auto old_id = make_record("acme/a", k_sha1, 4, "old").id;
  auto got = store->get(old_id);
  ASSERT_TRUE(got);
  EXPECT_FALSE(got->has_value());
  auto repos = store->repos();
  ASSERT_TRUE(repos);
  ASSERT_EQ(repos->size(), 1u);
  EXPECT_EQ((*repos)[0].records, 2);
  EXPECT_EQ((*repos)[0].dataset_version, "2026-09-09T00:00:00.000Z");
  // The search index holds the new records only.
  auto hits = store->search("step 4", std::nullopt, 10);
  ASSERT_TRUE(hits);
  for (const auto& h : *hits) EXPECT_NE(h.record.id, old_id);
  auto hits1 = store->search("invalid", std::nullopt, 10);
  ASSERT_TRUE(hits1);
  EXPECT_EQ(hits1->size(), 2u);
}

TEST_P(StoreTest, NewShaBecomesCurrent) {
  auto store = open();
  ASSERT_TRUE(store->ingest(make_dataset("acme/a", k_sha1, 4, "one")));
  ASSERT_TRUE(store->ingest(make_dataset("acme/a", k_sha2, 6, "two")));
  auto repos = store->repos();
  ASSERT_TRUE(repos);
  ASSERT_EQ(repos->size(), 1u);
  EXPECT_EQ((*repos)[0].sha, k_sha2);
  EXPECT_EQ((*repos)[0].records, 6);
  EXPECT_EQ(count_current(*store, "acme/a"), 6u);
  auto first = store->get(make_record("acme/a", k_sha1, 0, "one").id);
  ASSERT_TRUE(first);
  EXPECT_FALSE(first->has_value());
  auto hits = store->search("invalid", std::nullopt, 100);
  ASSERT_TRUE(hits);
  EXPECT_EQ(hits->size(), 6u);

  // Going back to the older revision makes it current again.
  ASSERT_TRUE(store->ingest(make_dataset("acme/a", k_sha1, 4, "one")));
  EXPECT_EQ(count_current(*store, "acme/a"), 4u);
  auto again = store->get(make_record("acme/a", k_sha1, 0, "one").id);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->has_value());
}

TEST_P(StoreTest, SearchRanksAndFilters) {
  auto store = open();
  Dataset a = make_dataset("acme/a", k_sha1, 3);
  a.records[0].error_message = "batch size is not consistent across layers";
  a.records[1].documentation = "Mentions the batch size only in passing, deep in the prose.";
  a.records[2].error_message = "cache is empty";
  a.records[2].tags = {"cache", "emptiness"};
  ASSERT_TRUE(store->ingest(a));
  Dataset b = make_dataset("other/b", k_sha1, 1);
  b.records[0].error_message = "batch size mismatch";
  ASSERT_TRUE(store->ingest(b));

  auto hits = store->search("batch size", std::nullopt, 10);
  ASSERT_TRUE(hits) << hits.error();
  ASSERT_EQ(hits->size(), 3u);
  EXPECT_EQ(hits->back().record.id, a.records[1].id);  // documentation-only hit ranks last
  for (std::size_t i = 1; i < hits->size(); ++i) EXPECT_LE((*hits)[i - 1].rank, (*hits)[i].rank);

  auto only_a = store->search("batch size", std::string("acme/a"), 10);
  ASSERT_TRUE(only_a);
  EXPECT_EQ(only_a->size(), 2u);
  for (const auto& h : *only_a) EXPECT_EQ(h.record.repo, "acme/a");

  auto limited = store->search("batch size", std::nullopt, 1);
  ASSERT_TRUE(limited);
  EXPECT_EQ(limited->size(), 1u);

  // Tags and class are searched; a word no record has falls back to OR.
  auto tag = store->search("emptiness", std::nullopt, 10);
  ASSERT_TRUE(tag);
  ASSERT_EQ(tag->size(), 1u);
  EXPECT_EQ(tag->front().record.id, a.records[2].id);
  auto fallback = store->search("emptiness zzzunknownword", std::nullopt, 10);
  ASSERT_TRUE(fallback);
  ASSERT_EQ(fallback->size(), 1u);
  auto klass = store->search("KeyError", std::nullopt, 10);
  ASSERT_TRUE(klass);
  EXPECT_EQ(klass->size(), 3u);  // even-numbered records raise KeyError: 0 and 2 of acme/a, 0 of other/b
  auto none = store->search("zzzunknownword", std::nullopt, 10);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());

  // search_ids answers the same hits, in the same order, by id.
  for (const char* text : {"batch size", "emptiness zzzunknownword", "KeyError", "zzzunknownword", "\"", ""})
    for (const std::optional<std::string>& repo : {std::optional<std::string>(), std::optional<std::string>("acme/a")})
      for (int limit : {0, 1, 10}) {
        auto whole = store->search(text, repo, limit);
        auto ids = store->search_ids(text, repo, limit);
        ASSERT_TRUE(whole && ids) << text;
        ASSERT_EQ(ids->size(), whole->size()) << text;
        for (std::size_t i = 0; i < ids->size(); ++i) {
          EXPECT_EQ((*ids)[i].id, (*whole)[i].record.id) << text;
          EXPECT_EQ((*ids)[i].rank, (*whole)[i].rank) << text;
        }
      }
}

TEST_P(StoreTest, HostileSearchTextIsNeverSyntax) {
  auto store = open();
  ASSERT_TRUE(store->ingest(make_dataset("acme/a", k_sha1, 5)));
  const std::string inputs[] = {"\"",        "*",         "NEAR(",         "-",        "'; DROP TABLE records; --",
                                "a OR",      "AND",       "NOT invalid",   "\"\"\"",   "col:invalid",
                                "^invalid",  "invalid*",  "(invalid",      "{x} + y",  "\xff\xfe\x80",
                                "— “x” —",   "NEAR(a b)", "error_class:x", "   ",      ""};
  for (const auto& q : inputs) {
    auto r = store->search(q, std::nullopt, 10);
    EXPECT_TRUE(r) << "query [" << q << "]: " << (r ? "" : r.error());
  }
  auto star = store->search("invalid*", std::nullopt, 10);
  ASSERT_TRUE(star);
  EXPECT_EQ(star->size(), 5u);  // "*" is a separator, not a prefix operator
  auto not_op = store->search("NOT invalid", std::nullopt, 10);
  ASSERT_TRUE(not_op);
  EXPECT_EQ(not_op->size(), 5u);  // "NOT" is a word: AND finds nothing, OR finds "invalid"
  auto empty = store->search("", std::nullopt, 10);
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  EXPECT_EQ(count_current(*store, "acme/a"), 5u);
}

TEST_P(StoreTest, FailedIngestChangesNothing) {
  auto store = open();
  ASSERT_TRUE(store->ingest(make_dataset("acme/a", k_sha1, 3, "keep")));

  Dataset dup = make_dataset("acme/a", k_sha2, 4, "dup");
  dup.records[3].id = dup.records[1].id;
  auto s = store->ingest(dup);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("duplicate record id " + dup.records[1].id), std::string::npos) << s.error();

  Dataset wrong_repo = make_dataset("acme/a", k_sha2, 2);
  wrong_repo.records[1].repo = "other/b";
  EXPECT_FALSE(store->ingest(wrong_repo));
  Dataset wrong_sha = make_dataset("acme/a", k_sha2, 2);
  wrong_sha.records[0].analyzed_sha = k_sha1;
  EXPECT_FALSE(store->ingest(wrong_sha));
  Dataset bad_id = make_dataset("acme/a", k_sha2, 2);
  bad_id.records[0].id = "XYZ";
  EXPECT_FALSE(store->ingest(bad_id));
  EXPECT_FALSE(store->ingest(Dataset{"", k_sha1, "v", {}}));

  auto repos = store->repos();
  ASSERT_TRUE(repos);
  ASSERT_EQ(repos->size(), 1u);
  EXPECT_EQ((*repos)[0].sha, k_sha1);
  EXPECT_EQ(count_current(*store, "acme/a"), 3u);
  auto hits = store->search("invalid", std::nullopt, 100);
  ASSERT_TRUE(hits);
  EXPECT_EQ(hits->size(), 3u);
  // The store still accepts writes after the failures.
  EXPECT_TRUE(store->ingest(make_dataset("acme/a", k_sha2, 2, "ok")));
  EXPECT_EQ(count_current(*store, "acme/a"), 2u);
}

TEST_P(StoreTest, EmptyDatasetIsCurrentWithNoRecords) {
  auto store = open();
  ASSERT_TRUE(store->ingest(make_dataset("acme/a", k_sha1, 3)));
  ASSERT_TRUE(store->ingest(Dataset{"acme/a", k_sha2, "v", {}}));
  EXPECT_EQ(count_current(*store, "acme/a"), 0u);
  auto repos = store->repos();
  ASSERT_TRUE(repos);
  ASSERT_EQ(repos->size(), 1u);
  EXPECT_EQ((*repos)[0].records, 0);
}

TEST(SqliteStore, NewerSchemaVersionIsRefused) {
  TempDir dir;
  std::string path = dir.file("s.db");
  ASSERT_TRUE(open_or_die(path));
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE meta SET value = '99' WHERE key = 'schema_version'", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto s = open_store("sqlite:" + path);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("schema version 99"), std::string::npos) << s.error();
}

// migrate_store on SQLite said "schema up to date" whatever it did: it
// says when it created the store, when it had nothing to do, and from
// which version it upgraded one.
TEST(SqliteStore, MigrateSaysWhatItDid) {
  TempDir dir;
  const std::string url = "sqlite:" + dir.file("s.db");
  auto first = migrate_store(url);
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->find("store created, schema at version "), 0u) << *first;
  auto again = migrate_store(url);
  ASSERT_TRUE(again) << again.error();
  EXPECT_NE(again->find("(up to date)"), std::string::npos) << *again;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(dir.file("s.db").c_str(), &db), SQLITE_OK);
  // Version 5 -> 6 only adds columns and indexes to what version 6 has:
  // a version-6 file labelled 5 upgrades.
  ASSERT_EQ(sqlite3_exec(db, "DROP INDEX records_by_dataset_key; DROP INDEX records_by_dataset_body;"
                             " DROP INDEX records_by_dataset_doc;"
                             " ALTER TABLE records DROP COLUMN source_code_start;"
                             " ALTER TABLE records DROP COLUMN source_code_end;"
                             " UPDATE meta SET value = '5' WHERE key = 'schema_version'",
                         nullptr, nullptr, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(db);
  sqlite3_close(db);
  auto upgraded = migrate_store(url);
  ASSERT_TRUE(upgraded) << upgraded.error();
  EXPECT_NE(upgraded->find("(upgraded from version 5)"), std::string::npos) << *upgraded;
}

TEST_P(StoreTest, ImportRootsAreKeptWithTheDataset) {
  auto store = open();
  Dataset d = make_dataset("acme/a", k_sha1, 2);
  d.import_roots = {"", "Lib"};
  ASSERT_TRUE(store->ingest(d));
  ASSERT_TRUE(store->ingest(make_dataset("acme/b", k_sha1, 1)));
  auto repos = store->repos();
  ASSERT_TRUE(repos);
  ASSERT_EQ(repos->size(), 2u);
  EXPECT_EQ((*repos)[0].import_roots, (std::vector<std::string>{"", "Lib"}));
  EXPECT_TRUE((*repos)[1].import_roots.empty());
  auto roots = import_roots(*repos);
  EXPECT_EQ(roots.size(), 1u);
  EXPECT_EQ(roots["acme/a"], (std::vector<std::string>{"", "Lib"}));
}

// A store written by the errdex of before this schema's versions 2 and 3
// (its DDL as it stood, with one dataset) is upgraded in place when opened:
// its records stay current and searchable, with roots and ref unknown, and
// it then keeps several revisions.
TEST(SqliteStore, VersionOneStoreIsMigrated) {
  TempDir dir;
  std::string path = dir.file("s.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const char* v1 = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES('schema_version', '1');
CREATE TABLE datasets(id INTEGER PRIMARY KEY, repo TEXT NOT NULL, sha TEXT NOT NULL, dataset_version TEXT NOT NULL,
  ingested_at TEXT NOT NULL, record_count INTEGER NOT NULL, UNIQUE(repo, sha));
CREATE TABLE repos(repo TEXT PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE records(seq INTEGER PRIMARY KEY, dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  id TEXT NOT NULL, repo TEXT NOT NULL, file_path TEXT NOT NULL, line_number INTEGER NOT NULL,
  error_class TEXT NOT NULL, error_message TEXT NOT NULL, json TEXT NOT NULL, UNIQUE(dataset_id, id));
CREATE INDEX records_by_id ON records(id);
CREATE INDEX records_by_location ON records(dataset_id, file_path, line_number);
CREATE VIRTUAL TABLE records_fts USING fts5(error_message, error_class, tags, documentation,
  tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO datasets VALUES(7, 'acme/a', '1111111111111111111111111111111111111111', 'v', 't', 3);
INSERT INTO repos VALUES('acme/a', 7);
)sql";
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA foreign_keys=ON", nullptr, nullptr, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, v1, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  Dataset d = make_dataset("acme/a", k_sha1, 3);
  for (int i = 0; i < 3; ++i) {
    const auto& r = d.records[i];
    std::string sql = "INSERT INTO records(seq, dataset_id, id, repo, file_path, line_number, error_class, error_message, json)"
                      " VALUES(" + std::to_string(i + 1) + ", 7, ?, ?, ?, ?, ?, ?, ?)";
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
    std::string json = model::to_json(r);
    sqlite3_bind_text(st, 1, r.id.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, r.repo.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, r.file_path.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 4, r.line_number);
    sqlite3_bind_text(st, 5, r.error_class.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, r.error_message.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 7, json.c_str(), -1, SQLITE_TRANSIENT);
    ASSERT_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    std::string fts = "INSERT INTO records_fts(rowid, error_message, error_class, tags, documentation) VALUES(" +
                      std::to_string(i + 1) + ", '" + r.error_message + "', '" + r.error_class + "', '', '')";
    ASSERT_EQ(sqlite3_exec(db, fts.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  }
  sqlite3_close(db);

  auto store = open_or_die(path);
  ASSERT_TRUE(store);
  EXPECT_EQ(count_current(*store, "acme/a"), 3u);
  // Each record's JSON became a body of its own, its stamp read off it.
  auto listed = store->list(std::string("acme/a"));
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(model::to_json((*listed)[i].record), model::to_json(d.records[i]));
  auto hits = store->search("invalid", std::nullopt, 10);
  ASSERT_TRUE(hits);
  EXPECT_EQ(hits->size(), 3u);
  auto repos = store->repos();
  ASSERT_TRUE(repos);
  ASSERT_EQ(repos->size(), 1u);
  EXPECT_TRUE((*repos)[0].import_roots.empty());
  EXPECT_EQ((*repos)[0].ref, "");
  // The migrated store keeps a second revision of the same sha beside it.
  Dataset named = make_dataset("acme/a", k_sha1, 2, "named");
  named.ref = "v2";
  named.import_roots = {"", "src"};
  ASSERT_TRUE(store->ingest(named));
  auto revs = store->revisions("acme/a");
  ASSERT_TRUE(revs);
  ASSERT_EQ(revs->size(), 2u);
  repos = store->repos();
  ASSERT_TRUE(repos);
  EXPECT_EQ((*repos)[0].import_roots, (std::vector<std::string>{"", "src"}));
  EXPECT_EQ(count_current(*store, "acme/a"), 2u);
  // The search index made before the migration (keyed by seq then)
  // follows the new current revision.
  hits = store->search("invalid", std::nullopt, 10);
  ASSERT_TRUE(hits);
  EXPECT_EQ(hits->size(), 2u);
  // Opened again: nothing left to upgrade, foreign keys on (the cascade
  // from datasets to records holds).
  store.reset();
  store = open_or_die(path);
  EXPECT_EQ(count_current(*store, "acme/a"), 2u);
  auto dropped = store->forget("acme/a", std::nullopt);
  ASSERT_TRUE(dropped);
  EXPECT_EQ(*dropped, 2u);
  EXPECT_EQ(count_current(*store, "acme/a"), 0u);
  hits = store->search("invalid", std::nullopt, 10);
  ASSERT_TRUE(hits);
  EXPECT_TRUE(hits->empty());
}

// Revisions of one repository side by side: ordered as versions when each
// has a ref, the last one current; forgetting one makes the one before it
// current, and search follows.
TEST_P(StoreTest, RevisionsLiveSideBySideAndTheLastIsCurrent) {
  auto store = open();
  auto named = [](const std::string& sha, int n, const std::string& salt, const std::string& ref) {
    Dataset d = make_dataset("acme/a", sha, n, salt);
    d.ref = ref;
    return d;
  };
  ASSERT_TRUE(store->ingest(named(k_sha2, 5, "ten", "v1.10")));
  ASSERT_TRUE(store->ingest(named(k_sha1, 3, "nine", "v1.9")));  // older, scanned later
  ASSERT_TRUE(store->ingest(named(k_sha1, 4, "nine-b", "v1.9-x")));  // same sha, another name (not a pre-release: "-b" would be 1.9's beta)
  auto revs = store->revisions("acme/a");
  ASSERT_TRUE(revs);
  ASSERT_EQ(revs->size(), 3u);
  EXPECT_EQ((*revs)[0].ref, "v1.9");
  EXPECT_EQ((*revs)[1].ref, "v1.9-x");
  EXPECT_EQ((*revs)[2].ref, "v1.10");
  EXPECT_TRUE((*revs)[2].current);
  EXPECT_FALSE((*revs)[0].current);
  EXPECT_EQ(count_current(*store, "acme/a"), 5u);
  auto repos = store->repos();
  ASSERT_TRUE(repos);
  EXPECT_EQ((*repos)[0].ref, "v1.10");
  auto hits = store->search("invalid", std::nullopt, 100);
  ASSERT_TRUE(hits);
  EXPECT_EQ(hits->size(), 5u);

  // A revision by ref, by sha and by a sha's prefix; the last that fits.
  auto by_ref = store->revision("acme/a", "v1.9");
  ASSERT_TRUE(by_ref && *by_ref);
  EXPECT_EQ((*by_ref)->second.size(), 3u);
  auto by_sha = store->revision("acme/a", k_sha1.substr(0, 8));
  ASSERT_TRUE(by_sha && *by_sha);
  EXPECT_EQ((*by_sha)->first.ref, "v1.9-x");
  auto none = store->revision("acme/a", "v9");
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  // Every revision's record with an id.
  auto seen = store->occurrences(make_record("acme/a", k_sha1, 0, "nine").id);
  ASSERT_TRUE(seen);
  ASSERT_EQ(seen->size(), 1u);
  EXPECT_EQ((*seen)[0].ref, "v1.9");

  auto n = store->forget("acme/a", std::string("v1.10"));
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 1u);
  EXPECT_EQ(count_current(*store, "acme/a"), 4u);
  hits = store->search("invalid", std::nullopt, 100);
  ASSERT_TRUE(hits);
  EXPECT_EQ(hits->size(), 4u);
  n = store->forget("acme/a", std::string("nope"));
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 0u);
  n = store->forget("acme/a", std::nullopt);
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 2u);
  repos = store->repos();
  ASSERT_TRUE(repos);
  EXPECT_TRUE(repos->empty());
  hits = store->search("invalid", std::nullopt, 100);
  ASSERT_TRUE(hits);
  EXPECT_TRUE(hits->empty());
}

// The search index follows the current revision when a new one keeps most
// records (SQLite re-indexes only those whose searched text changed): the
// hits and their ranks are those of a store holding that revision alone.
TEST_P(StoreTest, SearchFollowsTheCurrentRevisionThroughKeptRecords) {
  auto store = open();
  auto revision = [](const std::string& sha, const std::string& ref, const std::string& doc_word, int drop, int add) {
    Dataset d = make_dataset("acme/a", sha, 8);
    d.ref = ref;
    d.records[1].documentation = "Only this one mentions " + doc_word + ".";
    d.records.erase(d.records.begin() + drop);
    d.records.push_back(make_record("acme/a", sha, add));
    return d;
  };
  Dataset v1 = revision(k_sha1, "v1", "aardvark", 2, 20);
  Dataset v2 = revision(k_sha2, "v2", "zebra", 3, 21);
  v2.records[4].error_message = "renamed message of step four";
  // Alone in a store of its own, as the reference for each state below.
  auto alone = [&](const Dataset& d) {
    std::string url;
    if (GetParam() == "postgresql") url = testing::PostgresServer::shared().create_database();
    else url = "sqlite:" + m_dir.file(d.ref + "-alone.db");
    auto s = open_store(url);
    EXPECT_TRUE(s) << (s ? "" : s.error());
    EXPECT_TRUE((*s)->ingest(d));
    return std::move(*s);
  };
  auto same_hits = [&](Store& reference, const std::string& state) {
    for (const char* text : {"invalid", "aardvark", "zebra", "renamed four", "step", "KeyError", "validation"}) {
      auto got = store->search(text, std::nullopt, 100);
      auto want = reference.search(text, std::nullopt, 100);
      ASSERT_TRUE(got && want) << text;
      ASSERT_EQ(got->size(), want->size()) << state << ": " << text;
      for (std::size_t i = 0; i < got->size(); ++i) {
        EXPECT_EQ((*got)[i].record.id, (*want)[i].record.id) << state << ": " << text;
        EXPECT_DOUBLE_EQ((*got)[i].rank, (*want)[i].rank) << state << ": " << text;
        EXPECT_EQ((*got)[i].record, (*want)[i].record) << state << ": " << text;
      }
    }
  };
  auto ref1 = alone(v1);
  auto ref2 = alone(v2);
  ASSERT_TRUE(store->ingest(v1));
  same_hits(*ref1, "v1");
  ASSERT_TRUE(store->ingest(v2));
  same_hits(*ref2, "v2 after v1");
  ASSERT_TRUE(store->ingest(v2));  // the current revision stored again
  same_hits(*ref2, "v2 again");
  Dataset v0 = revision(std::string(40, 'c'), "v0", "okapi", 5, 22);
  ASSERT_TRUE(store->ingest(v0));  // an older revision: v2 stays current
  same_hits(*ref2, "v0 after v2");
  auto n = store->forget("acme/a", std::string("v2"));
  ASSERT_TRUE(n && *n == 1u);
  same_hits(*ref1, "v2 forgotten");
  ASSERT_TRUE(store->ingest(v2));
  same_hits(*ref2, "v2 back");
}

// One revision's whole records (list_at), each line naming its revision,
// and the revision's name on the current records too.
TEST_P(StoreTest, ListAtReadsOneRevisionWhole) {
  auto store = open();
  Dataset one = make_dataset("acme/a", k_sha1, 3, "nine");
  one.ref = "v1.9";
  Dataset two = make_dataset("acme/a", k_sha2, 2, "ten");
  two.ref = "v1.10";
  ASSERT_TRUE(store->ingest(one));
  ASSERT_TRUE(store->ingest(two));
  auto old = store->list_at("acme/a", "v1.9");
  ASSERT_TRUE(old && *old) << (old ? "" : old.error());
  ASSERT_EQ((*old)->size(), 3u);
  for (const auto& l : **old) {
    EXPECT_EQ(l.ref, "v1.9");
    EXPECT_EQ(l.record.analyzed_sha, k_sha1);
  }
  EXPECT_EQ(model::to_json((**old)[0].record), model::to_json(one.records[0])) << "whole, as ingested";
  auto by_sha = store->list_at("acme/a", k_sha2);
  ASSERT_TRUE(by_sha && *by_sha);
  EXPECT_EQ((*by_sha)->size(), 2u);
  auto none = store->list_at("acme/a", "v9");
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  auto unknown_repo = store->list_at("acme/none", "v1.9");
  ASSERT_TRUE(unknown_repo);
  EXPECT_FALSE(*unknown_repo);
  auto current = store->list("acme/a");
  ASSERT_TRUE(current);
  ASSERT_EQ(current->size(), 2u);
  EXPECT_EQ((*current)[0].ref, "v1.10");
  auto got = store->get(two.records[0].id);
  ASSERT_TRUE(got && *got);
  EXPECT_EQ((*got)->ref, "v1.10");
  // Searched in memory, within the revision.
  auto hits = search_at(*store, "invalid", "acme/a", "v1.9", 10);
  ASSERT_TRUE(hits && *hits);
  EXPECT_EQ((*hits)->size(), 3u);
  EXPECT_EQ((*hits)->front().record.analyzed_sha, k_sha1);
}

TEST_P(StoreTest, TwoStoresShareTheDatabase) {
  auto a = open();
  auto b = open();
  ASSERT_TRUE(a->ingest(make_dataset("acme/a", k_sha1, 3)));
  EXPECT_EQ(count_current(*b, "acme/a"), 3u);
  ASSERT_TRUE(b->ingest(make_dataset("acme/a", k_sha2, 5)));
  EXPECT_EQ(count_current(*a, "acme/a"), 5u);
}

// A reader with its own connection must only ever see a complete dataset.
TEST_P(StoreTest, ReaderSeesWholeDatasetsDuringReingest) {
  const std::vector<int> sizes = {300, 1200, 2500, 800};
  // The same sha twice: re-ingesting the current dataset deletes the rows a
  // reader is looking at, the hardest case for isolation.
  const std::vector<std::string> shas = {k_sha1, k_sha2, k_sha2, std::string(40, 'c')};
  {
    auto store = open();
    ASSERT_TRUE(store->ingest(make_dataset("acme/a", shas[0], sizes[0], "0")));
  }
  std::vector<Dataset> datasets;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    datasets.push_back(make_dataset("acme/a", shas[i], sizes[i], std::to_string(i)));

  std::atomic<bool> done{false};
  std::set<std::size_t> seen;
  std::vector<std::string> bad;
  std::atomic<int> reads{0};
  std::thread reader([&] {
    auto store = open();
    if (!store) return;
    while (!done.load()) {
      auto l = store->list(std::string("acme/a"));
      if (!l) {
        bad.push_back("list failed: " + l.error());
        continue;
      }
      std::size_t n = l->size();
      seen.insert(n);
      if (std::find(sizes.begin(), sizes.end(), static_cast<int>(n)) == sizes.end())
        bad.push_back("list saw " + std::to_string(n));
      // Every record of one read comes from one dataset.
      for (const auto& line : *l)
        if (line.record.analyzed_sha != l->front().record.analyzed_sha) {
          bad.push_back("mixed shas");
          break;
        }
      auto hits = store->search("invalid", std::string("acme/a"), 100000);
      if (!hits) bad.push_back("search failed: " + hits.error());
      else if (std::find(sizes.begin(), sizes.end(), static_cast<int>(hits->size())) == sizes.end())
        bad.push_back("search saw " + std::to_string(hits->size()));
      auto r = store->repos();
      if (r && !r->empty() &&
          std::find(sizes.begin(), sizes.end(), static_cast<int>(r->front().records)) == sizes.end())
        bad.push_back("repos saw " + std::to_string(r->front().records));
      ++reads;
    }
  });
  {
    auto writer = open();
    ASSERT_TRUE(writer);
    // One bound for all the waits below: it only keeps a broken reader
    // from hanging the test.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (int round = 0; round < 32; ++round) {
      auto s = writer->ingest(datasets[round % datasets.size()]);
      EXPECT_TRUE(s) << s.error();
      // The reader runs between ingests: two more completed reads mean one
      // started after this commit. Without the wait a busy machine can run
      // every ingest before the reader's first read.
      const int after = reads.load();
      while (reads.load() < after + 2 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  done = true;
  reader.join();
  EXPECT_TRUE(bad.empty()) << bad.size() << " bad reads, first: " << (bad.empty() ? "" : bad.front());
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(seen.size(), sizes.size()) << "the reader should have observed every dataset";
}

off_t file_size(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? st.st_size : 0;
}

// A writer killed in the middle of an ingest leaves the previous dataset. The
// big dataset has the previous one's (repo, sha), so the ingest starts by
// deleting the rows the test then expects to find.
TEST(SqliteStore, SigkillDuringIngestKeepsPreviousDataset) {
  TempDir dir;
  std::string path = dir.file("kill.db");
  constexpr int k_big = 200000;
  Dataset previous = make_dataset("acme/a", k_sha1, 50, "prev");
  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store->ingest(previous));
  }
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(ready[0]);
    Dataset big = make_dataset("acme/a", k_sha1, k_big, "big");
    auto store = open_store("sqlite:" + path);
    if (!store) _exit(2);
    char c = 'x';
    if (write(ready[1], &c, 1) != 1) _exit(3);
    auto s = (*store)->ingest(big);
    _exit(s ? 0 : 4);
  }
  close(ready[1]);
  char c;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  close(ready[0]);
  // Kill once uncommitted pages have spilled into the WAL: the transaction
  // is then well under way but far from its commit.
  std::string wal = path + "-wal";
  auto start = std::chrono::steady_clock::now();
  while (file_size(wal) < (8 << 20) && std::chrono::steady_clock::now() - start < std::chrono::seconds(30))
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  off_t wal_at_kill = file_size(wal);
  kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the child finished before it was killed; the test proves nothing (status " << status << ")";
  EXPECT_GT(wal_at_kill, 0);

  {
    auto store = open_or_die(path);
    ASSERT_TRUE(store);
    auto repos = store->repos();
    ASSERT_TRUE(repos) << repos.error();
    ASSERT_EQ(repos->size(), 1u);
    EXPECT_EQ((*repos)[0].sha, k_sha1);
    EXPECT_EQ((*repos)[0].records, 50);
    EXPECT_EQ(count_current(*store, "acme/a"), 50u);
    auto got = store->get(previous.records[7].id);
    ASSERT_TRUE(got);
    ASSERT_TRUE(got->has_value());
    EXPECT_EQ((*got)->record, previous.records[7]);
    auto hits = store->search("invalid", std::nullopt, 1000);
    ASSERT_TRUE(hits);
    EXPECT_EQ(hits->size(), 50u);

    // Rerun to completion.
    Dataset big = make_dataset("acme/a", k_sha1, k_big, "big");
    auto t0 = std::chrono::steady_clock::now();
    auto s = store->ingest(big);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(s) << s.error();
    std::printf("ingest of %d records: %.2f s\n", k_big, secs);
  }
  auto store = open_or_die(path);
  auto repos = store->repos();
  ASSERT_TRUE(repos);
  ASSERT_EQ(repos->size(), 1u);
  EXPECT_EQ((*repos)[0].sha, k_sha1);
  EXPECT_EQ((*repos)[0].records, k_big);
  auto got = store->get(previous.records[7].id);
  ASSERT_TRUE(got);
  EXPECT_FALSE(got->has_value());
}

// PostgreSQL only: its schema, its errors, its sharing between threads.

// Runs `sql` on the database at `url` (libpq, outside errdex); false with a
// test failure when it fails.
bool run_sql(const std::string& url, const std::string& sql) {
  PGconn* c = PQconnectdb(url.c_str());
  PGresult* r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql.c_str()) : nullptr;
  const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  const bool done = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
  if (!done) ADD_FAILURE() << sql << ": " << PQerrorMessage(c);
  PQclear(r);
  PQfinish(c);
  return done;
}

// The one value `sql` answers, "" when none.
std::string query_value(const std::string& url, const std::string& sql) {
  PGconn* c = PQconnectdb(url.c_str());
  PGresult* r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql.c_str()) : nullptr;
  std::string out;
  if (r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0) out = PQgetvalue(r, 0, 0);
  else ADD_FAILURE() << sql << ": " << PQerrorMessage(c);
  PQclear(r);
  PQfinish(c);
  return out;
}

class PostgresStore : public ::testing::Test {
 protected:
  void SetUp() override {
    auto& server = testing::PostgresServer::shared();
    ASSERT_TRUE(server.ok()) << server.error();
    m_url = server.create_database();
    ASSERT_FALSE(m_url.empty()) << server.error();
  }
  std::string m_url;
};

TEST_F(PostgresStore, MigrateAppliesEachNumberedStepOnce) {
  auto first = migrate_store(m_url);
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(*first, "schema at version 7 (7 migrations applied now)");
  auto again = migrate_store(m_url);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(*again, "schema at version 7 (0 migrations applied now)");
  EXPECT_EQ(query_value(m_url, "SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations"),
            "1,2,3,4,5,6,7");
  // Debian's PostgreSQL 15 has lz4: the records' JSON is compressed with it.
  EXPECT_EQ(query_value(m_url, "SELECT attcompression FROM pg_attribute WHERE attrelid = 'record_bodies'::regclass"
                               " AND attname = 'json'"),
            "l");
}

// A store of schema version 4, written as the errdex of that schema wrote
// it (each record's JSON whole in its row, under pglz), is brought up to
// date in place: the records stored before read back the same through every
// reader, a revision stored after shares their bodies only from then on,
// and forgetting drops the bodies no revision holds.
TEST_F(PostgresStore, AStoreOfSchemaFourIsMigratedInPlace) {
  const Dataset before = make_dataset("acme/a", k_sha1, 5);
  std::string sql = R"sql(
CREATE TABLE schema_migrations(version INTEGER PRIMARY KEY, description TEXT NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
INSERT INTO schema_migrations(version, description) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
CREATE TABLE datasets(id BIGSERIAL PRIMARY KEY, repo TEXT COLLATE "C" NOT NULL, sha TEXT COLLATE "C" NOT NULL,
  ref TEXT COLLATE "C" NOT NULL DEFAULT '', dataset_version TEXT NOT NULL, ingested_at TEXT NOT NULL,
  record_count BIGINT NOT NULL, import_roots TEXT NOT NULL DEFAULT '[]', UNIQUE(repo, sha, ref));
CREATE TABLE repos(repo TEXT COLLATE "C" PRIMARY KEY,
  dataset_id BIGINT NOT NULL REFERENCES datasets(id) DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE records(seq BIGSERIAL PRIMARY KEY,
  dataset_id BIGINT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE, id TEXT COLLATE "C" NOT NULL,
  repo TEXT COLLATE "C" NOT NULL, file_path TEXT COLLATE "C" NOT NULL, line_number INTEGER NOT NULL,
  error_class TEXT COLLATE "C" NOT NULL, error_message TEXT COLLATE "C" NOT NULL, json TEXT NOT NULL,
  site_key TEXT COLLATE "C" NOT NULL DEFAULT '', search TSVECTOR NOT NULL, tokens INTEGER NOT NULL,
  UNIQUE(dataset_id, id));
CREATE INDEX records_by_id ON records(id);
CREATE INDEX records_search ON records USING GIN(search);
CREATE TABLE file_facts(key TEXT PRIMARY KEY, facts TEXT NOT NULL);
CREATE TABLE llm_answers(key TEXT PRIMARY KEY, answer TEXT NOT NULL, created_at TEXT NOT NULL);
INSERT INTO datasets(id, repo, sha, dataset_version, ingested_at, record_count)
  VALUES (7, 'acme/a', ')sql" + std::string(k_sha1) + R"sql(', '2026-01-02T03:04:05.000Z', 't', 5);
INSERT INTO repos VALUES ('acme/a', 7);
)sql";
  auto quoted = [](const std::string& v) {
    std::string q = "'";
    for (char c : v) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
  };
  for (const auto& r : before.records)
    sql += "INSERT INTO records(dataset_id, id, repo, file_path, line_number, error_class, error_message, json, search,"
           " tokens) VALUES (7, " + quoted(r.id) + ", " + quoted(r.repo) + ", " + quoted(r.file_path) + ", " +
           std::to_string(r.line_number) + ", " + quoted(r.error_class) + ", " + quoted(r.error_message) + ", " +
           quoted(model::to_json(r)) + ", setweight(to_tsvector('simple', " + quoted(r.error_message) +
           "), 'A'), 6);\n";
  ASSERT_TRUE(run_sql(m_url, sql));

  auto m = migrate_store(m_url);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(*m, "schema at version 7 (3 migrations applied now)");
  auto store = open_store(m_url);
  ASSERT_TRUE(store) << store.error();
  auto listed = (*store)->list(std::string("acme/a"));
  ASSERT_TRUE(listed) << listed.error();
  ASSERT_EQ(listed->size(), before.records.size());
  for (std::size_t i = 0; i < listed->size(); ++i) EXPECT_EQ(model::to_json((*listed)[i].record), model::to_json(before.records[i]));
  for (const auto& r : before.records) {
    auto got = (*store)->get(r.id);
    ASSERT_TRUE(got) << got.error();
    ASSERT_TRUE(got->has_value()) << r.id;
    EXPECT_EQ((*got)->record, r);
  }
  auto hits = (*store)->search("invalid", std::nullopt, 10);
  ASSERT_TRUE(hits) << hits.error();
  ASSERT_EQ(hits->size(), before.records.size());
  for (const auto& h : *hits) EXPECT_EQ(h.record.analyzed_sha, k_sha1);
  auto fields = (*store)->match_fields(std::string("acme/a"));
  ASSERT_TRUE(fields) << fields.error();
  EXPECT_EQ(fields->size(), before.records.size());

  // A later revision of the same records: its own bodies (those migrated
  // are keyed by row), shared by the revision after it.
  Dataset two = make_dataset("acme/a", k_sha2, 5);
  ASSERT_TRUE((*store)->ingest(two));
  Dataset three = two;
  three.ref = "three";
  ASSERT_TRUE((*store)->ingest(three));
  EXPECT_EQ(query_value(m_url, "SELECT count(*) FROM record_bodies"), "10");
  auto old = (*store)->list_at("acme/a", k_sha1);
  ASSERT_TRUE(old && *old);
  ASSERT_EQ((*old)->size(), before.records.size());
  EXPECT_EQ((**old)[0].record, before.records[0]);
  ASSERT_TRUE((*store)->forget("acme/a", std::string(k_sha1)));
  EXPECT_EQ(query_value(m_url, "SELECT count(*) FROM record_bodies"), "5");
  ASSERT_TRUE((*store)->forget("acme/a", std::nullopt));
  EXPECT_EQ(query_value(m_url, "SELECT count(*) FROM record_bodies"), "0");
}

// A listener hears of an ingest and of a forget, at their commit; a
// failed write says nothing.
TEST_F(PostgresStore, ChangeFeedHearsOfEachCommittedWrite) {
  auto feed = open_change_feed(m_url);
  ASSERT_TRUE(feed);
  EXPECT_FALSE(open_change_feed("sqlite:/tmp/none.db"));
  auto first = feed->wait(std::chrono::milliseconds(0));
  ASSERT_TRUE(first) << first.error();
  EXPECT_TRUE(*first) << "a feed that has just connected may have missed news";
  auto quiet = feed->wait(std::chrono::milliseconds(50));
  ASSERT_TRUE(quiet) << quiet.error();
  EXPECT_FALSE(*quiet);
  auto store = open_store(m_url);
  ASSERT_TRUE(store) << store.error();
  Dataset ds;
  ds.repo = "o/feed";
  ds.sha = std::string(40, 'a');
  ds.dataset_version = "2024-01-01T00:00:00Z";
  ASSERT_TRUE((*store)->ingest(ds));
  auto heard = feed->wait(std::chrono::seconds(30));
  ASSERT_TRUE(heard) << heard.error();
  EXPECT_TRUE(*heard);
  ASSERT_TRUE((*store)->forget("o/feed", std::nullopt));
  heard = feed->wait(std::chrono::seconds(30));
  ASSERT_TRUE(heard) << heard.error();
  EXPECT_TRUE(*heard);
  Dataset bad = ds;
  bad.sha = "";
  EXPECT_FALSE((*store)->ingest(bad));
  quiet = feed->wait(std::chrono::milliseconds(200));
  ASSERT_TRUE(quiet) << quiet.error();
  EXPECT_FALSE(*quiet);
}

// Two workers taking at once get different jobs; a finished job is no
// longer its worker's, and one whose lease ran out goes to the next taker.
TEST_F(PostgresStore, JobQueueHandsEachJobToOneWorker) {
  auto queue = open_job_queue(m_url);
  ASSERT_TRUE(queue) << queue.error();
  EXPECT_FALSE(open_job_queue("sqlite:/tmp/none.db"));
  for (const char* src : {"/src/a", "/src/b"}) ASSERT_TRUE((*queue)->enqueue({src, {"v1"}, "o/" + std::string(src + 5), std::nullopt}));
  auto a = (*queue)->take("w1", std::chrono::seconds(60), 3);
  auto b = (*queue)->take("w2", std::chrono::seconds(60), 3);
  auto none = (*queue)->take("w3", std::chrono::seconds(60), 3);
  ASSERT_TRUE(a && *a && b && *b && none) << "take failed";
  EXPECT_FALSE(*none);
  EXPECT_EQ((*a)->spec.source, "/src/a");
  EXPECT_EQ((*b)->spec.source, "/src/b");
  EXPECT_EQ((*a)->spec.revs, std::vector<std::string>{"v1"});
  EXPECT_EQ((*a)->spec.repo, "o/a");
  EXPECT_FALSE((*a)->spec.ref);
  EXPECT_EQ((*a)->worker, "w1");
  EXPECT_EQ((*a)->attempts, 1);
  auto beat = (*queue)->heartbeat(**a, std::chrono::seconds(60));
  ASSERT_TRUE(beat);
  EXPECT_TRUE(*beat);
  auto done = (*queue)->finish(**a, std::nullopt);
  ASSERT_TRUE(done);
  EXPECT_TRUE(*done);
  beat = (*queue)->heartbeat(**a, std::chrono::seconds(60));
  ASSERT_TRUE(beat);
  EXPECT_FALSE(*beat);
  // b's lease runs out (made so in the table): the next taker has it.
  ASSERT_EQ(query_value(m_url, "UPDATE jobs SET lease_until = now() - interval '1 second' WHERE source = '/src/b'"
                               " RETURNING 'ok'"), "ok");
  auto again = (*queue)->take("w3", std::chrono::seconds(60), 3);
  ASSERT_TRUE(again && *again);
  EXPECT_EQ((*again)->spec.source, "/src/b");
  EXPECT_EQ((*again)->attempts, 2);
  auto stale = (*queue)->finish(**b, std::string("late"));
  ASSERT_TRUE(stale);
  EXPECT_FALSE(*stale) << "a worker whose lease ran out finished a job another holds";
  ASSERT_TRUE((*queue)->finish(**again, std::string("the scan failed")));
  // Lost too often: failed, not taken.
  ASSERT_TRUE((*queue)->enqueue({"/src/c", {}, std::nullopt, std::nullopt}));
  auto c = (*queue)->take("w1", std::chrono::seconds(60), 1);
  ASSERT_TRUE(c && *c);
  ASSERT_EQ(query_value(m_url, "UPDATE jobs SET lease_until = now() - interval '1 second' WHERE source = '/src/c'"
                               " RETURNING 'ok'"), "ok");
  auto gone = (*queue)->take("w2", std::chrono::seconds(60), 1);
  ASSERT_TRUE(gone);
  EXPECT_FALSE(*gone);
  auto jobs = (*queue)->list(10);
  ASSERT_TRUE(jobs);
  ASSERT_EQ(jobs->size(), 3u);
  EXPECT_EQ((*jobs)[0].state, "failed");
  EXPECT_NE((*jobs)[0].error.find("lost"), std::string::npos) << (*jobs)[0].error;
  EXPECT_EQ((*jobs)[1].state, "failed");
  EXPECT_EQ((*jobs)[1].error, "the scan failed");
  EXPECT_EQ((*jobs)[2].state, "done");
  EXPECT_FALSE((*jobs)[2].finished_at.empty());
  auto open = (*queue)->open_jobs();
  ASSERT_TRUE(open);
  EXPECT_EQ(*open, 0);
}

// Processes that open a fresh database at once (servers and workers
// starting together) each find the schema whole, made once.
TEST_F(PostgresStore, ProcessesOpeningTogetherMigrateOnce) {
  constexpr int k_processes = 6;
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  std::vector<pid_t> children;
  for (int i = 0; i < k_processes; ++i) {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      close(go[1]);
      char c;
      if (read(go[0], &c, 1) != 0) _exit(3);  // all start when the pipe closes
      auto store = open_store(m_url);
      if (!store) {
        std::fprintf(stderr, "child: %s\n", store.error().c_str());
        _exit(2);
      }
      auto repos = (*store)->repos();
      _exit(repos && repos->empty() ? 0 : 4);
    }
    children.push_back(child);
  }
  close(go[0]);
  close(go[1]);
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  }
  EXPECT_EQ(query_value(m_url, "SELECT count(*) FROM schema_migrations"), "7");
}

TEST_F(PostgresStore, NewerSchemaVersionIsRefused) {
  ASSERT_TRUE(open_store(m_url));
  ASSERT_TRUE(run_sql(m_url, "INSERT INTO schema_migrations(version, description) VALUES(99, 'from the future')"));
  auto s = open_store(m_url);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("schema version 99"), std::string::npos) << s.error();
  auto m = migrate_store(m_url);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().find("schema version 99"), std::string::npos) << m.error();
}

// Bad URLs and servers that say no are errors that say why, never a crash
// or a hang; a password never shows in them.
TEST_F(PostgresStore, BadUrlsAndRefusalsAreClearErrors) {
  auto& server = testing::PostgresServer::shared();
  auto wrong_password = open_store(server.url("postgres", "not-the-password"));
  ASSERT_FALSE(wrong_password);
  EXPECT_NE(wrong_password.error().find("password authentication failed"), std::string::npos)
      << wrong_password.error();
  EXPECT_EQ(wrong_password.error().find("not-the-password"), std::string::npos) << wrong_password.error();
  auto no_database = open_store(server.url("no_such_database", "x?password=also-secret"));
  ASSERT_FALSE(no_database);
  EXPECT_EQ(no_database.error().find("also-secret"), std::string::npos) << no_database.error();
  // Port 1 on loopback: nothing listens, the connection is refused at once.
  auto refused = open_store("postgresql://errdex@127.0.0.1:1/errdex?connect_timeout=3");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("cannot connect to postgresql://errdex@127.0.0.1:1/errdex"), std::string::npos)
      << refused.error();
  for (const char* url : {"postgresql://[::1", "postgres://host:notaport/db", "postgresql://h/db?nosuchoption=1"}) {
    auto bad = open_store(url);
    ASSERT_FALSE(bad) << url;
    EXPECT_NE(bad.error().find("postgresql:"), std::string::npos) << bad.error();
  }
}

// The web server calls one Store from many threads: each call borrows a
// connection, and answers stay whole.
TEST_F(PostgresStore, OneStoreServesManyThreads) {
  auto opened = open_store(m_url);
  ASSERT_TRUE(opened) << opened.error();
  Store& store = **opened;
  constexpr int k_threads = 8;
  std::vector<std::thread> threads;
  std::vector<std::string> bad(k_threads);
  for (int t = 0; t < k_threads; ++t)
    threads.emplace_back([&, t] {
      const std::string repo = "acme/r" + std::to_string(t);
      for (int round = 1; round <= 5 && bad[t].empty(); ++round) {
        if (auto s = store.ingest(make_dataset(repo, round % 2 ? k_sha1 : k_sha2, 10 * round, repo)); !s) {
          bad[t] = s.error();
          break;
        }
        auto l = store.list(repo);
        auto hits = store.search("invalid", repo, 1000);
        if (!l || !hits || l->size() != 10u * round || hits->size() != 10u * round)
          bad[t] = "round " + std::to_string(round) + ": wrong counts";
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < k_threads; ++t) EXPECT_TRUE(bad[t].empty()) << "thread " << t << ": " << bad[t];
  auto repos = store.repos();
  ASSERT_TRUE(repos);
  EXPECT_EQ(repos->size(), static_cast<std::size_t>(k_threads));
}

// The caches beside the store (scan facts, LLM answers) keep what is put,
// the last value of a key winning.
TEST_F(PostgresStore, SideTablesKeepEntries) {
  for (auto which : {pg::SideTable::file_facts, pg::SideTable::llm_answers}) {
    auto table = pg::open_side_table(m_url, which);
    ASSERT_TRUE(table) << table.error();
    ASSERT_TRUE((*table)->put_all({{"k1", "one"}, {"k2", "two \"quoted\" \\ {braces}"}, {"k1", "uno"}}));
    auto k1 = (*table)->get("k1");
    ASSERT_TRUE(k1 && *k1);
    EXPECT_EQ(**k1, "uno");
    auto k2 = (*table)->get("k2");
    ASSERT_TRUE(k2 && *k2);
    EXPECT_EQ(**k2, "two \"quoted\" \\ {braces}");
    auto none = (*table)->get("absent");
    ASSERT_TRUE(none);
    EXPECT_FALSE(*none);
  }
}

}  // namespace
}  // namespace errdex::store

namespace errdex::store {
namespace {

// How many record bodies the test's store holds.
std::string body_count(const std::string& url) {
  if (url.starts_with("postgresql")) return query_value(url, "SELECT count(*) FROM record_bodies");
  sqlite3* db = nullptr;
  std::string out;
  if (sqlite3_open(url.substr(std::string("sqlite:").size()).c_str(), &db) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM record_bodies", -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      out = std::to_string(sqlite3_column_int64(st, 0));
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out;
}

// Revisions whose records differ only in their stamps and places (lines
// moved by an edit above them) share the records' bodies, and each reads
// back with its own stamp and place through every reader; a record that
// changed has a body of its own. Replacing or forgetting one
// revision leaves the bodies the others hold.
TEST_P(StoreTest, RevisionsShareBodiesAndKeepTheirStamps) {
  auto store = open();
  auto revision = [](const std::string& sha, const std::string& ref) {
    Dataset d = make_dataset("acme/a", sha, 4, "", "2026-0" + std::to_string(ref.size()) + "-01T00:00:00.000Z");
    d.ref = ref;
    for (auto& r : d.records) {
      r.analyzed_at = d.dataset_version;
      r.analysis = model::Analysis{"static", "", 0, {}, d.dataset_version};
    }
    return d;
  };
  const Dataset v1 = revision(k_sha1, "v1");
  Dataset v2 = revision(k_sha2, "v2.0");
  v2.records[3].documentation += " Changed in v2.";
  v2.records[1].line_number += 5;
  v2.records[1].source_code_start += 5;
  v2.records[1].source_code_end += 5;
  for (auto& r : v2.records) v2.record_bodies.push_back(model::body_json(r));  // as a scan gives them
  ASSERT_TRUE(store->ingest(v1));
  ASSERT_TRUE(store->ingest(v2));
  EXPECT_EQ(body_count(m_url), "5");
  for (const Dataset* d : {&v1, static_cast<const Dataset*>(&v2)}) {
    auto lines = store->list_at("acme/a", d->ref);
    ASSERT_TRUE(lines && *lines);
    ASSERT_EQ((*lines)->size(), d->records.size());
    for (std::size_t i = 0; i < d->records.size(); ++i) {
      EXPECT_EQ(model::to_json((**lines)[i].record), model::to_json(d->records[i])) << d->ref << " " << i;
      EXPECT_EQ((**lines)[i].dataset_version, d->dataset_version);
    }
  }
  auto current = store->get(v2.records[0].id);
  ASSERT_TRUE(current && *current);
  EXPECT_EQ((*current)->record, v2.records[0]);
  auto hits = store->search("changed", std::nullopt, 10);
  ASSERT_TRUE(hits);
  ASSERT_EQ(hits->size(), 1u);
  EXPECT_EQ(hits->front().record, v2.records[3]);
  auto fields = store->match_fields_at("acme/a", "v1");
  ASSERT_TRUE(fields && *fields);
  ASSERT_EQ((*fields)->size(), 4u);
  EXPECT_EQ((**fields)[3].documentation, v1.records[3].documentation);
  for (const Dataset* d : {&v1, static_cast<const Dataset*>(&v2)}) {
    auto at = store->match_fields_at("acme/a", d->ref);
    ASSERT_TRUE(at && *at);
    ASSERT_EQ((*at)->size(), 4u);
    EXPECT_EQ((**at)[1].line_number, d->records[1].line_number) << d->ref;
    EXPECT_EQ((**at)[1].source_code_start, d->records[1].source_code_start) << d->ref;
  }
  auto moved = store->get(v2.records[1].id);
  ASSERT_TRUE(moved && *moved);
  EXPECT_EQ((*moved)->record, v2.records[1]);
  // v2 stored again with v1's records: the body only v2 held goes.
  Dataset again = revision(k_sha2, "v2.0");
  ASSERT_TRUE(store->ingest(again));
  EXPECT_EQ(body_count(m_url), "4");
  ASSERT_TRUE(store->forget("acme/a", std::string("v2.0")));
  EXPECT_EQ(body_count(m_url), "4") << "v1 holds them";
  auto left = store->list("acme/a");
  ASSERT_TRUE(left);
  ASSERT_EQ(left->size(), 4u);
  EXPECT_EQ((*left)[0].record, v1.records[0]);
  ASSERT_TRUE(store->forget("acme/a", std::nullopt));
  EXPECT_EQ(body_count(m_url), "0");
}

// Every row of a SQLite store's tables as text, but the times of ingest.
std::string sqlite_dump(const std::string& path) {
  sqlite3* db = nullptr;
  std::string out;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) return "cannot open " + path;
  for (const char* sql :
       {"SELECT id, repo, sha, ref, dataset_version, record_count, import_roots FROM datasets ORDER BY id",
        "SELECT * FROM repos ORDER BY repo", "SELECT * FROM records ORDER BY seq",
        "SELECT * FROM record_bodies ORDER BY id", "SELECT rowid, * FROM records_fts ORDER BY rowid"}) {
    out += std::string(sql) + "\n";
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) return "cannot read: " + std::string(sql);
    while (sqlite3_step(st) == SQLITE_ROW) {
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        const auto* text = sqlite3_column_text(st, c);
        out += text ? reinterpret_cast<const char*>(text) : "NULL";
        out += '|';
      }
      out += '\n';
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out;
}

// A SQLite store remembers what its last ingest wrote (bodies, search
// docs) so that the next revision's ingest does not read it back. The
// memory must give way to any other write: another connection's ingest
// (new docs) or forget, its own forget, a revision stored again, an older
// revision that does not become current, another repository. Each step
// runs on a store kept open (and, in between, on a second one) and on a
// store opened afresh for the step, which remembers nothing: the two files
// hold the same rows after every step.
TEST(SqliteStore, WhatTheLastIngestWroteIsUsedOnlyWhileNoOneElseWrote) {
  TempDir dir;
  const std::string kept_path = dir.file("kept.db"), fresh_path = dir.file("fresh.db");
  auto kept = open_or_die(kept_path), other = open_or_die(kept_path);
  ASSERT_TRUE(kept && other);
  auto revision = [](const std::string& repo, int v, int count) {
    const std::string sha = util::hex64(util::fnv1a64(repo + std::to_string(v))) + std::string(24, '0');
    Dataset d = make_dataset(repo, sha, count);
    d.ref = "v" + std::to_string(v);
    for (auto& r : d.records) r.github_url = "https://github.com/" + repo + "/blob/" + sha + "/" + r.file_path;
    for (auto& r : d.records) r.analyzed_sha = sha;
    // Each revision rewords one record's documentation (a new search doc
    // and body) and moves another (the same body, another stamp).
    d.records[v % count].documentation += " Reworded in v" + std::to_string(v) + ".";
    d.records[(v + 1) % count].line_number += v;
    if (v % 2) d.records.push_back(make_record(repo, sha, 100 + v));
    for (auto& r : d.records) {
      d.record_bodies.push_back(model::body_json(r));
      d.record_body_keys.push_back(util::content_key(d.record_bodies.back()));
    }
    return d;
  };
  struct Step {
    const char* what;
    bool by_other;  // on the second store of the kept file
    std::function<Status(Store&)> run;
  };
  auto ingest = [&](const std::string& repo, int v) {
    return [=](Store& s) { return s.ingest(revision(repo, v, 6)); };
  };
  auto forget = [](const std::string& repo, const std::string& ref) {
    return [=](Store& s) -> Status {
      auto n = s.forget(repo, ref);
      if (!n) return Error{n.error()};
      return ok();
    };
  };
  const std::vector<Step> steps = {
      {"v1", false, ingest("acme/a", 1)},
      {"v2", false, ingest("acme/a", 2)},
      {"v3 by another connection", true, ingest("acme/a", 3)},
      {"v4 after another's ingest", false, ingest("acme/a", 4)},
      {"v5", false, ingest("acme/a", 5)},
      {"another forgets v5", true, forget("acme/a", "v5")},
      {"v6 after another's forget", false, ingest("acme/a", 6)},
      {"v6 stored again", false, ingest("acme/a", 6)},
      {"v7 after a replaced revision", false, ingest("acme/a", 7)},
      {"v0, older: v7 stays current", false, ingest("acme/a", 0)},
      {"v8 after an older revision", false, ingest("acme/a", 8)},
      {"another repository", false, ingest("acme/b", 1)},
      {"v9 after another repository", false, ingest("acme/a", 9)},
      {"its own forget of v9", false, forget("acme/a", "v9")},
      {"v10 after its own forget", false, ingest("acme/a", 10)},
      {"v11", false, ingest("acme/a", 11)},
  };
  for (const auto& step : steps) {
    ASSERT_TRUE(step.run(step.by_other ? *other : *kept)) << step.what;
    auto fresh = open_or_die(fresh_path);
    ASSERT_TRUE(fresh);
    ASSERT_TRUE(step.run(*fresh)) << step.what;
    fresh.reset();
    ASSERT_EQ(sqlite_dump(kept_path), sqlite_dump(fresh_path)) << "after " << step.what;
  }
}

}  // namespace
}  // namespace errdex::store

namespace errdex::store {
namespace {

// Bodies are found by util::content_key: texts that differ in one byte,
// or in their length only, get different keys, and a key does not change
// between runs or platforms (stores outlive builds).
TEST(ContentKey, TellsTextsApartAndIsStable) {
  const std::string text = model::to_json(make_record("acme/a", k_sha1, 3));
  std::set<std::string> keys;
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string changed = text;
    changed[i] ^= 1;
    keys.insert(util::content_key(changed));
    keys.insert(util::content_key(std::string_view(text).substr(0, i)));
  }
  keys.insert(util::content_key(text));
  EXPECT_EQ(keys.size(), 2 * text.size() + 1);
  EXPECT_EQ(util::content_key(std::string(16, '\0')).size(), 32u + 3u);
  EXPECT_NE(util::content_key(std::string(16, '\0')), util::content_key(std::string(17, '\0')));
  EXPECT_EQ(util::content_key("errdex"), "476dce9b2415077f063648cc9710b18f:6");
}

}  // namespace
}  // namespace errdex::store
