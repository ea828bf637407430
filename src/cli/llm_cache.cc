#include "cli/llm_cache.h"

#include <sqlite3.h>

#include <filesystem>
#include <mutex>

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

}  // namespace

Expected<std::unique_ptr<analyze::AnswerCache>> open_llm_cache(const std::string& url) {
  if (url.rfind("sqlite:", 0) != 0) return Error{"--analyst llm keeps its answer cache in a sqlite: store, got '" + url + "'"};
  std::string path = url.substr(7);
  std::error_code ec;
  auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return Error{"cannot open the LLM cache in " + path + ": " + msg};
  }
  sqlite3_busy_timeout(db, k_busy_timeout_ms);
  char* err = nullptr;
  if (sqlite3_exec(db,
                   "PRAGMA journal_mode=WAL;"
                   "CREATE TABLE IF NOT EXISTS llm_answers(key TEXT PRIMARY KEY, answer TEXT NOT NULL, created_at TEXT NOT NULL)",
                   nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    sqlite3_close(db);
    return Error{"cannot create the LLM cache table in " + path + ": " + msg};
  }
  return std::unique_ptr<analyze::AnswerCache>(std::make_unique<SqliteAnswerCache>(db));
}

}  // namespace errdex::cli
