#include "store/store.h"

#include "store/sqlite_store.h"

namespace errdex::store {

std::unordered_map<std::string, std::vector<std::string>> import_roots(const std::vector<RepoSummary>& repos) {
  std::unordered_map<std::string, std::vector<std::string>> out;
  for (const auto& r : repos)
    if (!r.import_roots.empty()) out.emplace(r.repo, r.import_roots);
  return out;
}

Expected<std::unique_ptr<Store>> open_store(const std::string& url) {
  constexpr std::string_view k_sqlite = "sqlite:";
  if (url.starts_with(k_sqlite)) {
    std::string path = url.substr(k_sqlite.size());
    if (path.empty()) return Error{"store URL \"" + url + "\" has no path (use sqlite:/path/to/errdex.db)"};
    return sqlite::open(path);
  }
  if (url.starts_with("postgresql://") || url.starts_with("postgres://"))
    return Error{"PostgreSQL backend not built"};
  return Error{"unknown store URL \"" + url + "\" (expected sqlite:path or postgresql://...)"};
}

}  // namespace errdex::store
