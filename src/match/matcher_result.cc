// MatchResult's own behaviour (a move keeps its views valid) and what a
// result's reasons say; Matcher::match (matcher.cc) fills results, its
// shown answers copied into the result's block here (fill_result).
#include <charconv>
#include <cstring>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "match/matcher.h"
#include "match/matcher_answers.h"

namespace errdex::match {

bool weak(const Reasons& r) { return !r.frame_line && !r.frame_source && !r.pattern_text && !r.wraps; }

Weakness weakness(const MatchResult& r) {
  if (r.candidates.empty() || !weak(r.candidates.front().reasons)) return Weakness::none;
  const Reasons& best = r.candidates.front().reasons;
  if (best.pattern) return Weakness::placeholders;
  // A printed class the answer does not raise ties nothing.
  return best.error_class || best.frame ? Weakness::class_only : Weakness::words;
}

std::string_view weakness_word(Weakness w) {
  switch (w) {
    case Weakness::class_only: return "class";
    case Weakness::placeholders: return "placeholders";
    case Weakness::words: return "words";
    case Weakness::none: break;
  }
  return "";
}

MatchResult::MatchResult(MatchResult&& other) noexcept { *this = std::move(other); }

MatchResult& MatchResult::operator=(MatchResult&& other) noexcept {
  if (this == &other) return *this;
  frames = std::move(other.frames);
  chained = std::move(other.chained);
  chained_left_out = std::exchange(other.chained_left_out, 0);
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

namespace detail {
namespace {

// How many decimal digits n has.
std::size_t number_size(std::uint32_t n) {
  std::size_t k = 1;
  for (; n >= 10; n /= 10) ++k;
  return k;
}

}  // namespace

void fill_result(Paste& p, ShownAnswers& shown, MatchResult& out) {
  std::vector<Candidate>& answers = shown.answers;
  const std::vector<PendingCapture>& pending = shown.pending;
  const std::string_view error_class = p.error_class, whole = p.whole;
  // The text's other exceptions, in the order printed.
  std::vector<const ExceptionBlock*>& others = shown.others;
  others.clear();
  if (!p.single)
    for (std::size_t k = 0; k < p.tb.exceptions.size(); ++k)
      if (k != p.explained) others.push_back(&p.tb.exceptions[k]);
  // A paste of thousands of chained exceptions (a retry loop's handler
  // raising in its own except clause) keeps the answer small: the chain's
  // first exceptions, where it started, and its last, next to the one
  // explained.
  out.chained_left_out = 0;
  if (others.size() > MatchResult::k_max_chained) {
    const std::size_t half = MatchResult::k_max_chained / 2;
    out.chained_left_out = others.size() - MatchResult::k_max_chained;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(half),
                 others.end() - static_cast<std::ptrdiff_t>(half));
  }
  // A value inside the message (the text form and the errno form are parts
  // of it) is a view of the message's copy; only one taken from the
  // unquoted form, which lives in the match's working memory, is copied itself.
  auto in_whole = [&](std::string_view v) {
    return std::less_equal<>()(whole.data(), v.data()) && std::less_equal<>()(v.data() + v.size(), whole.data() + whole.size());
  };
  std::size_t bytes = error_class.size() + whole.size();
  for (const ExceptionBlock* b : others) bytes += b->error_class.size() + b->message.size();
  for (const PendingCapture& c : pending)
    bytes += (in_whole(c.value) ? 0 : c.value.size()) + (c.number > 0 ? number_size(c.number) : c.name.size());
  static_assert(alignof(Candidate) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ && sizeof(Candidate) % alignof(Capture) == 0);
  static_assert(std::is_trivially_destructible_v<Candidate> && std::is_trivially_destructible_v<Capture>);
  const std::size_t answer_bytes = answers.size() * sizeof(Candidate);
  const std::size_t list_bytes = pending.size() * sizeof(Capture);
  const std::size_t revision_bytes = shown.revisions.size() * sizeof(std::uint32_t);
  static_assert(sizeof(Capture) % alignof(std::uint32_t) == 0);
  out.block_size = answer_bytes + list_bytes + revision_bytes + bytes;
  if (out.block_size > MatchResult::k_inline) out.storage = std::make_unique_for_overwrite<char[]>(out.block_size);
  char* block = out.block();
  Candidate* placed = reinterpret_cast<Candidate*>(block);
  Capture* list = reinterpret_cast<Capture*>(block + answer_bytes);
  std::uint32_t* revision_list = reinterpret_cast<std::uint32_t*>(block + answer_bytes + list_bytes);
  if (revision_bytes) std::memcpy(revision_list, shown.revisions.data(), revision_bytes);
  char* at = block + answer_bytes + list_bytes + revision_bytes;
  auto copy = [&](std::string_view v) {
    if (v.empty()) return std::string_view();
    std::memcpy(at, v.data(), v.size());
    at += v.size();
    return std::string_view(at - v.size(), v.size());
  };
  out.exception = {copy(error_class), copy(whole)};
  for (std::size_t k = 0; k < pending.size(); ++k) {
    const PendingCapture& c = pending[k];
    std::string_view name;
    if (c.number > 0) {
      char* end = std::to_chars(at, at + number_size(c.number), c.number).ptr;
      name = {at, static_cast<std::size_t>(end - at)};
      at = end;
    } else {
      name = copy(c.name);
    }
    std::string_view value = c.value.empty() ? std::string_view()
                             : in_whole(c.value)
                                 ? out.exception.message.substr(static_cast<std::size_t>(c.value.data() - whole.data()), c.value.size())
                                 : copy(c.value);
    std::construct_at(list + k, Capture{name, value});
  }
  for (std::size_t i = 0, begin = 0, from = 0; i < answers.size(); ++i) {
    const std::size_t end = shown.pending_end[i];
    answers[i].captures = {list + begin, end - begin};
    answers[i].revisions = {revision_list + from, shown.revisions_end[i] - from};
    from = shown.revisions_end[i];
    std::construct_at(placed + i, answers[i]);
    begin = end;
  }
  out.candidates = {placed, answers.size()};
  out.chained.reserve(others.size());
  for (const ExceptionBlock* b : others) out.chained.push_back({copy(b->error_class), copy(b->message)});
  if (!p.single) {
    ExceptionBlock& ex = p.tb.exceptions[p.explained];
    out.frames.reserve(ex.frames.size());
    for (auto& f : ex.frames) out.frames.push_back({std::move(f.file), f.line, std::move(f.function), std::move(f.source)});
  }
}

}  // namespace detail
}  // namespace errdex::match
