#include "support/postgres.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

namespace errdex::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* k_default_bin = "/usr/lib/postgresql/15/bin";
constexpr const char* k_user = "errdex-pg";
constexpr const char* k_superuser = "errdex";
// Not a timing threshold: only how long a server that never answers may
// hang the test before it fails with the server's log.
constexpr auto k_start_deadline = std::chrono::seconds(120);

std::string bin_dir() {
  const char* env = std::getenv("ERRDEX_PG_BIN");
  return env && *env ? env : k_default_bin;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

std::string tail_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  return text.size() > 2000 ? text.substr(text.size() - 2000) : text;
}

// A port the kernel says is free now (another process may take it before
// postgres does: start() then tries another).
int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

std::string random_password() {
  std::random_device rd;
  std::string out = "pw-";
  const char* digits = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int i = 0; i < 20; ++i) out += digits[rd() % 36];
  return out;
}

}  // namespace

PostgresServer& PostgresServer::shared() {
  static PostgresServer server;
  return server;
}

std::unique_ptr<PostgresServer> PostgresServer::own() { return std::unique_ptr<PostgresServer>(new PostgresServer()); }

PostgresServer::PostgresServer() {
  if (!start() && m_error.empty()) m_error = "PostgreSQL did not start";
}

int PostgresServer::run_as_user(const std::string& args, const std::string& log) {
  std::string cmd = "cd " + quote(m_folder) + " && " + m_run_as + args + " >" + quote(log) + " 2>&1";
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

bool PostgresServer::start() {
  const std::string bin = bin_dir();
  for (const char* tool : {"initdb", "postgres", "pg_ctl"})
    if (::access((bin + "/" + tool).c_str(), X_OK) != 0) {
      m_error = "PostgreSQL 15 is not installed: no " + bin + "/" + tool +
                " (scripts/deps.sh test installs postgresql-15; ERRDEX_PG_BIN names another folder)";
      return false;
    }
  char templ[] = "/tmp/errdex-pg-XXXXXX";
  if (!::mkdtemp(templ)) {
    m_error = "cannot make a temporary folder for PostgreSQL";
    return false;
  }
  m_folder = templ;
  uid_t uid = ::geteuid();
  gid_t gid = ::getegid();
  if (uid == 0) {
    // postgres refuses to run as root: a system user of its own, made once.
    if (!::getpwnam(k_user))
      std::system((std::string("useradd --system --no-create-home --shell /usr/sbin/nologin ") + k_user +
                   " >/dev/null 2>&1").c_str());
    const passwd* pw = ::getpwnam(k_user);
    if (!pw) pw = ::getpwnam("nobody");
    if (!pw) {
      m_error = std::string("cannot find or make the user ") + k_user + " to run PostgreSQL as";
      return false;
    }
    uid = pw->pw_uid;
    gid = pw->pw_gid;
    if (::chown(m_folder.c_str(), uid, gid) != 0) {
      m_error = "cannot hand " + m_folder + " to " + pw->pw_name;
      return false;
    }
    m_run_as = "setpriv --reuid=" + std::to_string(uid) + " --regid=" + std::to_string(gid) + " --clear-groups -- ";
  }
  m_password = random_password();
  const std::string pwfile = m_folder + "/pwfile";
  std::ofstream(pwfile) << m_password << "\n";
  if (::chown(pwfile.c_str(), uid, gid) != 0) {
    m_error = "cannot hand " + pwfile + " to the server's user";
    return false;
  }
  const std::string data = m_folder + "/data";
  if (int rc = run_as_user(quote(bin + "/initdb") + " -D " + quote(data) + " -U " + k_superuser + " --pwfile=" +
                               quote(pwfile) + " --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C" +
                               " --no-sync",
                           m_folder + "/initdb.log");
      rc != 0) {
    m_error = "initdb failed (exit " + std::to_string(rc) + "): " + tail_of(m_folder + "/initdb.log");
    return false;
  }
  m_uid = uid;
  m_gid = gid;
  return launch(0);
}

bool PostgresServer::launch(int fixed_port) {
  const std::string bin = bin_dir();
  const std::string data = m_folder + "/data";
  const uid_t uid = m_uid;
  const gid_t gid = m_gid;
  for (int attempt = 0; attempt < (fixed_port ? 1 : 5); ++attempt) {
    m_port = fixed_port ? fixed_port : free_port();
    const std::string log = m_folder + "/postgres.log";
    pid_t pid = ::fork();
    if (pid < 0) {
      m_error = "fork failed";
      return false;
    }
    if (pid == 0) {
      int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        ::dup2(fd, 1);
        ::dup2(fd, 2);
      }
      if (::chdir(m_folder.c_str()) != 0) _exit(126);
      // The server stops (fast) if this process dies without stopping it.
      std::vector<std::string> args = {"setpriv"};
      if (::geteuid() == 0)
        args.insert(args.end(), {"--reuid=" + std::to_string(uid), "--regid=" + std::to_string(gid), "--clear-groups"});
      args.insert(args.end(), {"--pdeathsig=INT", "--", bin + "/postgres", "-D", data, "-p", std::to_string(m_port),
                               "-k", m_folder, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c",
                               "full_page_writes=off", "-c", "synchronous_commit=off", "-c", "max_connections=200"});
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execvp("setpriv", argv.data());
      _exit(127);
    }
    m_pid = pid;
    const std::string ping = "host=127.0.0.1 port=" + std::to_string(m_port) + " dbname=postgres user=" +
                             k_superuser + " connect_timeout=5";
    const auto give_up = std::chrono::steady_clock::now() + k_start_deadline;
    bool exited = false;
    while (std::chrono::steady_clock::now() < give_up) {
      if (PQping(ping.c_str()) == PQPING_OK) return true;
      int status = 0;
      if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
        exited = true;
        m_pid = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    m_error = "postgres " + std::string(exited ? "exited" : "did not answer") + " on port " +
              std::to_string(m_port) + ": " + tail_of(log);
    if (!exited) return false;  // the destructor stops it
  }
  return false;
}

std::string PostgresServer::url(const std::string& name, const std::string& password) const {
  return std::string("postgresql://") + k_superuser + ":" + password + "@127.0.0.1:" + std::to_string(m_port) + "/" +
         name;
}

std::string PostgresServer::create_database() {
  if (!ok()) return "";
  const std::string name = "t" + std::to_string(++m_databases);
  PGconn* c = PQconnectdb(url("postgres", m_password).c_str());
  std::string sql = "CREATE DATABASE " + name + " ENCODING 'UTF8' TEMPLATE template0";
  PGresult* r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql.c_str()) : nullptr;
  const bool made = r && PQresultStatus(r) == PGRES_COMMAND_OK;
  if (!made) m_error = "CREATE DATABASE failed: " + std::string(PQerrorMessage(c));
  PQclear(r);
  PQfinish(c);
  return made ? url(name, m_password) : "";
}

bool PostgresServer::stop() {
  if (m_pid <= 0) return true;
  int rc = run_as_user(quote(bin_dir() + "/pg_ctl") + " stop -D " + quote(m_folder + "/data") + " -m fast -w",
                       m_folder + "/pg_ctl.log");
  int status = 0;
  ::waitpid(m_pid, &status, 0);
  m_pid = -1;
  if (rc != 0) m_error = "pg_ctl stop failed: " + tail_of(m_folder + "/pg_ctl.log");
  return rc == 0;
}

bool PostgresServer::start_again() {
  if (m_pid > 0) return true;
  if (launch(m_port)) return true;
  if (m_error.empty()) m_error = "PostgreSQL did not start again";
  return false;
}

PostgresServer::~PostgresServer() {
  if (m_pid > 0) {
    run_as_user(quote(bin_dir() + "/pg_ctl") + " stop -D " + quote(m_folder + "/data") + " -m fast -w",
                m_folder + "/pg_ctl.log");
    int status = 0;
    ::waitpid(m_pid, &status, 0);
  }
  if (!m_folder.empty()) {
    std::error_code ec;
    fs::remove_all(m_folder, ec);
  }
}

}  // namespace errdex::testing
