// The read side of the CLI: show, list, search, export, stats; and import.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/store_url.h"
#include "model/record_json.h"
#include "model/repo_name.h"
#include "scan/template.h"
#include "util/text.h"

namespace errdex::cli {
namespace {

using nlohmann::json;

std::string dump(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

void print_record(const model::DatasetLine& l) {
  const auto& r = l.record;
  std::printf("%s · %s · %s\n", r.repo.c_str(), r.severity.c_str(), model::shown_class(r.error_class).c_str());
  std::printf("id        %s\n", r.id.c_str());
  std::printf("message   %s\n", r.error_message.c_str());
  std::printf("pattern   %s%s\n", r.message_pattern.c_str(),
              scan::pattern_matches_anything(r.message_pattern)
                  ? "   (matches any message: only frames and class tell this site apart)"
                  : "");
  for (const auto& v : r.message_variants) std::printf("also      %s\n", v.error_message.c_str());
  std::printf("thrown at %s:%d\n", r.file_path.c_str(), r.line_number);
  std::printf("github    %s\n", r.github_url.c_str());
  std::printf("type      %s   strategy %s\n", r.error_type.c_str(), r.handling_strategy.c_str());
  std::printf("\nWhat it means\n  %s\n", r.documentation.c_str());
  std::printf("\nWhen it happens\n  %s\n  %s\n", r.trigger_scenarios.c_str(), r.common_situations.c_str());
  std::printf("\nSolutions\n");
  for (const auto& s : r.solutions) std::printf("  - %s\n", s.c_str());
  if (!r.lints.empty()) {
    std::printf("\nLints\n");
    for (const auto& lint : r.lints) std::printf("  %s [%s] %s\n", lint.level.c_str(), lint.rule.c_str(), lint.message.c_str());
  }
  if (r.analysis) {
    std::printf("\nAnalysed by %s%s at %s", r.analysis->analyst.c_str(),
                r.analysis->model.empty() ? "" : (" (" + r.analysis->model + ")").c_str(), r.analysis->at.c_str());
    if (!r.analysis->fields.empty()) {
      std::printf("; from the model:");
      for (const auto& f : r.analysis->fields) std::printf(" %s", f.c_str());
    }
    std::printf("\n");
  }
  std::printf("\nSource (%d-%d)\n", r.source_code_start, r.source_code_end);
  int line = r.source_code_start;
  std::size_t start = 0;
  while (start <= r.source_code.size()) {
    auto nl = r.source_code.find('\n', start);
    std::string text = r.source_code.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    std::printf("%s%5d  %s\n", line == r.line_number ? ">" : " ", line, text.c_str());
    ++line;
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
}

// One line per record, whatever its message holds (a line break is
// written `\n`), naming its repository: two repositories may hold the same
// file (a fork, a folder scanned under another name).
void print_summary_line(const model::ErrorRecord& r) {
  std::string message;
  for (char c : r.error_message) {
    if (c == '\n') message += "\\n";
    else if (c == '\r') message += "\\r";
    else message += c;
  }
  std::printf("%s  %s  %s:%d  %s: %s\n", r.id.c_str(), r.repo.c_str(), r.file_path.c_str(), r.line_number,
              model::shown_class(r.error_class).c_str(), message.c_str());
}

json as_json(const model::ErrorRecord& r) { return json::parse(model::to_json(r)); }

// One revision's lines (`errdex CMD --repo R --ref X`): prints why not and
// sets `code` (1 not stored, 2 error) when there are none to give.
std::optional<std::vector<model::DatasetLine>> lines_at(store::Store& st, const char* cmd, const std::string& repo,
                                                       const std::string& ref, int& code) {
  auto lines = st.list_at(repo, ref);
  if (!lines) {
    std::cerr << "errdex " << cmd << ": " << lines.error() << "\n";
    code = 2;
    return std::nullopt;
  }
  if (!*lines) {
    std::cerr << "errdex " << cmd << ": " << repo << " has no revision " << ref << " in the store\n";
    code = 1;
    return std::nullopt;
  }
  return std::move(**lines);
}

}  // namespace

int run_show(const std::string& db, const std::string& id, const std::optional<std::string>& repo,
             const std::optional<std::string>& ref, bool as_json_out) {
  auto st = open_store_for_read(db);
  if (!st) {
    std::cerr << "errdex show: " << st.error() << "\n";
    return 2;
  }
  if (ref) {
    int code = 0;
    auto lines = lines_at(**st, "show", *repo, *ref, code);
    if (!lines) return code;
    for (const auto& l : *lines)
      if (l.record.id == id) {
        if (as_json_out) std::cout << model::to_json(l) << "\n";
        else print_record(l);
        return 0;
      }
    std::cerr << "errdex show: no record with id " << id << " in " << *repo << " " << *ref << "\n";
    return 1;
  }
  auto got = (*st)->get(id);
  if (!got) {
    std::cerr << "errdex show: " << got.error() << "\n";
    return 2;
  }
  if (!*got) {
    std::cerr << "errdex show: no record with id " << id << "\n";
    return 1;
  }
  if (as_json_out) std::cout << model::to_json(**got) << "\n";
  else print_record(**got);
  return 0;
}

int run_list(const std::string& db, const std::optional<std::string>& repo, const std::optional<std::string>& ref,
             bool as_json_out) {
  auto st = open_store_for_read(db);
  if (!st) {
    std::cerr << "errdex list: " << st.error() << "\n";
    return 2;
  }
  Expected<std::vector<model::DatasetLine>> lines = std::vector<model::DatasetLine>{};
  if (ref) {
    int code = 0;
    auto at = lines_at(**st, "list", *repo, *ref, code);
    if (!at) return code;
    lines = std::move(*at);
  } else {
    lines = (*st)->list(repo);
  }
  if (!lines) {
    std::cerr << "errdex list: " << lines.error() << "\n";
    return 2;
  }
  if (as_json_out) {
    json arr = json::array();
    for (const auto& l : *lines) arr.push_back(as_json(l.record));
    std::cout << dump(arr) << "\n";
  } else {
    for (const auto& l : *lines) print_summary_line(l.record);
  }
  if (lines->empty()) std::cerr << "errdex list: no records" << (repo ? " for " + *repo : std::string()) << "\n";
  return lines->empty() ? 1 : 0;
}

int run_search(const std::string& db, const std::string& text, const std::optional<std::string>& repo,
               const std::optional<std::string>& ref, int limit, bool as_json_out) {
  // Nothing to look for is a usage error, as `GET /api/search?q=` is a 400,
  // not a search that found nothing.
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    std::cerr << "errdex search: give the words to look for (the query is empty)\n";
    return 2;
  }
  auto st = open_store_for_read(db);
  if (!st) {
    std::cerr << "errdex search: " << st.error() << "\n";
    return 2;
  }
  Expected<std::vector<store::SearchHit>> hits = std::vector<store::SearchHit>{};
  if (ref) {
    auto at = store::search_at(**st, text, *repo, *ref, limit);
    if (at && !*at) {
      std::cerr << "errdex search: " << *repo << " has no revision " << *ref << " in the store\n";
      return 1;
    }
    if (at) hits = std::move(**at);
    else hits = Error{at.error()};
  } else {
    hits = (*st)->search(text, repo, limit);
  }
  if (!hits) {
    std::cerr << "errdex search: " << hits.error() << "\n";
    return 2;
  }
  if (as_json_out) {
    json arr = json::array();
    for (const auto& h : *hits) arr.push_back({{"rank", h.rank}, {"record", as_json(h.record)}});
    std::cout << dump(arr) << "\n";
  } else {
    for (const auto& h : *hits) print_summary_line(h.record);
  }
  if (hits->empty())
    std::cerr << "errdex search: no record matches \"" << text << "\"" << (repo ? " in " + *repo : std::string()) << "\n";
  return hits->empty() ? 1 : 0;
}

int run_export(const std::string& db, const std::optional<std::string>& repo, const std::optional<std::string>& ref,
               bool all_revisions) {
  auto st = open_store_for_read(db);
  if (!st) {
    std::cerr << "errdex export: " << st.error() << "\n";
    return 2;
  }
  std::size_t written = 0;
  auto write = [&](const std::vector<model::DatasetLine>& lines) {
    for (const auto& l : lines) std::cout << model::to_json(l) << "\n";
    written += lines.size();
  };
  if (ref) {
    int code = 0;
    auto lines = lines_at(**st, "export", *repo, *ref, code);
    if (!lines) return code;
    write(*lines);
  } else if (!all_revisions) {
    auto lines = (*st)->list(repo);
    if (!lines) {
      std::cerr << "errdex export: " << lines.error() << "\n";
      return 2;
    }
    write(*lines);
  } else {
    // Every revision of each repository, first to last: importing the file
    // stores them in that order, so the same revision is current again.
    auto repos = (*st)->repos();
    if (!repos) {
      std::cerr << "errdex export: " << repos.error() << "\n";
      return 2;
    }
    for (const auto& r : *repos) {
      if (repo && r.repo != *repo) continue;
      auto revs = (*st)->revisions(r.repo);
      if (!revs) {
        std::cerr << "errdex export: " << revs.error() << "\n";
        return 2;
      }
      for (const auto& rev : *revs) {
        auto lines = (*st)->list_at(r.repo, rev.ref.empty() ? rev.sha : rev.ref);
        if (!lines) {
          std::cerr << "errdex export: " << lines.error() << "\n";
          return 2;
        }
        if (*lines) write(**lines);
      }
    }
  }
  std::cout.flush();
  if (written == 0) std::cerr << "errdex export: no records" << (repo ? " for " + *repo : std::string()) << "\n";
  return written == 0 ? 1 : 0;
}

int run_import(const std::string& db, const std::string& file, bool as_json_out) {
  std::ifstream in_file;
  std::istream* in = &std::cin;
  if (file != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
      std::cerr << "errdex import: " << file << " is a directory: give a JSON Lines file (or - for stdin)\n";
      return 2;
    }
    in_file.open(file, std::ios::binary);
    if (!in_file) {
      std::cerr << "errdex import: cannot open " << file << "\n";
      return 2;
    }
    in = &in_file;
  }
  // Before the file is read: a store this user may not write is refused
  // at once, not after a long file was parsed.
  auto st = open_store_for_write(db);
  if (!st) {
    std::cerr << "errdex import: " << st.error() << "\n";
    return 2;
  }
  // Lines are grouped into datasets by (repo, analyzedSha, ref); a bad line is
  // reported with its number and the good ones are still imported.
  // In the order they first appear: a file of several revisions of a
  // repository (as export writes them) is stored in that order.
  std::vector<store::Dataset> groups;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> group_of;
  std::vector<std::string> errors;
  std::string line;
  std::size_t n = 0, good = 0;
  while (std::getline(*in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (util::looks_binary(line)) {
      errors.push_back(file + ":" + std::to_string(n) + ": binary data, not a JSON line");
      continue;
    }
    auto parsed = model::dataset_line_from_json(line);
    if (!parsed) {
      errors.push_back(file + ":" + std::to_string(n) + ": " + parsed.error());
      continue;
    }
    // The site's addresses are made of it: /repos/{owner}/{name}.
    if (!model::is_repo_name(parsed->record.repo)) {
      errors.push_back(file + ":" + std::to_string(n) + ": repo must be owner/name, got '" +
                       util::escaped_excerpt(parsed->record.repo) + "'");
      continue;
    }
    ++good;
    auto [at, added] = group_of.emplace(std::tuple{parsed->record.repo, parsed->record.analyzed_sha, parsed->ref}, groups.size());
    if (added) groups.emplace_back();
    auto& ds = groups[at->second];
    ds.repo = parsed->record.repo;
    ds.sha = parsed->record.analyzed_sha;
    ds.ref = parsed->ref;
    ds.dataset_version = std::max(ds.dataset_version, parsed->dataset_version);
    ds.records.push_back(std::move(parsed->record));
  }
  // A file that is not JSON Lines at all (an archive, an image) has a bad
  // line every few hundred bytes: the first few say what is wrong.
  constexpr std::size_t k_errors_shown = 20;
  for (std::size_t i = 0; i < errors.size() && i < k_errors_shown; ++i)
    std::cerr << "errdex import: " << errors[i] << "\n";
  if (errors.size() > k_errors_shown)
    std::cerr << "errdex import: … and " << errors.size() - k_errors_shown << " more bad lines\n";
  if (!groups.empty()) {
    for (const auto& ds : groups) {
      if (auto s = (*st)->ingest(ds); !s) {
        std::cerr << "errdex import: storing " << ds.repo << "@" << ds.sha << " failed: " << s.error() << "\n";
        return 2;
      }
    }
  }
  if (as_json_out) {
    std::cout << dump({{"lines", n}, {"imported", good}, {"errors", errors}, {"datasets", groups.size()}}) << "\n";
  } else {
    auto counted = [](std::size_t n, const char* what) {
      return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    std::printf("imported %s in %s%s\n", counted(good, "record").c_str(), counted(groups.size(), "dataset").c_str(),
                errors.empty() ? "" : (", " + counted(errors.size(), "bad line")).c_str());
  }
  return errors.empty() ? 0 : 2;
}

int run_stats(const std::string& db, bool as_json_out) {
  auto st = open_store_for_read(db);
  if (!st) {
    std::cerr << "errdex stats: " << st.error() << "\n";
    return 2;
  }
  auto repos = (*st)->repos();
  auto lines = (*st)->list(std::nullopt);
  if (!repos || !lines) {
    std::cerr << "errdex stats: " << (!repos ? repos.error() : lines.error()) << "\n";
    return 2;
  }
  // Coverage: the share of records in which each optional field is filled.
  std::map<std::string, std::size_t> filled;
  std::map<std::string, std::size_t> by_type, by_severity, by_analyst;
  for (const auto& l : *lines) {
    const auto& r = l.record;
    filled["documentation"] += !r.documentation.empty();
    filled["triggerScenarios"] += !r.trigger_scenarios.empty();
    filled["commonSituations"] += !r.common_situations.empty();
    filled["solutions"] += !r.solutions.empty();
    filled["exampleFix"] += !r.example_fix.empty();
    filled["validationCode"] += r.validation_code.has_value();
    filled["typeGuard"] += r.type_guard.has_value();
    filled["tryCatchPattern"] += r.try_catch_pattern.has_value();
    filled["preventionTips"] += !r.prevention_tips.empty();
    filled["errorCode"] += r.error_code.has_value();
    filled["httpStatus"] += r.http_status.has_value();
    filled["lints"] += !r.lints.empty();
    by_analyst[r.analysis ? r.analysis->analyst : "unrecorded"]++;
    by_type[r.error_type]++;
    by_severity[r.severity]++;
  }
  double total = static_cast<double>(lines->size());
  if (as_json_out) {
    json j;
    j["records"] = lines->size();
    j["repos"] = json::array();
    for (const auto& r : *repos)
      j["repos"].push_back(
          {{"repo", r.repo}, {"sha", r.sha}, {"ref", r.ref}, {"datasetVersion", r.dataset_version}, {"records", r.records}});
    for (const auto& [k, v] : filled) j["coverage"][k] = total > 0 ? v / total : 0.0;
    j["errorType"] = by_type;
    j["severity"] = by_severity;
    j["analyst"] = by_analyst;
    std::cout << dump(j) << "\n";
  } else {
    std::printf("%zu records in %zu repositories\n", lines->size(), repos->size());
    // A revision by its name where it has one (v3.11.7, a package's version),
    // else by its commit.
    for (const auto& r : *repos)
      std::printf("  %-40s %-10s  %lld records  (dataset %s)\n", r.repo.c_str(),
                  (r.ref.empty() ? r.sha.substr(0, 10) : r.ref).c_str(), static_cast<long long>(r.records),
                  r.dataset_version.c_str());
    std::printf("field coverage:\n");
    for (const auto& [k, v] : filled) std::printf("  %-18s %6.1f %%\n", k.c_str(), total > 0 ? 100.0 * v / total : 0.0);
    std::printf("by type:");
    for (const auto& [k, v] : by_type) std::printf(" %s %zu", k.c_str(), v);
    std::printf("\nby severity:");
    for (const auto& [k, v] : by_severity) std::printf(" %s %zu", k.c_str(), v);
    std::printf("\nby analyst:");
    for (const auto& [k, v] : by_analyst) std::printf(" %s %zu", k.c_str(), v);
    std::printf("\n");
  }
  return lines->empty() ? 1 : 0;
}

}  // namespace errdex::cli
