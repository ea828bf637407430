#include "store/pg_pool.h"

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <vector>

#include "util/text.h"

namespace errdex::store::pg {
namespace {

// Connections one process keeps to one database at most. The server opens
// a Store per worker thread; they share these, lazily opened.
constexpr int k_pool_size = 16;
// How long a caller waits for a busy pool before giving up.
constexpr auto k_pool_wait = std::chrono::seconds(60);
// libpq waits forever for an unreachable server unless told otherwise; a
// URL's own connect_timeout wins.
constexpr const char* k_connect_timeout_s = "10";
// A statement that runs longer is cancelled, and a connection whose server
// stopped answering (a lost machine, not a closed socket) is dropped after
// this long without an acknowledgement: a caller gets an error, never a
// hang. The URL's own options win.
constexpr const char* k_session_options = "-c statement_timeout=60000";
constexpr const char* k_tcp_user_timeout_ms = "30000";

std::atomic<std::uint64_t> g_connections_lost{0};

// libpq's messages end in a newline and continue on tab-indented lines.
std::string one_line(const char* message) {
  std::string out;
  for (const char* p = message ? message : ""; *p; ++p) {
    if (*p == '\n' || *p == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    out += *p;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

void ArrayLiteral::add(std::string_view item) {
  if (m_out.size() > 1) m_out += ',';
  m_out += '"';
  for (char c : item) {
    if (c == '\0') {
      m_out += "\xEF\xBF\xBD";
      continue;
    }
    if (c == '"' || c == '\\') m_out += '\\';
    m_out += c;
  }
  m_out += '"';
}

std::string ArrayLiteral::finish() {
  std::string out = std::move(m_out);
  out += '}';
  m_out = "{";
  return out;
}

std::string_view field(const Result& r, int row, int col) {
  return std::string_view(PQgetvalue(r.get(), row, col), static_cast<std::size_t>(PQgetlength(r.get(), row, col)));
}

std::int64_t field_int(const Result& r, int row, int col) {
  auto text = field(r, row, col);
  std::int64_t v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

double field_double(const Result& r, int row, int col) {
  // PostgreSQL prints float8 in the shortest form that reads back exactly.
  return std::strtod(std::string(field(r, row, col)).c_str(), nullptr);
}

bool sendable(std::string_view s) { return s.find('\0') == std::string_view::npos && util::is_valid_utf8(s); }

namespace {

// Where the user part's password lies in `url` ([first, last)), or
// first == last when it has none. A password holding an unencoded '@' or
// '/' (`u:p@ss@host`) is masked whole: up to the last '@' before the query.
std::pair<std::size_t, std::size_t> password_span(const std::string& url) {
  auto scheme = url.find("://");
  if (scheme == std::string::npos) return {0, 0};
  const auto begin = scheme + 3;
  const auto query = url.find('?', begin);
  const auto at = url.rfind('@', query == std::string::npos ? std::string::npos : query);
  if (at == std::string::npos || at < begin) return {0, 0};
  const auto colon = url.find(':', begin);
  if (colon == std::string::npos || colon > at) return {0, 0};
  return {colon + 1, at};
}

}  // namespace

std::string redact(std::string url) {
  if (auto [first, last] = password_span(url); first < last) url.replace(first, last - first, "***");
  for (auto p = url.find("password="); p != std::string::npos; p = url.find("password=", p + 1)) {
    auto value = p + 9;
    auto end = url.find('&', value);
    url.replace(value, (end == std::string::npos ? url.size() : end) - value, "***");
  }
  return url;
}

std::string redact_message(std::string message, const std::string& url) {
  // libpq quotes the values it could not use: with `u:p@ss@host` the host
  // "ss@host", with `u:p/ss@host` the port "p". Each piece of the
  // password between '@', '/' and ':' is masked inside those quotes.
  auto [first, last] = password_span(url);
  std::vector<std::string> pieces;
  std::string piece;
  for (std::size_t i = first; i <= last; ++i) {
    if (i == last || url[i] == '@' || url[i] == '/' || url[i] == ':') {
      if (!piece.empty()) pieces.push_back(std::move(piece));
      piece.clear();
    } else {
      piece += url[i];
    }
  }
  for (std::size_t open = message.find('"'); open != std::string::npos;) {
    std::size_t close = message.find('"', open + 1);
    if (close == std::string::npos) break;
    std::string quoted = message.substr(open + 1, close - open - 1);
    for (const auto& p : pieces)
      for (auto at = quoted.find(p); at != std::string::npos; at = quoted.find(p, at + 3)) quoted.replace(at, p.size(), "***");
    message.replace(open + 1, close - open - 1, quoted);
    open = message.find('"', open + quoted.size() + 2);
  }
  return message;
}

Expected<Result> Connection::check(PGresult* raw, std::string_view what) {
  Result r(raw);
  auto status = r ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return r;
  if (PQstatus(m_conn) == CONNECTION_BAD) g_connections_lost.fetch_add(1, std::memory_order_relaxed);
  std::string message = one_line(r ? PQresultErrorMessage(r.get()) : PQerrorMessage(m_conn));
  if (message.empty()) message = one_line(PQerrorMessage(m_conn));
  return Error{"postgresql: " + std::string(what) + ": " + message};
}

std::uint64_t connections_lost() { return g_connections_lost.load(std::memory_order_relaxed); }

bool Connection::reconnected() {
  // Inside a transaction the work before is lost with the connection: the
  // caller must see the error.
  if (m_in_transaction || PQstatus(m_conn) != CONNECTION_BAD) return false;
  PQreset(m_conn);
  m_prepared.clear();
  return PQstatus(m_conn) == CONNECTION_OK;
}

Expected<Result> Connection::run(const Sql& sql, const Params& params, std::string_view what) {
  auto r = run_once(sql, params, what);
  // An idle connection whose server restarted fails its next statement:
  // once, on a new session, it is tried again.
  if (!r && reconnected()) return run_once(sql, params, what);
  return r;
}

Expected<Result> Connection::run_once(const Sql& sql, const Params& params, std::string_view what) {
  if (!m_prepared.contains(sql.name)) {
    auto prepared = check(PQprepare(m_conn, sql.name, sql.text, 0, nullptr), what);
    if (!prepared) return prepared;
    m_prepared.insert(sql.name);
  }
  std::vector<const char*> values;
  values.reserve(params.values().size());
  for (const auto& v : params.values()) values.push_back(v ? v->c_str() : nullptr);
  return check(PQexecPrepared(m_conn, sql.name, static_cast<int>(values.size()), values.data(), nullptr, nullptr, 0),
               what);
}

Status Connection::exec(const char* sql, std::string_view what) {
  auto r = check(PQexec(m_conn, sql), what);
  if (!r && reconnected()) r = check(PQexec(m_conn, sql), what);
  if (!r) return Error{r.error()};
  return ok();
}

bool Connection::reusable() {
  if (PQstatus(m_conn) != CONNECTION_OK) return false;
  m_in_transaction = false;
  // A caller that stopped half-way (an exception) left a transaction open.
  if (PQtransactionStatus(m_conn) != PQTRANS_IDLE) exec("ROLLBACK", "roll back");
  return PQstatus(m_conn) == CONNECTION_OK && PQtransactionStatus(m_conn) == PQTRANS_IDLE;
}

std::shared_ptr<Pool> Pool::of(const std::string& url) {
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<Pool>> pools;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = pools[url];
  auto pool = slot.lock();
  if (!pool) {
    pool = std::make_shared<Pool>(url);
    slot = pool;
  }
  return pool;
}

Expected<std::unique_ptr<Connection>> Pool::connect() { return pg::connect(m_url); }

Expected<std::unique_ptr<Connection>> connect(const std::string& url) {
  // Keywords before dbname are defaults the URL may override (libpq reads
  // them in order, the URL expanded in place of dbname).
  const char* keys[] = {"connect_timeout", "client_encoding", "application_name", "options", "tcp_user_timeout",
                        "dbname", nullptr};
  const char* values[] = {k_connect_timeout_s, "UTF8", "errdex", k_session_options, k_tcp_user_timeout_ms,
                          url.c_str(), nullptr};
  PGconn* raw = PQconnectdbParams(keys, values, 1);
  auto conn = std::make_unique<Connection>(raw);
  if (!raw) return Error{"postgresql: cannot connect to " + redact(url) + ": out of memory"};
  if (PQstatus(raw) != CONNECTION_OK)
    return Error{"postgresql: cannot connect to " + redact(url) + ": " + redact_message(one_line(PQerrorMessage(raw)), url)};
  // Notices (a table that exists already, …) are the server's chatter, not
  // the user's business.
  PQsetNoticeProcessor(raw, [](void*, const char*) {}, nullptr);
  return conn;
}

Expected<Pool::Lease> Pool::take() {
  std::unique_lock<std::mutex> lock(m_mu);
  const auto give_up = std::chrono::steady_clock::now() + k_pool_wait;
  for (;;) {
    if (!m_idle.empty()) {
      auto conn = std::move(m_idle.back());
      m_idle.pop_back();
      return Lease(this, std::move(conn));
    }
    if (m_open < k_pool_size) {
      ++m_open;
      lock.unlock();
      auto conn = connect();
      if (!conn) {
        lock.lock();
        --m_open;
        m_back.notify_one();
        return Error{conn.error()};
      }
      return Lease(this, std::move(*conn));
    }
    if (m_back.wait_until(lock, give_up) == std::cv_status::timeout && m_idle.empty() && m_open >= k_pool_size)
      return Error{"postgresql: all " + std::to_string(k_pool_size) + " connections to " + redact(m_url) +
                   " stayed busy"};
  }
}

void Pool::give_back(std::unique_ptr<Connection> conn) {
  const bool keep = conn->reusable();
  if (!keep) conn.reset();  // closed outside the lock
  std::lock_guard<std::mutex> lock(m_mu);
  if (keep) m_idle.push_back(std::move(conn));
  else --m_open;
  m_back.notify_one();
}

Status Pool::once_migrated(const std::function<Status(Connection&)>& migrate) {
  std::lock_guard<std::mutex> lock(m_migrate_mu);
  if (m_migrated) return ok();
  auto lease = take();
  if (!lease) return Error{lease.error()};
  if (auto s = migrate(**lease); !s) return s;
  m_migrated = true;
  return ok();
}

}  // namespace errdex::store::pg
