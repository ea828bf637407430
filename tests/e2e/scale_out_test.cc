// errdex on one PostgreSQL database shared by many processes, the real
// binaries throughout: servers that pick up a new scan by notification,
// workers that drain a queue and retake the job of a worker killed
// mid-scan, and a server whose database stops and comes back.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <signal.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/postgres.h"
#include "support/process.h"
#include "web/http_client.h"

namespace errdex {
namespace {

using namespace std::chrono_literals;
using testing::errdex_cmd;
using testing::run;
using testing::shell_quote;

// A folder of one Python module raising one error.
void write_module(const std::filesystem::path& dir, const std::string& message) {
  testing::write_file(dir / "mod.py", "def check(x):\n    if x < 0:\n        raise ValueError(\"" + message + "\")\n"
                                      "    return x\n");
}

// `errdex scan` of `dir` as `repo` into `db`.
testing::RunResult scan(const std::filesystem::path& dir, const std::string& repo, const std::string& db) {
  return run(errdex_cmd() + " scan " + shell_quote(dir.string()) + " --repo " + repo + " -q --db " + shell_quote(db));
}

// The one value `sql` answers, or nullopt with the reason in `error`.
std::optional<std::string> query_value(const std::string& url, const std::string& sql, std::string* error = nullptr) {
  PGconn* c = PQconnectdb(url.c_str());
  std::optional<std::string> out;
  PGresult* r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql.c_str()) : nullptr;
  if (r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) out = PQgetvalue(r, 0, 0);
  else if (error) *error = PQerrorMessage(c);
  PQclear(r);
  PQfinish(c);
  return out;
}

// One number from the database, or -1 with the reason in `error`.
long long query_number(const std::string& url, const std::string& sql, std::string* error = nullptr) {
  auto v = query_value(url, sql, error);
  return v ? std::atoll(v->c_str()) : -1;
}

nlohmann::json jobs_of(const std::string& db) {
  auto r = run(errdex_cmd() + " jobs --json --db " + shell_quote(db));
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  return j.is_object() ? j["jobs"] : nlohmann::json::array();
}

// A process of the real binary in the background, SIGKILLed by the
// destructor if still running.
class Background {
 public:
  explicit Background(std::vector<std::string> args, const std::filesystem::path& out) {
    m_pid = testing::spawn(std::move(args), out);
  }
  ~Background() { kill(SIGKILL); }
  pid_t pid() const { return m_pid; }
  void kill(int signal) {
    if (m_pid <= 0) return;
    ::kill(m_pid, signal);
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    m_pid = -1;
  }

 private:
  pid_t m_pid = -1;
};

// Polls `ready` until it holds or `deadline` passes; whether it held.
template <class Ready>
bool within(std::chrono::steady_clock::duration deadline, Ready ready) {
  const auto give_up = std::chrono::steady_clock::now() + deadline;
  do {
    if (ready()) return true;
    std::this_thread::sleep_for(20ms);
  } while (std::chrono::steady_clock::now() < give_up);
  return ready();
}

// Each test on a new database of the shared server (db).
class ScaleOut : public ::testing::Test {
 protected:
  void SetUp() override {
    auto& pg = testing::PostgresServer::shared();
    ASSERT_TRUE(pg.ok()) << pg.error();
    db = pg.create_database();
    ASSERT_FALSE(db.empty()) << pg.error();
  }
  std::string db;
};

TEST_F(ScaleOut, TwoServersServeANewScanWithinTwoSeconds) {
  testing::TempDir dir;
  write_module(dir / "first", "x must not be negative");
  write_module(dir / "second", "y must be a whole number");
  auto first = scan(dir / "first", "t/first", db);
  ASSERT_EQ(first.code, 0) << first.err;

  testing::ServeProcess a(db), b(db);
  ASSERT_GT(a.port(), 0) << a.output();
  ASSERT_GT(b.port(), 0) << b.output();
  for (auto* s : {&a, &b}) EXPECT_EQ(testing::get(s->port(), "/api/repos/t/second/errors").status, 404);

  auto second = scan(dir / "second", "t/second", db);
  ASSERT_EQ(second.code, 0) << second.err;
  // The correctness deadline: served by every server within 2 s of
  // the scan's commit (the scan has exited, so it is committed).
  const auto stored = std::chrono::steady_clock::now();
  for (auto* s : {&a, &b}) {
    const auto left = 2s - (std::chrono::steady_clock::now() - stored);
    EXPECT_TRUE(within(left, [&] { return testing::get(s->port(), "/api/repos/t/second/errors").status == 200; }))
        << "port " << s->port() << " did not serve the new dataset within 2 s:\n" << s->output();
  }
  auto page = testing::get(a.port(), "/api/repos/t/second/errors");
  EXPECT_NE(page.body.find("y must be a whole number"), std::string::npos) << page.body;
}

TEST_F(ScaleOut, TwoWorkersDrainThreeJobsAndEachDatasetLandsOnce) {
  testing::TempDir dir;
  for (const char* name : {"a", "b", "c"}) {
    write_module(dir / name, std::string("value of ") + name + " must not be negative");
    auto q = run(errdex_cmd() + " enqueue " + shell_quote((dir / name).string()) + " --repo jobs/" + name +
                 " --db " + shell_quote(db));
    ASSERT_EQ(q.code, 0) << q.err;
    EXPECT_NE(q.out.find("enqueued job"), std::string::npos) << q.out;
  }
  // A job that cannot run fails with its scan's error, and is not retried.
  auto bad = run(errdex_cmd() + " enqueue " + shell_quote((dir / "missing").string()) + " --repo jobs/missing --db " +
                 shell_quote(db));
  ASSERT_EQ(bad.code, 0) << bad.err;
  auto queued = jobs_of(db);
  ASSERT_EQ(queued.size(), 4u);
  for (const auto& j : queued) EXPECT_EQ(j["state"], "queued") << j.dump();

  testing::ServeProcess server(db);
  ASSERT_GT(server.port(), 0) << server.output();
  const std::string worker = errdex_cmd() + " worker --once --lease 10 --db " + shell_quote(db);
  auto both = run("(" + worker + " >" + shell_quote((dir / "w1").string()) + " 2>&1 & p1=$!; " + worker + " >" +
                  shell_quote((dir / "w2").string()) + " 2>&1 & p2=$!; wait $p1; c1=$?; wait $p2; c2=$?; echo $c1 $c2)");
  // Each exits 2: a failed job is among those it may have run; 0 if not.
  EXPECT_TRUE(both.out == "2 0\n" || both.out == "0 2\n")
      << both.out << testing::read_file(dir / "w1") << testing::read_file(dir / "w2");

  auto done = jobs_of(db);
  ASSERT_EQ(done.size(), 4u);
  for (const auto& j : done) {
    EXPECT_EQ(j["attempts"], 1) << j.dump();
    if (j["repo"] == "jobs/missing") {
      EXPECT_EQ(j["state"], "failed") << j.dump();
      EXPECT_NE(j["error"].get<std::string>().find("missing"), std::string::npos) << j.dump();
    } else {
      EXPECT_EQ(j["state"], "done") << j.dump();
      EXPECT_EQ(j["error"], "") << j.dump();
    }
    EXPECT_FALSE(j["finishedAt"].is_null()) << j.dump();
  }
  for (const char* name : {"a", "b", "c"}) {
    std::string why;
    EXPECT_EQ(query_number(db, std::string("SELECT count(*) FROM datasets WHERE repo = 'jobs/") + name + "'", &why), 1)
        << name << why;
  }
  EXPECT_EQ(query_number(db, "SELECT count(*) FROM records"), 3);

  // The queue over HTTP, as `errdex jobs --json` shows it.
  auto api = testing::get(server.port(), "/api/jobs");
  ASSERT_EQ(api.status, 200) << api.body;
  auto listed = nlohmann::json::parse(api.body)["jobs"];
  ASSERT_EQ(listed.size(), 4u);
  EXPECT_EQ(listed[0]["state"], "failed");
  auto text = run(errdex_cmd() + " jobs --db " + shell_quote(db));
  EXPECT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("error: "), std::string::npos) << text.out;
}

// A job carries scan's other options: a folder queued with `--prefix Lib
// --include-tests --no-evidence` is stored as `errdex scan` with them
// stores it (its files under Lib/, its test file's record kept).
TEST_F(ScaleOut, AJobCarriesScansOtherOptions) {
  testing::TempDir dir;
  write_module(dir / "lib", "x must not be negative");
  testing::write_file(dir / "lib/test_mod.py", "def test_x():\n    raise AssertionError(\"a failing test\")\n");
  auto q = run(errdex_cmd() + " enqueue " + shell_quote((dir / "lib").string()) +
               " --repo jobs/lib --ref v1.0 --prefix Lib --include-tests --no-evidence --db " + shell_quote(db));
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_NE(q.out.find("--prefix Lib --include-tests --no-evidence"), std::string::npos) << q.out;
  auto queued = jobs_of(db);
  ASSERT_EQ(queued.size(), 1u);
  EXPECT_EQ(queued[0]["prefix"], "Lib") << queued[0].dump();
  EXPECT_EQ(queued[0]["includeTests"], true) << queued[0].dump();

  auto w = run(errdex_cmd() + " worker --once --db " + shell_quote(db));
  ASSERT_EQ(w.code, 0) << w.out << w.err;
  auto listed = nlohmann::json::parse(run(errdex_cmd() + " list --json --db " + shell_quote(db)).out);
  ASSERT_EQ(listed.size(), 2u) << listed.dump();
  EXPECT_EQ(listed[0]["filePath"], "Lib/mod.py") << listed.dump();
  EXPECT_EQ(listed[1]["filePath"], "Lib/test_mod.py") << listed.dump();
  EXPECT_EQ(query_value(db, "SELECT ref FROM datasets"), "v1.0");
}

TEST_F(ScaleOut, AJobWhoseWorkerWasKilledIsRetakenAfterItsLeaseAndLandsOnce) {
  const std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());
  auto q = run(errdex_cmd() + " enqueue " + shell_quote(stdlib) + " --repo python/cpython --db " + shell_quote(db));
  ASSERT_EQ(q.code, 0) << q.err;

  testing::TempDir dir;
  // The job is held for a while before its scan starts, so that the kill
  // lands mid-job (checked below, not assumed).
  Background doomed({ERRDEX_BINARY, "worker", "--lease", "2", "--pause-before-scan", "3600", "--db", db},
                    dir / "doomed");
  const std::string doomed_name = ":" + std::to_string(doomed.pid());
  ASSERT_TRUE(within(60s, [&] {
    auto jobs = jobs_of(db);
    return jobs.size() == 1 && jobs[0]["state"] == "running" &&
           jobs[0]["worker"].get<std::string>().ends_with(doomed_name);
  })) << testing::read_file(dir / "doomed");
  // Its heartbeats keep the job: past one lease it is still its own.
  std::this_thread::sleep_for(3s);
  auto held = jobs_of(db);
  ASSERT_EQ(held[0]["state"], "running") << held.dump();
  ASSERT_TRUE(held[0]["worker"].get<std::string>().ends_with(doomed_name)) << held.dump();
  doomed.kill(SIGKILL);
  EXPECT_EQ(query_number(db, "SELECT count(*) FROM datasets"), 0) << "a half-written dataset is visible";

  // Another worker takes it once the lease has run out, and stores it.
  auto rescue = run(errdex_cmd() + " worker --once --lease 2 --db " + shell_quote(db));
  ASSERT_EQ(rescue.code, 0) << rescue.out << rescue.err;
  auto jobs = jobs_of(db);
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0]["state"], "done") << jobs.dump();
  EXPECT_EQ(jobs[0]["attempts"], 2) << jobs.dump();
  EXPECT_FALSE(jobs[0]["worker"].get<std::string>().ends_with(doomed_name)) << jobs.dump();
  EXPECT_EQ(query_number(db, "SELECT count(*) FROM datasets WHERE repo = 'python/cpython'"), 1);
  EXPECT_GT(query_number(db, "SELECT count(*) FROM records"), 1000);
  EXPECT_EQ(query_number(db, "SELECT count(*) FROM records r JOIN repos p ON p.dataset_id = r.dataset_id"),
            query_number(db, "SELECT count(*) FROM records"));
}

// The worker's connection is terminated by the server (as when PostgreSQL
// restarts or a proxy drops it) while its scan writes the dataset: the job
// goes back in the queue, runs again, and its dataset lands once, whole.
TEST_F(ScaleOut, AWorkerThatLosesItsConnectionMidScanRunsTheJobAgainAndItLandsOnce) {
  const std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());
  auto q = run(errdex_cmd() + " enqueue " + shell_quote(stdlib) + " --repo python/cpython --db " + shell_quote(db));
  ASSERT_EQ(q.code, 0) << q.err;

  testing::TempDir dir;
  Background worker({ERRDEX_BINARY, "worker", "--once", "--lease", "30", "--db", db}, dir / "worker");
  // Terminates the errdex backend of this database that is writing the
  // dataset's records, inside the transaction of the dataset (the queue's
  // and the caches' statements are single ones, which a connection simply
  // runs again on a new session), as soon as one is seen.
  const std::string kill_writer =
      "SELECT coalesce(string_agg(state || ': ' || left(query, 60), '; '), '') FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'errdex'"
      " AND pid <> pg_backend_pid() AND backend_xid IS NOT NULL AND query LIKE 'INSERT INTO records%'"
      " AND pg_terminate_backend(pid)";
  std::string hit;
  ASSERT_TRUE(within(120s, [&] {
    hit = query_value(db, kill_writer).value_or("");
    return !hit.empty();
  })) << "no scan transaction seen to terminate\n" << testing::read_file(dir / "worker");

  // The worker runs the job again and stops when the queue is empty.
  ASSERT_TRUE(within(300s, [&] {
    auto jobs = jobs_of(db);
    return jobs.size() == 1 && jobs[0]["state"] != "running" && jobs[0]["state"] != "queued";
  })) << testing::read_file(dir / "worker");
  auto jobs = jobs_of(db);
  EXPECT_EQ(jobs[0]["state"], "done") << jobs.dump() << testing::read_file(dir / "worker") << "terminated: " << hit;
  EXPECT_EQ(jobs[0]["attempts"], 2) << "terminated: " << hit;
  EXPECT_EQ(jobs[0]["error"], "") << jobs.dump();
  EXPECT_NE(testing::read_file(dir / "worker").find("lost its store connection"), std::string::npos)
      << testing::read_file(dir / "worker");

  // Nothing lost, nothing twice: the same records as the same scan run
  // straight into a database of its own.
  auto& pg = testing::PostgresServer::shared();
  const std::string direct = pg.create_database();
  ASSERT_FALSE(direct.empty()) << pg.error();
  auto s = run(errdex_cmd() + " scan " + shell_quote(stdlib) + " --repo python/cpython -q --db " + shell_quote(direct));
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(query_number(db, "SELECT count(*) FROM datasets"), 1);
  const long long records = query_number(direct, "SELECT count(*) FROM records");
  EXPECT_GT(records, 1000);
  EXPECT_EQ(query_number(db, "SELECT count(*) FROM records"), records);
  EXPECT_EQ(query_number(db, "SELECT count(DISTINCT id) FROM records"), records);
  EXPECT_EQ(query_number(db, "SELECT count(*) FROM records r JOIN repos p ON p.dataset_id = r.dataset_id"), records);
}

TEST(ScaleOutQueue, TheQueueNeedsPostgres) {
  testing::TempDir dir;
  const std::string sqlite = "sqlite:" + (dir / "s.db").string();
  for (const std::string cmd : {"enqueue /tmp", "worker --once", "jobs", "jobs --json"}) {
    auto r = run(errdex_cmd() + " " + cmd + " --db " + shell_quote(sqlite));
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_NE(r.err.find("needs a PostgreSQL store"), std::string::npos) << cmd << ": " << r.err;
  }
  for (const char* cmd : {"enqueue", "worker", "jobs"}) {
    auto help = run(errdex_cmd() + " " + cmd + " --help");
    EXPECT_EQ(help.code, 0) << cmd;
    EXPECT_NE(help.out.find("--db"), std::string::npos) << cmd;
  }
  auto no_source = run(errdex_cmd() + " enqueue --db " + shell_quote(sqlite));
  EXPECT_EQ(no_source.code, 2);
  auto bad_lease = run(errdex_cmd() + " worker --lease 0 --db " + shell_quote(sqlite));
  EXPECT_EQ(bad_lease.code, 2);
  // A server on SQLite has no queue to show.
  testing::write_file(dir / "src" / "m.py", "raise ValueError('boom')\n");
  ASSERT_EQ(run(errdex_cmd() + " scan " + shell_quote((dir / "src").string()) + " -q --db " + shell_quote(sqlite)).code, 0);
  testing::ServeProcess server(sqlite);
  ASSERT_GT(server.port(), 0) << server.output();
  auto api = testing::get(server.port(), "/api/jobs");
  EXPECT_EQ(api.status, 404);
  EXPECT_NE(api.body.find("PostgreSQL"), std::string::npos) << api.body;
}

TEST(ScaleOutFaults, AServerOutlivesItsDatabaseStoppingAndRecovers) {
  auto pg = testing::PostgresServer::own();
  ASSERT_TRUE(pg->ok()) << pg->error();
  const std::string db = pg->create_database();
  ASSERT_FALSE(db.empty()) << pg->error();
  testing::TempDir dir;
  write_module(dir / "first", "x must not be negative");
  ASSERT_EQ(scan(dir / "first", "t/first", db).code, 0);
  auto listed = nlohmann::json::parse(run(errdex_cmd() + " list --json --db " + shell_quote(db)).out);
  ASSERT_EQ(listed.size(), 1u);
  const std::string id = listed[0]["id"];

  testing::ServeProcess server(db);
  ASSERT_GT(server.port(), 0) << server.output();
  const int port = server.port();
  ASSERT_EQ(testing::get(port, "/api/errors/" + id).status, 200);
  ASSERT_EQ(testing::get(port, "/api/search?q=negative").status, 200);

  ASSERT_TRUE(pg->stop()) << pg->error();
  // What the server holds in memory still answers.
  EXPECT_EQ(testing::get(port, "/api/errors/" + id).status, 200);
  EXPECT_EQ(testing::get(port, "/").status, 200);
  EXPECT_EQ(testing::get(port, "/api/repos").status, 200);
  auto matched = testing::post(port, "/api/match", "text/plain", "ValueError: x must not be negative");
  EXPECT_EQ(matched.status, 200) << matched.body;
  // What needs the store is refused with the JSON error, not left hanging:
  // the bound is the request's own timeout, not a performance figure.
  for (const char* target : {"/api/search?q=negative", "/api/jobs", "/api/repos/t/first/revisions"}) {
    auto refused = testing::raw_request(
        port, std::string("GET ") + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 20s);
    EXPECT_EQ(refused.status, 503) << target << ": " << refused.body;
    auto body = nlohmann::json::parse(refused.body, nullptr, false);
    ASSERT_TRUE(body.is_object()) << refused.body;
    EXPECT_EQ(body["error"]["status"], 503) << refused.body;
    EXPECT_EQ(refused.body.find("postgresql://"), std::string::npos) << "the database's address leaked: " << refused.body;
  }

  ASSERT_TRUE(pg->start_again()) << pg->error();
  // Back by itself: the pool's broken connections are replaced, the
  // listener reconnects, and a scan stored now is served.
  write_module(dir / "later", "z must be positive");
  auto later = scan(dir / "later", "t/later", db);
  ASSERT_EQ(later.code, 0) << later.err;
  EXPECT_TRUE(within(10s, [&] { return testing::get(port, "/api/repos/t/later/errors").status == 200; }))
      << server.output();
  EXPECT_EQ(testing::get(port, "/api/search?q=positive").status, 200);
  EXPECT_EQ(testing::get(port, "/api/jobs").status, 200);
  EXPECT_TRUE(server.alive());
}

}  // namespace
}  // namespace errdex
