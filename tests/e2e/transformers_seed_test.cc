// The two published seed records of huggingface/transformers at a597f974,
// reproduced by errdex from the same file. Needs a git repository holding
// that commit (the GitHub fork zucchini-nlp/transformers has it): set
// TRANSFORMERS_GIT to its git directory. Its code is never committed here;
// the seed's source excerpt is compared by hash.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "support/process.h"
#include "util/text.h"

namespace errdex {
namespace {

using nlohmann::json;
using testing::errdex_cmd;
using testing::run;
using testing::shell_quote;
using testing::TempDir;

constexpr const char* k_sha = testing::k_transformers_sha;
using testing::transformers_git;

TEST(TransformersSeeds, BothSeedRecordsComeOutAsPublished) {
  std::string git_dir = transformers_git();
  if (git_dir.empty()) GTEST_SKIP() << "no repository with transformers@a597f974 (set TRANSFORMERS_GIT)";
  TempDir tree, data;
  auto r = run("git --git-dir=" + shell_quote(git_dir) + " archive " + k_sha +
               " src/transformers/cache_utils.py | tar -x -C " + shell_quote(tree.str()));
  ASSERT_EQ(r.code, 0) << r.err;
  std::string db = "sqlite:" + (data / "t.db").string();
  r = run(errdex_cmd() + " scan " + shell_quote((tree / "src").string()) +
          " --repo huggingface/transformers --prefix src --sha " + k_sha + " -q --db " + shell_quote(db));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run(errdex_cmd() + " export --db " + shell_quote(db));
  std::map<int, json> by_line;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    auto rec = json::parse(line)["record"];
    by_line[rec["lineNumber"].get<int>()] = rec;
  }

  // Seed 1: ../shared/seeds/record.json.
  ASSERT_TRUE(by_line.count(1641));
  const json& s1 = by_line[1641];
  EXPECT_EQ(s1["filePath"], "src/transformers/cache_utils.py");
  EXPECT_EQ(s1["errorClass"], "ValueError");
  EXPECT_EQ(s1["errorMessage"], "The batch size is not consistent across layers: {values}");
  EXPECT_EQ(s1["messagePattern"], "The batch size is not consistent across layers: (.+?)");
  EXPECT_EQ(s1["slug"], "the-batch-size-is-not-consistent-across-layers-v");
  EXPECT_EQ(s1["sourceCodeStart"], 1623);
  EXPECT_EQ(s1["sourceCodeEnd"], 1659);
  EXPECT_EQ(s1["githubUrl"],
            "https://github.com/huggingface/transformers/blob/a597f974857b3d92939971296bc0deb93d33d780/"
            "src/transformers/cache_utils.py#L1623-L1659");
  std::string code = s1["sourceCode"];
  EXPECT_EQ(code.size(), 1828u);  // bytes: the excerpt holds one "—"
  EXPECT_EQ(util::hex64(util::fnv1a64(code)), "5ad6382332190e3c");

  // Seed 2: ../shared/seeds/page.txt.
  ASSERT_TRUE(by_line.count(1471));
  const json& s2 = by_line[1471];
  EXPECT_EQ(s2["errorClass"], "ValueError");
  EXPECT_EQ(s2["errorMessage"],
            "`head_dim` was provided as a list of length {len(num_heads)}, but the Cache currently has "
            "{len(self.layers)} layers");
  EXPECT_EQ(s2["messagePattern"],
            "`head_dim` was provided as a list of length (.+?), but the Cache currently has (.+?) layers");
  EXPECT_EQ(s2["slug"], "head-dim-was-provided-as-a-list-of-length-len-nu");
  EXPECT_EQ(s2["sourceCodeStart"], 1453);
  EXPECT_EQ(s2["sourceCodeEnd"], 1489);
  EXPECT_EQ(s2["githubUrl"],
            "https://github.com/huggingface/transformers/blob/a597f974857b3d92939971296bc0deb93d33d780/"
            "src/transformers/cache_utils.py#L1453-L1489");
  std::printf("seed 1: %s %s:%d\nseed 2: %s %s:%d\n", s1["id"].get<std::string>().c_str(),
              s1["filePath"].get<std::string>().c_str(), s1["lineNumber"].get<int>(), s2["id"].get<std::string>().c_str(),
              s2["filePath"].get<std::string>().c_str(), s2["lineNumber"].get<int>());
}

}  // namespace
}  // namespace errdex
