#pragma once
// A prepared SQLite statement and one run of it: the statement finalized
// when it goes, its bindings and its step, reset when the run ends
// (the SQLite backend's only way to SQLite's statements).
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "store/store.h"

namespace errdex::store::sqlite {

inline Error db_error(sqlite3* db, std::string_view what) {
  return Error{"sqlite: " + std::string(what) + ": " + sqlite3_errmsg(db)};
}

class Statement {
 public:
  Statement() = default;
  explicit Statement(sqlite3_stmt* stmt) : m_stmt(stmt) {}
  Statement(Statement&& other) noexcept : m_stmt(std::exchange(other.m_stmt, nullptr)) {}
  Statement& operator=(Statement&& other) noexcept {
    std::swap(m_stmt, other.m_stmt);
    return *this;
  }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement() { sqlite3_finalize(m_stmt); }

  sqlite3_stmt* get() const { return m_stmt; }

 private:
  sqlite3_stmt* m_stmt = nullptr;
};

// Binds and steps a prepared statement; resets it when the scope ends so the
// statement releases its read snapshot and can be reused.
class Run {
 public:
  explicit Run(const Statement& s) : m_stmt(s.get()) {}
  ~Run() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  Run& text(int i, std::string_view v) {
    if (m_rc == SQLITE_OK)
      // An empty view may hold no pointer at all, which SQLite would bind as
      // NULL: empty text is bound as "".
      m_rc = sqlite3_bind_text64(m_stmt, i, v.data() ? v.data() : "", v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    return *this;
  }
  // As text(), without a copy: `v` must outlive this Run (SQLite reads it
  // until the statement is reset). For a statement run once per record.
  Run& text_static(int i, std::string_view v) {
    if (m_rc == SQLITE_OK)
      m_rc = sqlite3_bind_text64(m_stmt, i, v.data() ? v.data() : "", v.size(), SQLITE_STATIC, SQLITE_UTF8);
    return *this;
  }
  Run& text_or_null(int i, const std::optional<std::string>& v) {
    if (!v) {
      if (m_rc == SQLITE_OK) m_rc = sqlite3_bind_null(m_stmt, i);
      return *this;
    }
    return text(i, *v);
  }
  Run& integer(int i, std::int64_t v) {
    if (m_rc == SQLITE_OK) m_rc = sqlite3_bind_int64(m_stmt, i, v);
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE or an error code (bind errors included).
  int step() {
    if (m_rc != SQLITE_OK) return m_rc;
    return sqlite3_step(m_stmt);
  }
  std::string_view column_text(int i) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, i));
    int n = sqlite3_column_bytes(m_stmt, i);
    return p ? std::string_view(p, static_cast<std::size_t>(n)) : std::string_view();
  }
  std::int64_t column_int(int i) const { return sqlite3_column_int64(m_stmt, i); }
  double column_double(int i) const { return sqlite3_column_double(m_stmt, i); }

 private:
  sqlite3_stmt* m_stmt;
  int m_rc = SQLITE_OK;
};

}  // namespace errdex::store::sqlite
