#pragma once
// The HTTP server (Boost.Beast behind a pimpl): keep-alive, a timeout for
// idle connections and one for slow bodies, limits on header and body size,
// an access log, graceful shutdown. Requests go to an App; every worker
// thread opens its own Store on the database (Store is single-threaded).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "util/expected.h"
#include "web/app.h"

namespace errdex::web {

struct ServerOptions {
  std::string db;                   // store URL, opened once per worker thread
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;        // 0: any free port (see Server::port)
  int threads = 0;                  // 0: one per core
  // A request whose header is larger gets 431; a larger body gets 413.
  std::size_t max_header_bytes = 16 * 1024;
  std::size_t max_body_bytes = 1 << 20;
  // From the end of a response (or the connect) to the end of the next
  // request's header; then from there to the end of its body.
  std::chrono::milliseconds idle_timeout{30000};
  std::chrono::milliseconds read_timeout{15000};
  // How often the store is checked for new datasets; a PostgreSQL store
  // also tells the server at once (LISTEN/NOTIFY), this is the fallback.
  std::chrono::milliseconds refresh_interval{2000};
  // Where requests are logged: "-" for stderr, "off", or a file (appended).
  std::string access_log = "-";
  // Stop gracefully on SIGINT and SIGTERM.
  bool handle_signals = true;
  AppOptions app;
};

// Parses "host:port" (IPv4 or a name; "[v6]:port").
Expected<std::pair<std::string, std::uint16_t>> parse_listen(const std::string& listen);

class Server {
 public:
  // Opens the store, loads the first snapshot, binds and starts the worker
  // threads. Errors: the store cannot be read, the address cannot be bound.
  static Expected<std::unique_ptr<Server>> start(ServerOptions options);
  ~Server();  // stops (gracefully) if still running

  // The bound port (useful with port 0).
  std::uint16_t port() const;
  std::size_t records() const;
  std::string match_engine() const;
  // Blocks until the server has stopped (a signal or stop()).
  void wait();
  // Stops accepting, closes idle connections, lets responses in flight
  // finish (at most a few seconds), then stops the workers. Thread-safe.
  void stop();

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace errdex::web
