#pragma once
// A real PostgreSQL 15 server for tests, started by the test process
// itself: initdb into a temporary folder (as an unprivileged user when the
// tests run as root, which postgres refuses), a free TCP port on 127.0.0.1
// with passwords (scram-sha-256) and a socket in the folder, stopped
// (pg_ctl stop -m fast) and removed when the process ends, whatever the
// tests' outcome; if the process dies first, the server is told to stop by
// the kernel (setpriv --pdeathsig).
#include <memory>
#include <string>

namespace errdex::testing {

class PostgresServer {
 public:
  // The server of this test process, started on first use. When it could
  // not start (binaries missing: scripts/deps.sh test installs them), ok()
  // is false and error() says why; a test then fails with that message.
  static PostgresServer& shared();
  // A server of the caller's own (one that a test may stop and start),
  // stopped and removed with it. Check ok() as for shared().
  static std::unique_ptr<PostgresServer> own();

  bool ok() const { return m_error.empty(); }
  const std::string& error() const { return m_error; }
  // A new empty UTF8 database and its URL (user and password included,
  // over TCP); "" and error() set when it cannot be made.
  std::string create_database();
  // The URL of database `name` with `password` in place of the real one.
  std::string url(const std::string& name, const std::string& password) const;
  int port() const { return m_port; }
  // Stops the server (fast: clients are disconnected) and starts it again
  // on the same port and data; each says whether it worked (error() says
  // why not).
  bool stop();
  bool start_again();

  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

 private:
  PostgresServer();
  bool start();
  // Starts postgres on the data folder at `port` (0: a free one, tried a
  // few times) and waits until it answers.
  bool launch(int port);
  // `args` run as the server's user, in its folder; the exit code.
  int run_as_user(const std::string& args, const std::string& log);

  std::string m_error;
  std::string m_folder;    // data, socket, logs
  std::string m_run_as;    // "setpriv …" prefix, or "" when not root
  std::string m_password;
  int m_port = 0;
  int m_pid = -1;          // the postmaster's
  unsigned m_uid = 0, m_gid = 0;  // the server's user
  int m_databases = 0;
};

}  // namespace errdex::testing
