#pragma once
// What a record owes to its revision: its stamp (analyze::stamp: githubUrl,
// analyzedSha, analyzedAt and analysis.at) and its place in the file
// (lineNumber, sourceCodeStart, sourceCodeEnd). A record analyzed at one
// revision and kept at the next differs only in its stamp, and one whose
// lines moved (an edit above it) in its place too, so revisions can share
// the rest of it: its JSON with the stamp left empty and the place 0 (its
// body), stored once.
#include <string>

#include "model/error_record.h"

namespace errdex::model {

struct Stamp {
  std::string github_url, analyzed_sha, analyzed_at, analysis_at;
  int line_number = 0, source_code_start = 0, source_code_end = 0;
};

// The record's stamp (analysis_at "" when it has no analysis).
Stamp stamp_of(const ErrorRecord& r);
// Gives `r` this stamp; analysis_at only when it has an analysis.
void restore_stamp(ErrorRecord& r, const Stamp& s);
// to_json(r) with the stamp left empty: equal for two records exactly when
// they are equal but for their stamps. `r` is lent for the call: it is as
// it was on return, and only it is touched, so calls on different records
// may run at once.
std::string body_json(ErrorRecord& r);
// Whether `a` and `b` are equal in every field but the stamp (place
// included); `b` is lent
// as body_json lends its record.
bool same_but_stamp(const ErrorRecord& a, ErrorRecord& b);

}  // namespace errdex::model
