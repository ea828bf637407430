// The real binary: code fields of the whole standard library parse as
// Python (checked here with tree-sitter directly, not through errdex's own
// checker), `errdex lint` in its three formats, and seed 2's lint.
#include <gtest/gtest.h>
#include <tree_sitter/api.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/process.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex {
namespace {

using nlohmann::json;
using testing::errdex_cmd;
using testing::run;
using testing::shell_quote;
using testing::TempDir;
using testing::write_file;

bool parses(const std::string& code) {
  TSParser* p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_python());
  TSTree* t = ts_parser_parse_string(p, nullptr, code.data(), static_cast<std::uint32_t>(code.size()));
  bool ok = t && !ts_node_has_error(ts_tree_root_node(t));
  ts_tree_delete(t);
  ts_parser_delete(p);
  return ok;
}

std::vector<json> export_records(const std::string& db) {
  auto r = run(errdex_cmd() + " export --db " + shell_quote(db));
  std::vector<json> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line)["record"]);
  return out;
}

TEST(CliAnalysis, EveryCodeFieldOfTheStdlibScanParses) {
  std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());
  TempDir data;
  std::string db = "sqlite:" + (data / "s.db").string();
  auto r = run(errdex_cmd() + " scan " + shell_quote(stdlib) + " --repo python/cpython -q -j 2 --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  auto records = export_records(db);
  ASSERT_GT(records.size(), 5000u);
  std::map<std::string, std::size_t> have, good;
  std::size_t shown = 0;
  for (const auto& rec : records) {
    EXPECT_EQ(rec["schemaVersion"], 3);
    for (const char* f : {"validationCode", "typeGuard", "tryCatchPattern", "exampleFix"}) {
      if (rec[f].is_null()) continue;
      ++have[f];
      std::string code = rec[f];
      if (parses(code)) ++good[f];
      else if (shown++ < 5) ADD_FAILURE() << f << " of " << rec["filePath"] << ":" << rec["lineNumber"] << " does not parse:\n" << code;
    }
  }
  for (const char* f : {"validationCode", "typeGuard", "tryCatchPattern", "exampleFix"}) {
    EXPECT_EQ(good[f], have[f]) << f;
    std::printf("%-16s present in %6zu of %zu records (%.1f %%), parses in %zu (%.1f %%)\n", f, have[f], records.size(),
                100.0 * have[f] / records.size(), good[f], have[f] ? 100.0 * good[f] / have[f] : 100.0);
  }
  EXPECT_EQ(have["exampleFix"], records.size());
  EXPECT_EQ(have["tryCatchPattern"], records.size());
  r = run(errdex_cmd() + " stats --db " + shell_quote(db));
  EXPECT_EQ(r.code, 0);
  std::printf("%s", r.out.c_str());
}

const char* k_module = R"(class Grid:
    def reshape(self, rows, cols):
        if rows * cols != len(self.cells):
            raise ValueError(f"`rows` times `cols` must be {len(self.cells)}, got {len(self.items)}")
        if rows <= 0:
            raise ValueError("rows must be positive")
        if cols <= 0:
            raise ValueError("invalid")


def check(x):
    if x < 0:
        raise ValueError("rows must be positive")
)";

TEST(CliAnalysis, LintFormatsAndExitCodes) {
  TempDir repo;
  write_file(repo / "grid.py", k_module);
  auto r = run(errdex_cmd() + " lint " + shell_quote(repo.str()) + " --format json");
  EXPECT_EQ(r.code, 1) << r.err;
  auto findings = json::parse(r.out);
  std::map<std::string, int> rules;
  for (const auto& f : findings) rules[f["rule"]]++;
  EXPECT_EQ(rules["duplicate-message"], 2);     // lines 6 and 13
  EXPECT_EQ(rules["terse-message"], 1);         // "invalid"
  EXPECT_EQ(rules["guard-value-not-shown"], 3);  // rows, cols, x are tested, never shown
  EXPECT_EQ(rules["misleading-interpolation"], 0);

  r = run(errdex_cmd() + " lint " + shell_quote(repo.str()) + " --format sarif");
  EXPECT_EQ(r.code, 1);
  auto sarif = json::parse(r.out);
  EXPECT_EQ(sarif["version"], "2.1.0");
  EXPECT_EQ(sarif["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  const auto& run0 = sarif["runs"][0];
  EXPECT_EQ(run0["tool"]["driver"]["name"], "errdex");
  ASSERT_EQ(run0["results"].size(), findings.size());
  const auto& res = run0["results"][0];
  EXPECT_TRUE(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "grid.py");
  EXPECT_TRUE(res["locations"][0]["physicalLocation"]["region"]["startLine"].is_number_integer());
  int idx = res["ruleIndex"];
  EXPECT_EQ(run0["tool"]["driver"]["rules"][idx]["id"], res["ruleId"]);

  r = run(errdex_cmd() + " lint " + shell_quote(repo.str()) + " --level warning");
  EXPECT_EQ(r.code, 0) << r.out;  // only notes here
  EXPECT_NE(r.out.find("0 findings"), std::string::npos) << r.out;

  r = run(errdex_cmd() + " lint " + shell_quote((repo / "missing").string()));
  EXPECT_EQ(r.code, 2);
  r = run(errdex_cmd() + " lint " + shell_quote(repo.str()) + " --format xml");
  EXPECT_EQ(r.code, 2);
  r = run(errdex_cmd() + " lint --help");
  EXPECT_EQ(r.code, 0);
}

TEST(CliAnalysis, LintsAreStoredOnTheRecordAndShownWithIt) {
  TempDir repo, data;
  write_file(repo / "grid.py", k_module);
  std::string db = "sqlite:" + (data / "g.db").string();
  auto r = run(errdex_cmd() + " scan " + shell_quote(repo.str()) + " --repo acme/grid -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  auto recs = export_records(db);
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[2]["lints"][0]["rule"], "guard-value-not-shown");
  EXPECT_EQ(recs[0]["analysis"]["analyst"], "static");
  // The export of a v3 record imports and exports byte for byte the same.
  auto exported = run(errdex_cmd() + " export --db " + shell_quote(db));
  write_file(data / "out.jsonl", exported.out);
  std::string db2 = "sqlite:" + (data / "g2.db").string();
  r = run(errdex_cmd() + " import " + shell_quote((data / "out.jsonl").string()) + " --db " + shell_quote(db2));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(run(errdex_cmd() + " export --db " + shell_quote(db2)).out, exported.out);
}

constexpr const char* k_sha = testing::k_transformers_sha;

TEST(CliAnalysis, LintFlagsSeedTwoInTransformers) {
  std::string git_dir = testing::transformers_git();
  if (git_dir.empty())
    GTEST_SKIP() << "no repository with transformers@a597f974 (set TRANSFORMERS_GIT)";
  TempDir tree;
  auto r = run("git --git-dir=" + shell_quote(git_dir) + " archive " + k_sha +
               " src/transformers/cache_utils.py | tar -x -C " + shell_quote(tree.str()));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run(errdex_cmd() + " lint " + shell_quote((tree / "src").string()) +
          " --repo huggingface/transformers --prefix src --level warning --format json");
  EXPECT_EQ(r.code, 1) << r.err;
  auto findings = json::parse(r.out);
  ASSERT_EQ(findings.size(), 1u) << r.out;
  EXPECT_EQ(findings[0]["file"], "src/transformers/cache_utils.py");
  EXPECT_EQ(findings[0]["line"], 1471);
  EXPECT_EQ(findings[0]["rule"], "misleading-interpolation");
  EXPECT_EQ(findings[0]["message"],
            "The message shows `len(num_heads)`, but the check is `len(head_dim) != len(self.layers)` on `head_dim`, "
            "which the message text names: it probably meant `len(head_dim)`.");
}

}  // namespace
}  // namespace errdex
