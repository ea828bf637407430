#pragma once
// The site's HTML pages: home, search, the paste box and its answer, a
// repository's sites, a diff of two revisions, and the error page. Each
// reads the served snapshot (and the store for search, history and older
// revisions) and renders its template, or throws HttpError / StoreFailure
// (respond.h).
#include <string>

#include "web/respond.h"

namespace errdex::web {

Response home(const Snapshot& s);
Response search_page(const Snapshot& s, const Query& q, store::Store& st);
// The paste box (`text` null) or its answer.
Response match_page(const Snapshot& s, const std::string* text);
// POST /match: the paste box's form.
Response match_submit(const Snapshot& s, const Request& req);
// A repository's current sites, and its stored revisions with links to the
// diffs between them.
Response repo_page(const Snapshot& s, const std::string& repo, const Query& q, store::Store& st);
Response repo_diff_page(const Snapshot& s, const std::string& repo, const Query& q, store::Store& st);
// `line` is the current record, or the record `revision[at]` of a stored
// revision (all its records), shown with a note that names it and links
// the current one; then the related sections and every link list that
// revision's sites. `report_url`: where "report a problem" links go
// (AppOptions).
Response error_page(const Snapshot& s, const model::DatasetLine& line, store::Store& st, const std::string& report_url,
                    const std::vector<model::DatasetLine>* revision = nullptr, std::size_t at = 0);

}  // namespace errdex::web
