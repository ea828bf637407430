// errdex on PostgreSQL against errdex on SQLite, the real binary on both:
// the machine's python3 standard library scanned into each gives the same
// export (timestamps aside), the same search hits first, the same match.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "support/postgres.h"
#include "support/process.h"

namespace errdex {
namespace {

using testing::errdex_cmd;
using testing::run;
using testing::shell_quote;

// An export with the times of writing (analyzedAt, datasetVersion, the
// analysis' at) blanked: the only bytes two scans of one tree may differ in.
std::string without_times(const std::string& jsonl) {
  static const std::regex k_time(R"re("(analyzedAt|datasetVersion|at)":( ?)"[^"]*")re");
  return std::regex_replace(jsonl, k_time, "\"$1\":$2\"T\"");
}

std::vector<std::string> hit_ids(const std::string& json_out) {
  std::vector<std::string> ids;
  auto hits = nlohmann::json::parse(json_out, nullptr, false);
  if (!hits.is_array()) return ids;
  for (const auto& h : hits) ids.push_back(h["record"]["id"].get<std::string>());
  return ids;
}

TEST(PostgresEndToEnd, StdlibOnPostgresAnswersAsOnSqlite) {
  auto& server = testing::PostgresServer::shared();
  ASSERT_TRUE(server.ok()) << server.error();
  const std::string pg = server.create_database();
  ASSERT_FALSE(pg.empty()) << server.error();
  testing::TempDir dir;
  const std::string sqlite = "sqlite:" + (dir / "s.db").string();
  const std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());

  auto migrated = run(errdex_cmd() + " migrate --db " + shell_quote(pg));
  ASSERT_EQ(migrated.code, 0) << migrated.err;
  EXPECT_EQ(migrated.out, "schema at version 7 (7 migrations applied now)\n");
  const std::string scan = errdex_cmd() + " scan " + shell_quote(stdlib) + " --repo python/cpython --prefix Lib -q";
  for (const auto& db : {sqlite, pg}) {
    auto r = run(scan + " --db " + shell_quote(db));
    ASSERT_EQ(r.code, 0) << db << ": " << r.err;
  }
  // A second scan into PostgreSQL reads every file's facts from its cache.
  auto again = run(scan + " --db " + shell_quote(pg));
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("since an earlier scan: their facts came from the cache"), std::string::npos) << again.out;

  auto a = run(errdex_cmd() + " export --db " + shell_quote(sqlite));
  auto b = run(errdex_cmd() + " export --db " + shell_quote(pg));
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  ASSERT_GT(std::count(a.out.begin(), a.out.end(), '\n'), 1000);
  EXPECT_TRUE(without_times(a.out) == without_times(b.out)) << "the exports differ beyond their timestamps";

  for (const char* q : {"must be", "invalid literal", "unknown encoding", "timeout", "negative shift count",
                        "not supported"}) {
    auto sa = run(errdex_cmd() + " search " + shell_quote(q) + " --json --limit 5 --db " + shell_quote(sqlite));
    // $ERRDEX_DB names the store as --db does.
    auto sb = run("ERRDEX_DB=" + shell_quote(pg) + " " + errdex_cmd() + " search " + shell_quote(q) +
                  " --json --limit 5");
    ASSERT_EQ(sa.code, 0) << q << ": " << sa.err;
    ASSERT_EQ(sb.code, 0) << q << ": " << sb.err;
    auto ia = hit_ids(sa.out), ib = hit_ids(sb.out);
    ASSERT_FALSE(ia.empty()) << q;
    ASSERT_FALSE(ib.empty()) << q;
    EXPECT_EQ(ia.front(), ib.front()) << q;
  }

  // A real traceback from the standard library.
  auto tb = run("python3 -c 'import json; json.loads(\"{\")'");
  ASSERT_NE(tb.code, 0);
  ASSERT_NE(tb.err.find("JSONDecodeError"), std::string::npos) << tb.err;
  testing::write_file(dir / "tb.txt", tb.err);
  auto ma = run(errdex_cmd() + " match --json --db " + shell_quote(sqlite) + " < " + shell_quote((dir / "tb.txt").string()));
  auto mb = run(errdex_cmd() + " match --json --db " + shell_quote(pg) + " < " + shell_quote((dir / "tb.txt").string()));
  ASSERT_EQ(ma.code, 0) << ma.err;
  ASSERT_EQ(mb.code, 0) << mb.err;
  EXPECT_EQ(ma.out, mb.out);
  auto answer = nlohmann::json::parse(mb.out);
  ASSERT_FALSE(answer["candidates"].empty());
  EXPECT_EQ(answer["candidates"][0]["filePath"], "Lib/json/decoder.py");

  // The other commands that read a store answer alike.
  const std::string id = answer["candidates"][0]["id"];
  for (const std::string& cmd : std::vector<std::string>{"show " + id + " --json", "history " + id + " --json",
                                                          "stats --json", "list --json"}) {
    auto ra = run(errdex_cmd() + " " + cmd + " --db " + shell_quote(sqlite));
    auto rb = run(errdex_cmd() + " " + cmd + " --db " + shell_quote(pg));
    ASSERT_EQ(ra.code, 0) << cmd << ": " << ra.err;
    ASSERT_EQ(rb.code, 0) << cmd << ": " << rb.err;
    EXPECT_TRUE(without_times(ra.out) == without_times(rb.out)) << cmd << " differs";
  }
  auto forgot = run(errdex_cmd() + " forget python/cpython --db " + shell_quote(pg));
  ASSERT_EQ(forgot.code, 0) << forgot.err;
  auto gone = run(errdex_cmd() + " show " + id + " --db " + shell_quote(pg));
  EXPECT_EQ(gone.code, 1) << gone.err;
}

// Unreachable servers and bad URLs: exit 2 with a message, at once.
TEST(PostgresEndToEnd, UnreachableStoreIsAnErrorExit) {
  for (const char* cmd : {"migrate", "stats", "search x", "export"}) {
    auto r = run(errdex_cmd() + " " + cmd + " --db 'postgresql://errdex:secret@127.0.0.1:1/errdex'");
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_NE(r.err.find("cannot connect to postgresql://errdex:***@127.0.0.1:1/errdex"), std::string::npos)
        << cmd << ": " << r.err;
  }
  // A password holding an unencoded '@' or '/': the URL showed its part
  // after the first '@' ("errdex:***@cret@…"), and libpq's message the host
  // it read out of it ("cret@127.0.0.1"), or the port ("se").
  for (const char* url : {"postgresql://errdex:se@cret@127.0.0.1:1/errdex", "postgresql://errdex:se/cret@127.0.0.1:1/errdex"}) {
    auto r = run(errdex_cmd() + " stats --db " + shell_quote(url));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("postgresql://errdex:***@127.0.0.1:1/errdex"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("cret"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("\"se"), std::string::npos) << r.err;
  }
  auto help = run(errdex_cmd() + " migrate --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--db"), std::string::npos);
}

}  // namespace
}  // namespace errdex
