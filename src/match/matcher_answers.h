#pragma once
// The shown answers of one match as Matcher::match (matcher.cc) notes
// them, and their copy into the result's one block (matcher_result.cc),
// done once per match after every candidate is ranked.
#include <cstdint>
#include <string_view>
#include <vector>

#include "match/matcher.h"
#include "match/matcher_paste.h"
#include "match/traceback.h"

namespace errdex::match::detail {

// A capture of a shown answer before it is copied into the result: its
// name (or number, when > 0) and value as views.
struct PendingCapture {
  std::string_view name;
  std::string_view value;
  std::uint32_t number = 0;
};

// The shown answers, in order, with views into the index, the paste and
// the thread's working memory until they are copied.
struct ShownAnswers {
  std::vector<Candidate> answers;  // captures and revisions not set yet
  std::vector<PendingCapture> pending;  // the answers' captures, in order
  std::vector<std::uint32_t> pending_end;  // by answer: end of its captures in `pending`
  std::vector<std::uint32_t> revisions, revisions_end;  // the answers' other revisions, by answer its end
  std::vector<const ExceptionBlock*> others;  // fill_result's: a traceback's exceptions not explained

  void clear() {
    answers.clear();
    pending.clear();
    pending_end.clear();
    revisions.clear();
    revisions_end.clear();
  }
};

// Copies the answers, every capture of them, then the captures' names and
// values, the exception's text and the chained ones', into one block the
// result holds; each answer's captures are its run of the Captures. The
// explained exception's frames move from `p` into `out`.
void fill_result(Paste& p, ShownAnswers& shown, MatchResult& out);

}  // namespace errdex::match::detail
