#include "match/chain_cause.h"

namespace errdex::match {
namespace {

// Node prints an error's cause (`new Error(msg, {cause})`) inside the
// error's inspected properties, after its frames: `  [cause]: Error:
// inner`, its own frames indented under it, a cause's cause further in.
// The cause's text runs from its class to the end; what follows its frames
// (closing braces, Node's version line) is what a whole paste ends with.
std::optional<ChainCause> node_cause(std::string_view text) {
  static constexpr std::string_view k_cause = "[cause]: ";
  for (std::size_t at = text.find(k_cause); at != std::string_view::npos; at = text.find(k_cause, at + 1)) {
    const std::size_t line_start = at == 0 ? 0 : text.rfind('\n', at - 1) + 1;
    // Only indentation before it, under a line of its own: a message
    // quoting it is no cause.
    if (line_start == 0 || text.substr(line_start, at - line_start).find_first_not_of(" \t") != std::string_view::npos)
      continue;
    std::string_view rest = text.substr(at + k_cause.size());
    if (rest.find('\n') == std::string_view::npos) return std::nullopt;
    return ChainCause{rest, true};
  }
  return std::nullopt;
}

}  // namespace

std::optional<ChainCause> chain_cause(std::string_view traceback) {
  static constexpr std::string_view k_direct = "The above exception was the direct cause of the following exception";
  static constexpr std::string_view k_during = "During handling of the above exception, another exception occurred";
  const std::size_t direct = traceback.rfind(k_direct), during = traceback.rfind(k_during);
  if (direct == std::string_view::npos && during == std::string_view::npos) return node_cause(traceback);
  const bool is_direct = during == std::string_view::npos || (direct != std::string_view::npos && direct > during);
  const std::size_t at = is_direct ? direct : during;
  const std::size_t line_start = traceback.rfind('\n', at);
  std::string_view before = traceback.substr(0, line_start == std::string_view::npos ? 0 : line_start);
  while (!before.empty() && (before.back() == '\n' || before.back() == '\r' || before.back() == ' '))
    before.remove_suffix(1);
  // One line alone is no traceback: the separator was quoted in a message.
  if (before.find('\n') == std::string_view::npos) return std::nullopt;
  return ChainCause{before, is_direct};
}

bool explains(const MatchResult& res) {
  if (res.candidates.empty() || res.raised_below) return false;
  const Reasons& best = res.candidates.front().reasons;
  return !weak(best) && !(res.fulltext_fallback && !best.frame_line && !best.frame_source);
}

bool echoes_below(const MatchResult& res) {
  if (res.candidates.empty() || !res.raised_below || res.fulltext_fallback) return false;
  const Reasons& best = res.candidates.front().reasons;
  return best.error_class && best.pattern_text;
}

bool unexplained(const MatchResult& res) {
  if (!explains(res)) return true;
  const Reasons& best = res.candidates.front().reasons;
  return !res.exception.error_class.empty() && !best.error_class && !best.frame;
}

std::optional<CauseMatch> match_cause(const std::function<MatchResult(std::string_view)>& match,
                                      std::string_view text, const MatchResult& res) {
  if (!unexplained(res)) return std::nullopt;
  std::optional<CauseMatch> echo;
  std::string_view rest = text;
  for (int depth = 1; depth <= k_max_cause_depth; ++depth) {
    auto cause = chain_cause(rest);
    if (!cause) break;
    rest = cause->text;
    MatchResult earlier = match(rest);
    if (explains(earlier)) return CauseMatch{std::move(earlier), cause->direct, depth};
    if (!echo && echoes_below(earlier)) echo = CauseMatch{std::move(earlier), cause->direct, depth};
  }
  return echo;
}

}  // namespace errdex::match
