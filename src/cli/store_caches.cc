#include "cli/store_caches.h"

#include <sqlite3.h>

#include <filesystem>
#include <mutex>

#include "store/pg_store.h"
#include "store/store.h"
#include "util/text.h"

namespace errdex::cli {
namespace {

// Writers (the store, another scan) may hold the lock for one ingest.
constexpr int k_busy_timeout_ms = 30000;

class SqliteAnswerCache : public analyze::AnswerCache {
 public:
  explicit SqliteAnswerCache(sqlite3* db) : m_db(db) {}
  ~SqliteAnswerCache() override { sqlite3_close(m_db); }

  std::optional<std::string> get(const std::string& key) override {
    std::lock_guard<std::mutex> lock(m_mu);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(m_db, "SELECT answer FROM llm_answers WHERE key = ?1", -1, &st, nullptr) != SQLITE_OK)
      return std::nullopt;
    sqlite3_bind_text(st, 1, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
    std::optional<std::string> out;
    if (sqlite3_step(st) == SQLITE_ROW) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
      out = std::string(text ? text : "", static_cast<std::size_t>(sqlite3_column_bytes(st, 0)));
    }
    sqlite3_finalize(st);
    return out;
  }

  // A failed write only costs a request on the next run.
  void put(const std::string& key, const std::string& answer) override {
    std::lock_guard<std::mutex> lock(m_mu);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(m_db, "INSERT OR REPLACE INTO llm_answers(key, answer, created_at) VALUES(?1, ?2, ?3)", -1,
                           &st, nullptr) != SQLITE_OK)
      return;
    std::string now = util::iso_now_ms();
    sqlite3_bind_text(st, 1, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, answer.data(), static_cast<int>(answer.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, now.data(), static_cast<int>(now.size()), SQLITE_TRANSIENT);
    sqlite3_step(st);
    sqlite3_finalize(st);
  }

 private:
  sqlite3* m_db;
  std::mutex m_mu;
};

// The store's SQLite file at sqlite:`url`, opened beside the store for a
// side table made by `create` (run once, idempotent).
Expected<sqlite3*> open_side_table(const std::string& url, const char* create, const std::string& what) {
  std::string path = url.substr(7);
  std::error_code ec;
  auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return Error{"cannot open the " + what + " in " + path + ": " + msg};
  }
  sqlite3_busy_timeout(db, k_busy_timeout_ms);
  char* err = nullptr;
  if (sqlite3_exec(db, (std::string("PRAGMA journal_mode=WAL;") + create).c_str(), nullptr, nullptr, &err) !=
      SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    sqlite3_close(db);
    return Error{"cannot create the " + what + " table in " + path + ": " + msg};
  }
  return db;
}

class SqliteFactsCache : public FactsCache {
 public:
  explicit SqliteFactsCache(sqlite3* db) : m_db(db) {
    sqlite3_prepare_v3(m_db, "SELECT facts FROM file_facts WHERE key = ?1", -1, SQLITE_PREPARE_PERSISTENT, &m_get,
                       nullptr);
  }
  ~SqliteFactsCache() override {
    sqlite3_finalize(m_get);
    sqlite3_close(m_db);
  }

  std::optional<std::string> get(const std::string& key) override {
    std::lock_guard<std::mutex> lock(m_mu);
    if (!m_get) return std::nullopt;
    sqlite3_bind_text(m_get, 1, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
    std::optional<std::string> out;
    if (sqlite3_step(m_get) == SQLITE_ROW) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_get, 0));
      out = std::string(text ? text : "", static_cast<std::size_t>(sqlite3_column_bytes(m_get, 0)));
    }
    sqlite3_reset(m_get);
    sqlite3_clear_bindings(m_get);
    return out;
  }

  void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override {
    if (entries.empty()) return;
    std::lock_guard<std::mutex> lock(m_mu);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_exec(m_db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) return;
    if (sqlite3_prepare_v2(m_db, "INSERT OR REPLACE INTO file_facts(key, facts) VALUES(?1, ?2)", -1, &st, nullptr) ==
        SQLITE_OK) {
      for (const auto& [key, facts] : entries) {
        sqlite3_bind_text(st, 1, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, facts.data(), static_cast<int>(facts.size()), SQLITE_TRANSIENT);
        sqlite3_step(st);
        sqlite3_reset(st);
      }
    }
    sqlite3_finalize(st);
    sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr);
  }

 private:
  sqlite3* m_db;
  sqlite3_stmt* m_get = nullptr;
  std::mutex m_mu;
};

// PostgreSQL keeps the same tables in its database (store/pg_store.h); a
// failed read is a miss and a failed write only costs work on the next run,
// as with SQLite.
class PgAnswerCache : public analyze::AnswerCache {
 public:
  explicit PgAnswerCache(std::unique_ptr<store::pg::KeyValueTable> table) : m_table(std::move(table)) {}
  std::optional<std::string> get(const std::string& key) override {
    auto v = m_table->get(key);
    return v ? *v : std::nullopt;
  }
  void put(const std::string& key, const std::string& answer) override { m_table->put_all({{key, answer}}); }

 private:
  std::unique_ptr<store::pg::KeyValueTable> m_table;
};

class PgFactsCache : public FactsCache {
 public:
  explicit PgFactsCache(std::unique_ptr<store::pg::KeyValueTable> table) : m_table(std::move(table)) {}
  std::optional<std::string> get(const std::string& key) override {
    auto v = m_table->get(key);
    return v ? *v : std::nullopt;
  }
  void put_all(const std::vector<std::pair<std::string, std::string>>& entries) override { m_table->put_all(entries); }

 private:
  std::unique_ptr<store::pg::KeyValueTable> m_table;
};

}  // namespace

Expected<std::unique_ptr<analyze::AnswerCache>> open_llm_cache(const std::string& url) {
  if (store::is_postgresql(url)) {
    auto table = store::pg::open_side_table(url, store::pg::SideTable::llm_answers);
    if (!table) return Error{table.error()};
    return std::unique_ptr<analyze::AnswerCache>(std::make_unique<PgAnswerCache>(std::move(*table)));
  }
  if (url.rfind("sqlite:", 0) != 0)
    return Error{"--analyst llm keeps its answer cache in the store (sqlite: or postgresql://), got '" + url + "'"};
  auto db = open_side_table(
      url, "CREATE TABLE IF NOT EXISTS llm_answers(key TEXT PRIMARY KEY, answer TEXT NOT NULL, created_at TEXT NOT NULL)",
      "LLM cache");
  if (!db) return Error{db.error()};
  return std::unique_ptr<analyze::AnswerCache>(std::make_unique<SqliteAnswerCache>(*db));
}

Expected<std::unique_ptr<FactsCache>> open_facts_cache(const std::string& url) {
  if (store::is_postgresql(url)) {
    auto table = store::pg::open_side_table(url, store::pg::SideTable::file_facts);
    if (!table) return Error{table.error()};
    return std::unique_ptr<FactsCache>(std::make_unique<PgFactsCache>(std::move(*table)));
  }
  if (url.rfind("sqlite:", 0) != 0) return std::unique_ptr<FactsCache>();
  auto db = open_side_table(url, "CREATE TABLE IF NOT EXISTS file_facts(key TEXT PRIMARY KEY, facts TEXT NOT NULL)",
                            "facts cache");
  if (!db) return Error{db.error()};
  return std::unique_ptr<FactsCache>(std::make_unique<SqliteFactsCache>(*db));
}

}  // namespace errdex::cli
