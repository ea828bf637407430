// errdex against Python's own ast module on the machine's standard library,
// in the same run: which raise statements each finds, and the message
// templates of literal-built messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "analyze/analyst.h"
#include "scan/python/frontend.h"
#include "source/source_tree.h"
#include "support/process.h"

namespace errdex {
namespace {

using testing::run;
using testing::shell_quote;

struct Site {
  std::string cls;
  std::optional<std::string> tmpl;
  // errdex's other texts for the site: where the class prints its own
  // message, the record's message is that and the raise's argument is
  // one of these.
  std::vector<std::string> variants = {};
};
using Key = std::pair<std::string, int>;  // path, line

TEST(StdlibAgainstAst, RaiseSitesAndTemplatesAgree) {
  std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());

  // Python's view.
  auto py = run("python3 " + shell_quote(std::string(ERRDEX_SOURCE_DIR) + "/tests/e2e/ast_sites.py") + " " +
                shell_quote(stdlib));
  ASSERT_EQ(py.code, 0) << py.err;
  std::map<Key, Site> ast_sites;
  std::set<std::string> unparsable;
  std::istringstream in(py.out);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line);
    if (j.contains("unparsable")) {
      unparsable.insert(j["path"]);
      continue;
    }
    Site s;
    s.cls = j["cls"].is_null() ? "" : j["cls"].get<std::string>();
    if (!j["template"].is_null()) s.tmpl = j["template"].get<std::string>();
    ast_sites[{j["path"], j["line"]}] = s;
  }
  ASSERT_GT(ast_sites.size(), 1000u) << "the standard library should hold thousands of raises";

  // errdex's view, through the same source and scan stages as `errdex scan`.
  auto tree = source::open_tree(stdlib, std::nullopt, {});
  ASSERT_TRUE(tree) << tree.error();
  std::vector<source::Skip> skipped;
  std::map<Key, Site> ours;
  for (const auto& e : (*tree)->list(skipped)) {
    if (unparsable.count(e.path)) continue;
    auto content = (*tree)->read(e);
    if (!content || source::content_problem(*content, {})) continue;
    auto facts = scan::scan_python(*content);
    analyze::FileContext ctx{"python/cpython", e.path, std::string(40, '0'), "", "2026-01-01T00:00:00.000Z", *content};
    auto records = analyze::analyze_file(ctx, facts.sites);
    for (std::size_t i = 0; i < facts.sites.size(); ++i) {
      if (facts.sites[i].kind != "raise") continue;
      Site site{records[i].error_class, records[i].error_message};
      for (const auto& v : records[i].message_variants) site.variants.push_back(v.error_message);
      ours[{e.path, facts.sites[i].line}] = std::move(site);
    }
  }

  std::vector<std::string> missed, extra, wrong_template;
  std::size_t compared = 0;
  for (const auto& [k, s] : ast_sites) {
    auto it = ours.find(k);
    if (it == ours.end()) {
      missed.push_back(k.first + ":" + std::to_string(k.second));
      continue;
    }
    if (s.tmpl) {
      ++compared;
      const auto& variants = it->second.variants;
      if (it->second.tmpl != s.tmpl && std::find(variants.begin(), variants.end(), *s.tmpl) == variants.end())
        wrong_template.push_back(k.first + ":" + std::to_string(k.second) + " ast=" + nlohmann::json(*s.tmpl).dump() +
                                 " errdex=" + nlohmann::json(it->second.tmpl.value_or("")).dump());
    }
  }
  for (const auto& [k, s] : ours)
    if (!ast_sites.count(k)) extra.push_back(k.first + ":" + std::to_string(k.second));

  double recall = 1.0 - static_cast<double>(missed.size()) / ast_sites.size();
  double precision = 1.0 - static_cast<double>(extra.size()) / ours.size();
  double tmpl_agree = compared ? 1.0 - static_cast<double>(wrong_template.size()) / compared : 0;
  std::printf("ast raises %zu, errdex raises %zu; found %.3f%% of ast's, %.3f%% of errdex's are ast's; "
              "templates agree on %zu/%zu (%.3f%%); %zu files ast cannot parse left out\n",
              ast_sites.size(), ours.size(), 100 * recall, 100 * precision, compared - wrong_template.size(), compared,
              100 * tmpl_agree, unparsable.size());
  for (const auto& m : missed) std::printf("  missed %s\n", m.c_str());
  for (const auto& m : extra) std::printf("  extra %s\n", m.c_str());
  for (const auto& m : wrong_template) std::printf("  template %s\n", m.c_str());
  EXPECT_GE(recall, 0.995);
  EXPECT_GE(precision, 0.995);
  EXPECT_GE(tmpl_agree, 0.995);
}

}  // namespace
}  // namespace errdex
