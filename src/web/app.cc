#include "web/app.h"

#include <kainjow/mustache.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <shared_mutex>
#include <unordered_map>

#include "match/result_json.h"
#include "model/record_json.h"
#include "store/history.h"
#include "util/text.h"
#include "web/assets.h"
#include "web/gzip.h"
#include "web/html.h"
#include "web/page_data.h"
#include "web/routes.h"
#include "web/snapshot.h"
#include "web/url.h"

namespace errdex::web {
namespace {

using nlohmann::json;
using Data = kainjow::mustache::data;

constexpr const char* k_json = "application/json";
constexpr const char* k_html = "text/html; charset=utf-8";
// Smaller bodies gain nothing from gzip.
constexpr std::size_t k_gzip_min = 1024;
constexpr int k_max_search_offset = 1000;
// A repository page lists at most this many sites; a filter narrows it.
constexpr std::size_t k_repo_page_items = 1500;
constexpr std::size_t k_related_items = 15;
constexpr std::size_t k_also_items = 50;

// A failure with the status it maps to; thrown only inside handle() and
// caught there.
struct HttpError {
  int status;
  std::string message;
};

// A store that could not answer (PostgreSQL stopped or unreachable): 503,
// while what the snapshot holds still answers.
struct StoreFailure {
  std::string message;
};

const char* reason(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

std::shared_ptr<const std::string> share(std::string s) { return std::make_shared<const std::string>(std::move(s)); }

bool is_record_id(std::string_view id) {
  return id.size() == 16 && std::all_of(id.begin(), id.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::string slug_of(const model::ErrorRecord& r) { return r.slug.empty() ? "error" : r.slug; }

json summary_json(const model::ErrorRecord& r) {
  return {{"id", r.id},           {"repo", r.repo},         {"errorClass", r.error_class},
          {"errorMessage", r.error_message}, {"filePath", r.file_path}, {"lineNumber", r.line_number},
          {"url", error_url(r)}};
}

// A matched record's page: the current one, or for a record of another
// revision, the page as that revision holds it.
std::string candidate_url(const Snapshot& s, const model::ErrorRecord& r) {
  if (s.matched_current(r)) return error_url(r);
  auto [ref, sha] = s.revision_of(r);
  return "/errors/" + r.id + "?repo=" + percent_encode(r.repo) + "&ref=" + percent_encode(ref.empty() ? sha : ref);
}

Data summary_data(const model::ErrorRecord& r) {
  Data d;
  d.set("url", error_url(r));
  d.set("id", r.id);
  d.set("repo", r.repo);
  d.set("error_class", r.error_class);
  d.set("error_message", title_of(r.error_message));
  d.set("file_path", r.file_path);
  d.set("line_number", std::to_string(r.line_number));
  return d;
}

int int_param(const std::map<std::string, std::string>& q, const std::string& name, int def, int lo, int hi) {
  auto it = q.find(name);
  if (it == q.end() || it->second.empty()) return def;
  const auto& s = it->second;
  if (s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw HttpError{400, name + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi)};
  int v = std::stoi(s);
  if (v < lo || v > hi)
    throw HttpError{400, name + " must be from " + std::to_string(lo) + " to " + std::to_string(hi)};
  return v;
}

std::optional<std::string> opt_param(const std::map<std::string, std::string>& q, const std::string& name) {
  auto it = q.find(name);
  if (it == q.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

std::string lower(std::string_view s) { return util::to_lower_ascii(s); }
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

  // ---- rendering -------------------------------------------------------

  static std::string render(const std::string& name, const Data& data) {
    // Templates are parsed once per thread: kainjow's render is not const.
    thread_local std::map<std::string, std::unique_ptr<kainjow::mustache::mustache>> templates;
    auto& t = templates[name];
    if (!t) {
      auto text = asset(name);
      if (!text) throw std::runtime_error("missing template " + name);
      t = std::make_unique<kainjow::mustache::mustache>(std::string(*text));
      if (!t->is_valid()) throw std::runtime_error("template " + name + ": " + t->error_message());
      // One escaping function for the whole site (html.h).
      t->set_custom_escape([](const std::string& s) { return html_escape(s); });
    }
    return t->render(data);
  }

  static Response page(int status, const std::string& title, const std::string& tmpl, const Data& data,
                       const std::string& q = "") {
    Data layout;
    layout.set("title", title);
    layout.set("q", q);
    layout.set("body", render(tmpl, data));
    Response r;
    r.status = status;
    r.content_type = k_html;
    r.body = share(render("layout.html", layout));
    return r;
  }

  static Response json_response(int status, std::string body) {
    Response r;
    r.status = status;
    r.content_type = k_json;
    r.body = share(std::move(body));
    return r;
  }

  static Response problem(bool api, int status, const std::string& message) {
    if (api) return json_response(status, dump({{"error", {{"status", status}, {"message", message}}}}));
    Data d;
    d.set("status", std::to_string(status));
    d.set("reason", reason(status));
    d.set("message", message);
    return page(status, reason(status), "problem.html", d);
  }

  static Response redirect(const std::string& location) {
    Response r;
    r.status = 301;
    r.content_type = "text/plain; charset=utf-8";
    r.body = share("Moved to " + location + "\n");
    r.headers.emplace_back("Location", location);
    return r;
  }

  // The reason goes to the operator, not the client (it names the
  // database); at most once every few seconds, however many requests fail.
  void log_store_failure(const std::string& message) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    auto last = last_store_log.load();
    if (now - last < std::chrono::steady_clock::duration(std::chrono::seconds(5)).count() && last != 0) return;
    if (last_store_log.compare_exchange_strong(last, now)) std::cerr << "errdex serve: 503: " << message << "\n";
  }

  Response api_jobs(const std::map<std::string, std::string>& q) {
    if (!options.jobs) throw HttpError{404, "this server's store has no job queue (jobs need a PostgreSQL store)"};
    int limit = int_param(q, "limit", 100, 1, 1000);
    auto jobs = options.jobs->list(limit);
    if (!jobs) throw StoreFailure{jobs.error()};
    return json_response(200, store::to_json(*jobs));
  }

  // ---- handlers --------------------------------------------------------

  // The commit a repository's links pin to: its sha, or the tag when the
  // tree was scanned outside git (sha all zeros).
  static std::string shown_commit(const Snapshot& s, const store::RepoSummary& r) {
    if (r.sha.find_first_not_of('0') != std::string::npos) return sha10(r.sha);
    auto it = s.by_repo.find(r.repo);
    if (it == s.by_repo.end() || it->second.empty()) return sha10(r.sha);
    return pinned_ref(s.lines[it->second.front()].record.github_url, r.sha);
  }

  Response home(const Snapshot& s) {
    Data repos{Data::type::list};
    for (const auto& r : s.repos) {
      Data d;
      d.set("repo", r.repo);
      d.set("url", repo_url(r.repo));
      d.set("records", std::to_string(r.records));
      d.set("sha", r.sha);
      d.set("sha10", shown_commit(s, r));
      d.set("dataset_version", r.dataset_version);
      repos.push_back(d);
    }
    Data d;
    d.set("repos", repos);
    d.set("has_repos", !s.repos.empty());
    return page(200, "Error knowledge base", "home.html", d);
  }

  struct SearchPage {
    std::vector<store::SearchHit> hits;
    std::optional<int> next;
  };

  // The store ranks ids; the records come from the snapshot in memory (or
  // from the store, for one that landed after the snapshot was taken).
  SearchPage run_search(const Snapshot& s, store::Store& st, const std::string& q, const std::optional<std::string>& repo,
                        int limit, int offset) {
    auto ids = st.search_ids(q, repo, offset + limit + 1);
    if (!ids) throw StoreFailure{ids.error()};
    SearchPage out;
    auto& all = *ids;
    if (static_cast<int>(all.size()) > offset + limit && offset + limit <= k_max_search_offset) out.next = offset + limit;
    for (int i = offset; i < static_cast<int>(all.size()) && i < offset + limit; ++i) {
      if (const auto* line = s.find(all[i].id)) {
        out.hits.push_back({line->record, all[i].rank});
        continue;
      }
      auto got = st.get(all[i].id);
      if (!got) throw StoreFailure{got.error()};
      if (*got) out.hits.push_back({std::move((*got)->record), all[i].rank});
    }
    return out;
  }

  static int cursor_param(const std::map<std::string, std::string>& q, int max) {
    return int_param(q, "cursor", 0, 0, max);
  }

  Response search_page(const Snapshot& s, const std::map<std::string, std::string>& q, store::Store& st) {
    auto text = opt_param(q, "q");
    auto repo = opt_param(q, "repo");
    Data d;
    d.set("q", text.value_or(""));
    d.set("repo", optional_value(repo));
    d.set("has_query", text.has_value());
    if (text) {
      int offset = cursor_param(q, k_max_search_offset);
      auto res = run_search(s, st, *text, repo, 20, offset);
      auto words = query_words(*text);
      Data hits{Data::type::list};
      for (const auto& h : res.hits) {
        Data item = summary_data(h.record);
        item.set("message_html", highlight_terms(title_of(h.record.error_message), words));
        std::string doc = h.record.documentation;
        if (doc.size() > 240) {
          auto cut = doc.rfind(' ', 240);
          doc = doc.substr(0, cut == std::string::npos ? 240 : cut);
          while (!doc.empty() && (static_cast<unsigned char>(doc.back()) & 0x80)) doc.pop_back();  // no cut UTF-8
          doc += " …";
        }
        item.set("doc_html", highlight_terms(doc, words));
        hits.push_back(item);
      }
      d.set("hits", hits);
      d.set("count", std::to_string(offset + res.hits.size()) + (res.next ? "+" : ""));
      d.set("plural", offset + res.hits.size() == 1 ? "" : "s");
      Data next{Data::type::list};
      if (res.next) {
        std::string url = "/search?q=" + percent_encode(*text) + (repo ? "&repo=" + percent_encode(*repo) : "") +
                          "&cursor=" + std::to_string(*res.next);
        d.set("next_url", url);
      } else {
        d.set("next_url", false);
      }
    }
    return page(200, text ? "Search: " + *text : "Search", "search.html", d, text.value_or(""));
  }

  std::string match_json(const Snapshot& s, const match::MatchResult& m) {
    match::ResultJsonSource src;
    src.record = [&](std::size_t i) { return s.matched(i); };
    src.revision = [&](const model::ErrorRecord& r) { return s.revision_of(r); };
    src.url = [&](const model::ErrorRecord& r) { return candidate_url(s, r); };
    src.engine = s.matcher->name();
    return match::result_json(m, src);
  }

  Response match_page(const Snapshot& s, const std::string* text) {
    Data d;
    d.set("text", text ? *text : "");
    d.set("has_result", text != nullptr);
    if (text) {
      auto m = s.matcher->match(*text, 5);
      d.set("engine", s.matcher->name());
      d.set("exception_class", m.exception.error_class.empty() ? std::string("(no exception line found)")
                                                                : std::string(m.exception.error_class));
      d.set("exception_message", m.exception.error_class.empty() ? std::string() : std::string(m.exception.message));
      d.set("has_frames", !m.frames.empty());
      d.set("frame_count", std::to_string(m.frames.size()));
      if (!m.frames.empty())
        d.set("last_frame", m.frames.back().file + ":" + std::to_string(m.frames.back().line));
      d.set("fulltext", m.fulltext_fallback);
      d.set("ambiguous", m.ambiguous);
      const bool weak = !m.candidates.empty() && match::weak(m.candidates.front().reasons);
      d.set("weak", weak && !m.exception.error_class.empty());
      d.set("weak_words", weak && m.exception.error_class.empty());
      Data cands{Data::type::list};
      bool first = true;
      for (const auto& c : m.candidates) {
        const model::ErrorRecord* r = s.matched(c.index);
        if (!r) continue;
        Data item = summary_data(*r);
        item.set("url", candidate_url(s, *r));
        // The revision it was found in, and the others as consistent.
        std::string at = s.revision_of(*r).first;
        for (std::uint32_t k : c.revisions)
          if (const model::ErrorRecord* o = s.matched(k))
            if (auto ref = s.revision_of(*o).first; !ref.empty()) at += ", " + ref + ":" + std::to_string(o->line_number);
        item.set("revision", at);
        item.set("best", first);
        first = false;
        char score[32];
        std::snprintf(score, sizeof score, "%.2f", c.score);
        item.set("score", std::string(score));
        item.set("reasons", join(match::reason_words(c.reasons), ", "));
        Data caps{Data::type::list};
        for (const auto& [n, v] : match::shown_captures(c.captures)) {
          Data cap;
          cap.set("name", std::string(n));
          cap.set("value", std::string(v));
          caps.push_back(cap);
        }
        item.set("captures", caps);
        item.set("has_captures", !c.captures.empty());
        cands.push_back(item);
      }
      d.set("has_candidates", !first);
      d.set("candidates", cands);
    }
    return page(200, text ? "Match" : "Paste an error", "match.html", d);
  }

  Response repo_page(const Snapshot& s, const std::string& repo, const std::map<std::string, std::string>& q) {
    auto it = s.by_repo.find(repo);
    const store::RepoSummary* summary = nullptr;
    for (const auto& r : s.repos)
      if (r.repo == repo) summary = &r;
    if (it == s.by_repo.end() || !summary) throw HttpError{404, "No repository " + repo + " is indexed."};
    std::string filter = lower(opt_param(q, "filter").value_or(""));
    bool by_class = opt_param(q, "by").value_or("file") == "class";
    std::map<std::string, std::vector<std::size_t>> groups;
    std::size_t shown = 0;
    for (auto i : it->second) {
      const auto& r = s.lines[i].record;
      if (!filter.empty() && lower(r.file_path).find(filter) == std::string::npos &&
          lower(r.error_class).find(filter) == std::string::npos &&
          lower(r.error_message).find(filter) == std::string::npos)
        continue;
      if (shown == k_repo_page_items) break;
      ++shown;
      groups[by_class ? r.error_class : r.file_path].push_back(i);
    }
    Data gl{Data::type::list};
    for (const auto& [name, idx] : groups) {
      Data g;
      g.set("name", name);
      g.set("count", std::to_string(idx.size()));
      Data items{Data::type::list};
      for (auto i : idx) {
        const auto& r = s.lines[i].record;
        Data item = summary_data(r);
        item.set("where", by_class ? r.file_path + ":" + std::to_string(r.line_number) : "line " + std::to_string(r.line_number));
        items.push_back(item);
      }
      g.set("items", items);
      gl.push_back(g);
    }
    Data d;
    d.set("repo", repo);
    d.set("url", repo_url(repo));
    d.set("api_url", "/api/repos/" + percent_encode(repo, true) + "/errors");
    d.set("records", std::to_string(it->second.size()));
    d.set("sha", summary->sha);
    d.set("sha10", shown_commit(s, *summary));
    d.set("dataset_version", summary->dataset_version);
    d.set("filter", opt_param(q, "filter").value_or(""));
    d.set("by_file", !by_class);
    d.set("by_class", by_class);
    d.set("filtered", shown != it->second.size());
    d.set("shown", std::to_string(shown));
    d.set("groups", gl);
    return page(200, repo, "repo.html", d);
  }

  // The History section: the site in each stored revision of its
  // repository, its message where it changed.
  static void set_history(Data& d, store::Store& st, const std::string& id) {
    auto h = store::site_history(st, id);
    if (!h || !*h || (*h)->revisions.size() < 2) {
      d.set("has_history", false);
      return;
    }
    const store::SiteHistory& hist = **h;
    Data rows{Data::type::list};
    std::size_t held = 0;
    const std::string* previous = nullptr;
    for (const auto& at : hist.revisions) {
      Data row;
      row.set("name", store::revision_name(at.revision));
      if (at.site) {
        ++held;
        // The page as that revision holds the site.
        row.set("url", "/errors/" + at.site->id + "?repo=" + percent_encode(at.site->repo) + "&ref=" +
                           percent_encode(at.revision.ref.empty() ? at.revision.sha : at.revision.ref));
        row.set("where", at.site->file_path + ":" + std::to_string(at.site->line));
        row.set("message", !previous || *previous != at.site->error_message ? at.site->error_message : std::string());
        previous = &at.site->error_message;
      } else {
        row.set("where", std::string("—"));
        row.set("message", std::string());
      }
      rows.push_back(row);
    }
    auto name = [&](int i) { return i < 0 ? std::string() : store::revision_name(hist.revisions[i].revision); };
    d.set("has_history", true);
    d.set("history", rows);
    d.set("held", std::to_string(held));
    d.set("revision_count", std::to_string(hist.revisions.size()));
    d.set("first_seen", name(hist.first));
    d.set("last_seen", name(hist.last));
    d.set("has_removed_in", hist.removed_in >= 0);
    d.set("removed_in", name(hist.removed_in));
  }

  // /repos/{owner}/{name}/diff?from=&to=: what changed between two revisions.
  Response repo_diff_page(const std::string& repo, const std::map<std::string, std::string>& q, store::Store& st) {
    auto from = opt_param(q, "from"), to = opt_param(q, "to");
    if (!from || !to) throw HttpError{400, "Say which revisions to compare: ?from=…&to=…"};
    std::string missing;
    auto d = store::diff_revisions(st, repo, *from, *to, &missing);
    if (!d) throw StoreFailure{d.error()};
    if (!*d) throw HttpError{404, repo + " has no stored revision " + missing + "."};
    const store::RevisionDiff& diff = **d;
    auto sites = [](const std::vector<store::SiteAt>& list) {
      Data out{Data::type::list};
      for (const auto& s : list) {
        Data item;
        item.set("where", s.file_path + ":" + std::to_string(s.line));
        item.set("error_class", s.error_class);
        item.set("message", s.error_message);
        out.push_back(item);
      }
      return out;
    };
    auto pairs = [](const std::vector<std::pair<store::SiteAt, store::SiteAt>>& list) {
      Data out{Data::type::list};
      for (const auto& [a, b] : list) {
        Data item;
        item.set("old_where", a.file_path + ":" + std::to_string(a.line));
        item.set("new_where", b.file_path + ":" + std::to_string(b.line));
        item.set("old_class", a.error_class);
        item.set("new_class", b.error_class);
        item.set("old_message", a.error_message);
        item.set("new_message", b.error_message);
        out.push_back(item);
      }
      return out;
    };
    Data page_data;
    page_data.set("repo", repo);
    page_data.set("repo_url", repo_url(repo));
    page_data.set("from", store::revision_name(diff.from));
    page_data.set("to", store::revision_name(diff.to));
    page_data.set("counts", std::to_string(diff.added.size()) + " added, " + std::to_string(diff.removed.size()) +
                                " removed, " + std::to_string(diff.reworded.size()) + " reworded, " +
                                std::to_string(diff.class_changed.size()) + " with another class, " +
                                std::to_string(diff.moved.size()) + " moved");
    page_data.set("added", sites(diff.added));
    page_data.set("removed", sites(diff.removed));
    page_data.set("reworded", pairs(diff.reworded));
    page_data.set("class_changed", pairs(diff.class_changed));
    page_data.set("moved", pairs(diff.moved));
    page_data.set("api_url", "/api/repos/" + percent_encode(repo, true) + "/diff?from=" + percent_encode(*from) +
                                 "&to=" + percent_encode(*to));
    return page(200, repo + ": " + store::revision_name(diff.from) + " → " + store::revision_name(diff.to),
                "diff.html", page_data);
  }

  // `line` is the current record, or (`revision`) the record in an older
  // revision, shown with a note that names it and links the current one.
  Response error_page(const Snapshot& s, const model::DatasetLine& line, store::Store& st, bool revision = false) {
    const auto& r = line.record;
    // Where the site stands among the current records: what the related
    // sections read. A site the current revision no longer holds has none.
    auto found = s.by_id.find(r.id);
    const bool current = found != s.by_id.end() && s.lines[found->second].record.file_path == r.file_path;
    const std::size_t self = current ? found->second : s.lines.size();
    static const SiteContext k_no_context;
    const auto& ctx = current ? s.contexts[self] : k_no_context;
    Data d;
    d.set("revision", optional_value(revision ? std::optional<std::string>(line.ref.empty() ? r.analyzed_sha.substr(0, 10) : line.ref)
                                              : std::nullopt));
    d.set("current_url", found != s.by_id.end() ? error_url(s.lines[found->second].record) : std::string());
    d.set("has_current", found != s.by_id.end());
    set_record_fields(d, r, line.dataset_version, options.report_url);
    d.set("function", optional_value(ctx.function.empty() ? std::nullopt : std::optional<std::string>(ctx.function)));
    // Related: same function, same class in the file, same guard names.
    Data related{Data::type::list};
    static const std::vector<std::size_t> k_none;
    auto file_at = current ? s.by_file.find(r.repo + '\n' + r.file_path) : s.by_file.end();
    const auto& file_sites = file_at == s.by_file.end() ? k_none : file_at->second;
    std::vector<std::size_t> listed{self};
    auto add_group = [&](const std::string& heading, auto&& pred) {
      Data items{Data::type::list};
      std::size_t n = 0;
      for (auto i : file_sites) {
        if (std::find(listed.begin(), listed.end(), i) != listed.end() || !pred(i)) continue;
        listed.push_back(i);
        Data item = summary_data(s.lines[i].record);
        items.push_back(item);
        if (++n == k_related_items) break;
      }
      if (n == 0) return;
      Data g;
      g.set("heading", heading);
      g.set("items", items);
      related.push_back(g);
    };
    if (!ctx.function.empty())
      add_group("In the same function, " + ctx.function + "()",
                [&](std::size_t i) { return s.contexts[i].function == ctx.function; });
    add_group(r.error_class + " elsewhere in this file",
              [&](std::size_t i) { return s.lines[i].record.error_class == r.error_class; });
    if (!ctx.guard_names.empty())
      add_group("Guarded by the same names (" + join(ctx.guard_names, ", ") + ")", [&](std::size_t i) {
        for (const auto& n : s.contexts[i].guard_names)
          if (std::find(ctx.guard_names.begin(), ctx.guard_names.end(), n) != ctx.guard_names.end()) return true;
        return false;
      });
    d.set("related", related);

    auto same_at = current ? s.by_template.find(r.repo + '\n' + r.error_class + '\n' + r.error_message) : s.by_template.end();
    const auto& same = same_at == s.by_template.end() ? k_none : same_at->second;
    Data also{Data::type::list};
    std::size_t others = same.empty() ? 0 : same.size() - 1, shown = 0;
    for (auto i : same) {
      if (i == self) continue;
      if (shown++ == k_also_items) break;
      const auto& o = s.lines[i].record;
      Data item;
      item.set("url", error_url(o));
      item.set("file_path", o.file_path);
      item.set("line_number", std::to_string(o.line_number));
      also.push_back(item);
    }
    d.set("has_also", others > 0);
    d.set("also", also);
    d.set("also_count", std::to_string(others));
    d.set("also_plural", others == 1 ? "" : "s");
    d.set("also_more", optional_value(others > k_also_items ? std::optional<std::string>(std::to_string(others - k_also_items))
                                                             : std::nullopt));

    set_history(d, st, r.id);
    return page(200, r.error_class + ": " + title_of(r.error_message), "error.html", d);
  }

  // The record `id` in revision `ref`: of `repo`, else of the repository
  // its current record belongs to, else of any repository holding that ref.
  static std::optional<model::DatasetLine> line_at(const Snapshot& s, store::Store& st, const std::string& id,
                                                   const std::string& ref, const std::optional<std::string>& repo) {
    std::vector<std::string> repos;
    if (repo) repos.push_back(*repo);
    else if (const auto* line = s.find(id)) repos.push_back(line->record.repo);
    else
      for (const auto& r : s.repos) repos.push_back(r.repo);
    for (const auto& name : repos) {
      auto lines = st.list_at(name, ref);
      if (!lines) throw StoreFailure{lines.error()};
      if (!*lines) continue;
      for (auto& l : **lines)
        if (l.record.id == id) return std::move(l);
    }
    return std::nullopt;
  }

  // One revision's records (`?ref=` with the repository): 404 when it is
  // not stored.
  static std::vector<model::DatasetLine> lines_at(store::Store& st, const std::string& repo, const std::string& ref) {
    auto lines = st.list_at(repo, ref);
    if (!lines) throw StoreFailure{lines.error()};
    if (!*lines) throw HttpError{404, repo + " has no stored revision " + ref};
    return std::move(**lines);
  }

  Response api_search(const Snapshot& s, const std::map<std::string, std::string>& q, store::Store& st) {
    auto text = opt_param(q, "q");
    if (!text) throw HttpError{400, "q is required"};
    auto repo = opt_param(q, "repo");
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

  Response api_match(const Snapshot& s, const Request& req, const std::map<std::string, std::string>& q) {
    if (!util::is_valid_utf8(req.body)) throw HttpError{400, "the body is not valid UTF-8"};
    int top = int_param(q, "top", 5, 1, 50);
    std::string text;
    std::string ct = lower(req.content_type.substr(0, req.content_type.find(';')));
    ct = std::string(util::trim(ct));
    if (ct == "application/json") {
      json j = json::parse(req.body, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("text") || !j["text"].is_string())
        throw HttpError{400, "expected a JSON object {\"text\": \"...\"}"};
      text = j["text"].get<std::string>();
      if (j.contains("top")) {
        if (!j["top"].is_number_integer() || j["top"].get<long long>() < 1 || j["top"].get<long long>() > 50)
          throw HttpError{400, "top must be from 1 to 50"};
        top = j["top"].get<int>();
      }
    } else if (ct.empty() || ct == "text/plain") {
      text = req.body;
    } else if (ct == "application/x-www-form-urlencoded") {
      // The paste box's form has a `text` field. `curl --data 'ValueError:
      // ...'` sends the text itself, unencoded, under this type: a body
      // that is not a form with that field is the text.
      auto form = parse_query(req.body);
      if (form && form->count("text")) text = (*form)["text"];
      else text = req.body;
    } else {
      throw HttpError{415, "send text/plain, application/json or a form"};
    }
    if (util::trim(text).empty()) throw HttpError{400, "nothing to match: the text is empty"};
    if (util::looks_binary(text))
      throw HttpError{400, "the text holds NUL bytes or mostly control characters: send an error message or a traceback"};
    return json_response(200, match_json(s, s.matcher->match(text, top)));
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

  Response api_repo_errors(const Snapshot& s, const std::string& repo, const std::map<std::string, std::string>& q,
                           store::Store& st) {
    auto it = s.by_repo.find(repo);
    if (it == s.by_repo.end()) throw HttpError{404, "no repository " + repo + " is indexed"};
    int limit = int_param(q, "limit", 100, 1, 1000);
    int offset = int_param(q, "cursor", 0, 0, 100000000);
    if (auto ref = opt_param(q, "ref")) {
      auto lines = lines_at(st, repo, *ref);
      json errors = json::array();
      for (std::size_t i = offset; i < lines.size() && i < static_cast<std::size_t>(offset) + limit; ++i)
        errors.push_back(summary_json(lines[i].record));
      bool more = static_cast<std::size_t>(offset) + limit < lines.size();
      return json_response(200, dump({{"repo", repo},
                                       {"ref", *ref},
                                       {"errors", errors},
                                       {"nextCursor", more ? json(std::to_string(offset + limit)) : json(nullptr)}}));
    }
    json errors = json::array();
    const auto& idx = it->second;
    for (std::size_t i = offset; i < idx.size() && i < static_cast<std::size_t>(offset) + limit; ++i)
      errors.push_back(summary_json(s.lines[idx[i]].record));
    bool more = static_cast<std::size_t>(offset) + limit < idx.size();
    return json_response(200, dump({{"repo", repo},
                                     {"errors", errors},
                                     {"nextCursor", more ? json(std::to_string(offset + limit)) : json(nullptr)}}));
  }

  Response api_dataset(const Snapshot& s, const std::map<std::string, std::string>& q, store::Store& st) {
    auto repo = opt_param(q, "repo");
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
        if (repo && l.record.repo != *repo) continue;
        out += model::to_json(l);
        out += '\n';
      }
    }
    Response r;
    r.content_type = "application/x-ndjson; charset=utf-8";
    r.body = share(std::move(out));
    r.headers.emplace_back("Content-Disposition", "attachment; filename=\"errdex-dataset.jsonl\"");
    return r;
  }

  Response dispatch(const Route& route, const std::map<std::string, std::string>& params,
                    const std::map<std::string, std::string>& q, const Request& req, store::Store& st,
                    const Snapshot& s) {
    switch (route.id) {
      case RouteId::home: return home(s);
      case RouteId::search_page: return search_page(s, q, st);
      case RouteId::match_form: return match_page(s, nullptr);
      case RouteId::match_submit: {
        if (!util::is_valid_utf8(req.body)) throw HttpError{400, "the form is not valid UTF-8"};
        auto form = parse_query(req.body);
        if (!form) throw HttpError{400, form.error()};
        std::string text = (*form)["text"];
        if (util::trim(text).empty()) throw HttpError{400, "Paste an error message or a traceback."};
        if (util::looks_binary(text))
          throw HttpError{400, "That is not text (NUL bytes or control characters): paste an error message or a traceback."};
        return match_page(s, &text);
      }
      case RouteId::repo_page: return repo_page(s, params.at("owner") + "/" + params.at("name"), q);
      case RouteId::repo_diff_page: return repo_diff_page(params.at("owner") + "/" + params.at("name"), q, st);
      case RouteId::error_redirect:
      case RouteId::error_page: {
        const auto& id = params.at("id");
        if (!is_record_id(id)) throw HttpError{404, "“" + id + "” is not a record id (16 hex digits)."};
        if (auto ref = opt_param(q, "ref")) {
          // The site as an older revision holds it.
          auto at = line_at(s, st, id, *ref, opt_param(q, "repo"));
          if (!at) throw HttpError{404, "No record " + id + " in a stored revision " + *ref + "."};
          return error_page(s, *at, st, true);
        }
        const auto* line = s.find(id);
        if (!line) throw HttpError{404, "No record " + id + " in the current datasets."};
        if (route.id == RouteId::error_redirect || params.at("slug") != slug_of(line->record))
          return redirect(error_url(line->record));
        return error_page(s, *line, st);
      }
      case RouteId::static_file: {
        // Only the stylesheet and images: templates are not for download.
        const auto& file = params.at("file");
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
      case RouteId::api_error: {
        const auto& id = params.at("id");
        if (!is_record_id(id)) throw HttpError{400, "not a record id (16 lowercase hex digits): " + id};
        if (auto ref = opt_param(q, "ref")) {
          auto at = line_at(s, st, id, *ref, opt_param(q, "repo"));
          if (!at) throw HttpError{404, "no record " + id + " in a revision " + *ref};
          return json_response(200, model::to_json(*at));
        }
        const auto* line = s.find(id);
        if (!line) throw HttpError{404, "no record " + id};
        return json_response(200, model::to_json(*line));
      }
      case RouteId::api_search: return api_search(s, q, st);
      case RouteId::api_match: return api_match(s, req, q);
      case RouteId::api_repos: return api_repos(s);
      case RouteId::api_repo_errors: return api_repo_errors(s, params.at("owner") + "/" + params.at("name"), q, st);
      case RouteId::api_openapi: return json_response(200, openapi_json());
      case RouteId::api_jobs: return api_jobs(q);
      case RouteId::api_dataset: return api_dataset(s, q, st);
      case RouteId::api_error_history: {
        const auto& id = params.at("id");
        if (!is_record_id(id)) throw HttpError{400, "not a record id (16 lowercase hex digits): " + id};
        auto h = store::site_history(st, id);
        if (!h) throw StoreFailure{h.error()};
        if (!*h) throw HttpError{404, "no stored revision holds record " + id};
        return json_response(200, store::to_json(**h));
      }
      case RouteId::api_repo_revisions: {
        std::string repo = params.at("owner") + "/" + params.at("name");
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
      case RouteId::api_repo_diff: {
        std::string repo = params.at("owner") + "/" + params.at("name");
        auto from = opt_param(q, "from"), to = opt_param(q, "to");
        if (!from || !to) throw HttpError{400, "from and to are required"};
        std::string missing;
        auto d = store::diff_revisions(st, repo, *from, *to, &missing);
        if (!d) throw StoreFailure{d.error()};
        if (!*d) throw HttpError{404, repo + " has no stored revision " + missing};
        return json_response(200, store::to_json(repo, **d));
      }
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
  if (*sig == m_impl->snapshot()->signature) return false;
  auto snap = load_snapshot(store);
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
