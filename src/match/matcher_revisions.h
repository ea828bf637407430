#pragma once
// Records of several revisions of one repository in one Matcher (build's
// `preference`): which records are one site, which are the same as a more
// preferred one (shadows: never indexed; kin: the same but for the line,
// reached through frames only), and an answer's other revisions. Built
// once by Matcher::build; add_revisions runs per shown answer, and only
// when several revisions are indexed.
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "match/matcher_index.h"
#include "model/error_record.h"

namespace errdex::match::detail {

// Sets m.revisions, m.site_of and m.preference: records of one repo and id
// are one site. Leaves them empty (one record, one site) when `preference`
// is empty, of another size than `records`, or no site has two records.
// With `refs` (by record, its revision's name), m.python_version too.
void find_sites(Index& m, const std::vector<model::ErrorRecord>& records, std::span<const std::uint32_t> preference,
                std::span<const std::string> refs);

// With m.revisions, after m.entries, m.statement and m.function are set:
// the shadows, kin, quiet runs, site_shared and entry_rep. `built_at` is by
// entry, the line where a raised variable was built (0: none);
// `variant_of` by entry past the records, its (record, variant).
void link_revisions(Index& m, const std::vector<model::ErrorRecord>& records, std::span<const int> built_at,
                    std::span<const std::pair<std::uint32_t, std::uint32_t>> variant_of);

// Appends to `out` what an answer by `record` lists as its revisions: its
// shadows; without a frame on its file (`frame` false) its kin and theirs
// too (they would have scored as it does), one run in preference order;
// then the records of `also` (site, record pairs sorted by site, then
// preference) of its site, and theirs, the whole sorted by preference
// without `record` itself.
void add_revisions(const Index& m, std::uint32_t record, bool frame,
                   std::span<const std::pair<std::uint32_t, std::uint32_t>> also, std::vector<std::uint32_t>& out);

// The record to answer by among `record` and its other revisions `others`
// (as add_revisions lists them) when the paste's interpreter is Python
// `version` (python_version_of_path; 0: unknown): the first of `others` of
// that version when `record` is not, which then takes its place in
// `others` (kept in preference order); else `record`.
std::uint32_t prefer_version(const Index& m, std::uint32_t record, std::uint32_t version, std::span<std::uint32_t> others);

// Which of `record`'s messages entry e's pattern is: empty for its own,
// else its index in messageVariants (an entry of a message's first line
// shows that message). Another record of the site (a revision that
// prefer_version chose) is searched for the same pattern.
std::optional<std::uint32_t> matched_variant(const Index& m, std::uint32_t record, std::uint32_t e);

}  // namespace errdex::match::detail
