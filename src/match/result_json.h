#pragma once
// A MatchResult as JSON: the one shape of `errdex match --json` and
// POST /api/match.
//
//   {engine?, exception: {errorClass, message}, frames: [{file, line,
//    function, source}], chained: [{errorClass, message}], chainedLeftOut,
//    ambiguous,
//    fulltextFallback, truncated, classSites, raisedBelowFrame, weak, candidates: [{id, repo, ref, sha, filePath,
//    lineNumber, errorClass, errorMessage, matchedMessage, variant, score, captures: [{name, value}],
//    reasons: [...], alsoIn: [{ref, sha, lineNumber}], wraps: null or {id,
//    repo, filePath, lineNumber, errorClass}, url?}], cause}
//
// cause is null, or the same object (without its own cause) for the
// nearest exception up a chain that an indexed raise explains, when none
// explains the last one (match_cause()), with relation and depth.
//
// weak is weakness_word() of weakness(), null when the first answer is not
// weak (or there is none); reasons are reason_words(); ref is the name of the revision the record
// belongs to ("" when it has none), sha its commit; errorMessage is the
// record's, matchedMessage the one that matched (matched_message) and
// variant its index in the record's messageVariants, null when it is the
// record's own; alsoIn the other revisions of the same site the text is as
// consistent with (Candidate::revisions), most preferred first.
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "match/chain_cause.h"
#include "match/matcher.h"
#include "model/error_record.h"

namespace errdex::match {

// "frame-line" (the frame's line, and its printed statement when there is
// one), "frame-statement" (its statement on another line), "frame-file",
// "class", "pattern", "wraps", "fulltext".
std::vector<std::string> reason_words(const Reasons& r);

// The captures a reader is shown: a name the message interpolates twice
// (`Invalid URL {url!r}: ... https://{url}?`) once, as first captured; a
// conditional expression (`"s" if plural else ""`) not at all.
std::vector<Capture> shown_captures(std::span<const Capture> captures);

// The message of record r that candidate c matched: the variant's when
// one did (Candidate::variant), else the record's errorMessage.
const std::string& matched_message(const model::ErrorRecord& r, const Candidate& c);

struct ResultJsonSource {
  // The record at a candidate's index; nullptr leaves the candidate out.
  std::function<const model::ErrorRecord*(std::size_t index)> record;
  // The revision a record belongs to: its name ("" when it has none) and
  // commit. Null: "" and the record's analyzedSha.
  std::function<std::pair<std::string, std::string>(const model::ErrorRecord&)> revision;
  // The record's page; null: no url field.
  std::function<std::string(const model::ErrorRecord&)> url;
  // What answered; empty: no engine field.
  std::string engine;
};

// `indent` < 0: one line; else pretty, with that many spaces. `cause`:
// the match of the chain's cause (match_cause()), written as "cause", the
// same shape plus relation ("direct": `raise … from`, "handling": raised
// while handling it) and depth (1: right above the last exception); null
// when there is none.
std::string result_json(const MatchResult& result, const ResultJsonSource& source, int indent = -1,
                        const CauseMatch* cause = nullptr);

}  // namespace errdex::match
