// The LLM analyst end to end: the real binary against a real HTTP server
// process (tests/analyze/llm_server.py) speaking the OpenAI protocol.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "analyze/llm_analyst.h"
#include "support/process.h"

extern char** environ;

namespace errdex {
namespace {

using nlohmann::json;
using testing::errdex_cmd;
using testing::run;
using testing::shell_quote;
using testing::TempDir;
using testing::write_file;

// The test server as a child process, killed (by its pid) at the end.
class Server {
 public:
  explicit Server(double slow_seconds) {
    std::string script = std::string(ERRDEX_SOURCE_DIR) + "/tests/analyze/llm_server.py";
    std::string port_file = (m_dir / "port").string();
    std::string slow = std::to_string(slow_seconds);
    const char* argv[] = {"python3", script.c_str(), port_file.c_str(), "--slow", slow.c_str(), nullptr};
    if (posix_spawnp(&m_pid, "python3", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) m_pid = -1;
    for (int i = 0; i < 200 && m_pid > 0; ++i) {
      std::string p = testing::read_file(port_file);
      if (!p.empty()) {
        m_url = "http://127.0.0.1:" + p;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~Server() {
    if (m_pid > 0) {
      ::kill(m_pid, SIGTERM);
      ::waitpid(m_pid, nullptr, 0);
    }
  }
  const std::string& url() const { return m_url; }
  int chat_requests() const { return counter("chat"); }
  int max_in_flight() const { return counter("maxInFlight"); }
  int counter(const char* name) const {
    auto r = run("python3 -c 'import urllib.request,sys; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())' " +
                 shell_quote(m_url + "/count"));
    return r.code == 0 ? json::parse(r.out)[name].get<int>() : -1;
  }

 private:
  TempDir m_dir;
  pid_t m_pid = -1;
  std::string m_url;
};

std::map<std::string, json> records_by_function(const std::string& db) {
  auto r = run(errdex_cmd() + " export --db " + shell_quote(db));
  std::map<std::string, json> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    auto rec = json::parse(line)["record"];
    out[rec["errorMessage"].get<std::string>()] = rec;
  }
  return out;
}

const char* k_module = R"(class Pool:
    def good_resize(self, n):
        if n < 0:
            raise ValueError(f"good: n must be non-negative, got {n}")

    def malformed_resize(self, n):
        if n < 0:
            raise ValueError(f"malformed: n must be non-negative, got {n}")

    def badcode_resize(self, n):
        if n < 0:
            raise ValueError(f"badcode: n must be non-negative, got {n}")

    def unknown_resize(self, n):
        if n < 0:
            raise ValueError(f"unknown: n must be non-negative, got {n}")

    def busy_resize(self, n):
        if n < 0:
            raise ValueError(f"busy: n must be non-negative, got {n}")
)";

std::string scan_cmd(const TempDir& repo, const std::string& db, const Server& s, const std::string& extra = "",
                     const std::string& model = "test-model") {
  return errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/pool -q --json --db " + shell_quote(db) +
         " --analyst llm --llm-model " + model + " --llm-url " + shell_quote(s.url()) + " " + extra;
}

TEST(LlmAnalyst, RewritesValidatesRetriesAndCaches) {
  Server server(0);
  ASSERT_FALSE(server.url().empty()) << "test server did not start";
  TempDir repo, data;
  write_file(repo / "pool.py", k_module);
  std::string db = "sqlite:" + (data / "p.db").string();

  auto r = run(scan_cmd(repo, db, server));
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  auto summary = json::parse(r.out);
  // Five records, one of them retried after a 429.
  EXPECT_EQ(summary["llm"]["requests"], 6) << r.out;
  EXPECT_EQ(summary["llm"]["cacheHits"], 0);
  EXPECT_EQ(server.chat_requests(), 6);

  auto recs = records_by_function(db);
  ASSERT_EQ(recs.size(), 5u);
  const json& good = recs["good: n must be non-negative, got {n}"];
  EXPECT_EQ(good["analysis"]["analyst"], "llm");
  EXPECT_EQ(good["analysis"]["model"], "test-model");
  EXPECT_EQ(good["analysis"]["promptVersion"], analyze::k_prompt_version);
  EXPECT_EQ(good["documentation"].get<std::string>().rfind("Rewritten: Pool.good_resize() raises ValueError", 0), 0u)
      << good["documentation"];
  EXPECT_EQ(good["tags"].back(), "llm");

  // Malformed JSON: every field stays static.
  const json& bad = recs["malformed: n must be non-negative, got {n}"];
  EXPECT_EQ(bad["analysis"]["analyst"], "static");
  EXPECT_EQ(bad["documentation"].get<std::string>().rfind("Pool.malformed_resize() raises ValueError", 0), 0u);

  // A code field that does not parse: that field stays static, the rest is the model's.
  const json& code = recs["badcode: n must be non-negative, got {n}"];
  EXPECT_EQ(code["analysis"]["analyst"], "llm");
  auto fields = code["analysis"]["fields"].get<std::vector<std::string>>();
  EXPECT_EQ(std::count(fields.begin(), fields.end(), "validationCode"), 0);
  EXPECT_EQ(std::count(fields.begin(), fields.end(), "documentation"), 1);
  EXPECT_EQ(code["validationCode"],
            "if n < 0:\n    raise ValueError(\"n would be rejected by Pool.badcode_resize(): n < 0\")\n"
            "pool.badcode_resize(..., n=n)");

  // A name the source does not have: the static try/except stays.
  const json& unknown = recs["unknown: n must be non-negative, got {n}"];
  EXPECT_EQ(unknown["tryCatchPattern"].get<std::string>().find("frobnicate"), std::string::npos);
  EXPECT_EQ(unknown["analysis"]["analyst"], "llm");

  // 429 then success.
  EXPECT_EQ(recs["busy: n must be non-negative, got {n}"]["analysis"]["analyst"], "llm");

  // The rerun sends nothing: every answer comes from the cache.
  r = run(scan_cmd(repo, db, server));
  ASSERT_EQ(r.code, 0) << r.err;
  summary = json::parse(r.out);
  EXPECT_EQ(summary["llm"]["requests"], 0);
  EXPECT_EQ(summary["llm"]["cacheHits"], 5);
  EXPECT_EQ(server.chat_requests(), 6);
  auto again = records_by_function(db);
  EXPECT_EQ(again["good: n must be non-negative, got {n}"]["documentation"], good["documentation"]);

  // Another model is another cache key (the server rate-limits a site
  // only once, so no retry this time).
  r = run(scan_cmd(repo, db, server, "", "other-model"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["llm"]["requests"], 5);
  EXPECT_EQ(json::parse(r.out)["llm"]["cacheHits"], 0);
}

TEST(LlmAnalyst, ASlowAnswerTimesOutAndTheStaticFieldsStay) {
  Server server(5);
  ASSERT_FALSE(server.url().empty());
  TempDir repo, data;
  write_file(repo / "slow.py", "def slow_parse(s):\n    if not s:\n        raise ValueError(\"empty input\")\n");
  std::string db = "sqlite:" + (data / "s.db").string();
  auto r = run(scan_cmd(repo, db, server, "--llm-timeout 0.5"));
  ASSERT_EQ(r.code, 0) << r.err;
  auto summary = json::parse(r.out);
  EXPECT_EQ(summary["llm"]["failed"], 1);
  EXPECT_EQ(summary["llm"]["requests"], 1);  // timeouts are not retried
  EXPECT_NE(summary["llm"]["problems"][0].get<std::string>().find("timed out"), std::string::npos) << r.out;
  auto recs = records_by_function(db);
  EXPECT_EQ(recs["empty input"]["analysis"]["analyst"], "static");
}

TEST(LlmAnalyst, RequestsInFlightStayWithinTheConcurrencyBound) {
  Server server(0);
  ASSERT_FALSE(server.url().empty());
  TempDir repo, data;
  std::string src;
  for (int i = 0; i < 6; ++i)
    src += "def pause_" + std::to_string(i) + "(x):\n    if x is None:\n        raise ValueError(\"x " + std::to_string(i) +
           " is required\")\n\n\n";
  write_file(repo / "pause.py", src);
  std::string db = "sqlite:" + (data / "c.db").string();
  auto r = run(scan_cmd(repo, db, server, "--llm-concurrency 2"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["llm"]["rewritten"], 6) << r.out;
  EXPECT_EQ(server.chat_requests(), 6);
  EXPECT_GE(server.max_in_flight(), 1);
  EXPECT_LE(server.max_in_flight(), 2);
}

TEST(LlmAnalyst, BadOptionsAreErrors) {
  TempDir repo, data;
  write_file(repo / "a.py", "raise ValueError('x y')\n");
  std::string db = "sqlite:" + (data / "a.db").string();
  std::string base = errdex_cmd() + " scan " + shell_quote(repo.str()) + " -q --db " + shell_quote(db);
  EXPECT_EQ(run(base + " --analyst llm").code, 2);
  EXPECT_EQ(run(base + " --analyst llm --llm-model m --llm-url https://example.com").code, 2);
  EXPECT_EQ(run(base + " --analyst llm --llm-model m --llm-url http://:99").code, 2);
  EXPECT_EQ(run(base + " --analyst oracle").code, 2);
  // A server that is not there: the scan still completes, statically.
  auto r = run(base + " --json --analyst llm --llm-model m --llm-url http://127.0.0.1:9 --llm-retries 0");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["llm"]["failed"], 1);
}

TEST(LlmAnalyst, UrlsMapToTheChatCompletionsPath) {
  auto ep = analyze::parse_llm_url("http://localhost:8080");
  ASSERT_TRUE(ep);
  EXPECT_EQ(ep->host, "localhost");
  EXPECT_EQ(ep->port, "8080");
  EXPECT_EQ(ep->target, "/v1/chat/completions");
  EXPECT_EQ(analyze::parse_llm_url("http://h/v1/")->target, "/v1/chat/completions");
  EXPECT_EQ(analyze::parse_llm_url("http://h/proxy")->target, "/proxy/v1/chat/completions");
  EXPECT_EQ(analyze::parse_llm_url("http://[::1]:11434/v1/chat/completions")->host, "::1");
  EXPECT_FALSE(analyze::parse_llm_url("http://h:99999"));
  EXPECT_FALSE(analyze::parse_llm_url("ftp://h"));
}

}  // namespace
}  // namespace errdex
