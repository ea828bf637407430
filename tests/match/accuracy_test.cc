// Real errors against the real index: python3 raises them from its own
// standard library at test time (tests/match/stdlib_cases.py), errdex scans
// that same standard library, and the matcher must name the raise site.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "match/matcher.h"
#include "store/store.h"
#include "support/process.h"

namespace errdex {
namespace {

using testing::run;
using testing::shell_quote;

struct Case {
  int id = 0;
  std::string code, traceback, last, file;
  int line = 0;
};

enum class Verdict { right, ambiguous, wrong };

struct Tally {
  int right = 0, ambiguous = 0, wrong = 0;
  std::vector<std::string> misses, ties;
  int total() const { return right + ambiguous + wrong; }
  // Top-1 over the cases the matcher decided: a tie that holds the true
  // site is neither right nor wrong and is reported on its own.
  double top1() const { return right + wrong ? 100.0 * right / (right + wrong) : 0; }
  double strict() const { return total() ? 100.0 * right / total() : 0; }
};

class StdlibAccuracy : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_tmp = new testing::TempDir;
    std::string stdlib = testing::python_stdlib();
    ASSERT_FALSE(stdlib.empty());
    std::string script = std::string(ERRDEX_SOURCE_DIR) + "/tests/match/stdlib_cases.py";
    auto py = run("python3 " + shell_quote(script) + " " + shell_quote(stdlib) + " " +
                  shell_quote((*s_tmp / "work").string()) + " </dev/null");
    ASSERT_EQ(py.code, 0) << py.err;
    std::istringstream in(py.out);
    for (std::string line; std::getline(in, line);) {
      auto j = nlohmann::json::parse(line);
      s_cases.push_back({j["case"], j["code"], j["traceback"], j["last"], j["file"], j["line"]});
    }
    std::printf("%s", py.err.substr(py.err.rfind("kept")).c_str());

    std::string db = "sqlite:" + (*s_tmp / "stdlib.db").string();
    auto scan = run(testing::errdex_cmd() + " scan " + shell_quote(stdlib) +
                    " --repo python/cpython --ref v3.11.7 -q --db " + shell_quote(db));
    ASSERT_EQ(scan.code, 0) << scan.err;
    auto st = store::open_store(db);
    ASSERT_TRUE(st) << st.error();
    auto lines = (*st)->list(std::nullopt);
    ASSERT_TRUE(lines) << lines.error();
    for (auto& l : *lines) s_records.push_back(std::move(l.record));
    s_matcher = new match::Matcher(match::Matcher::build(s_records));
  }
  static void TearDownTestSuite() {
    delete s_matcher;
    delete s_tmp;
  }

  static Verdict judge(const match::MatchResult& r, const Case& c) {
    auto is_true = [&](const match::Candidate& k) {
      const auto& rec = s_records[k.index];
      return rec.file_path == c.file && rec.line_number == c.line;
    };
    if (r.candidates.empty()) return Verdict::wrong;
    if (!r.ambiguous) return is_true(r.candidates.front()) ? Verdict::right : Verdict::wrong;
    double best = r.candidates.front().score;
    for (const auto& k : r.candidates)
      if (k.score == best && is_true(k)) return Verdict::ambiguous;
    return Verdict::wrong;
  }

  static void count(Tally& t, const match::MatchResult& r, const Case& c, const std::string& input) {
    switch (judge(r, c)) {
      case Verdict::right: ++t.right; break;
      case Verdict::ambiguous: {
        ++t.ambiguous;
        std::size_t n = 0;
        for (const auto& k : r.candidates) n += k.score == r.candidates.front().score;
        t.ties.push_back("case " + std::to_string(c.id) + " " + c.file + ":" + std::to_string(c.line) + " tied with " +
                         std::to_string(n - 1) + " other site(s) for " + nlohmann::json(input.substr(0, 120)).dump());
        break;
      }
      case Verdict::wrong: {
        ++t.wrong;
        std::string got = r.candidates.empty() ? "nothing"
                                               : s_records[r.candidates.front().index].file_path + ":" +
                                                     std::to_string(s_records[r.candidates.front().index].line_number);
        t.misses.push_back("case " + std::to_string(c.id) + " want " + c.file + ":" + std::to_string(c.line) +
                           " got " + got + (r.ambiguous ? " (tie)" : "") + " for " +
                           nlohmann::json(input.substr(0, 160)).dump());
      }
    }
  }

  static void report(const char* what, const Tally& t) {
    std::printf("%s: top-1 %.2f%% (%d right, %d wrong; %d ambiguous ties holding the true site, reported apart; "
                "strict right/all %.2f%%)\n",
                what, t.top1(), t.right, t.wrong, t.ambiguous, t.strict());
    for (const auto& m : t.misses) std::printf("  miss %s\n", m.c_str());
    for (const auto& m : t.ties) std::printf("  tie %s\n", m.c_str());
  }

  static testing::TempDir* s_tmp;
  static std::vector<Case> s_cases;
  static std::vector<model::ErrorRecord> s_records;
  static match::Matcher* s_matcher;
};

testing::TempDir* StdlibAccuracy::s_tmp = nullptr;
std::vector<Case> StdlibAccuracy::s_cases;
std::vector<model::ErrorRecord> StdlibAccuracy::s_records;
match::Matcher* StdlibAccuracy::s_matcher = nullptr;

TEST_F(StdlibAccuracy, TracebackAndMessageOnly) {
  ASSERT_GE(s_cases.size(), 200u) << "too few real errors from the standard library";
  Tally with_tb, last_only;
  for (const auto& c : s_cases) {
    count(with_tb, s_matcher->match(c.traceback, 5), c, c.traceback);
    count(last_only, s_matcher->match(c.last, 5), c, c.last);
  }
  std::printf("%zu real errors, %zu records\n", s_cases.size(), s_records.size());
  report("with traceback", with_tb);
  report("message only", last_only);
  EXPECT_GE(with_tb.top1(), 99.0);
  EXPECT_GE(last_only.top1(), 95.0);
}

// A traceback from an installed copy names the same files under another
// root; the answers must not change.
TEST_F(StdlibAccuracy, VirtualenvPathsGiveTheSameAnswers) {
  std::string stdlib = testing::python_stdlib();
  int same = 0, compared = 0;
  std::vector<std::string> differ;
  for (const auto& c : s_cases) {
    std::string moved = c.traceback;
    for (auto at = moved.find(stdlib); at != std::string::npos; at = moved.find(stdlib, at))
      moved.replace(at, stdlib.size(), "/home/dev/project/.venv/lib/python3.11/site-packages");
    auto a = s_matcher->match(c.traceback, 1), b = s_matcher->match(moved, 1);
    ++compared;
    bool equal = a.candidates.size() == b.candidates.size() && a.ambiguous == b.ambiguous;
    for (std::size_t i = 0; equal && i < a.candidates.size(); ++i) equal = a.candidates[i].index == b.candidates[i].index;
    if (equal) ++same;
    else differ.push_back("case " + std::to_string(c.id));
  }
  std::printf("virtualenv paths: %d/%d cases give the same answers\n", same, compared);
  for (const auto& d : differ) std::printf("  differs %s\n", d.c_str());
  EXPECT_EQ(same, compared);
}

}  // namespace
}  // namespace errdex
