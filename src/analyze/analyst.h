#pragma once
// From throw-site facts to error records. The static analyst writes every
// field from facts of the code, offline.
#include <string>
#include <string_view>
#include <vector>

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
};

// One record per site, in line order. Sites with identical class and template in
// one file get ordinals 0, 1, ... in line order, which keeps ids stable when
// lines move.
std::vector<model::ErrorRecord> analyze_file(const FileContext& ctx,
                                             const std::vector<model::ThrowSite>& sites);

// The record id of record-format.md: from repo, path, class, template and
// ordinal, never the line.
std::string record_id(std::string_view repo, std::string_view path, std::string_view error_class,
                      std::string_view message, int ordinal);

}  // namespace errdex::analyze
