#include "web/match_engine.h"

namespace errdex::web {
namespace {

// The match stage's Matcher over the snapshot's records.
class MatcherEngine final : public MatchEngine {
 public:
  MatcherEngine(const std::vector<model::ErrorRecord>& records, const match::ImportRoots& roots,
                std::span<const std::uint32_t> preference, std::span<const std::string> refs)
      : m_matcher(match::Matcher::build(records, roots, preference, refs)) {}
  match::MatchResult match(std::string_view text, int top) const override { return m_matcher.match(text, top); }
  std::string name() const override { return "matcher"; }

 private:
  match::Matcher m_matcher;
};

}  // namespace

std::unique_ptr<MatchEngine> MatchEngine::build(const std::vector<model::ErrorRecord>& records,
                                               const match::ImportRoots& roots,
                                               std::span<const std::uint32_t> preference,
                                               std::span<const std::string> refs) {
  return std::make_unique<MatcherEngine>(records, roots, preference, refs);
}

}  // namespace errdex::web
