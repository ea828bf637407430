#pragma once
// The SQLite backend of Store (WAL, FTS5). Internal to the store stage:
// callers go through open_store("sqlite:path").
#include <memory>
#include <string>

#include "store/store.h"

namespace errdex::store::sqlite {

// Opens or creates the database at `path` (":memory:" works) and brings its
// schema to the current version. A newer schema than this build knows is an
// error. The returned Store must be used by one thread at a time; other
// threads and processes open their own on the same file.
Expected<std::unique_ptr<Store>> open(const std::string& path);

// Opens the database at `path` as open() does, and says what that did to
// its schema: `from` the version found (0: the file held no store and was
// created), `version` the version it is at now.
struct Migration {
  int from = 0;
  int version = 0;
};
Expected<Migration> migrate(const std::string& path);

}  // namespace errdex::store::sqlite
