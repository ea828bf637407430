#pragma once
// Every route the server answers, in one table: the router dispatches on it
// and the OpenAPI document (GET /api/openapi.json) is checked against it.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace errdex::web {

enum class RouteId {
  home, search_page, match_form, match_submit, repo_page, error_redirect, error_page, static_file,
  api_error, api_search, api_match, api_repos, api_repo_errors, api_openapi, api_dataset,
  api_error_history, api_repo_revisions, api_repo_diff, repo_diff_page, api_jobs,
};

struct Route {
  RouteId id;
  std::string_view method;  // GET or POST; every GET also answers HEAD
  std::string_view path;    // OpenAPI path template: /api/errors/{id}
  bool api;                 // under /api, JSON errors, in the OpenAPI document
};

const std::vector<Route>& routes();

struct RouteMatch {
  const Route* route = nullptr;
  std::map<std::string, std::string> params;  // {name} → decoded segment
  std::vector<std::string_view> allowed;      // methods of the path, for 405
};

// The route for a decoded path and method. No route for the path: route is
// null and allowed is empty (404). The path exists with other methods:
// route is null and allowed lists them (405).
RouteMatch match_route(std::string_view method, std::string_view path);

// The OpenAPI 3.1 document of the API routes, as JSON text.
const std::string& openapi_json();

}  // namespace errdex::web
