// The revisions of a repository: forget one, an error's history across
// them, what changed between two.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/store_url.h"
#include "model/error_record.h"
#include "store/history.h"

namespace errdex::cli {
namespace {

std::string where(const store::SiteAt& s) { return s.file_path + ":" + std::to_string(s.line); }

}  // namespace

int run_forget(const std::string& db, const std::string& repo, const std::optional<std::string>& ref) {
  auto st = open_store_for_write(db);
  if (!st) {
    std::cerr << "errdex forget: " << st.error() << "\n";
    return 2;
  }
  auto n = (*st)->forget(repo, ref);
  if (!n) {
    std::cerr << "errdex forget: " << n.error() << "\n";
    return 2;
  }
  if (*n == 0) {
    std::cerr << "errdex forget: " << repo << " has no " << (ref ? "revision " + *ref : std::string("revisions"))
              << " in the store\n";
    return 1;
  }
  std::printf("forgot %zu revision%s of %s\n", *n, *n == 1 ? "" : "s", repo.c_str());
  return 0;
}

int run_history(const std::string& db, const std::string& id, bool as_json) {
  auto st = open_store_for_read(db);
  if (!st) {
    std::cerr << "errdex history: " << st.error() << "\n";
    return 2;
  }
  auto h = store::site_history(**st, id);
  if (!h) {
    std::cerr << "errdex history: " << h.error() << "\n";
    return 2;
  }
  if (!*h) {
    std::cerr << "errdex history: no record " << id << " in any revision\n";
    return 1;
  }
  const store::SiteHistory& hist = **h;
  if (as_json) {
    std::printf("%s\n", store::to_json(hist).c_str());
    return 0;
  }
  const store::SiteAt& last = *hist.revisions[hist.last].site;
  std::printf("%s: %s  (%s, %s)\n", model::shown_class(last.error_class).c_str(), last.error_message.c_str(),
              hist.id.c_str(),
              hist.repo.c_str());
  auto name = [&](int i) { return store::revision_name(hist.revisions[i].revision); };
  std::printf("first seen %s, last seen %s", name(hist.first).c_str(), name(hist.last).c_str());
  if (hist.removed_in >= 0) std::printf(", removed in %s", name(hist.removed_in).c_str());
  std::printf("\n");
  // A file renamed or split: the same site under another id.
  for (const auto& [what, e] : {std::pair{"moved from", &hist.moved_from}, std::pair{"moved to", &hist.moved_to}})
    if (e->revision >= 0)
      std::printf("%s %s in %s (%s)\n", what, where(e->site).c_str(), name(e->revision).c_str(), e->site.id.c_str());
  std::printf("\n");
  const store::SiteAt* previous = nullptr;
  for (std::size_t i = 0; i < hist.revisions.size(); ++i) {
    const auto& at = hist.revisions[i];
    std::string rev = store::revision_name(at.revision);
    if (!at.site) {
      std::printf("  %-16s -\n", rev.c_str());
      continue;
    }
    std::printf("  %-16s %s", rev.c_str(), where(*at.site).c_str());
    if (previous && previous->error_class != at.site->error_class)
      std::printf("  class: %s -> %s", model::shown_class(previous->error_class).c_str(),
                  model::shown_class(at.site->error_class).c_str());
    if (previous && previous->error_message != at.site->error_message)
      std::printf("\n  %-16s   was: %s\n  %-16s   now: %s", "", previous->error_message.c_str(), "",
                  at.site->error_message.c_str());
    std::printf("\n");
    previous = &*at.site;
  }
  return 0;
}

int run_diff(const std::string& db, const std::string& repo, const std::string& from, const std::string& to,
             bool as_json) {
  auto st = open_store_for_read(db);
  if (!st) {
    std::cerr << "errdex diff: " << st.error() << "\n";
    return 2;
  }
  std::string missing;
  auto d = store::diff_revisions(**st, repo, from, to, &missing);
  if (!d) {
    std::cerr << "errdex diff: " << d.error() << "\n";
    return 2;
  }
  if (!*d) {
    std::cerr << "errdex diff: " << repo << " has no revision " << missing << " in the store\n";
    return 1;
  }
  const store::RevisionDiff& diff = **d;
  if (as_json) {
    std::printf("%s\n", store::to_json(repo, diff).c_str());
    return 0;
  }
  std::printf("%s %s -> %s: %zu added, %zu removed, %zu reworded, %zu class changed, %zu moved\n", repo.c_str(),
              store::revision_name(diff.from).c_str(), store::revision_name(diff.to).c_str(), diff.added.size(),
              diff.removed.size(), diff.reworded.size(), diff.class_changed.size(), diff.moved.size());
  for (const auto& s : diff.added)
    std::printf("added     %s  %s: %s\n", where(s).c_str(), model::shown_class(s.error_class).c_str(),
                s.error_message.c_str());
  for (const auto& s : diff.removed)
    std::printf("removed   %s  %s: %s\n", where(s).c_str(), model::shown_class(s.error_class).c_str(),
                s.error_message.c_str());
  for (const auto& [a, b] : diff.reworded)
    std::printf("reworded  %s  %s: %s\n          -> %s  %s\n", where(a).c_str(),
                model::shown_class(a.error_class).c_str(),
                a.error_message.c_str(), where(b).c_str(), b.error_message.c_str());
  for (const auto& [a, b] : diff.class_changed)
    std::printf("class     %s  %s -> %s: %s\n", where(b).c_str(), model::shown_class(a.error_class).c_str(),
                model::shown_class(b.error_class).c_str(),
                b.error_message.c_str());
  for (const auto& [a, b] : diff.moved)
    std::printf("moved     %s -> %s  %s: %s\n", where(a).c_str(), where(b).c_str(),
                model::shown_class(b.error_class).c_str(), b.error_message.c_str());
  return 0;
}

}  // namespace errdex::cli
