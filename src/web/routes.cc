#include "web/routes.h"

#include <nlohmann/json.hpp>

namespace errdex::web {
namespace {

std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t start = 1;
  while (start <= path.size()) {
    auto slash = path.find('/', start);
    out.push_back(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

bool path_matches(std::string_view tmpl, std::string_view path, std::map<std::string, std::string>& params) {
  auto t = segments(tmpl), p = segments(path);
  if (t.size() != p.size()) return false;
  std::map<std::string, std::string> got;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].size() > 2 && t[i].front() == '{' && t[i].back() == '}') {
      if (p[i].empty()) return false;
      got[std::string(t[i].substr(1, t[i].size() - 2))] = std::string(p[i]);
    } else if (t[i] != p[i]) {
      return false;
    }
  }
  params = std::move(got);
  return true;
}

using nlohmann::json;

json error_response(const std::string& what) {
  return {{"description", what},
          {"content", {{"application/json", {{"schema", {{"$ref", "#/components/schemas/Problem"}}}}}}}};
}

json json_response(const std::string& what, const std::string& schema_ref) {
  return {{"description", what},
          {"content", {{"application/json", {{"schema", {{"$ref", "#/components/schemas/" + schema_ref}}}}}}}};
}

json param(const std::string& name, const std::string& in, bool required, json schema, const std::string& what) {
  return {{"name", name}, {"in", in}, {"required", required}, {"schema", std::move(schema)}, {"description", what}};
}

json build_openapi() {
  json string_t = {{"type", "string"}};
  json record_summary = {
      {"type", "object"},
      {"required", {"id", "repo", "errorClass", "errorMessage", "filePath", "lineNumber", "url"}},
      {"properties",
       {{"id", string_t},
        {"repo", string_t},
        {"errorClass", string_t},
        {"errorMessage", string_t},
        {"filePath", string_t},
        {"lineNumber", {{"type", "integer"}}},
        {"url", {{"type", "string"}, {"description", "The record's page on this server"}}}}}};
  json doc = {{"openapi", "3.1.0"},
              {"info",
               {{"title", "errdex"},
                {"version", "1"},
                {"description", "Error records: one per throw site (raise, warn, assert) of indexed source repositories."}}},
              {"paths", json::object()}};
  auto& schemas = doc["components"]["schemas"];
  schemas["Problem"] = {
      {"type", "object"},
      {"required", {"error"}},
      {"properties",
       {{"error",
         {{"type", "object"},
          {"required", {"status", "message"}},
          {"properties", {{"status", {{"type", "integer"}}}, {"message", string_t}}}}}}}};
  schemas["DatasetLine"] = {
      {"type", "object"},
      {"required", {"record", "datasetVersion"}},
      {"properties",
       {{"record", {{"type", "object"}, {"description", "The record, schema version 2 or later (record-format.md)"}}},
        {"datasetVersion", string_t},
        {"ref", {{"type", "string"}, {"description", "The revision's name, when its dataset has one"}}}}}};
  schemas["RecordSummary"] = record_summary;
  json hit = record_summary;
  hit["properties"]["score"] = {{"type", "number"}};
  schemas["SearchResult"] = {
      {"type", "object"},
      {"required", {"query", "hits", "nextCursor"}},
      {"properties",
       {{"query", string_t}, {"hits", {{"type", "array"}, {"items", hit}}}, {"nextCursor", {{"type", {"string", "null"}}}}}}};
  json capture = {{"type", "object"}, {"properties", {{"name", string_t}, {"value", string_t}}}};
  json candidate = {
      {"type", "object"},
      {"required", {"id", "repo", "ref", "sha", "filePath", "lineNumber", "errorClass", "errorMessage", "matchedMessage",
                    "variant", "score", "captures", "reasons", "url"}},
      {"properties",
       {{"id", string_t},
        {"repo", string_t},
        {"ref", {{"type", "string"}, {"description", "The revision's name; empty when it has none"}}},
        {"sha", string_t},
        {"filePath", string_t},
        {"lineNumber", {{"type", "integer"}}},
        {"errorClass", string_t},
        {"errorMessage", string_t},
        {"matchedMessage",
         {{"type", "string"}, {"description", "The message that matched: the record's, or the variant's that did"}}},
        {"variant",
         {{"type", {"integer", "null"}},
          {"description", "The matched message's index in the record's messageVariants; null: its own errorMessage"}}},
        {"score", {{"type", "number"}}},
        {"captures", {{"type", "array"}, {"items", capture}}},
        {"reasons", {{"type", "array"}, {"items", string_t}}},
        {"wraps",
         {{"type", {"object", "null"}},
          {"description", "With reason wraps: the site whose message this one raises again as its own class"},
          {"properties",
           {{"id", string_t}, {"repo", string_t}, {"filePath", string_t}, {"lineNumber", {{"type", "integer"}}},
            {"errorClass", string_t}}}}},
        {"url", {{"type", "string"}, {"description", "The record's page on this server"}}}}}};
  schemas["MatchResult"] = {
      {"type", "object"},
      {"required", {"engine", "exception", "frames", "chained", "chainedLeftOut", "candidates", "ambiguous", "fulltextFallback", "truncated", "classSites", "raisedBelowFrame", "weak", "cause"}},
      {"properties",
       {{"engine", {{"type", "string"}, {"description", "What answered: matcher"}}},
        {"exception", {{"type", "object"}, {"properties", {{"errorClass", string_t}, {"message", string_t}}}}},
        {"frames", {{"type", "array"}, {"items", {{"type", "object"}}}}},
        {"chained",
         {{"type", "array"},
          {"items", {{"type", "object"}}},
          {"description", "The text's other exceptions, as printed; of more than 32, the first 16 and the last 16"}}},
        {"chainedLeftOut",
         {{"type", "integer"}, {"description", "How many chained exceptions between those listed were left out"}}},
        {"ambiguous", {{"type", "boolean"}}},
        {"fulltextFallback", {{"type", "boolean"}}},
        {"truncated", {{"type", "boolean"}}},
        {"classSites",
         {{"type", "integer"},
          {"description", "Sites of the printed class with no text of their own, when too many to list and nothing else "
                          "agrees (else 0): only a traceback's frames tell which"}}},
        {"raisedBelowFrame",
         {{"type", "boolean"},
          {"description", "The innermost frame is in an indexed file, on a line no site raises at, and its statement is "
                          "no raise: a built-in or C code it calls, or the statement itself, raised the error; the "
                          "candidates print the same message elsewhere"}}},
        {"weak",
         {{"type", {"string", "null"}},
          {"enum", {"class", "placeholders", "words", nullptr}},
          {"description", "How little ties the first answer to the text, when only that: the class (its message does "
                          "not fit), the class and a message of placeholders only (any text fits it), or words shared "
                          "(no class printed); null otherwise"}}},
        {"candidates", {{"type", "array"}, {"items", candidate}}},
        {"cause",
         {{"type", {"object", "null"}},
          {"description", "When no indexed raise explains the last exception of a chain: the nearest exception up the "
                          "chain one explains, as a MatchResult (without engine or cause) with relation (direct: "
                          "raised from it; handling: raised while handling it) and depth (1: right above); else null"}}}}}};
  json repo = {{"type", "object"},
               {"properties",
                {{"repo", string_t},
                 {"sha", string_t},
                 {"datasetVersion", string_t},
                 {"records", {{"type", "integer"}}},
                 {"url", string_t}}}};
  schemas["Repos"] = {{"type", "object"},
                      {"required", {"repos"}},
                      {"properties", {{"repos", {{"type", "array"}, {"items", repo}}}}}};
  json site = {{"type", "object"},
               {"required", {"id", "filePath", "lineNumber", "errorClass", "errorMessage"}},
               {"properties",
                {{"id", string_t},
                 {"filePath", string_t},
                 {"lineNumber", {{"type", "integer"}}},
                 {"errorClass", string_t},
                 {"errorMessage", string_t}}}};
  json revision = {{"type", "object"},
                   {"required", {"ref", "sha", "name", "datasetVersion"}},
                   {"properties", {{"ref", string_t}, {"sha", string_t}, {"name", string_t}, {"datasetVersion", string_t}}}};
  json pair = {{"type", "object"}, {"required", {"old", "new"}}, {"properties", {{"old", site}, {"new", site}}}};
  json nullable_name = {{"type", {"string", "null"}}};
  schemas["History"] = {
      {"type", "object"},
      {"required", {"id", "repo", "revisions", "firstSeen", "lastSeen", "removedIn", "changes"}},
      {"properties",
       {{"id", string_t},
        {"repo", string_t},
        {"revisions", {{"type", "array"}, {"items", {{"type", "object"}, {"required", {"name", "present"}}}}}},
        {"firstSeen", nullable_name},
        {"lastSeen", nullable_name},
        {"removedIn", nullable_name},
        {"changes", {{"type", "array"}, {"items", {{"type", "object"}, {"required", {"from", "to", "old", "new"}}}}}},
        {"movedFrom", {{"type", {"object", "null"}}}},
        {"movedTo", {{"type", {"object", "null"}}}}}}};
  schemas["Revisions"] = {{"type", "object"},
                          {"required", {"repo", "revisions"}},
                          {"properties", {{"repo", string_t}, {"revisions", {{"type", "array"}, {"items", revision}}}}}};
  schemas["Diff"] = {{"type", "object"},
                     {"required", {"repo", "from", "to", "added", "removed", "reworded", "classChanged", "moved"}},
                     {"properties",
                      {{"repo", string_t},
                       {"from", revision},
                       {"to", revision},
                       {"added", {{"type", "array"}, {"items", site}}},
                       {"removed", {{"type", "array"}, {"items", site}}},
                       {"reworded", {{"type", "array"}, {"items", pair}}},
                       {"classChanged", {{"type", "array"}, {"items", pair}}},
                       {"moved", {{"type", "array"}, {"items", pair}}}}}};
  schemas["RepoErrors"] = {
      {"type", "object"},
      {"required", {"repo", "errors", "nextCursor"}},
      {"properties",
       {{"repo", string_t},
        {"errors", {{"type", "array"}, {"items", {{"$ref", "#/components/schemas/RecordSummary"}}}}},
        {"nextCursor", {{"type", {"string", "null"}}}}}}};

  json limit = param("limit", "query", false, {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}, {"default", 20}},
                     "Most items to return");
  json cursor = param("cursor", "query", false, string_t, "nextCursor of the previous page");
  auto& paths = doc["paths"];
  paths["/api/errors/{id}"]["get"] = {
      {"operationId", "getError"},
      {"summary", "One record, as a line of the dataset"},
      {"parameters",
       {param("id", "path", true, {{"type", "string"}, {"pattern", "^[0-9a-f]{16}$"}}, "Record id"),
        param("ref", "query", false, string_t, "The record in this revision (ref, sha or a sha's first 7+ digits)"),
        param("repo", "query", false, string_t, "With ref: the repository (default: the record's)")}},
      {"responses",
       {{"200", json_response("The record and its dataset version", "DatasetLine")},
        {"304", {{"description", "Not modified (If-None-Match)"}}},
        {"400", error_response("Not a record id")},
        {"404", error_response("No such record")}}}};
  paths["/api/search"]["get"] = {
      {"operationId", "search"},
      {"summary", "Full-text search over messages, classes, tags and documentation"},
      {"parameters",
       {param("q", "query", true, string_t, "Words to look for; never read as query syntax"),
        param("repo", "query", false, string_t, "Only this owner/name"),
        param("ref", "query", false, string_t, "With repo: search that revision (one page)"), limit, cursor}},
      {"responses",
       {{"200", json_response("Hits, best first", "SearchResult")},
        {"400", error_response("Missing q, bad limit/cursor, or ref without repo")},
        {"404", error_response("No such revision")}}}};
  paths["/api/match"]["post"] = {
      {"operationId", "match"},
      {"summary", "The throw sites that produce a pasted error message or traceback"},
      {"parameters", {param("top", "query", false, {{"type", "integer"}, {"minimum", 1}, {"maximum", 50}}, "Most candidates")}},
      {"requestBody",
       {{"required", true},
        {"content",
         {{"text/plain", {{"schema", string_t}}},
          {"application/json",
           {{"schema",
             {{"type", "object"},
              {"required", {"text"}},
              {"properties", {{"text", string_t}, {"top", {{"type", "integer"}}}}}}}}}}}}},
      {"responses",
       {{"200", json_response("Candidates, best first", "MatchResult")},
        {"400", error_response("Empty or unreadable body")},
        {"413", error_response("Body too large")}}}};
  paths["/api/repos"]["get"] = {{"operationId", "listRepos"},
                                {"summary", "Indexed repositories with their current dataset"},
                                {"responses", {{"200", json_response("Repositories", "Repos")}}}};
  paths["/api/repos/{owner}/{name}/errors"]["get"] = {
      {"operationId", "listRepoErrors"},
      {"summary", "The records of one repository, by file and line"},
      {"parameters",
       {param("owner", "path", true, string_t, "Repository owner"), param("name", "path", true, string_t, "Repository name"),
        param("limit", "query", false, {{"type", "integer"}, {"minimum", 1}, {"maximum", 1000}, {"default", 100}},
              "Most items to return"),
        cursor, param("ref", "query", false, string_t, "That revision's records (default: the current one)")}},
      {"responses",
       {{"200", json_response("One page of records", "RepoErrors")},
        {"400", error_response("Bad limit or cursor")},
        {"404", error_response("No such repository")}}}};
  json owner_name = {param("owner", "path", true, string_t, "Repository owner"),
                     param("name", "path", true, string_t, "Repository name")};
  paths["/api/errors/{id}/history"]["get"] = {
      {"operationId", "getErrorHistory"},
      {"summary", "The site across its repository's stored revisions: where it stood in each, first and last seen, "
                  "removed in, and each change of message or class"},
      {"parameters", {param("id", "path", true, {{"type", "string"}, {"pattern", "^[0-9a-f]{16}$"}}, "Record id")}},
      {"responses",
       {{"200", json_response("The history", "History")},
        {"400", error_response("Not a record id")},
        {"404", error_response("No stored revision holds it")}}}};
  paths["/api/repos/{owner}/{name}/revisions"]["get"] = {
      {"operationId", "listRepoRevisions"},
      {"summary", "The repository's stored revisions, first to last; the last is the current one"},
      {"parameters", owner_name},
      {"responses", {{"200", json_response("Revisions", "Revisions")}, {"404", error_response("No such repository")}}}};
  json diff_params = owner_name;
  diff_params.push_back(param("from", "query", true, string_t, "The older revision: ref, sha or a sha's first 7+ digits"));
  diff_params.push_back(param("to", "query", true, string_t, "The newer revision"));
  paths["/api/repos/{owner}/{name}/diff"]["get"] = {
      {"operationId", "diffRepoRevisions"},
      {"summary", "Errors added, removed, reworded, moved, or whose class changed, from one revision to another"},
      {"parameters", diff_params},
      {"responses",
       {{"200", json_response("The changes", "Diff")},
        {"400", error_response("from or to missing")},
        {"404", error_response("No such repository or revision")}}}};
  paths["/api/openapi.json"]["get"] = {
      {"operationId", "openapi"},
      {"summary", "This document"},
      {"responses", {{"200", {{"description", "OpenAPI 3.1"}, {"content", {{"application/json", {{"schema", {{"type", "object"}}}}}}}}}}}};
  paths["/api/dataset.jsonl"]["get"] = {
      {"operationId", "dataset"},
      {"summary", "The dataset as JSON Lines, one DatasetLine per line"},
      {"parameters",
       {param("repo", "query", false, string_t, "Only this owner/name"),
        param("ref", "query", false, string_t, "With repo: that revision's lines (default: the current ones)")}},
      {"responses",
       {{"200", {{"description", "JSON Lines"}, {"content", {{"application/x-ndjson", {{"schema", string_t}}}}}}},
        {"404", error_response("No such repository")}}}};
  paths["/api/jobs"]["get"] = {
      {"operationId", "listJobs"},
      {"summary", "The queue of scan jobs (errdex enqueue, errdex worker), newest first: state, source, attempts, "
                  "worker and times"},
      {"parameters",
       {param("limit", "query", false, {{"type", "integer"}, {"minimum", 1}, {"maximum", 1000}, {"default", 100}},
              "Most jobs to return")}},
      {"responses",
       {{"200", {{"description", "Jobs"}, {"content", {{"application/json", {{"schema", {{"type", "object"}}}}}}}}},
        {"404", error_response("The store has no job queue (SQLite)")},
        {"503", error_response("The store cannot be read right now")}}}};
  return doc;
}

}  // namespace

const std::vector<Route>& routes() {
  static const std::vector<Route> k = {
      {RouteId::home, "GET", "/", false},
      {RouteId::search_page, "GET", "/search", false},
      {RouteId::match_form, "GET", "/match", false},
      {RouteId::match_submit, "POST", "/match", false},
      {RouteId::repo_page, "GET", "/repos/{owner}/{name}", false},
      {RouteId::repo_diff_page, "GET", "/repos/{owner}/{name}/diff", false},
      {RouteId::error_redirect, "GET", "/errors/{id}", false},
      {RouteId::error_page, "GET", "/errors/{id}/{slug}", false},
      {RouteId::static_file, "GET", "/static/{file}", false},
      {RouteId::api_error, "GET", "/api/errors/{id}", true},
      {RouteId::api_search, "GET", "/api/search", true},
      {RouteId::api_match, "POST", "/api/match", true},
      {RouteId::api_repos, "GET", "/api/repos", true},
      {RouteId::api_repo_errors, "GET", "/api/repos/{owner}/{name}/errors", true},
      {RouteId::api_error_history, "GET", "/api/errors/{id}/history", true},
      {RouteId::api_repo_revisions, "GET", "/api/repos/{owner}/{name}/revisions", true},
      {RouteId::api_repo_diff, "GET", "/api/repos/{owner}/{name}/diff", true},
      {RouteId::api_openapi, "GET", "/api/openapi.json", true},
      {RouteId::api_dataset, "GET", "/api/dataset.jsonl", true},
      {RouteId::api_jobs, "GET", "/api/jobs", true},
  };
  return k;
}

RouteMatch match_route(std::string_view method, std::string_view path) {
  RouteMatch out;
  std::string_view m = method == "HEAD" ? std::string_view("GET") : method;
  for (const auto& r : routes()) {
    std::map<std::string, std::string> params;
    if (!path_matches(r.path, path, params)) continue;
    if (r.method == m) {
      out.route = &r;
      out.params = std::move(params);
      out.allowed.clear();
      return out;
    }
    out.allowed.push_back(r.method);
    if (r.method == "GET") out.allowed.push_back("HEAD");
  }
  return out;
}

const std::string& openapi_json() {
  static const std::string k = build_openapi().dump(2);
  return k;
}

}  // namespace errdex::web
