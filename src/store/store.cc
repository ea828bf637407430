#include "store/store.h"

#include <algorithm>

#include "store/dataset_rules.h"
#include "store/pg_store.h"
#include "store/sqlite_store.h"

namespace errdex::store {

std::unordered_map<std::string, std::vector<std::string>> import_roots(const std::vector<RepoSummary>& repos) {
  std::unordered_map<std::string, std::vector<std::string>> out;
  for (const auto& r : repos)
    if (!r.import_roots.empty()) out.emplace(r.repo, r.import_roots);
  return out;
}

Expected<RevisionFields> match_fields_all(Store& store, const std::optional<std::string>& repo, bool current_too) {
  RevisionFields out;
  auto repos = store.repos();
  if (!repos) return Error{repos.error()};
  if (current_too) {
    auto current = store.match_fields(repo);
    if (!current) return Error{current.error()};
    out.records = std::move(*current);
  }
  out.current = out.records.size();
  out.preference.assign(out.records.size(), 0);
  std::unordered_map<std::string, std::uint32_t> current_of;  // repo -> its current revision's index
  std::vector<std::pair<std::string, std::vector<Revision>>> others;
  for (const auto& r : *repos) {
    if (repo && r.repo != *repo) continue;
    auto revs = store.revisions(r.repo);
    if (!revs) return Error{revs.error()};
    for (auto& rev : *revs)
      if (rev.current) {
        current_of[r.repo] = static_cast<std::uint32_t>(out.revisions.size());
        out.revisions.push_back(rev);
        out.revision_repo.push_back(r.repo);
      }
    if (revs->size() > 1) others.emplace_back(r.repo, std::move(*revs));
  }
  out.revision_of.reserve(out.records.size());
  for (const auto& r : out.records) out.revision_of.push_back(current_of[r.repo]);
  for (auto& [name, revs] : others) {
    std::uint32_t rank = 0;
    // Newest first: revisions() lists them first to last.
    for (auto it = revs.rbegin(); it != revs.rend(); ++it) {
      if (it->current) continue;
      auto fields = store.match_fields_at(name, it->ref.empty() ? it->sha : it->ref);
      if (!fields) return Error{fields.error()};
      if (!*fields) continue;  // dropped meanwhile
      ++rank;
      const auto at = static_cast<std::uint32_t>(out.revisions.size());
      out.revisions.push_back(*it);
      out.revision_repo.push_back(name);
      for (auto& r : **fields) {
        out.records.push_back(std::move(r));
        out.preference.push_back(rank);
        out.revision_of.push_back(at);
      }
    }
  }
  return out;
}


Expected<std::optional<std::vector<SearchHit>>> search_at(Store& store, std::string_view text, const std::string& repo,
                                                          const std::string& rev, int limit) {
  using Answer = std::optional<std::vector<SearchHit>>;
  auto lines = store.list_at(repo, rev);
  if (!lines) return Error{lines.error()};
  if (!*lines) return Answer();
  std::vector<std::string> asked = folded_words(text);
  std::sort(asked.begin(), asked.end());
  asked.erase(std::unique(asked.begin(), asked.end()), asked.end());
  std::vector<SearchHit> hits;
  if (asked.empty() || limit <= 0) return Answer(std::move(hits));
  struct Scored {
    std::size_t line;
    std::size_t held;  // distinct words asked that it holds
    double weight;     // occurrences, the message's counting double
  };
  std::vector<Scored> scored;
  for (std::size_t i = 0; i < (*lines)->size(); ++i) {
    const auto& r = (**lines)[i].record;
    std::unordered_map<std::string, double> count;
    for (auto& w : folded_words(r.error_message)) count[w] += 2;
    for (auto& w : folded_words(r.documentation)) count[w] += 1;
    for (const auto& tag : r.tags)
      for (auto& w : folded_words(tag)) count[w] += 1;
    Scored s{i, 0, 0};
    for (const auto& w : asked)
      if (auto it = count.find(w); it != count.end()) {
        ++s.held;
        s.weight += it->second;
      }
    if (s.held > 0) scored.push_back(s);
  }
  // Every word first; if none holds them all, any word.
  const bool any_all = std::any_of(scored.begin(), scored.end(), [&](const Scored& s) { return s.held == asked.size(); });
  if (any_all) std::erase_if(scored, [&](const Scored& s) { return s.held != asked.size(); });
  std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    return a.held != b.held ? a.held > b.held : a.weight > b.weight;
  });
  for (std::size_t k = 0; k < scored.size() && k < static_cast<std::size_t>(limit); ++k)
    hits.push_back({std::move((**lines)[scored[k].line].record), -(static_cast<double>(scored[k].held) * 1000 + scored[k].weight)});
  return Answer(std::move(hits));
}

Expected<std::unique_ptr<Store>> open_store(const std::string& url) {
  constexpr std::string_view k_sqlite = "sqlite:";
  if (url.starts_with(k_sqlite)) {
    std::string path = url.substr(k_sqlite.size());
    if (path.empty()) return Error{"store URL \"" + url + "\" has no path (use sqlite:/path/to/errdex.db)"};
    return sqlite::open(path);
  }
  if (is_postgresql(url)) return pg::open(url);
  return Error{"unknown store URL \"" + url + "\" (expected sqlite:path or postgresql://...)"};
}

bool is_postgresql(std::string_view url) { return url.starts_with("postgresql://") || url.starts_with("postgres://"); }

Expected<std::string> migrate_store(const std::string& url) {
  if (is_postgresql(url)) {
    auto m = pg::migrate(url);
    if (!m) return Error{m.error()};
    return "schema at version " + std::to_string(m->version) + " (" + std::to_string(m->applied) + " migration" +
           (m->applied == 1 ? "" : "s") + " applied now)";
  }
  // SQLite's file is brought up to date whenever it is opened.
  constexpr std::string_view k_sqlite = "sqlite:";
  if (!url.starts_with(k_sqlite) || url.size() == k_sqlite.size()) return Error{open_store(url).error()};
  auto m = sqlite::migrate(url.substr(k_sqlite.size()));
  if (!m) return Error{m.error()};
  const std::string at = "schema at version " + std::to_string(m->version);
  if (m->from == 0) return "store created, " + at;
  if (m->from == m->version) return at + " (up to date)";
  return at + " (upgraded from version " + std::to_string(m->from) + ")";
}

}  // namespace errdex::store
