#pragma once
// What the site's pages (pages.h) and the JSON API (api.h) share: the
// failures a handler throws, which App::handle answers with a status; a page
// rendered in the layout, a JSON body, a problem in either form; query
// parameters read strictly; a record's summary; and the store's reads both
// make (full-text search, a record in an older revision).
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/error_record.h"
#include "store/store.h"
#include "web/app.h"
#include "web/page_data.h"
#include "web/snapshot.h"

namespace errdex::web {

using Data = PageData;
using Query = std::map<std::string, std::string>;

// Search pages go no deeper than this many hits.
constexpr int k_max_search_offset = 1000;

// A failure with the status it maps to; thrown by handlers, answered by
// App::handle.
struct HttpError {
  int status;
  std::string message;
};

// A store that could not answer (PostgreSQL stopped or unreachable): 503,
// while what the snapshot holds still answers.
struct StoreFailure {
  std::string message;
};

std::shared_ptr<const std::string> share(std::string s);

// `name` (an asset) rendered with `data`; `page` puts it in the layout.
std::string render(const std::string& name, const Data& data);
Response page(int status, const std::string& title, const std::string& tmpl, const Data& data, const std::string& q = "");
Response json_response(int status, std::string body);
// A failure as JSON (`api`) or as a page.
Response problem(bool api, int status, const std::string& message);
// 301 by default; 302 for a place that may change (a record's latest revision).
Response redirect(const std::string& location, int status = 301);

// Query parameters: a missing or empty one is the default (nothing); one
// that is not a whole number in [lo, hi] is a 400.
int int_param(const Query& q, const std::string& name, int def, int lo, int hi);
std::optional<std::string> opt_param(const Query& q, const std::string& name);
int cursor_param(const Query& q, int max);
// `repo`, when given: owner/name, else a 400 (a malformed name is an error,
// not a repository that is not there).
std::optional<std::string> repo_param(const Query& q);

// A request body's bytes as UTF-8, read in the charset its Content-Type
// names (`text/plain; charset=latin-1`: through iconv, so any encoding it
// knows); as UTF-8 when it names none. Throws 415 for a charset iconv does
// not know and 400 for bytes that are not valid in theirs, rather than
// reading them as something else.
std::string body_text(std::string_view bytes, std::string_view content_type);

// The error pasted in a request body, for POST /api/match and the paste
// page alike: text/plain, {"text": …, "top": N} (N from 1 to 50, set in
// `top` when given) or a form's `text` field (a form body without that
// field is the text itself: `curl --data 'ValueError: …'`), in the charset
// its Content-Type names. Throws 415 for another type, 400 for JSON of
// another shape, an empty text or one that is no text.
std::string pasted_text(const Request& req, int* top = nullptr);

std::string slug_of(const model::ErrorRecord& r);
// A record as a list item: in the API, and on the pages.
nlohmann::json summary_json(const model::ErrorRecord& r);
Data summary_data(const model::ErrorRecord& r);
// A matched record's page: the current one, or for a record of another
// revision, the page as that revision holds it.
std::string candidate_url(const Snapshot& s, const model::ErrorRecord& r);
// The page of record `id` as revision `ref` (its name, else its sha) of
// `repo` holds it: /errors/{id}?repo=…&ref=….
std::string revision_url(const std::string& id, const std::string& repo, const std::string& ref);
// The revision name a dataset line's record is pinned to in such urls: its
// ref, else its commit.
std::string revision_key(const model::DatasetLine& line);

struct SearchPage {
  std::vector<store::SearchHit> hits;
  std::optional<int> next;
};
SearchPage run_search(const Snapshot& s, store::Store& st, const std::string& q, const std::optional<std::string>& repo,
                      int limit, int offset);

// The records of revision `ref` that holds `id`, and its index among
// them: of `repo`, else of the repository its current record belongs to,
// else of any repository holding that ref.
struct RevisionHolding {
  std::vector<model::DatasetLine> lines;
  std::size_t at = 0;
};
std::optional<RevisionHolding> revision_holding(const Snapshot& s, store::Store& st, const std::string& id,
                                                const std::string& ref, const std::optional<std::string>& repo);
// The page of `id` as the last stored revision holding it (revision_url);
// nothing when no revision holds it.
std::optional<std::string> last_holding(store::Store& st, const std::string& id);
// The record `id` in revision `ref`, as revision_holding finds it.
std::optional<model::DatasetLine> line_at(const Snapshot& s, store::Store& st, const std::string& id,
                                          const std::string& ref, const std::optional<std::string>& repo);

}  // namespace errdex::web
