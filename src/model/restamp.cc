#include "model/restamp.h"

#include <utility>

#include "model/record_json.h"

namespace errdex::model {
namespace {

// Swaps the record's stamp with `s`.
void swap_stamp(ErrorRecord& r, Stamp& s) {
  std::swap(r.github_url, s.github_url);
  std::swap(r.analyzed_sha, s.analyzed_sha);
  std::swap(r.analyzed_at, s.analyzed_at);
  if (r.analysis) std::swap(r.analysis->at, s.analysis_at);
  std::swap(r.line_number, s.line_number);
  std::swap(r.source_code_start, s.source_code_start);
  std::swap(r.source_code_end, s.source_code_end);
}

}  // namespace

Stamp stamp_of(const ErrorRecord& r) {
  return {r.github_url,    r.analyzed_sha,        r.analyzed_at, r.analysis ? r.analysis->at : std::string(),
          r.line_number, r.source_code_start, r.source_code_end};
}

void restore_stamp(ErrorRecord& r, const Stamp& s) {
  r.github_url = s.github_url;
  r.analyzed_sha = s.analyzed_sha;
  r.analyzed_at = s.analyzed_at;
  if (r.analysis) r.analysis->at = s.analysis_at;
  r.line_number = s.line_number;
  r.source_code_start = s.source_code_start;
  r.source_code_end = s.source_code_end;
}

std::string body_json(ErrorRecord& r) {
  Stamp empty;
  swap_stamp(r, empty);
  std::string out = to_json(r);
  swap_stamp(r, empty);
  return out;
}

bool same_but_stamp(const ErrorRecord& a, ErrorRecord& b) {
  if (a.analysis.has_value() != b.analysis.has_value()) return false;
  Stamp lent = stamp_of(a);
  swap_stamp(b, lent);
  const bool same = a == b;
  swap_stamp(b, lent);
  return same;
}

}  // namespace errdex::model
