// Ids, revisions and URLs a user gets wrong on the command line: a
// malformed one is a usage error (exit 2, as the API answers 400), a
// well-formed one that names nothing stored is not found (exit 1, as the
// API's 404).
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "support/process.h"

namespace errdex {
namespace {

using namespace errdex::testing;

// A store holding one repository, acme/cache, at revision v1.
class MalformedArgs : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(m_repo / "cache.py", "def resize(n):\n    if n < 0:\n        raise ValueError(f\"n must be non-negative, got {n}\")\n");
    m_db = " --db " + shell_quote("sqlite:" + (m_data / "s.db").string());
    auto r = run(errdex_cmd() + " scan " + shell_quote(m_repo.str()) + " --repo acme/cache --ref v1 -q" + m_db);
    ASSERT_EQ(r.code, 0) << r.err;
  }
  RunResult errdex(const std::string& args) { return run(errdex_cmd() + " " + args + m_db + " </dev/null"); }

  TempDir m_repo, m_data;
  std::string m_db;
};

TEST_F(MalformedArgs, ShowOfAMalformedIdIsAUsageError) {
  auto r = errdex("show nothex");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("not a record id (16 hex digits): nothex"), std::string::npos) << r.err;
  r = errdex("show 0123456789abcdeg");
  EXPECT_EQ(r.code, 2) << r.err;
  r = errdex("show 0123456789abcdef");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("no record"), std::string::npos) << r.err;
  r = errdex("show nothex --repo acme/cache --ref v1");
  EXPECT_EQ(r.code, 2) << r.err;
}

// An id copied in capitals (a tool or a log that upper-cases hex) was a
// usage error ("not a record id"): it is the same record.
TEST_F(MalformedArgs, AnIdInCapitalsIsTheSameRecord) {
  auto listed = errdex("list");
  ASSERT_EQ(listed.code, 0) << listed.err;
  std::string id = listed.out.substr(0, 16), upper = id;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ASSERT_NE(upper, id);
  for (const std::string cmd : {"show ", "history "}) {
    auto r = errdex(cmd + upper);
    EXPECT_EQ(r.code, 0) << cmd << r.err;
    EXPECT_NE(r.out.find(id), std::string::npos) << r.out;
  }
  EXPECT_EQ(errdex("show 0123456789ABCDEF").code, 1);
}

TEST_F(MalformedArgs, HistoryOfAMalformedIdIsAUsageError) {
  auto r = errdex("history nothex");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("not a record id (16 hex digits): nothex"), std::string::npos) << r.err;
  r = errdex("history 0123456789abcdef");
  EXPECT_EQ(r.code, 1) << r.err;
}

// A revision has no format of its own (a tag, a branch, a sha): one not
// stored is not found; naming one without its repository is a usage error.
TEST_F(MalformedArgs, RevisionNotStoredIsNotFoundAndOneWithoutRepoIsAUsageError) {
  for (const char* cmd : {"show 0123456789abcdef", "list", "search non-negative", "export", "match 'ValueError: x'"}) {
    auto r = errdex(std::string(cmd) + " --ref v1");
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.err;
    r = errdex(std::string(cmd) + " --repo acme/cache --ref v9");
    EXPECT_EQ(r.code, 1) << cmd << ": " << r.err;
  }
  auto r = errdex("diff acme/cache v1 v9");
  EXPECT_EQ(r.code, 1) << r.err;
  r = errdex("forget acme/cache --ref v9");
  EXPECT_EQ(r.code, 1) << r.err;
}

// A revision's name that is empty or holds a blank can name none stored
// (git refuses such names, and scan refuses them for a folder's --ref): a
// usage error wherever a revision is named, and scan stores nothing.
TEST_F(MalformedArgs, AnEmptyOrBlankRevisionNameIsAUsageError) {
  for (const char* ref : {"''", "'v 1'", "' '"}) {
    for (const char* cmd : {"list --repo acme/cache", "export --repo acme/cache", "forget acme/cache",
                            "show 0123456789abcdef --repo acme/cache", "match 'ValueError: x' --repo acme/cache"}) {
      auto r = errdex(std::string(cmd) + " --ref " + ref);
      EXPECT_EQ(r.code, 2) << cmd << " --ref " << ref << ": " << r.err;
      EXPECT_NE(r.err.find("not a revision's name"), std::string::npos) << cmd << ": " << r.err;
    }
    EXPECT_EQ(errdex(std::string("diff acme/cache v1 ") + ref).code, 2) << ref;
    auto r = run(errdex_cmd() + " scan " + shell_quote(m_repo.str()) + " --repo acme/other --ref " + ref + " -q" + m_db);
    EXPECT_EQ(r.code, 2) << ref << ": " << r.err;
  }
  EXPECT_EQ(errdex("list --repo acme/other").code, 1);  // nothing was stored under the bad name
  EXPECT_EQ(errdex("list --repo acme/cache --ref v1").code, 0);
}

// The page links explain and run print were built on any text given as
// --url (or $ERRDEX_URL): `notaurl/errors/…`.
TEST_F(MalformedArgs, ExplainAndRunRefuseAMalformedUrl) {
  auto r = errdex("explain --url notaurl");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("not an http:// or https:// URL"), std::string::npos) << r.err;
  r = run("ERRDEX_URL=ftp://example.com " + errdex_cmd() + " run" + m_db + " -- true");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("ftp://example.com"), std::string::npos) << r.err;
  r = errdex("explain --url https://errdex.example.org/");
  EXPECT_EQ(r.code, 0) << r.err;
  r = run("ERRDEX_URL=http://127.0.0.1:9 " + errdex_cmd() + " run" + m_db + " -- true");
  EXPECT_EQ(r.code, 0) << r.err;
}

// A repository is named owner/name (what scan --repo and import accept):
// any other name is a usage error, not a repository that is not stored,
// as the API answers ?repo= with 400; a well-formed one not stored is not
// found.
TEST_F(MalformedArgs, AMalformedRepositoryNameIsAUsageError) {
  for (const char* cmd : {"list --repo", "search non-negative --repo", "export --repo", "match 'ValueError: x' --repo",
                          "show 0123456789abcdef --ref v1 --repo", "diff", "forget"}) {
    const std::string tail = std::string(cmd).rfind("diff", 0) == 0 ? " v1 v1" : "";
    for (const char* name : {"cache", "acme/cache/v1", "../cache", "'acme cache'"}) {
      auto r = errdex(std::string(cmd) + " " + name + tail);
      EXPECT_EQ(r.code, 2) << cmd << " " << name << ": " << r.err;
      EXPECT_NE(r.err.find("not a repository name (owner/name)"), std::string::npos) << cmd << " " << name << ": " << r.err;
    }
    auto r = errdex(std::string(cmd) + " acme/none" + tail);
    EXPECT_EQ(r.code, 1) << cmd << ": " << r.err;
  }
  EXPECT_EQ(errdex("list --repo acme/cache").code, 0);
}

// A mistyped command was answered "A subcommand is required".
TEST_F(MalformedArgs, AWordThatNamesNoCommandIsSaidSo) {
  auto r = errdex("serach non-negative");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("errdex: no command \"serach\"; the commands are scan, lint, show, list, search,"),
            std::string::npos)
      << r.err;
  r = run(errdex_cmd());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("A subcommand is required"), std::string::npos) << r.err;
  EXPECT_EQ(errdex("search non-negative").code, 0);
}

// An empty query was a search that found nothing (exit 1), where the API
// answers `?q=` with a 400: nothing to look for is a usage error.
TEST_F(MalformedArgs, AnEmptyQueryIsAUsageError) {
  for (const char* q : {"''", "'   '"}) {
    auto r = errdex(std::string("search ") + q);
    EXPECT_EQ(r.code, 2) << q << ": " << r.err;
    EXPECT_NE(r.err.find("give the words to look for"), std::string::npos) << r.err;
  }
  EXPECT_EQ(errdex("search no-such-word-anywhere").code, 1);
}

TEST_F(MalformedArgs, ServeRefusesAMalformedReportUrl) {
  auto r = errdex("serve --listen 127.0.0.1:0 --report-url issues/new");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("not an http:// or https:// URL: issues/new"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace errdex
