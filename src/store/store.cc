#include "store/store.h"

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
  auto st = open_store(url);
  if (!st) return Error{st.error()};
  return std::string("schema up to date");
}

}  // namespace errdex::store
