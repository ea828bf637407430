#pragma once
// Connections to one PostgreSQL database, shared by the Stores a process
// opens on its URL. Internal to the store stage (pg_store.cc).
#include <libpq-fe.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "util/expected.h"

namespace errdex::store::pg {

struct ResultFree {
  void operator()(PGresult* r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultFree>;

// A statement prepared under `name` on each connection the first time it
// runs there.
struct Sql {
  const char* name;
  const char* text;
};

// A statement's parameters, all sent as text; nullopt is SQL NULL.
class Params {
 public:
  Params& text(std::string_view v) {
    m_values.emplace_back(std::string(v));
    return *this;
  }
  Params& integer(std::int64_t v) {
    m_values.emplace_back(std::to_string(v));
    return *this;
  }
  Params& text_or_null(const std::optional<std::string>& v) {
    m_values.push_back(v);
    return *this;
  }
  const std::vector<std::optional<std::string>>& values() const { return m_values; }

 private:
  std::vector<std::optional<std::string>> m_values;
};

// A text[] (or int[]) literal, element by element. A NUL byte, which
// PostgreSQL text cannot hold, is sent as U+FFFD.
class ArrayLiteral {
 public:
  void add(std::string_view item);
  std::string finish();
  std::size_t bytes() const { return m_out.size(); }

 private:
  std::string m_out = "{";
};

// The i-th column of row `row` of a result, as text ("" for NULL).
std::string_view field(const Result& r, int row, int col);
std::int64_t field_int(const Result& r, int row, int col);
double field_double(const Result& r, int row, int col);

// Whether `s` can be sent as text (valid UTF-8, no NUL): what cannot is
// never stored, so a look-up by it finds nothing.
bool sendable(std::string_view s);

// `url` with its password (in the user part or a password= parameter)
// replaced by ***, for messages.
std::string redact(std::string url);
// libpq's `message` about `url` with any part of the user part's password
// it quoted (a password with an unencoded '@' read as part of the host)
// replaced by ***.
std::string redact_message(std::string message, const std::string& url);

class Connection {
 public:
  explicit Connection(PGconn* conn) : m_conn(conn) {}
  ~Connection() { PQfinish(m_conn); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs `sql` (prepared here on first use) with `params`; an error names
  // `what` and carries the server's message. Outside a transaction, a
  // statement that failed because the connection broke is run once more on
  // a new one.
  Expected<Result> run(const Sql& sql, const Params& params, std::string_view what);
  // Runs `sql` as a simple query (several statements allowed, no parameters).
  Status exec(const char* sql, std::string_view what);
  // Runs `work(*this)` in one transaction: all of it lands, or none.
  template <class Work>
  auto in_transaction(std::string_view what, Work&& work) -> decltype(work()) {
    if (auto s = exec("BEGIN", what); !s) return Error{s.error()};
    m_in_transaction = true;
    auto result = work();
    if (!result) {
      exec("ROLLBACK", what);
      m_in_transaction = false;
      return result;
    }
    auto c = exec("COMMIT", what);
    if (!c) exec("ROLLBACK", what);
    m_in_transaction = false;
    if (!c) return Error{c.error()};
    return result;
  }
  // Whether the connection can go back to the pool: open, and not inside a
  // transaction.
  bool reusable();
  // The connection itself, for what the wrappers do not cover (LISTEN).
  PGconn* raw() { return m_conn; }

 private:
  Expected<Result> check(PGresult* raw, std::string_view what);
  Expected<Result> run_once(const Sql& sql, const Params& params, std::string_view what);
  // Whether a broken connection outside a transaction was opened again.
  bool reconnected();

  PGconn* m_conn;
  std::unordered_set<std::string> m_prepared;
  bool m_in_transaction = false;
};

// How many times a statement of this process failed because its connection
// to the server was lost (terminated, server restarted, network gone): what
// a worker reads to tell a scan the store failed from a scan that failed.
std::uint64_t connections_lost();

// A connection of its own to the database at `url`, outside any pool (a
// listener's), with the pool's timeouts.
Expected<std::unique_ptr<Connection>> connect(const std::string& url);

class Pool {
 public:
  // The pool of `url` in this process, made on first use.
  static std::shared_ptr<Pool> of(const std::string& url);
  explicit Pool(std::string url) : m_url(std::move(url)) {}

  // A borrowed connection, given back when it goes out of scope (dropped
  // instead when it broke).
  class Lease {
   public:
    Lease(Pool* pool, std::unique_ptr<Connection> conn) : m_pool(pool), m_conn(std::move(conn)) {}
    Lease(Lease&&) = default;
    ~Lease() {
      if (m_conn) m_pool->give_back(std::move(m_conn));
    }
    Connection& operator*() { return *m_conn; }
    Connection* operator->() { return m_conn.get(); }

   private:
    Pool* m_pool;
    std::unique_ptr<Connection> m_conn;
  };
  // An idle connection, or a new one while fewer than the pool's size are
  // open; otherwise waits for one to come back. An error when the server
  // cannot be reached (after connect_timeout) or no connection comes back
  // in time.
  Expected<Lease> take();
  const std::string& url() const { return m_url; }
  // Runs `migrate` once per pool, on the first call that succeeds.
  Status once_migrated(const std::function<Status(Connection&)>& migrate);

 private:
  Expected<std::unique_ptr<Connection>> connect();
  void give_back(std::unique_ptr<Connection> conn);

  const std::string m_url;
  std::mutex m_mu;
  std::condition_variable m_back;
  std::vector<std::unique_ptr<Connection>> m_idle;
  int m_open = 0;
  std::mutex m_migrate_mu;
  bool m_migrated = false;
};

}  // namespace errdex::store::pg
