#pragma once
// Caches kept in the store's SQLite file or PostgreSQL database, in tables
// of their own that the Store interface never reads: the LLM analyst's answers (llm_answers), and
// the scan facts of files already scanned (file_facts), by content and
// scanner version.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyze/llm_analyst.h"
#include "util/expected.h"

namespace errdex::cli {

// Opens (creating if needed) the cache for the store at `db_url`. Only
// sqlite: and postgresql:// URLs have one; others are an error naming the
// reason.
Expected<std::unique_ptr<analyze::AnswerCache>> open_llm_cache(const std::string& db_url);

// Facts by key (scan/facts_json.h). get may be called from many threads at
// once; put_all writes in one transaction. A failed write only costs a
// parse on the next scan.
class FactsCache {
 public:
  virtual ~FactsCache() = default;
  virtual std::optional<std::string> get(const std::string& key) = 0;
  virtual void put_all(const std::vector<std::pair<std::string, std::string>>& entries) = 0;
};

// The facts cache of the store at `db_url`; nullptr for a store that keeps
// none (neither sqlite: nor postgresql://), and an error when the file or
// database cannot be opened.
Expected<std::unique_ptr<FactsCache>> open_facts_cache(const std::string& db_url);

}  // namespace errdex::cli
