#pragma once
// The JSON API's handlers (the routes under /api/, routes.h): each reads
// the served snapshot and, for revisions, history and search, the store,
// and answers JSON or throws HttpError / StoreFailure (respond.h).
#include <string>

#include "store/jobs.h"
#include "web/respond.h"

namespace errdex::web {

// GET /api/errors/{id} (`?ref=` and `repo=`: as a stored revision holds it).
Response api_error(const Snapshot& s, store::Store& st, const std::string& id, const Query& q);
Response api_error_history(const Snapshot& s, store::Store& st, const std::string& id);
Response api_search(const Snapshot& s, const Query& q, store::Store& st);
// POST /api/match: text/plain, {"text": …} or the paste box's form.
Response api_match(const Snapshot& s, const Request& req, const Query& q);
Response api_repos(const Snapshot& s);
Response api_repo_errors(const Snapshot& s, const std::string& repo, const Query& q, store::Store& st);
Response api_repo_revisions(store::Store& st, const std::string& repo);
Response api_repo_diff(const Snapshot& s, store::Store& st, const std::string& repo, const Query& q);
// GET /api/dataset: the records as JSON lines, as `errdex export` writes them.
Response api_dataset(const Snapshot& s, const Query& q, store::Store& st);
// GET /api/jobs: the job queue's latest jobs; 404 when the store has none.
Response api_jobs(store::JobQueue* queue, const Query& q);

}  // namespace errdex::web
