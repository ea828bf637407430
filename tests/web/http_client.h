#pragma once
// Test side of HTTP: a real errdex serve process and a raw socket client,
// so requests the server must refuse can be sent exactly as written.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/process.h"

namespace errdex::testing {

struct HttpResponse {
  int status = 0;  // 0: no response (connection closed or timed out)
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

inline int connect_to(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Writes all of `data`; false when the peer stopped reading (reset).
inline bool send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Reads one response (Content-Length framed, or to the close).
inline HttpResponse read_response(int fd, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  HttpResponse r;
  std::string buf;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t header_end = std::string::npos;
  std::optional<std::size_t> length;
  char chunk[65536];
  for (;;) {
    if (header_end == std::string::npos) {
      header_end = buf.find("\r\n\r\n");
      if (header_end != std::string::npos) {
        std::string head = buf.substr(0, header_end);
        if (head.size() > 12) r.status = std::atoi(head.substr(9, 3).c_str());
        std::size_t pos = head.find("\r\n");
        while (pos != std::string::npos) {
          auto next = head.find("\r\n", pos + 2);
          std::string line = head.substr(pos + 2, next == std::string::npos ? std::string::npos : next - pos - 2);
          auto colon = line.find(':');
          if (colon != std::string::npos) {
            std::string name = line.substr(0, colon);
            for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            std::string value = line.substr(colon + 1);
            while (!value.empty() && value.front() == ' ') value.erase(0, 1);
            r.headers[name] = value;
          }
          pos = next;
        }
        if (r.headers.count("content-length")) length = std::stoul(r.headers["content-length"]);
        if ((r.status >= 100 && r.status < 200) || r.status == 204 || r.status == 304) length = 0;
      }
    }
    if (header_end != std::string::npos && length && buf.size() >= header_end + 4 + *length) break;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      if (header_end == std::string::npos) r.status = 0;
      break;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) break;
    buf.append(chunk, static_cast<std::size_t>(n));
  }
  if (header_end == std::string::npos) {
    r.status = 0;
    return r;
  }
  r.body = buf.substr(header_end + 4, length ? *length : std::string::npos);
  return r;
}

// One request on a fresh connection; `raw` is sent exactly as given.
inline HttpResponse raw_request(int port, const std::string& raw,
                                std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  int fd = connect_to(port);
  if (fd < 0) return {};
  send_all(fd, raw);
  auto r = read_response(fd, timeout);
  ::close(fd);
  return r;
}

inline HttpResponse get(int port, const std::string& target, const std::string& extra_headers = "") {
  return raw_request(port, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra_headers + "Connection: close\r\n\r\n");
}

inline HttpResponse post(int port, const std::string& target, const std::string& content_type, const std::string& body) {
  return raw_request(port, "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + content_type +
                               "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
}

// `errdex serve` on a free port, stopped with SIGTERM by the destructor.
class ServeProcess {
 public:
  // `max_fds` > 0: the process may hold at most that many descriptors.
  explicit ServeProcess(const std::string& db, std::vector<std::string> extra = {}, int max_fds = 0) {
    m_out = m_dir / "stdout";
    m_log = m_dir / "access.log";
    std::vector<std::string> args = {ERRDEX_BINARY, "serve", "--db", db, "--listen", "127.0.0.1:0", "--threads", "2",
                                     "--access-log", m_log.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    start(args, max_fds, 60);
  }
  // Any command that ends by serving (scripts/run.sh): `argv[0]` is a path;
  // it has `wait_seconds` to print the URL it serves.
  struct Command {
    std::vector<std::string> argv;
    int wait_seconds = 60;
  };
  explicit ServeProcess(const Command& c) {
    m_out = m_dir / "stdout";
    m_log = m_dir / "access.log";
    start(c.argv, 0, c.wait_seconds);
  }

 private:
  void start(std::vector<std::string> args, int max_fds, int wait_seconds) {
    m_pid = spawn(std::move(args), m_out, max_fds);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait_seconds);
    while (std::chrono::steady_clock::now() < deadline) {
      std::string out = read_file(m_out);
      auto at = out.find("serving http://127.0.0.1:");
      if (at != std::string::npos && out.find('/', at + 25) != std::string::npos) {
        m_port = std::atoi(out.c_str() + at + 25);
        return;
      }
      int status;
      if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
        m_exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
        m_pid = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

 public:
  ~ServeProcess() { stop(); }
  int port() const { return m_port; }
  bool alive() const { return m_pid > 0 && ::kill(m_pid, 0) == 0; }
  std::string output() const { return read_file(m_out); }
  std::string access_log() const { return read_file(m_log); }
  // SIGTERM, then the exit code (128+signal if killed).
  int stop() {
    if (m_pid <= 0) return m_exit;
    ::kill(m_pid, SIGTERM);
    int status = 0;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (::waitpid(m_pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    m_exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    m_pid = -1;
    return m_exit;
  }

 private:
  TempDir m_dir;
  std::filesystem::path m_out, m_log;
  pid_t m_pid = -1;
  int m_port = 0;
  int m_exit = -1;
};

}  // namespace errdex::testing
