#include "web/respond.h"

#include <kainjow/mustache.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "model/repo_name.h"
#include "util/text.h"
#include "web/assets.h"
#include "web/html.h"
#include "web/url.h"

namespace errdex::web {
namespace {

using nlohmann::json;

constexpr const char* k_json = "application/json";
constexpr const char* k_html = "text/html; charset=utf-8";

const char* reason(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 415: return "Unsupported Media Type";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

}  // namespace

std::shared_ptr<const std::string> share(std::string s) { return std::make_shared<const std::string>(std::move(s)); }

std::string render(const std::string& name, const Data& data) {
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

Response page(int status, const std::string& title, const std::string& tmpl, const Data& data, const std::string& q) {
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

Response json_response(int status, std::string body) {
  Response r;
  r.status = status;
  r.content_type = k_json;
  r.body = share(std::move(body));
  return r;
}

Response problem(bool api, int status, const std::string& message) {
  if (api) return json_response(status, dump({{"error", {{"status", status}, {"message", message}}}}));
  Data d;
  d.set("status", std::to_string(status));
  d.set("reason", reason(status));
  d.set("message", message);
  return page(status, reason(status), "problem.html", d);
}

Response redirect(const std::string& location, int status) {
  Response r;
  r.status = status;
  r.content_type = "text/plain; charset=utf-8";
  r.body = share("Moved to " + location + "\n");
  r.headers.emplace_back("Location", location);
  return r;
}

std::string body_text(std::string_view bytes, std::string_view content_type) {
  std::string charset;
  for (std::size_t at = content_type.find(';'); at != std::string_view::npos;) {
    std::size_t next = content_type.find(';', at + 1);
    auto param = util::trim(content_type.substr(at + 1, next == std::string_view::npos ? next : next - at - 1));
    if (auto eq = param.find('='); eq != std::string_view::npos &&
                                   util::to_lower_ascii(util::trim(param.substr(0, eq))) == "charset") {
      auto value = util::trim(param.substr(eq + 1));
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      charset = util::to_lower_ascii(value);
    }
    at = next;
  }
  if (charset.empty() || charset == "utf-8" || charset == "utf8" || charset == "us-ascii" || charset == "ascii") {
    if (!util::is_valid_utf8(bytes)) throw HttpError{400, "the body is not valid UTF-8"};
    return std::string(bytes);
  }
  if (!util::known_charset(charset))
    throw HttpError{415, "unknown charset \"" + charset.substr(0, 40) + "\": send UTF-8 or a charset iconv knows"};
  auto text = util::to_utf8(bytes, charset);
  if (!text) throw HttpError{400, "the body is not valid " + charset};
  return std::move(*text);
}

std::string slug_of(const model::ErrorRecord& r) { return r.slug.empty() ? "error" : r.slug; }

json summary_json(const model::ErrorRecord& r) {
  return {{"id", r.id},           {"repo", r.repo},         {"errorClass", r.error_class},
          {"errorMessage", r.error_message}, {"filePath", r.file_path}, {"lineNumber", r.line_number},
          {"url", error_url(r)}};
}

std::string candidate_url(const Snapshot& s, const model::ErrorRecord& r) {
  if (s.matched_current(r)) return error_url(r);
  auto [ref, sha] = s.revision_of(r);
  return revision_url(r.id, r.repo, ref.empty() ? sha : ref);
}

std::string revision_url(const std::string& id, const std::string& repo, const std::string& ref) {
  return "/errors/" + id + "?repo=" + percent_encode(repo) + "&ref=" + percent_encode(ref);
}

std::string revision_key(const model::DatasetLine& line) {
  return line.ref.empty() ? line.record.analyzed_sha : line.ref;
}

Data summary_data(const model::ErrorRecord& r) {
  Data d;
  d.set("url", error_url(r));
  d.set("id", r.id);
  d.set("repo", r.repo);
  d.set("error_class", model::shown_class(r.error_class));
  d.set("error_message", title_of(r.error_message));
  d.set("file_path", r.file_path);
  d.set("line_number", std::to_string(r.line_number));
  return d;
}

int int_param(const Query& q, const std::string& name, int def, int lo, int hi) {
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

std::optional<std::string> opt_param(const Query& q, const std::string& name) {
  auto it = q.find(name);
  if (it == q.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

std::optional<std::string> repo_param(const Query& q) {
  auto repo = opt_param(q, "repo");
  if (!repo || model::is_repo_name(*repo)) return repo;
  std::string shown = *repo;
  if (shown.size() > 80) {
    // Cut at a character's start.
    std::size_t cut = 80;
    while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;
    shown = shown.substr(0, cut) + "…";
  }
  throw HttpError{400, "repo must be owner/name, got “" + shown + "”"};
}

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

int cursor_param(const Query& q, int max) { return int_param(q, "cursor", 0, 0, max); }

std::optional<RevisionHolding> revision_holding(const Snapshot& s, store::Store& st, const std::string& id,
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
    for (std::size_t i = 0; i < (*lines)->size(); ++i)
      if ((**lines)[i].record.id == id) return RevisionHolding{std::move(**lines), i};
  }
  return std::nullopt;
}

std::optional<std::string> last_holding(store::Store& st, const std::string& id) {
  auto seen = st.occurrences(id);
  if (!seen) throw StoreFailure{seen.error()};
  if (seen->empty()) return std::nullopt;
  const std::string repo = seen->front().repo;
  auto revisions = st.revisions(repo);
  if (!revisions) throw StoreFailure{revisions.error()};
  for (auto r = revisions->rbegin(); r != revisions->rend(); ++r)
    for (const auto& at : *seen)
      if (at.repo == repo && at.ref == r->ref && at.sha == r->sha) return revision_url(id, repo, r->ref.empty() ? r->sha : r->ref);
  return std::nullopt;
}

std::optional<model::DatasetLine> line_at(const Snapshot& s, store::Store& st, const std::string& id,
                                          const std::string& ref, const std::optional<std::string>& repo) {
  auto held = revision_holding(s, st, id, ref, repo);
  if (!held) return std::nullopt;
  return std::move(held->lines[held->at]);
}

std::string pasted_text(const Request& req, int* top) {
  std::string text;
  std::string ct = util::to_lower_ascii(req.content_type.substr(0, req.content_type.find(';')));
  ct = std::string(util::trim(ct));
  if (ct == "application/json") {
    json j = json::parse(body_text(req.body, req.content_type), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("text") || !j["text"].is_string())
      throw HttpError{400, "expected a JSON object {\"text\": \"...\"}"};
    text = j["text"].get<std::string>();
    if (j.contains("top")) {
      if (!j["top"].is_number_integer() || j["top"].get<long long>() < 1 || j["top"].get<long long>() > 50)
        throw HttpError{400, "top must be from 1 to 50"};
      if (top) *top = j["top"].get<int>();
    }
  } else if (ct.empty() || ct == "text/plain") {
    text = body_text(req.body, req.content_type);
  } else if (ct == "application/x-www-form-urlencoded") {
    // The paste box's form has a `text` field. `curl --data 'ValueError:
    // ...'` sends the text itself, unencoded, under this type: a body
    // that is not a form with that field is the text. A field's
    // percent-encoded bytes are in the form's charset.
    auto form = parse_query(req.body, false);
    text = body_text(form && form->count("text") ? (*form)["text"] : req.body, req.content_type);
  } else {
    throw HttpError{415, "send text/plain, application/json or a form"};
  }
  if (util::trim(text).empty()) throw HttpError{400, "nothing to match: the text is empty"};
  if (util::looks_binary(text))
    throw HttpError{400, "the text holds NUL bytes or mostly control characters: send an error message or a traceback"};
  return text;
}

}  // namespace errdex::web
