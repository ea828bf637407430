#include "store/store.h"

#include "store/sqlite_store.h"

namespace errdex::store {

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
