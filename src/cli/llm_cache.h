#pragma once
// The LLM analyst's answer cache, kept in the store's SQLite file in a table
// of its own (llm_answers) that the Store interface never reads.
#include <memory>
#include <string>

#include "analyze/llm_analyst.h"
#include "util/expected.h"

namespace errdex::cli {

// Opens (creating if needed) the cache for the store at `db_url`. Only
// sqlite: URLs have one; others are an error naming the reason.
Expected<std::unique_ptr<analyze::AnswerCache>> open_llm_cache(const std::string& db_url);

}  // namespace errdex::cli
