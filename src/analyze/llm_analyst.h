#pragma once
// The optional LLM analyst: asks an OpenAI-compatible chat completions
// server (llama.cpp, vLLM, Ollama) to rewrite a record's prose from the same
// facts and the static draft, validates the answer field by field and keeps
// the static field wherever the answer fails validation.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/error_record.h"
#include "model/throw_site.h"
#include "util/expected.h"

namespace errdex::analyze {

// Raised when the prompt or the validation rules change, so cached answers
// to the old prompt are not reused.
inline constexpr int k_prompt_version = 2;

struct LlmOptions {
  // http://host[:port][/prefix]; requests go to <prefix>/v1/chat/completions
  // (a prefix that already ends in /v1 is not doubled). https is not spoken.
  std::string url;
  std::string model;
  int concurrency = 4;      // requests in flight at once
  int timeout_ms = 60000;   // per request, connect to last byte
  int max_retries = 3;      // after a 429 or 5xx answer; timeouts are not retried
  int backoff_ms = 500;     // first wait; doubles per retry, Retry-After wins when shorter than 30 s
};

// Validates `url` and splits it; the error names what is wrong.
struct LlmEndpoint {
  std::string host, port, target;
};
Expected<LlmEndpoint> parse_llm_url(const std::string& url);

// Answers by key. Implementations must be safe to call from several threads.
class AnswerCache {
 public:
  virtual ~AnswerCache() = default;
  virtual std::optional<std::string> get(const std::string& key) = 0;
  virtual void put(const std::string& key, const std::string& answer) = 0;
};

// One record to rewrite, with the facts it was made from.
struct LlmJob {
  const model::ThrowSite* site = nullptr;
  model::ErrorRecord* record = nullptr;
};

struct LlmStats {
  std::size_t requests = 0;    // HTTP requests sent, retries included
  std::size_t cache_hits = 0;  // records answered from the cache
  std::size_t rewritten = 0;   // records with at least one field from the model
  std::size_t fields_accepted = 0;
  std::size_t fields_rejected = 0;
  std::size_t failed = 0;      // no usable answer (timeout, HTTP error, malformed JSON)
  std::vector<std::string> problems;  // first few, for the summary
};

// Rewrites every job's record in place. A record whose answer is accepted
// for at least one field gets analysis {llm, model, prompt version, fields,
// analyzed_at}; the others keep the static analysis untouched. Answers are
// cached by (facts, static draft, model, prompt version): a rerun over the
// same code sends nothing. Failed requests are not cached.
// `done` (optional) is called once per finished job, from worker threads.
LlmStats run_llm_analyst(const LlmOptions& options, std::vector<LlmJob>& jobs, AnswerCache& cache,
                         const std::string& analyzed_at, const std::function<void()>& done = {});

// The parts below are exposed for tests.
// The cache key of a job: 32 hex digits.
std::string llm_cache_key(const LlmOptions& options, const std::string& prompt);
// The user message sent for a record: facts and static draft as JSON.
std::string llm_prompt(const model::ThrowSite& site, const model::ErrorRecord& draft);
// Applies a model's answer (the assistant message content) to `r`; returns
// the accepted field names, and appends each rejection's reason to
// `rejected`. A content that is not a JSON object accepts nothing.
std::vector<std::string> apply_llm_answer(const std::string& content, model::ErrorRecord& r,
                                          std::vector<std::string>& rejected);

}  // namespace errdex::analyze
