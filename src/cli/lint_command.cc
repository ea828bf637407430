// errdex lint: the scan pipeline without the store; prints each record's
// lints as text, JSON or SARIF 2.1.0.
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "analyze/lints.h"
#include "cli/commands.h"
#include "cli/scan_pipeline.h"

namespace errdex::cli {
namespace {

using nlohmann::ordered_json;

struct Finding {
  const model::ErrorRecord* record;
  const model::Lint* lint;
};

struct RuleInfo {
  const char* id;
  const char* level;
  const char* summary;
};

// Every rule, in SARIF's rules array order (ruleIndex refers to it).
const std::vector<RuleInfo>& rules() {
  static const std::vector<RuleInfo> k = {
      {analyze::k_rule_misleading, "warning",
       "The message interpolates a name the guard does not test while its text names one the guard does test."},
      {analyze::k_rule_duplicate, "note",
       "The same class and message are raised from several places of the repository; users cannot tell them apart."},
      {analyze::k_rule_unshown, "note", "The guard tests an argument whose value the message does not show."},
      {analyze::k_rule_terse, "note", "The message is empty or one word."},
  };
  return k;
}

int rule_index(const std::string& id) {
  for (std::size_t i = 0; i < rules().size(); ++i)
    if (id == rules()[i].id) return static_cast<int>(i);
  return -1;
}

std::string dump(const ordered_json& j) { return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace); }

ordered_json sarif(const std::vector<Finding>& findings, const PipelineOutput& out) {
  ordered_json rule_list = ordered_json::array();
  for (const auto& r : rules())
    rule_list.push_back({{"id", r.id},
                         {"shortDescription", {{"text", r.summary}}},
                         {"defaultConfiguration", {{"level", r.level}}}});
  ordered_json results = ordered_json::array();
  for (const auto& f : findings) {
    ordered_json res;
    res["ruleId"] = f.lint->rule;
    if (int i = rule_index(f.lint->rule); i >= 0) res["ruleIndex"] = i;
    res["level"] = f.lint->level;
    res["message"] = {{"text", f.lint->message}};
    res["locations"] = ordered_json::array(
        {{{"physicalLocation",
           {{"artifactLocation", {{"uri", f.record->file_path}, {"uriBaseId", "%SRCROOT%"}}},
            {"region", {{"startLine", f.record->line_number}}}}}}});
    res["partialFingerprints"] = {{"errdexRecordId/v1", f.record->id}};
    res["properties"] = {{"errorClass", f.record->error_class}, {"errorMessage", f.record->error_message}};
    results.push_back(std::move(res));
  }
  ordered_json run;
  run["tool"] = {{"driver",
                  {{"name", "errdex"},
                   {"rules", rule_list}}}};
  run["originalUriBaseIds"] = {{"%SRCROOT%", {{"description", {{"text", "The root of " + out.repo}}}}}};
  if (out.sha != std::string(40, '0'))
    run["versionControlProvenance"] = ordered_json::array(
        {{{"repositoryUri", "https://github.com/" + out.repo}, {"revisionId", out.sha}}});
  run["results"] = std::move(results);
  ordered_json doc;
  doc["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  doc["version"] = "2.1.0";
  doc["runs"] = ordered_json::array({run});
  return doc;
}

}  // namespace

int run_lint(const LintArgs& a) {
  if (a.format != "text" && a.format != "json" && a.format != "sarif") {
    std::cerr << "errdex lint: --format must be text, json or sarif, got '" << a.format << "'\n";
    return 2;
  }
  PipelineInput in;
  in.path = a.path;
  in.rev = a.rev;
  in.repo = a.repo;
  in.prefix = a.prefix;
  in.jobs = a.jobs;
  in.progress = a.format == "text";
  in.include_tests = a.include_tests;
  in.evidence = false;  // lints read no tests
  auto run = run_pipeline(in);
  if (!run) {
    std::cerr << "errdex lint: " << run.error() << "\n";
    return 2;
  }
  std::vector<Finding> findings;
  for (const auto& r : run->records)
    for (const auto& l : r.lints)
      if (a.level == "note" || l.level == "warning") findings.push_back({&r, &l});

  if (a.format == "sarif") {
    std::cout << dump(sarif(findings, *run)) << "\n";
  } else if (a.format == "json") {
    ordered_json arr = ordered_json::array();
    for (const auto& f : findings)
      arr.push_back({{"file", f.record->file_path},
                     {"line", f.record->line_number},
                     {"rule", f.lint->rule},
                     {"level", f.lint->level},
                     {"message", f.lint->message},
                     {"id", f.record->id},
                     {"errorClass", f.record->error_class},
                     {"errorMessage", f.record->error_message}});
    std::cout << dump(arr) << "\n";
  } else {
    std::map<std::string, std::size_t> by_rule;
    for (const auto& f : findings) {
      std::printf("%s:%d: %s [%s] %s\n", f.record->file_path.c_str(), f.record->line_number, f.lint->level.c_str(),
                  f.lint->rule.c_str(), f.lint->message.c_str());
      by_rule[f.lint->rule]++;
    }
    std::printf("%zu findings in %zu records of %zu files", findings.size(), run->records.size(), run->files);
    for (const auto& [rule, n] : by_rule) std::printf("; %s %zu", rule.c_str(), n);
    std::printf("\n");
  }
  std::cout.flush();
  return findings.empty() ? 0 : 1;
}

}  // namespace errdex::cli
