#pragma once
// The cause of a chained traceback's last exception. A program's own
// exception often wraps a library's (`raise ConfigError("bad config") from
// e`) in a file no store holds: no indexed raise explains that one, while
// the exception it was raised from (or while handling) was raised by
// indexed code. The answer then names the cause: the nearest exception up
// the chain that an indexed raise explains.
#include <functional>
#include <optional>
#include <string_view>

#include "match/matcher.h"

namespace errdex::match {

struct ChainCause {
  std::string_view text;  // the cause's own traceback: the text above the separator
  bool direct;            // `raise … from`, else raised while handling it
};

// The traceback the last exception of `traceback` was raised from (or
// while handling): the text above the chain's last separator line
// ("The above exception was the direct cause…", "During handling of the
// above exception…"); of a Node stack, its first `[cause]: ` (direct).
// Nothing when the text is no chain, or nothing above the separator reads
// as a traceback.
std::optional<ChainCause> chain_cause(std::string_view traceback);

// The result's first answer names the raise of its exception: there is
// one, not weak(), not printing the same message elsewhere while the
// innermost frame says the exception came from below it (raised_below),
// nor found by full text alone with no frame on its line.
bool explains(const MatchResult& res);

// The exception was raised below the innermost frame (raised_below: C
// code, a built-in), and the first answer is a site printing the same
// class and message elsewhere (json's C scanner and its Python twin): not
// the raise, but the nearest the store holds to it.
bool echoes_below(const MatchResult& res);

// No indexed raise explains the result's exception: !explains(), or the
// first answer agrees with the text by message alone, neither by the
// printed class nor by a frame (the program's own class wrapping a
// library's message).
bool unexplained(const MatchResult& res);

struct CauseMatch {
  MatchResult result;  // the cause's match, which explains() it, or else
                       // echoes_below() it
  bool direct = true;  // of the last separator passed on the way up
  int depth = 0;       // 1: the exception right above the last one
};

// The nearest exception up the chain of `text` (at most k_max_cause_depth
// up) whose match explains() it; when none does, the nearest one raised by
// C code whose match echoes_below() it (a site printing the same message);
// nothing when `res` (text's own match) is not unexplained(), or neither is
// found.
inline constexpr int k_max_cause_depth = 8;
// `match` answers one text (Matcher::match with the caller's top).
std::optional<CauseMatch> match_cause(const std::function<MatchResult(std::string_view)>& match,
                                      std::string_view text, const MatchResult& res);

}  // namespace errdex::match
