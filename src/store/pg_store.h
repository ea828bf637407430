#pragma once
// The PostgreSQL backend of Store (libpq). Internal to the store stage:
// callers go through open_store("postgresql://…") and migrate_store().
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/store.h"
#include "util/expected.h"

namespace errdex::store::pg {

class Pool;

// Connects to the database at `url`, a libpq URI (postgresql:// or
// postgres://, with user, password, host, port, database and libpq's query
// parameters such as sslmode), and brings its schema to this build's
// version first (migrate). A newer schema than this build knows is an
// error; an unreachable server is one after connect_timeout (10 s unless
// the URL sets it).
//
// Unlike SQLite's, the returned Store may be used from many threads at
// once: each call borrows a connection from a pool shared by every Store
// opened on the same URL in this process.
Expected<std::unique_ptr<Store>> open(const std::string& url);

// Applies the numbered migrations the database at `url` lacks, under an
// advisory lock so that processes starting together apply each once.
struct Migration {
  int version = 0;  // the schema's version after
  int applied = 0;  // how many migrations this call applied
};
Expected<Migration> migrate(const std::string& url);

// A table of keys and values beside the store's (made by its migrations),
// for caches the Store interface never reads: the scan's file facts and the
// LLM analyst's answers (cli/store_caches.h), with the keys SQLite's use.
// Thread-safe.
class KeyValueTable {
 public:
  virtual ~KeyValueTable() = default;
  // An empty optional when the key is absent.
  virtual Expected<std::optional<std::string>> get(const std::string& key) = 0;
  // Inserts or replaces every entry, in one transaction.
  virtual Status put_all(const std::vector<std::pair<std::string, std::string>>& entries) = 0;
};
enum class SideTable { file_facts, llm_answers };
// The pool of `url` in this process, its database migrated first; for the
// store stage's other tables (pg_jobs.cc).
Expected<std::shared_ptr<Pool>> migrated_pool(const std::string& url);

Expected<std::unique_ptr<KeyValueTable>> open_side_table(const std::string& url, SideTable table);

}  // namespace errdex::store::pg
