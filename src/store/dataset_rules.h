#pragma once
// What every backend of Store answers the same way, whatever it keeps:
// which datasets it accepts, the order of a repository's revisions (and so
// which is current), how a revision is named, and the words a search looks
// for. Internal to the store stage.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/store.h"
#include "util/expected.h"

namespace errdex::store {

// A stored revision with the backend's key for its dataset.
struct StoredRevision {
  std::int64_t id = 0;
  Revision revision;
};

// An error naming the first reason `dataset` cannot be ingested (no repo or
// sha, site keys not one per record, a record id that is not 16 lowercase
// hex digits, a record of another repository or sha, an id given twice).
Status check_dataset(const Dataset& dataset);

// Puts `rows`, given in ingest order, in revision order (Store::ingest:
// as versions when every revision has a ref, else as given) and marks the
// last one current.
void order_revisions(std::vector<StoredRevision>& rows);

// The last of `rows` that `rev` names (Store::revision: a ref, a sha, or a
// sha's first 7+ digits), or nullptr.
const StoredRevision* find_revision(const std::vector<StoredRevision>& rows, const std::string& rev);

// The datasets Store::forget drops of a repository's `rows`: all of them
// without `rev`, else the one find_revision names (none when it names none).
std::vector<std::int64_t> datasets_to_forget(const std::vector<StoredRevision>& rows,
                                             const std::optional<std::string>& rev);

// The words a search looks for in user text: runs of ASCII letters and
// digits and of bytes >= 0x80 (so non-ASCII text survives), at most 32 (a
// longer text is a pasted document; its tail adds nothing). Everything
// else separates words: nothing typed is ever query syntax.
std::vector<std::string> search_words(std::string_view text);
// Every word of `text` as search_words splits it, with no limit, joined by
// spaces: what a backend indexes so that records and queries split alike.
std::string indexed_words(std::string_view text);
// Every word of `text` as search_words splits it, ASCII case-folded: what a
// search ranked in memory compares (store::search_at).
std::vector<std::string> folded_words(std::string_view text);

// Import roots as ingest stores them (a JSON array of strings); anything
// else reads as unknown (empty), and matching falls back to the usual roots.
std::vector<std::string> import_roots_from_json(std::string_view json);

}  // namespace errdex::store
