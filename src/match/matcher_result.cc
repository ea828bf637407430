// MatchResult's own behaviour (a move keeps its views valid) and what a
// result's reasons say; Matcher::match (matcher.cc) fills results.
#include <cstring>
#include <type_traits>
#include <utility>

#include "match/matcher.h"

namespace errdex::match {

bool weak(const Reasons& r) { return !r.frame_line && !r.frame_source && !r.pattern_text && !r.wraps; }

MatchResult::MatchResult(MatchResult&& other) noexcept { *this = std::move(other); }

MatchResult& MatchResult::operator=(MatchResult&& other) noexcept {
  if (this == &other) return *this;
  frames = std::move(other.frames);
  chained = std::move(other.chained);
  ambiguous = other.ambiguous;
  fulltext_fallback = other.fulltext_fallback;
  truncated = other.truncated;
  class_sites = other.class_sites;
  raised_below = other.raised_below;
  block_size = std::exchange(other.block_size, 0);
  candidates = std::exchange(other.candidates, {});
  exception = std::exchange(other.exception, {});
  storage = std::move(other.storage);
  if (storage || block_size == 0) return *this;  // a block on the heap keeps its place
  // The block was inline: it is copied, and every view into it moves with it.
  std::memcpy(inline_block, other.inline_block, block_size);
  const char* from = other.inline_block;
  const char* to_end = from + block_size;
  auto follow = [&](const auto* p) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(p)>>;
    const char* c = reinterpret_cast<const char*>(p);
    return c >= from && c < to_end ? reinterpret_cast<T*>(inline_block + (c - from)) : const_cast<T*>(p);
  };
  auto follow_view = [&](std::string_view v) { return v.empty() ? v : std::string_view(follow(v.data()), v.size()); };
  Candidate* placed = follow(candidates.data());
  candidates = {placed, candidates.size()};
  // Each Capture belongs to one candidate: it moves with that one's run.
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    Candidate& c = placed[i];
    if (c.captures.empty()) continue;
    Capture* list = follow(c.captures.data());
    for (std::size_t k = 0; k < c.captures.size(); ++k) list[k] = {follow_view(list[k].name), follow_view(list[k].value)};
    c.captures = {list, c.captures.size()};
  }
  exception = {follow_view(exception.error_class), follow_view(exception.message)};
  for (ParsedException& e : chained) e = {follow_view(e.error_class), follow_view(e.message)};
  return *this;
}

}  // namespace errdex::match
