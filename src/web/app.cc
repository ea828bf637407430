#include "web/app.h"

#include <atomic>
#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "model/record_json.h"
#include "util/text.h"
#include "web/api.h"
#include "web/assets.h"
#include "web/gzip.h"
#include "web/pages.h"
#include "web/respond.h"
#include "web/routes.h"
#include "web/url.h"

namespace errdex::web {
namespace {

// Smaller bodies gain nothing from gzip.
constexpr std::size_t k_gzip_min = 1024;

// Only the stylesheet and images: templates are not for download.
Response static_file(const std::string& file) {
  std::string type;
  if (file.size() > 4 && file.compare(file.size() - 4, 4, ".css") == 0) type = "text/css; charset=utf-8";
  if (file.size() > 4 && file.compare(file.size() - 4, 4, ".svg") == 0) type = "image/svg+xml";
  auto data = asset(file);
  if (type.empty() || !data) throw HttpError{404, "No file " + file + "."};
  Response r;
  r.content_type = type;
  r.body = share(std::string(*data));
  r.headers.emplace_back("Cache-Control", "public, max-age=3600");
  return r;
}

}  // namespace

struct App::Impl {
  AppOptions options;

  mutable std::mutex snap_mu;
  std::shared_ptr<const Snapshot> snap;
  std::mutex refresh_mu;

  struct Cached {
    Response response;
    std::once_flag gz_once;
    std::shared_ptr<const std::string> gz;
  };
  std::shared_mutex cache_mu;
  std::unordered_map<std::string, std::shared_ptr<Cached>> cache;
  std::size_t cache_size = 0;
  std::atomic<std::chrono::steady_clock::rep> last_store_log{0};

  std::shared_ptr<const Snapshot> snapshot() const {
    std::lock_guard lock(snap_mu);
    return snap;
  }

  void clear_cache() {
    std::unordered_map<std::string, std::shared_ptr<Cached>> dropped;
    std::unique_lock lock(cache_mu);
    dropped.swap(cache);
    cache_size = 0;
  }

  // The reason goes to the operator, not the client (it names the
  // database); at most once every few seconds, however many requests fail.
  void log_store_failure(const std::string& message) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    auto last = last_store_log.load();
    if (now - last < std::chrono::steady_clock::duration(std::chrono::seconds(5)).count() && last != 0) return;
    if (last_store_log.compare_exchange_strong(last, now)) std::cerr << "errdex serve: 503: " << message << "\n";
  }

  Response dispatch(const Route& route, const std::map<std::string, std::string>& params, const Query& q,
                    const Request& req, store::Store& st, const Snapshot& s) {
    auto repo = [&] { return params.at("owner") + "/" + params.at("name"); };
    switch (route.id) {
      case RouteId::home: return home(s);
      case RouteId::search_page: return search_page(s, q, st);
      case RouteId::match_form: return match_page(s, nullptr);
      case RouteId::match_submit: return match_submit(s, req);
      case RouteId::repo_page: return repo_page(s, repo(), q, st);
      case RouteId::repo_diff_page: return repo_diff_page(s, repo(), q, st);
      case RouteId::error_redirect:
      case RouteId::error_page: {
        const auto folded = model::record_id_of(params.at("id"));
        if (!folded) throw HttpError{404, "“" + params.at("id") + "” is not a record id (16 hex digits)."};
        const std::string& id = *folded;
        // An id in capitals is the same record, at its own address.
        const bool canonical = id == params.at("id");
        if (auto ref = opt_param(q, "ref")) {
          // The site as an older revision holds it.
          auto held = revision_holding(s, st, id, *ref, repo_param(q));
          if (!held) throw HttpError{404, "No record " + id + " in a stored revision " + *ref + "."};
          return error_page(s, held->lines[held->at], st, options.report_url, &held->lines, held->at);
        }
        const auto* line = s.find(id);
        if (!line) {
          // A site the current revision no longer holds: its page as the
          // last revision that held it (links from before, `history`).
          if (auto last = last_holding(st, id)) return redirect(*last, 302);
          throw HttpError{404, "No record " + id + " in the current datasets."};
        }
        if (route.id == RouteId::error_redirect || !canonical || params.at("slug") != slug_of(line->record))
          return redirect(error_url(line->record));
        return error_page(s, *line, st, options.report_url);
      }
      case RouteId::static_file: return static_file(params.at("file"));
      case RouteId::api_error: return api_error(s, st, params.at("id"), q);
      case RouteId::api_search: return api_search(s, q, st);
      case RouteId::api_match: return api_match(s, req, q);
      case RouteId::api_repos: return api_repos(s);
      case RouteId::api_repo_errors: return api_repo_errors(s, repo(), q, st);
      case RouteId::api_openapi: return json_response(200, openapi_json());
      case RouteId::api_jobs: return api_jobs(options.jobs.get(), q);
      case RouteId::api_dataset: return api_dataset(s, q, st);
      case RouteId::api_error_history: return api_error_history(s, st, params.at("id"));
      case RouteId::api_repo_revisions: return api_repo_revisions(st, repo());
      case RouteId::api_repo_diff: return api_repo_diff(s, st, repo(), q);
    }
    throw HttpError{404, "no such page"};
  }

  // Adds the ETag, answers If-None-Match, and picks the gzip body.
  static Response finish(Response r, const Request& req, Cached* cached) {
    bool compressible = r.content_type.rfind("text/", 0) == 0 || r.content_type.rfind("application/", 0) == 0;
    if (compressible) r.headers.emplace_back("Vary", "Accept-Encoding");
    if (r.status == 200 && !r.etag.empty() && !req.if_none_match.empty()) {
      bool hit = req.if_none_match == "*";
      std::string_view v = req.if_none_match;
      for (std::size_t p = 0; !hit && (p = v.find(r.etag, p)) != std::string_view::npos; p += r.etag.size()) hit = true;
      if (hit) {
        Response nm;
        nm.status = 304;
        nm.etag = r.etag;
        nm.headers = r.headers;
        nm.body = share("");
        return nm;
      }
    }
    if (compressible && r.body && r.body->size() >= k_gzip_min && accepts_gzip(req.accept_encoding)) {
      if (cached) {
        std::call_once(cached->gz_once, [&] { cached->gz = share(gzip_compress(*cached->response.body)); });
        r.body = cached->gz;
      } else {
        r.body = share(gzip_compress(*r.body));
      }
      r.headers.emplace_back("Content-Encoding", "gzip");
    }
    return r;
  }

  Response handle(const Request& req, store::Store& st) {
    bool api = req.target.rfind("/api/", 0) == 0 || req.target == "/api";
    try {
      // Only routed, successful GETs are cached, so a hit on the raw target
      // needs no decoding or routing.
      if (req.method == "GET" || req.method == "HEAD") {
        std::shared_ptr<Cached> hit;
        {
          std::shared_lock lock(cache_mu);
          if (auto it = cache.find(req.target); it != cache.end()) hit = it->second;
        }
        if (hit) return finish(hit->response, req, hit.get());
      }
      auto qpos = req.target.find('?');
      std::string_view raw_path = std::string_view(req.target).substr(0, qpos);
      auto path = decode_path(raw_path);
      if (!path) throw HttpError{400, "Bad path: " + path.error() + "."};
      std::map<std::string, std::string> query;
      if (qpos != std::string::npos) {
        auto q = parse_query(std::string_view(req.target).substr(qpos + 1));
        if (!q) throw HttpError{400, "Bad query string: " + q.error() + "."};
        query = std::move(*q);
      }
      auto m = match_route(req.method, *path);
      if (!m.route) {
        if (!m.allowed.empty()) {
          Response r = problem(api, 405, "This address answers " + join({m.allowed.begin(), m.allowed.end()}, ", ") + " only.");
          std::vector<std::string> allowed(m.allowed.begin(), m.allowed.end());
          r.headers.emplace_back("Allow", join(allowed, ", "));
          return r;
        }
        throw HttpError{404, "Nothing lives at " + *path + "."};
      }
      // Pages whose addresses are few (one per record, repository or
      // file) are cached; searches, matches and filters, whose addresses
      // are unbounded, are computed each time.
      bool cacheable = qpos == std::string::npos &&
                       (m.route->id == RouteId::api_error || m.route->id == RouteId::error_page ||
                        m.route->id == RouteId::home || m.route->id == RouteId::static_file ||
                        m.route->id == RouteId::api_repos || m.route->id == RouteId::api_openapi ||
                        m.route->id == RouteId::repo_page);
      std::shared_ptr<Cached> cached;
      {
        auto s = snapshot();
        Response r = dispatch(*m.route, m.params, query, req, st, *s);
        if (r.status == 200 && m.route->method == "GET") r.etag = "\"" + util::hex64(util::fnv1a64(*r.body)) + "\"";
        if (!cacheable || r.status != 200) return finish(std::move(r), req, nullptr);
        auto entry = std::make_shared<Cached>();
        entry->response = std::move(r);
        std::unordered_map<std::string, std::shared_ptr<Cached>> dropped;  // freed outside the lock
        {
          std::unique_lock lock(cache_mu);
          // Only if the snapshot is still the one this was rendered from.
          if (snapshot() == s) {
            cache_size += entry->response.body->size() + req.target.size();
            if (cache_size > options.cache_bytes) {
              dropped.swap(cache);
              cache_size = entry->response.body->size() + req.target.size();
            }
            cache.emplace(req.target, entry);
          }
        }
        cached = std::move(entry);
      }
      return finish(cached->response, req, cached.get());
    } catch (const HttpError& e) {
      return problem(api, e.status, e.message);
    } catch (const StoreFailure& e) {
      log_store_failure(e.message);
      Response r = problem(api, 503, "The store cannot be read right now; what this server holds in memory still "
                                     "answers. Try again shortly.");
      r.headers.emplace_back("Retry-After", "5");
      return r;
    } catch (const std::exception& e) {
      return problem(api, 500, std::string("internal error: ") + e.what());
    }
  }
};

App::App(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
App::~App() = default;

Expected<std::unique_ptr<App>> App::create(store::Store& store, AppOptions options) {
  auto snap = load_snapshot(store);
  if (!snap) return Error{snap.error()};
  auto impl = std::make_unique<Impl>();
  impl->options = std::move(options);
  impl->snap = std::move(*snap);
  return std::unique_ptr<App>(new App(std::move(impl)));
}

Response App::handle(const Request& request, store::Store& store) { return m_impl->handle(request, store); }

Expected<bool> App::refresh(store::Store& store) {
  std::lock_guard guard(m_impl->refresh_mu);
  auto sig = store_signature(store);
  if (!sig) return Error{sig.error()};
  auto held = m_impl->snapshot();
  if (*sig == held->signature) return false;
  auto snap = load_snapshot(store, held.get());
  if (!snap) return Error{snap.error()};
  {
    std::lock_guard lock(m_impl->snap_mu);
    m_impl->snap = std::move(*snap);
  }
  m_impl->clear_cache();
  return true;
}

std::size_t App::records() const { return m_impl->snapshot()->lines.size(); }

std::string App::match_engine() const { return m_impl->snapshot()->matcher->name(); }

}  // namespace errdex::web