#include "web/server.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "store/change_feed.h"
#include "store/jobs.h"
#include "store/store.h"
#include "util/text.h"
#include "web/reload_pacer.h"
#include "web/respond.h"

namespace errdex::web {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// After an error response the server reads (and drops) what the client is
// still sending for this long before closing, so the client sees the
// response instead of a connection reset.
constexpr auto k_linger = std::chrono::seconds(2);
constexpr std::size_t k_linger_bytes = 8 << 20;
// Responses in flight get this long to finish when the server stops.
constexpr auto k_shutdown_grace = std::chrono::seconds(5);

// The worker thread's own store.
thread_local store::Store* t_store = nullptr;

class AccessLog {
 public:
  explicit AccessLog(const std::string& where) {
    if (where == "off") return;
    if (where == "-") {
      m_file = stderr;
    } else {
      m_file = std::fopen(where.c_str(), "a");
      m_owned = m_file != nullptr;
    }
  }
  ~AccessLog() {
    if (m_owned) std::fclose(m_file);
  }
  bool ok(const std::string& where) const { return where == "off" || m_file; }
  void write(const std::string& remote, std::string_view method, std::string_view target, int status,
             std::size_t bytes, std::chrono::steady_clock::duration took) {
    if (!m_file) return;
    std::string line = util::iso_now_ms() + " " + remote + " \"" + sanitize(method) + " " + sanitize(target) + "\" " +
                       std::to_string(status) + " " + std::to_string(bytes) + " " +
                       std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(took).count()) + "us\n";
    std::lock_guard lock(m_mu);
    std::fwrite(line.data(), 1, line.size(), m_file);
    std::fflush(m_file);
  }

 private:
  // A log line never carries control characters or quotes from a request.
  static std::string sanitize(std::string_view s) {
    std::string out;
    for (char c : s.substr(0, 2000)) {
      auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7f || c == '"' || c == '\\') {
        char buf[5];
        std::snprintf(buf, sizeof buf, "\\x%02x", u);
        out += buf;
      } else {
        out += c;
      }
    }
    return out;
  }
  std::FILE* m_file = nullptr;
  bool m_owned = false;
  std::mutex m_mu;
};

struct Shared;

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, Shared& shared);
  ~Session() { done(); }
  void start();
  void close_if_idle();

 private:
  void read_header();
  void on_header(beast::error_code ec);
  void read_body();
  void on_body(beast::error_code ec);
  void fail_request(int status, const std::string& message);
  void respond(Response r, bool head, bool keep_alive);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void linger();
  void done();

  beast::tcp_stream m_stream;
  beast::flat_buffer m_buffer;
  std::optional<http::request_parser<http::string_body>> m_parser;
  std::shared_ptr<const std::string> m_body_hold;
  std::string m_head;  // the response's status line and header fields
  std::array<char, 16384> m_drain;
  std::size_t m_drained = 0;
  Shared& m_shared;
  std::string m_remote;
  std::string m_method, m_target;
  std::chrono::steady_clock::time_point m_started;
  bool m_idle = true;
};

struct Shared {
  ServerOptions options;
  std::unique_ptr<App> app;
  std::unique_ptr<AccessLog> log;
  std::atomic<bool> stopping{false};
  std::mutex sessions_mu;
  std::unordered_map<Session*, std::weak_ptr<Session>> weak;
};

Session::Session(tcp::socket&& socket, Shared& shared) : m_stream(std::move(socket)), m_shared(shared) {
  beast::error_code ec;
  auto ep = m_stream.socket().remote_endpoint(ec);
  m_remote = ec ? "-" : ep.address().to_string();
}

void Session::start() {
  {
    std::lock_guard lock(m_shared.sessions_mu);
    m_shared.weak[this] = weak_from_this();
  }
  asio::dispatch(m_stream.get_executor(), beast::bind_front_handler(&Session::read_header, shared_from_this()));
}

void Session::done() {
  std::lock_guard lock(m_shared.sessions_mu);
  m_shared.weak.erase(this);
}

void Session::close_if_idle() {
  asio::dispatch(m_stream.get_executor(), [self = shared_from_this()] {
    if (self->m_idle) {
      beast::error_code ec;
      self->m_stream.socket().shutdown(tcp::socket::shutdown_both, ec);
      self->m_stream.close();
    }
  });
}

void Session::read_header() {
  if (m_shared.stopping) {
    beast::error_code ec;
    m_stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    done();
    return;
  }
  m_idle = true;
  m_parser.emplace();
  m_parser->header_limit(static_cast<std::uint32_t>(m_shared.options.max_header_bytes));
  m_parser->body_limit(m_shared.options.max_body_bytes);
  m_stream.expires_after(m_shared.options.idle_timeout);
  http::async_read_header(m_stream, m_buffer, *m_parser,
                          [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
}

int status_for(beast::error_code ec) {
  if (ec == http::error::header_limit) return 431;
  if (ec == http::error::body_limit) return 413;
  return 400;
}

void Session::on_header(beast::error_code ec) {
  m_idle = false;
  m_started = std::chrono::steady_clock::now();
  if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::operation_aborted ||
      ec == asio::error::connection_reset || ec == asio::error::eof || ec == asio::error::bad_descriptor) {
    beast::error_code ignored;
    m_stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    done();
    return;
  }
  // The header was whole when its Content-Length was found too large; one
  // too large to read whole still had its request line parsed before the
  // limit was hit. Either says what was asked for (a page's address gets a
  // page).
  if (ec == http::error::body_limit || ec == http::error::header_limit) m_target = std::string(m_parser->get().target());
  // A request line past the limit (a very long address) left no target
  // parsed: its start, still in the buffer, tells a page from the API, and
  // the status is 414 (the address), not 431 (the headers).
  if (ec == http::error::header_limit && m_target.empty()) {
    std::string_view raw(static_cast<const char*>(m_buffer.data().data()), m_buffer.size());
    raw = raw.substr(0, raw.find_first_of("\r\n"));
    if (auto sp = raw.find(' '); sp != std::string_view::npos && sp < 16) {
      m_method = std::string(raw.substr(0, sp));
      m_target = std::string(raw.substr(sp + 1, 200));
      if (m_target.find(' ') == std::string::npos && !m_target.empty())
        return fail_request(414, "the request's address is longer than this server reads");
      m_target.clear();
    }
  }
  if (ec) return fail_request(status_for(ec), std::string("unreadable request: ") + ec.message());
  const auto& req = m_parser->get();
  m_method = std::string(req.method_string());
  m_target = std::string(req.target());
  // A declared length over the limit is refused before reading any of it.
  if (auto len = m_parser->content_length(); len && *len > m_shared.options.max_body_bytes)
    return fail_request(413, "the body is larger than " + std::to_string(m_shared.options.max_body_bytes) + " bytes");
  if (m_parser->is_done()) return on_body({});
  m_stream.expires_after(m_shared.options.read_timeout);
  // curl and others wait for this before sending a body.
  if (beast::iequals(req[http::field::expect], "100-continue")) {
    static constexpr std::string_view k_continue = "HTTP/1.1 100 Continue\r\n\r\n";
    asio::async_write(m_stream, asio::buffer(k_continue.data(), k_continue.size()),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        if (ec) return self->done();
                        self->read_body();
                      });
    return;
  }
  read_body();
}

void Session::read_body() {
  http::async_read(m_stream, m_buffer, *m_parser,
                   [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_body(ec); });
}

void Session::on_body(beast::error_code ec) {
  if (ec == beast::error::timeout || ec == asio::error::operation_aborted || ec == asio::error::connection_reset ||
      ec == http::error::end_of_stream || ec == asio::error::eof) {
    done();
    return;
  }
  if (ec) return fail_request(status_for(ec), std::string("unreadable request: ") + ec.message());
  auto& req = m_parser->get();
  Request r;
  r.method = std::string(req.method_string());
  r.target = std::string(req.target());
  r.body = std::move(req.body());
  r.content_type = std::string(req[http::field::content_type]);
  r.accept_encoding = std::string(req[http::field::accept_encoding]);
  r.if_none_match = std::string(req[http::field::if_none_match]);
  Response resp = m_shared.app->handle(r, *t_store);
  respond(std::move(resp), req.method() == http::verb::head, req.keep_alive() && !m_shared.stopping);
}

void Session::fail_request(int status, const std::string& message) {
  if (m_method.empty()) m_method = "-";
  // A page's request larger than the server reads, a form's body (a huge
  // paste) or its headers (a browser's cookies for this host grown too
  // large): the problem page a browser shows, not the API's JSON.
  if ((status == 413 || status == 414 || status == 431) && m_target.starts_with('/') && !m_target.starts_with("/api/")) {
    const std::string page_message =
        status == 413   ? "What was sent is larger than this server reads (" +
                            std::to_string(m_shared.options.max_body_bytes) +
                            " bytes): paste less, such as the traceback's last lines."
        : status == 414 ? "This address is longer than this server reads (" +
                              std::to_string(m_shared.options.max_header_bytes) +
                              " bytes): it was cut or garbled on its way here."
                        : "The request's headers are larger than this server reads (" +
                              std::to_string(m_shared.options.max_header_bytes) +
                              " bytes): a browser's cookies for this address may have grown too large; clear them.";
    respond(problem(false, status, page_message), false, false);
    return;
  }
  Response r;
  r.status = status;
  r.content_type = "application/json";
  std::string safe;
  for (char c : message) safe += (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
  r.body = std::make_shared<const std::string>("{\"error\":{\"status\":" + std::to_string(status) + ",\"message\":\"" +
                                               safe + "\"}}");
  respond(std::move(r), false, false);
}

void Session::respond(Response r, bool head, bool keep_alive) {
  m_body_hold = r.body ? r.body : std::make_shared<const std::string>();
  // The header block is written by hand: one buffer, no per-field
  // allocations. Values never carry CR or LF (checked), so a header cannot
  // be split.
  auto& h = m_head;
  h.clear();
  h += "HTTP/1.1 ";
  h += std::to_string(r.status);
  h += ' ';
  auto reason = http::obsolete_reason(http::int_to_status(static_cast<unsigned>(r.status)));
  h.append(reason.data(), reason.size());
  h += "\r\nServer: errdex\r\n";
  auto field = [&h](std::string_view name, std::string_view value) {
    if (value.find_first_of("\r\n") != std::string_view::npos) return;
    h += name;
    h += ": ";
    h += value;
    h += "\r\n";
  };
  if (!r.content_type.empty()) field("Content-Type", r.content_type);
  if (!r.etag.empty()) field("ETag", r.etag);
  for (const auto& [k, v] : r.headers) field(k, v);
  h += "X-Content-Type-Options: nosniff\r\n";
  if (r.content_type.rfind("text/html", 0) == 0)
    h += "Content-Security-Policy: default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
         "base-uri 'none'; frame-ancestors 'none'\r\n";
  if (!keep_alive) h += "Connection: close\r\n";
  h += "Content-Length: ";
  h += std::to_string(m_body_hold->size());
  h += "\r\n\r\n";
  m_shared.log->write(m_remote, m_method, m_target, r.status, m_body_hold->size(),
                      std::chrono::steady_clock::now() - m_started);
  m_stream.expires_after(m_shared.options.read_timeout);
  bool with_body = !head && r.status != 304;
  std::array<asio::const_buffer, 2> buffers{asio::buffer(h),
                                            asio::buffer(m_body_hold->data(), with_body ? m_body_hold->size() : 0)};
  asio::async_write(m_stream, buffers, [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t n) {
    self->on_write(keep_alive, ec, n);
  });
}

void Session::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  m_body_hold.reset();
  m_method.clear();
  m_target.clear();
  if (ec) {
    done();
    return;
  }
  if (keep_alive) return read_header();
  beast::error_code ignored;
  m_stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  linger();
}

void Session::linger() {
  m_stream.expires_after(k_linger);
  m_stream.async_read_some(asio::buffer(m_drain), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
    self->m_drained += n;
    if (ec || self->m_drained > k_linger_bytes) {
      self->m_stream.close();
      self->done();
      return;
    }
    self->linger();
  });
}

}  // namespace

Expected<std::pair<std::string, std::uint16_t>> parse_listen(const std::string& listen) {
  auto colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) return Error{"--listen wants HOST:PORT, e.g. 127.0.0.1:8080"};
  std::string host = listen.substr(0, colon), port = listen.substr(colon + 1);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port) > 65535)
    return Error{"--listen: bad port \"" + port + "\""};
  return std::make_pair(host, static_cast<std::uint16_t>(std::stoi(port)));
}

// One turn at a time of the refresher thread: waits for news (a slice at a
// time, so that stopping is never kept waiting long) or for the poll
// interval, then reloads if the store changed, paced (ReloadPacer) so that
// a burst of datasets is loaded together.
class Refresher {
 public:
  Refresher(App& app, store::Store& store, store::ChangeFeed* feed, std::chrono::milliseconds interval)
      : m_app(app), m_store(store), m_feed(feed), m_interval(interval),
        m_next_poll(std::chrono::steady_clock::now() + interval) {}

  // One step; how long the caller should pause before the next.
  std::chrono::milliseconds step() {
    using namespace std::chrono;
    bool news = false;
    if (m_feed && !m_feed_down) {
      auto got = m_feed->wait(k_feed_slice);
      if (!got) {
        report("listening for new datasets failed: " + got.error() + " (polling meanwhile)");
        m_feed_down = true;
      } else {
        news = *got;
      }
    }
    const auto now = steady_clock::now();
    const bool poll = now >= m_next_poll;
    if (poll) {
      m_next_poll = now + m_interval;
      // A broken feed is tried again at each poll.
      m_feed_down = false;
    }
    if (news || poll) m_pacer.news();
    if (m_pacer.due(now)) {
      auto r = m_app.refresh(m_store);
      m_pacer.reloaded(now, steady_clock::now());
      if (!r) {
        report("reload failed: " + r.error() + " (serving the snapshot held)");
      } else if (m_failing) {
        std::cerr << "errdex serve: the store answers again\n";
        m_failing = false;
      }
    }
    if (m_feed && !m_feed_down) return milliseconds(0);  // the feed's wait paced this step
    const auto at = steady_clock::now();
    auto pause = std::max(m_next_poll - at, steady_clock::duration(0));
    if (const auto pending = m_pacer.wait(at); pending > steady_clock::duration(0)) pause = std::min(pause, pending);
    return duration_cast<milliseconds>(pause);
  }

 private:
  // Said once per outage, not at every poll.
  void report(const std::string& message) {
    if (!m_failing) std::cerr << "errdex serve: " << message << "\n";
    m_failing = true;
  }

  static constexpr std::chrono::milliseconds k_feed_slice{250};
  App& m_app;
  store::Store& m_store;
  store::ChangeFeed* m_feed;
  std::chrono::milliseconds m_interval;
  std::chrono::steady_clock::time_point m_next_poll;
  bool m_feed_down = false;
  bool m_failing = false;
  ReloadPacer m_pacer;
};

struct Server::Impl {
  Shared shared;
  // One io_context per worker thread, each run by its thread alone (no
  // locking inside Asio, no strands); the acceptor deals connections out
  // in turn. The first one also runs the acceptor, signals and shutdown.
  std::vector<std::unique_ptr<asio::io_context>> contexts;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards;
  std::size_t next_context = 0;
  std::optional<tcp::acceptor> acceptor;
  std::optional<asio::signal_set> signals;
  std::optional<asio::steady_timer> shutdown_timer;
  std::optional<asio::steady_timer> accept_timer;
  std::vector<std::thread> workers;
  std::thread refresher;
  std::mutex stop_mu;
  std::condition_variable stop_cv;
  bool stop_requested = false;
  bool stopped = false;
  std::uint16_t port = 0;
  std::chrono::steady_clock::time_point shutdown_deadline;

  void accept() {
    auto& ctx = *contexts[next_context++ % contexts.size()];
    acceptor->async_accept(ctx, [this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor->is_open()) return;
      if (ec) {
        // Out of descriptors (or another transient failure): back off
        // instead of spinning on accept; open connections are unaffected.
        accept_timer.emplace(*contexts[0], std::chrono::milliseconds(100));
        accept_timer->async_wait([this](beast::error_code) {
          if (acceptor->is_open()) accept();
        });
        return;
      }
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<Session>(std::move(socket), shared)->start();
      accept();
    });
  }

  // Runs on the io_context: stop accepting, close idle connections, then
  // wait for the others to finish.
  void begin_shutdown() {
    if (shared.stopping.exchange(true)) return;
    beast::error_code ec;
    acceptor->close(ec);
    if (signals) signals->cancel(ec);
    if (accept_timer) accept_timer->cancel();
    std::vector<std::shared_ptr<Session>> live;
    {
      std::lock_guard lock(shared.sessions_mu);
      for (auto& [p, w] : shared.weak)
        if (auto s = w.lock()) live.push_back(std::move(s));
    }
    for (auto& s : live) s->close_if_idle();
    shutdown_deadline = std::chrono::steady_clock::now() + k_shutdown_grace;
    poll_shutdown();
  }

  void poll_shutdown() {
    bool empty;
    {
      std::lock_guard lock(shared.sessions_mu);
      empty = shared.weak.empty();
    }
    if (empty || std::chrono::steady_clock::now() > shutdown_deadline) {
      guards.clear();
      for (auto& c : contexts) c->stop();
      return;
    }
    shutdown_timer.emplace(*contexts[0], std::chrono::milliseconds(20));
    shutdown_timer->async_wait([this](beast::error_code) { poll_shutdown(); });
  }
};

Server::Server(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

Expected<std::unique_ptr<Server>> Server::start(ServerOptions options) {
  auto impl = std::make_unique<Impl>();
  auto& sh = impl->shared;
  sh.options = options;
  sh.log = std::make_unique<AccessLog>(options.access_log);
  if (!sh.log->ok(options.access_log)) return Error{"cannot open the access log " + options.access_log};
  int threads = options.threads > 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  // Every connection is a descriptor: take the hard limit, not the default
  // soft 1024.
  if (rlimit rl{}; ::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &rl);
  }
  for (int i = 0; i < threads; ++i) {
    impl->contexts.push_back(std::make_unique<asio::io_context>(1));
    impl->guards.push_back(asio::make_work_guard(*impl->contexts.back()));
  }
  auto& ioc = *impl->contexts[0];

  // One store per worker thread, opened before binding so a bad --db fails
  // at once.
  std::vector<std::unique_ptr<store::Store>> stores;
  for (int i = 0; i < threads + 1; ++i) {
    auto st = store::open_store(options.db);
    if (!st) return Error{st.error()};
    stores.push_back(std::move(*st));
  }
  if (store::is_postgresql(options.db) && !options.app.jobs) {
    auto jobs = store::open_job_queue(options.db);
    if (!jobs) return Error{jobs.error()};
    options.app.jobs = std::move(*jobs);
  }
  auto app = App::create(*stores.back(), options.app);
  if (!app) return Error{app.error()};
  sh.app = std::move(*app);

  beast::error_code ec;
  auto address = asio::ip::make_address(options.host, ec);
  if (ec) {
    tcp::resolver resolver(ioc);
    auto results = resolver.resolve(options.host, std::to_string(options.port), ec);
    if (ec || results.empty()) return Error{"cannot resolve " + options.host + ": " + ec.message()};
    address = results.begin()->endpoint().address();
  }
  tcp::endpoint ep(address, options.port);
  impl->acceptor.emplace(ioc);
  impl->acceptor->open(ep.protocol(), ec);
  if (!ec) impl->acceptor->set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor->bind(ep, ec);
  if (!ec) impl->acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Error{"cannot listen on " + options.host + ":" + std::to_string(options.port) + ": " + ec.message()};
  impl->port = impl->acceptor->local_endpoint().port();

  if (options.handle_signals) {
    impl->signals.emplace(ioc, SIGINT, SIGTERM);
    impl->signals->async_wait([raw = impl.get()](beast::error_code e, int) {
      if (!e) raw->begin_shutdown();
    });
  }
  impl->accept();
  Impl* raw = impl.get();
  for (int i = 0; i < threads; ++i) {
    impl->workers.emplace_back([raw, i, st = std::shared_ptr<store::Store>(std::move(stores[i]))] {
      t_store = st.get();
      // A handler that throws loses its connection, never the worker.
      for (;;) {
        try {
          raw->contexts[i]->run();
          break;
        } catch (const std::exception& e) {
          std::cerr << "errdex serve: request handler failed: " << e.what() << "\n";
        }
      }
      t_store = nullptr;
    });
  }
  // New datasets (another process scanning) are picked up here: at once
  // when the store notifies (PostgreSQL), else at the next poll. A store
  // that cannot be reached leaves the snapshot served as it is.
  impl->refresher = std::thread([raw, st = std::shared_ptr<store::Store>(std::move(stores.back())),
                                 feed = store::open_change_feed(options.db)] {
    Refresher refresher(*raw->shared.app, *st, feed.get(), raw->shared.options.refresh_interval);
    auto stopping = [raw] { return raw->stop_requested || raw->shared.stopping; };
    std::unique_lock lock(raw->stop_mu);
    while (!stopping()) {
      lock.unlock();
      const auto pause = refresher.step();
      lock.lock();
      if (pause.count() > 0) raw->stop_cv.wait_for(lock, pause, stopping);
    }
  });
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

std::uint16_t Server::port() const { return m_impl->port; }
std::size_t Server::records() const { return m_impl->shared.app->records(); }
std::string Server::match_engine() const { return m_impl->shared.app->match_engine(); }

void Server::wait() {
  for (auto& t : m_impl->workers)
    if (t.joinable()) t.join();
  {
    std::lock_guard lock(m_impl->stop_mu);
    m_impl->stop_requested = true;
  }
  m_impl->stop_cv.notify_all();
  if (m_impl->refresher.joinable()) m_impl->refresher.join();
}

void Server::stop() {
  asio::post(*m_impl->contexts[0], [raw = m_impl.get()] { raw->begin_shutdown(); });
  wait();
}

Server::~Server() { stop(); }

}  // namespace errdex::web
