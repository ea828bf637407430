#pragma once
// From throw-site facts to error records. The static analyst writes every
// field from facts of the code, offline.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/class_index.h"
#include "analyze/prose_memo.h"
#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze {

// Where a file's sites come from.
struct FileContext {
  std::string repo;         // owner/name
  std::string file_path;    // from the repository root (prefix applied)
  std::string sha;          // analyzedSha
  std::string link_ref;     // what githubUrl pins to: sha, or a tag when the sha is unknown
  std::string analyzed_at;  // ISO time with ms
  std::string_view source;  // the whole file
  // The repository's classes, for resolving custom exceptions; null when
  // only the builtins are known.
  const ClassIndex* classes = nullptr;
  // The file's docstrings (FileFacts::docstrings), which the prose quotes;
  // may be null.
  const std::vector<model::Docstring>* docstrings = nullptr;
  // Python sites' prose kept from this path's last analysis in the same
  // command, and where this analysis leaves its own; may be null.
  ProseMemo* prose = nullptr;
};

// What a record owes to the revision it was analyzed at, set from `ctx`:
// analyzedSha, analyzedAt (and analysis.at), githubUrl. The rest of a
// static record follows from the file, its sites and their classes alone,
// so a record analyzed at another revision is this one once stamped.
void stamp(model::ErrorRecord& r, const FileContext& ctx);

// One record per site, in line order, written by the static analyst
// (schemaVersion 3, analysis.analyst "static", per-site lints; the
// repository-wide duplicate-message lint is lint_duplicates' job). Sites with identical class and template in
// one file get ordinals 0, 1, ... in line order, which keeps ids stable when
// lines move.
std::vector<model::ErrorRecord> analyze_file(const FileContext& ctx,
                                             const std::vector<model::ThrowSite>& sites);

// errorCode and httpStatus where the site's arguments give them:
// `code="E42"`, `errno.ENOENT`, `status_code=404`, `HTTPStatus.NOT_FOUND`.
std::optional<std::string> error_code_of(const model::ThrowSite& s);
std::optional<int> http_status_of_site(const model::ThrowSite& s, const ClassIndex::Resolution& resolution);

// The record id of record-format.md: from repo, path, class, template and
// ordinal, never the line.
std::string record_id(std::string_view repo, std::string_view path, std::string_view error_class,
                      std::string_view message, int ordinal);

// A hash of the analyst's and the record model's sources: records cached
// by one build are never read by another that would write them otherwise.
std::string_view analysis_version();

}  // namespace errdex::analyze
