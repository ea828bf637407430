// Issue 29's "how users get there" on the machine's standard library,
// scanned as `make run` does: the share of records in public modules with
// an entry point, known chains, and the chains checked against Python
// itself (tests/e2e/check_entry_points.py: each step defined where it is
// named and calling the next; real calls with bad input raising through
// the chain).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "support/process.h"

namespace errdex {
namespace {

using testing::run;
using testing::shell_quote;
using testing::TempDir;

// No component of the module's path starts with `_` (`__init__` aside).
bool public_module(std::string path) {
  if (path.starts_with("Lib/")) path = path.substr(4);
  if (path.ends_with("/__init__.py")) path.resize(path.size() - 12);
  std::istringstream parts(path);
  for (std::string part; std::getline(parts, part, '/');)
    if (part.starts_with('_')) return false;
  return true;
}

TEST(EntryPoints, StandardLibraryRecordsReachPublicFunctions) {
  const std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());
  TempDir data;
  auto r = testing::scan_and_export_stdlib(stdlib, data.path());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string exported = r.out;

  std::size_t in_public = 0, with_entry = 0;
  bool json_chain = false;
  std::istringstream lines(testing::read_file(exported));
  for (std::string line; std::getline(lines, line);) {
    auto rec = nlohmann::json::parse(line)["record"];
    const std::string path = rec["filePath"];
    if (!public_module(path)) continue;
    ++in_public;
    if (!rec.contains("evidence") || !rec["evidence"].contains("entryPoints")) continue;
    const auto& eps = rec["evidence"]["entryPoints"];
    with_entry += !eps.empty();
    EXPECT_LE(eps.size(), 3u);
    for (const auto& ep : eps) {
      ASSERT_FALSE(ep["chain"].empty());
      EXPECT_EQ(ep["name"], ep["chain"][0]);
      // A chain has no loop.
      std::set<std::string> steps;
      for (const auto& s : ep["chain"]) EXPECT_TRUE(steps.insert(s.get<std::string>()).second) << ep.dump();
      if (path == "Lib/json/decoder.py" && rec["errorClass"] == "JSONDecodeError" && ep["name"] == "json.loads" &&
          ep["chain"] == nlohmann::json{"json.loads", "json.decoder.JSONDecoder.decode",
                                        "json.decoder.JSONDecoder.raw_decode"})
        json_chain = true;
    }
  }
  ASSERT_GT(in_public, 3000u);
  const double share = static_cast<double>(with_entry) / static_cast<double>(in_public);
  std::cout << "records in public modules with an entry point: " << with_entry << " of " << in_public << " ("
            << share << ")\n";
  EXPECT_GE(share, 0.80);
  EXPECT_TRUE(json_chain) << "json.loads -> JSONDecoder.decode -> raw_decode (raises JSONDecodeError)";

  const auto report = (data / "check.json").string();
  r = run("timeout 600 python3 " + shell_quote(std::string(ERRDEX_SOURCE_DIR) + "/tests/e2e/check_entry_points.py") +
          " " + shell_quote(exported) + " " + shell_quote(stdlib) + " Lib " + shell_quote(report));
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(testing::read_file(report));
  const double chains = j["chains"].get<double>();
  ASSERT_GT(chains, 1000);
  std::cout << "chains whose steps are defined and call each other: " << j["chainsLinked"] << " of " << chains
            << "; real calls raising through a listed chain: " << j["casesOk"] << " of " << j["cases"].size() << "\n";
  EXPECT_EQ(j["stepsFound"], j["steps"]) << j["badChains"].dump(1);
  // Residue: calls through an alias (`from base64 import encodebytes as
  // _bencode`) or an inherited constructor, which the checker's plain
  // name match does not see.
  EXPECT_GE(j["chainsLinked"].get<double>(), 0.97 * chains) << j["badChains"].dump(1);
  EXPECT_GE(j["casesOk"].get<double>(), 0.8 * static_cast<double>(j["cases"].size())) << j["cases"].dump(1);
}

// Entry points depend on other files: a record reused from the records
// cache (its file unchanged) still gets the caller another file gained.
TEST(EntryPoints, ReusedRecordsFollowCallersInOtherFiles) {
  TempDir tree, data;
  testing::write_file(tree / "pkg/__init__.py", "");
  testing::write_file(tree / "pkg/core.py",
                      "def _check(v):\n    if v < 0:\n        raise ValueError('negative')\n    return v\n");
  testing::write_file(tree / "pkg/api.py", "from pkg.core import _check\ndef first(v):\n    return _check(v)\n");
  const std::string db = "sqlite:" + (data / "s.db").string();
  auto entry_names = [&]() {
    auto r = run(testing::errdex_cmd() + " scan " + shell_quote(tree.str()) + " --repo o/pkg -q --json --db " +
                 shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
    auto summary = nlohmann::json::parse(r.out, nullptr, false);
    r = run(testing::errdex_cmd() + " export --db " + shell_quote(db));
    EXPECT_EQ(r.code, 0) << r.err;
    std::vector<std::string> names;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      auto rec = nlohmann::json::parse(line)["record"];
      if (rec["filePath"] != "pkg/core.py" || !rec.contains("evidence")) continue;
      for (const auto& ep : rec["evidence"]["entryPoints"]) names.push_back(ep["name"]);
    }
    return std::pair(names, summary.is_discarded() ? 0 : summary.value("reusedFiles", 0));
  };
  auto [before, reused_before] = entry_names();
  EXPECT_EQ(before, std::vector<std::string>{"pkg.api.first"});
  testing::write_file(tree / "pkg/api.py",
                      "from pkg.core import _check\ndef first(v):\n    return _check(v)\n"
                      "def second(v):\n    return first(v)\n");
  auto [after, reused_after] = entry_names();
  EXPECT_EQ(reused_after, 1) << "pkg/core.py's records come from the cache";
  EXPECT_EQ(after, (std::vector<std::string>{"pkg.api.first", "pkg.api.second"}));
}

}  // namespace
}  // namespace errdex
