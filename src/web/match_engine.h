#pragma once
// POST /api/match and the paste box: explains pasted text with the throw
// sites of the snapshot. Answers in the match stage's result type.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "match/matcher.h"
#include "model/error_record.h"

namespace errdex::web {

class MatchEngine {
 public:
  // Built once over the snapshot's records and their repositories' import
  // roots; indexes in results are indexes
  // into `records`. Thread-safe after construction.
  // `preference`, `refs`: as match::Matcher::build's (several revisions).
  static std::unique_ptr<MatchEngine> build(const std::vector<model::ErrorRecord>& records,
                                            const match::ImportRoots& roots,
                                            std::span<const std::uint32_t> preference = {},
                                            std::span<const std::string> refs = {});
  virtual ~MatchEngine() = default;
  virtual match::MatchResult match(std::string_view text, int top) const = 0;
  // The engine's name, reported by the API ("matcher").
  virtual std::string name() const = 0;
};

}  // namespace errdex::web
