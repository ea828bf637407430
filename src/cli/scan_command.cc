// errdex scan: source → scan → analyze → store, as named passes.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "analyze/analyst.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/store_url.h"
#include "scan/python_frontend.h"
#include "source/source_tree.h"
#include "store/store.h"
#include "util/text.h"

namespace errdex::cli {
namespace {

bool is_full_sha(const std::string& s) {
  return s.size() == 40 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

bool is_repo_name(const std::string& s) {
  auto slash = s.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == s.size() || s.find('/', slash + 1) != std::string::npos)
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '/';
  });
}

std::string join_path(const std::string& prefix, const std::string& rel) {
  if (prefix.empty()) return rel;
  std::string p = prefix;
  while (!p.empty() && p.back() == '/') p.pop_back();
  while (!p.empty() && p.front() == '/') p.erase(p.begin());
  return p.empty() ? rel : p + "/" + rel;
}

}  // namespace

int run_scan(const ScanArgs& a) {
  auto t0 = std::chrono::steady_clock::now();
  if (a.repo && !is_repo_name(*a.repo)) {
    std::cerr << "errdex scan: --repo must be owner/name, got '" << *a.repo << "'\n";
    return 2;
  }
  if (a.sha && !is_full_sha(*a.sha)) {
    std::cerr << "errdex scan: --sha must be 40 lowercase hex digits, got '" << *a.sha << "'\n";
    return 2;
  }

  // Pass 1: open the tree at its revision and list what is worth reading.
  source::Options options;
  auto tree = source::open_tree(a.path, a.rev, options);
  if (!tree) {
    std::cerr << "errdex scan: " << tree.error() << "\n";
    return 2;
  }
  std::vector<source::Skip> skipped;
  std::vector<source::Entry> entries = (*tree)->list(skipped);

  std::string sha = a.sha ? *a.sha : (*tree)->sha();
  std::string link_ref = sha;
  if (sha.empty()) {
    // Not in git and no --sha: forty zeros say "unknown" in the only form
    // the field allows; links then pin to --ref if given.
    sha = std::string(40, '0');
    link_ref = a.ref.value_or(sha);
  }
  std::string repo = a.repo ? *a.repo : "local/" + std::filesystem::absolute(a.path).lexically_normal().filename().string();
  if (!a.repo && repo == "local/") repo = "local/root";
  std::string prefix = a.prefix ? *a.prefix : (*tree)->repo_path();
  std::string analyzed_at = util::iso_now_ms();

  // Pass 2: read, parse and analyze each file on every core. Results land
  // in per-file slots so the dataset order does not depend on scheduling.
  int jobs = a.jobs > 0 ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<model::ErrorRecord>> per_file(entries.size());
  std::vector<std::optional<std::string>> problems(entries.size());
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> parsed{0};
  Progress progress(a.quiet ? "" : "scan", a.quiet ? 0 : entries.size());
  auto worker = [&] {
    for (std::size_t i; (i = next++) < entries.size();) {
      const auto& e = entries[i];
      auto content = (*tree)->read(e);
      if (!content) {
        problems[i] = content.error();
      } else if (auto bad = source::content_problem(*content, options)) {
        problems[i] = *bad;
      } else if (scan::may_have_sites(*content)) {
        ++parsed;
        model::FileFacts facts = scan::scan_python(*content);
        analyze::FileContext ctx{repo, join_path(prefix, e.path), sha, link_ref, analyzed_at, *content};
        per_file[i] = analyze::analyze_file(ctx, facts.sites);
      }
      progress.tick();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  progress.finish();
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (problems[i]) skipped.push_back({entries[i].path, *problems[i]});

  // Pass 3: one transaction replaces the dataset of (repo, sha). From here
  // on readers see the new records.
  store::Dataset ds{repo, sha, analyzed_at, {}};
  for (auto& v : per_file)
    for (auto& r : v) ds.records.push_back(std::move(r));
  auto st = open_store_for_write(a.db);
  if (!st) {
    std::cerr << "errdex scan: " << st.error() << "\n";
    return 2;
  }
  if (auto s = (*st)->ingest(ds); !s) {
    std::cerr << "errdex scan: storing failed: " << s.error() << "\n";
    return 2;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::map<std::string, int> by_reason;
  for (const auto& s : skipped) by_reason[s.reason.substr(0, s.reason.find(':'))]++;
  std::size_t scanned = entries.size() - std::count_if(problems.begin(), problems.end(), [](auto& p) { return p.has_value(); });
  bool dirty = !a.rev && (*tree)->dirty();
  if (a.json) {
    nlohmann::json j = {{"repo", repo},       {"sha", sha},           {"dirty", dirty},
                        {"files", scanned},   {"parsed", parsed.load()}, {"records", ds.records.size()},
                        {"seconds", secs},    {"db", a.db}};
    j["skipped"] = nlohmann::json::array();
    for (const auto& s : skipped) j["skipped"].push_back({{"path", s.path}, {"reason", s.reason}});
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::string at = sha == std::string(40, '0') ? "an unknown commit (links pin to " + link_ref.substr(0, 40) + ")"
                                                 : sha.substr(0, 10);
    std::printf("scanned %s at %s%s: %zu files, %zu records in %.2f s\n", repo.c_str(), at.c_str(),
                dirty ? " (work tree has uncommitted changes)" : "", scanned, ds.records.size(), secs);
    if (!skipped.empty()) {
      std::printf("skipped %zu:", skipped.size());
      for (const auto& [reason, n] : by_reason) std::printf(" %s %d", reason.c_str(), n);
      std::printf("\n");
      constexpr std::size_t k_listed = 20;  // --json lists them all
      for (std::size_t i = 0; i < skipped.size() && i < k_listed; ++i)
        std::printf("  skip %s (%s)\n", skipped[i].path.c_str(), skipped[i].reason.c_str());
      if (skipped.size() > k_listed) std::printf("  ... %zu more (--json lists every one)\n", skipped.size() - k_listed);
    }
  }
  return 0;
}

}  // namespace errdex::cli
