// The PostgreSQL ChangeFeed: LISTEN on a connection of its own.
#include <poll.h>

#include <cerrno>

#include "store/change_feed.h"
#include "store/pg_pool.h"
#include "store/store.h"

namespace errdex::store {
namespace {

class PgChangeFeed final : public ChangeFeed {
 public:
  explicit PgChangeFeed(std::string url) : m_url(std::move(url)) {}

  Expected<bool> wait(std::chrono::milliseconds timeout) override {
    if (!m_conn) {
      auto conn = pg::connect(m_url);
      if (!conn) return Error{conn.error()};
      if (auto s = (*conn)->exec("LISTEN errdex_datasets", "listen for new datasets"); !s) return Error{s.error()};
      m_conn = std::move(*conn);
      // Whatever was stored while no one listened is news too.
      return true;
    }
    PGconn* c = m_conn->raw();
    const auto give_up = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (PQconsumeInput(c) == 0 || PQstatus(c) != CONNECTION_OK) return lost();
      bool news = false;
      while (PGnotify* n = PQnotifies(c)) {
        news = true;
        PQfreemem(n);
      }
      if (news) return true;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      pollfd fd{PQsocket(c), POLLIN, 0};
      if (fd.fd < 0) return lost();
      if (::poll(&fd, 1, static_cast<int>(left.count())) < 0 && errno != EINTR) return lost();
    }
  }

 private:
  Expected<bool> lost() {
    std::string why = m_conn ? PQerrorMessage(m_conn->raw()) : "";
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    m_conn.reset();
    return Error{"postgresql: the listening connection to " + pg::redact(m_url) + " broke" +
                 (why.empty() ? "" : ": " + why)};
  }

  std::string m_url;
  std::unique_ptr<pg::Connection> m_conn;
};

}  // namespace

std::unique_ptr<ChangeFeed> open_change_feed(const std::string& url) {
  if (!is_postgresql(url)) return nullptr;
  return std::make_unique<PgChangeFeed>(url);
}

}  // namespace errdex::store
