// The JavaScript frontend against a reference parser on real code: every
// `throw` statement @babel/parser finds in real npm packages (pinned as
// devDependencies, installed by `npm ci`) is a site at the same line, and
// no `throw` line is a site babel does not know.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "scan/frontend.h"
#include "support/process.h"

namespace errdex::scan {
namespace {

using testing::read_file;
using testing::run;
using testing::shell_quote;

std::string_view line_text(std::string_view src, int line) {
  std::size_t pos = 0;
  for (int l = 1; l < line && pos != std::string_view::npos; ++l) {
    pos = src.find('\n', pos);
    if (pos != std::string_view::npos) ++pos;
  }
  if (pos == std::string_view::npos) return {};
  auto end = src.find('\n', pos);
  std::string_view t = src.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  return t;
}

struct Counts {
  std::size_t throws = 0, found = 0, files = 0;
};

// Every `throw` statement babel finds under `dir` must be a site, and a
// site on a line starting with `throw` must be one babel sees.
void check_against_babel(const std::string& dir, const std::string& label, Counts& n) {
  const std::string modules = std::string(ERRDEX_SOURCE_DIR) + "/node_modules";
  const std::string script = std::string(ERRDEX_SOURCE_DIR) + "/tests/scan/babel_throws.js";
  ASSERT_TRUE(std::filesystem::exists(dir)) << dir << ": run npm ci (scripts/deps.sh)";
  auto r = run("node " + shell_quote(script) + " " + shell_quote(modules) + " " + shell_quote(dir));
  ASSERT_EQ(r.code, 0) << r.err;
  auto ref = nlohmann::json::parse(r.out);
  EXPECT_TRUE(ref["unparsed"].empty()) << label;
  for (auto& [rel, lines] : ref.items()) {
    if (rel == "unparsed") continue;
    const std::string src = read_file(dir + "/" + rel);
    const Frontend* fe = frontend_for(rel);
    ASSERT_NE(fe, nullptr) << rel;
    auto facts = fe->scan(src);
    ++n.files;
    std::set<int> site_lines, want;
    for (const auto& s : facts.sites) site_lines.insert(s.line);
    for (int l : lines.get<std::vector<int>>()) {
      want.insert(l);
      ++n.throws;
      if (site_lines.count(l)) ++n.found;
      else ADD_FAILURE() << label << "/" << rel << ":" << l << " not found: " << line_text(src, l);
    }
    for (const auto& s : facts.sites)
      if (line_text(src, s.line).starts_with("throw ") && !want.count(s.line))
        ADD_FAILURE() << label << "/" << rel << ":" << s.line << " is no throw statement to babel";
  }
}

TEST(JavaScriptReference, EveryThrowStatementOfRealPackagesIsASite) {
  const std::string modules = std::string(ERRDEX_SOURCE_DIR) + "/node_modules";
  Counts n;
  std::size_t packages = 0;
  for (const char* pkg : {"semver", "uuid", "ms", "cookie", "content-type", "path-to-regexp", "statuses", "iconv-lite",
                          "js-yaml", "validator", "bytes", "qs", "minimatch", "@babel/parser"}) {
    check_against_babel(modules + "/" + pkg, pkg, n);
    ++packages;
  }
  std::printf("%zu packages, %zu files with throws: %zu of %zu throw statements found\n", packages, n.files, n.found, n.throws);
  EXPECT_GE(n.throws, 300u);  // the reference read real code
  EXPECT_EQ(n.found, n.throws);
}

TEST(JavaScriptReference, EveryThrowStatementOfTypeScriptAndEveryPinnedPackageIsASite) {
  // rxjs's TypeScript sources as published (src/, 251 .ts files), read by
  // babel's typescript plugin; then every pinned npm package at once (all
  // of node_modules: jest, vitest, the TypeScript compiler's build,
  // 4,300 files), nested node_modules left out as errdex leaves them.
  const std::string modules = std::string(ERRDEX_SOURCE_DIR) + "/node_modules";
  Counts ts, all;
  check_against_babel(modules + "/rxjs/src", "rxjs/src", ts);
  check_against_babel(modules, "node_modules", all);
  std::printf("rxjs/src: %zu files with throws: %zu of %zu throw statements found\n", ts.files, ts.found, ts.throws);
  std::printf("node_modules: %zu files with throws: %zu of %zu throw statements found\n", all.files, all.found, all.throws);
  EXPECT_GE(ts.throws, 40u);
  EXPECT_GE(all.throws, 5000u);
  EXPECT_EQ(ts.found, ts.throws);
  EXPECT_EQ(all.found, all.throws);
}

}  // namespace
}  // namespace errdex::scan
