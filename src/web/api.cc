#include "web/api.h"

#include "match/result_json.h"
#include "model/record_json.h"
#include "store/history.h"
#include "util/text.h"
#include "web/routes.h"
#include "web/url.h"

namespace errdex::web {
namespace {

using nlohmann::json;

// One revision's records (`?ref=` with the repository): 404 when it is
// not stored.
std::vector<model::DatasetLine> lines_at(store::Store& st, const std::string& repo, const std::string& ref) {
  auto lines = st.list_at(repo, ref);
  if (!lines) throw StoreFailure{lines.error()};
  if (!*lines) throw HttpError{404, repo + " has no stored revision " + ref};
  return std::move(**lines);
}

// With the chain's cause when no indexed raise explains the last exception.
std::string match_json(const Snapshot& s, std::string_view text, const match::MatchResult& m, int top) {
  match::ResultJsonSource src;
  src.record = [&](std::size_t i) { return s.matched(i); };
  src.revision = [&](const model::ErrorRecord& r) { return s.revision_of(r); };
  src.url = [&](const model::ErrorRecord& r) { return candidate_url(s, r); };
  src.engine = s.matcher->name();
  const std::optional<match::CauseMatch> cause =
      match::match_cause([&](std::string_view t) { return s.matcher->match(t, top); }, text, m);
  return match::result_json(m, src, -1, cause ? &*cause : nullptr);
}

}  // namespace

Response api_search(const Snapshot& s, const Query& q, store::Store& st) {
  auto text = opt_param(q, "q");
  if (!text) throw HttpError{400, "q is required"};
  auto repo = repo_param(q);
  int limit = int_param(q, "limit", 20, 1, 100);
  int offset = cursor_param(q, k_max_search_offset);
  if (auto ref = opt_param(q, "ref")) {
    // One revision, searched in memory (the full-text index holds the
    // current ones): one page.
    if (!repo) throw HttpError{400, "ref needs repo: a revision belongs to one repository"};
    auto hits = store::search_at(st, *text, *repo, *ref, limit);
    if (!hits) throw StoreFailure{hits.error()};
    if (!*hits) throw HttpError{404, *repo + " has no stored revision " + *ref};
    json list = json::array();
    for (const auto& h : **hits) {
      json item = summary_json(h.record);
      item["url"] = revision_url(h.record.id, *repo, *ref);
      item["score"] = h.rank;
      list.push_back(std::move(item));
    }
    return json_response(200, dump({{"query", *text}, {"ref", *ref}, {"hits", list}, {"nextCursor", nullptr}}));
  }
  auto res = run_search(s, st, *text, repo, limit, offset);
  json hits = json::array();
  for (const auto& h : res.hits) {
    json item = summary_json(h.record);
    item["score"] = h.rank;
    hits.push_back(std::move(item));
  }
  return json_response(200, dump({{"query", *text},
                                   {"hits", hits},
                                   {"nextCursor", res.next ? json(std::to_string(*res.next)) : json(nullptr)}}));
}

Response api_match(const Snapshot& s, const Request& req, const Query& q) {
  int top = int_param(q, "top", 5, 1, 50);
  std::string text = pasted_text(req, &top);
  return json_response(200, match_json(s, text, s.matcher->match(text, top), top));
}

Response api_repos(const Snapshot& s) {
  json repos = json::array();
  for (const auto& r : s.repos)
    repos.push_back({{"repo", r.repo},
                     {"sha", r.sha},
                     {"datasetVersion", r.dataset_version},
                     {"records", r.records},
                     {"url", repo_url(r.repo)}});
  return json_response(200, dump({{"repos", repos}}));
}

Response api_repo_errors(const Snapshot& s, const std::string& repo, const Query& q,
                         store::Store& st) {
  auto it = s.by_repo.find(repo);
  if (it == s.by_repo.end()) throw HttpError{404, "no repository " + repo + " is indexed"};
  int limit = int_param(q, "limit", 100, 1, 1000);
  int offset = int_param(q, "cursor", 0, 0, 100000000);
  if (auto ref = opt_param(q, "ref")) {
    auto lines = lines_at(st, repo, *ref);
    json errors = json::array();
    for (std::size_t i = offset; i < lines.size() && i < static_cast<std::size_t>(offset) + limit; ++i) {
      json item = summary_json(lines[i].record);
      item["url"] = revision_url(lines[i].record.id, repo, *ref);
      errors.push_back(std::move(item));
    }
    bool more = static_cast<std::size_t>(offset) + limit < lines.size();
    return json_response(200, dump({{"repo", repo},
                                     {"ref", *ref},
                                     {"errors", errors},
                                     {"nextCursor", more ? json(std::to_string(offset + limit)) : json(nullptr)}}));
  }
  json errors = json::array();
  const auto& idx = it->second;
  for (std::size_t i = offset; i < idx.size() && i < static_cast<std::size_t>(offset) + limit; ++i)
    errors.push_back(summary_json(s.lines[idx[i]]->record));
  bool more = static_cast<std::size_t>(offset) + limit < idx.size();
  return json_response(200, dump({{"repo", repo},
                                   {"errors", errors},
                                   {"nextCursor", more ? json(std::to_string(offset + limit)) : json(nullptr)}}));
}

Response api_dataset(const Snapshot& s, const Query& q, store::Store& st) {
  auto repo = repo_param(q);
  std::string out;
  if (repo && !s.by_repo.count(*repo)) throw HttpError{404, "no repository " + *repo + " is indexed"};
  if (auto ref = opt_param(q, "ref")) {
    if (!repo) throw HttpError{400, "ref needs repo: a revision belongs to one repository"};
    for (const auto& l : lines_at(st, *repo, *ref)) {
      out += model::to_json(l);
      out += '\n';
    }
  } else {
    for (const auto& l : s.lines) {
      if (repo && l->record.repo != *repo) continue;
      out += model::to_json(*l);
      out += '\n';
    }
  }
  Response r;
  r.content_type = "application/x-ndjson; charset=utf-8";
  r.body = share(std::move(out));
  r.headers.emplace_back("Content-Disposition", "attachment; filename=\"errdex-dataset.jsonl\"");
  return r;
}

Response api_jobs(store::JobQueue* queue, const Query& q) {
  if (!queue) throw HttpError{404, "this server's store has no job queue (jobs need a PostgreSQL store)"};
  int limit = int_param(q, "limit", 100, 1, 1000);
  auto jobs = queue->list(limit);
  if (!jobs) throw StoreFailure{jobs.error()};
  return json_response(200, store::to_json(*jobs));
}

Response api_error(const Snapshot& s, store::Store& st, const std::string& text, const Query& q) {
  const auto folded = model::record_id_of(text);
  if (!folded) throw HttpError{400, "not a record id (16 hex digits): " + text};
  const std::string& id = *folded;
  if (auto ref = opt_param(q, "ref")) {
    auto at = line_at(s, st, id, *ref, repo_param(q));
    if (!at) throw HttpError{404, "no record " + id + " in a revision " + *ref};
    return json_response(200, model::to_json(*at));
  }
  const auto* line = s.find(id);
  if (!line) throw HttpError{404, "no record " + id};
  return json_response(200, model::to_json(*line));
}

Response api_error_history(const Snapshot& s, store::Store& st, const std::string& text) {
  const auto folded = model::record_id_of(text);
  if (!folded) throw HttpError{400, "not a record id (16 hex digits): " + text};
  const std::string& id = *folded;
  auto h = store::site_history(st, id, s.diffs.get());
  if (!h) throw StoreFailure{h.error()};
  if (!*h) throw HttpError{404, "no stored revision holds record " + id};
  return json_response(200, store::to_json(**h));
}

Response api_repo_revisions(store::Store& st, const std::string& repo) {
  auto revs = st.revisions(repo);
  if (!revs) throw StoreFailure{revs.error()};
  if (revs->empty()) throw HttpError{404, "no repository " + repo};
  json list = json::array();
  for (const auto& r : *revs)
    list.push_back({{"ref", r.ref},
                    {"sha", r.sha},
                    {"name", store::revision_name(r)},
                    {"datasetVersion", r.dataset_version},
                    {"records", r.records},
                    {"current", r.current}});
  return json_response(200, dump({{"repo", repo}, {"revisions", list}}));
}

Response api_repo_diff(const Snapshot& s, store::Store& st, const std::string& repo, const Query& q) {
  auto from = opt_param(q, "from"), to = opt_param(q, "to");
  if (!from || !to) throw HttpError{400, "from and to are required"};
  std::string missing;
  auto d = s.diffs->diff(st, repo, *from, *to, &missing);
  if (!d) throw StoreFailure{d.error()};
  if (!*d) throw HttpError{404, repo + " has no stored revision " + missing};
  return json_response(200, store::to_json(repo, **d));
}

}  // namespace errdex::web
