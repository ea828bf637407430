#include "web/pages.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "match/chain_cause.h"
#include "match/result_json.h"
#include "store/history.h"
#include "util/text.h"
#include "web/html.h"
#include "web/url.h"

namespace errdex::web {
namespace {

// A repository page lists at most this many sites; a filter narrows it.
constexpr std::size_t k_repo_page_items = 1500;
constexpr std::size_t k_related_items = 15;
constexpr std::size_t k_also_items = 50;

// The commit a repository's links pin to: its sha, or the tag when the
// tree was scanned outside git (sha all zeros).
std::string shown_commit(const Snapshot& s, const store::RepoSummary& r) {
  if (r.sha.find_first_not_of('0') != std::string::npos) return sha10(r.sha);
  auto it = s.by_repo.find(r.repo);
  if (it == s.by_repo.end() || it->second.empty()) return sha10(r.sha);
  return pinned_ref(s.lines[it->second.front()]->record.github_url, r.sha);
}

// The History section: the site in each stored revision of its
// repository, its message where it changed.
void set_history(Data& d, store::Store& st, const std::string& id, store::DiffMemo* diffs) {
  auto h = store::site_history(st, id, diffs);
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
      row.set("url", revision_url(at.site->id, at.site->repo, at.revision.ref.empty() ? at.revision.sha : at.revision.ref));
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
  // A file renamed or split: the same site's page under its other id.
  auto elsewhere = [&](const char* key, const store::SiteHistory::Elsewhere& e) {
    d.set(std::string("has_") + key, e.revision >= 0);
    if (e.revision < 0) return;
    const store::Revision& r = hist.revisions[e.revision].revision;
    d.set(std::string(key) + "_url", revision_url(e.site.id, e.site.repo, r.ref.empty() ? r.sha : r.ref));
    d.set(std::string(key) + "_where", e.site.file_path + ":" + std::to_string(e.site.line));
    d.set(std::string(key) + "_revision", name(e.revision));
  };
  elsewhere("moved_from", hist.moved_from);
  elsewhere("moved_to", hist.moved_to);
}

}  // namespace

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

Response search_page(const Snapshot& s, const Query& q, store::Store& st) {
  auto text = opt_param(q, "q");
  auto repo = repo_param(q);
  Data d;
  d.set("q", text.value_or(""));
  d.set("repo", optional_value(repo));
  d.set("has_query", text.has_value());
  // `ref` searches one revision of `repo`, as GET /api/search does: one
  // page, each hit linking the page as that revision holds it.
  auto ref = opt_param(q, "ref");
  d.set("ref", optional_value(ref));
  if (ref && !repo) throw HttpError{400, "ref needs repo: a revision belongs to one repository"};
  if (text) {
    int offset = ref ? 0 : cursor_param(q, k_max_search_offset);
    SearchPage res;
    if (ref) {
      auto hits = store::search_at(st, *text, *repo, *ref, 20);
      if (!hits) throw StoreFailure{hits.error()};
      if (!*hits) throw HttpError{404, *repo + " has no stored revision " + *ref};
      res.hits = std::move(**hits);
    } else {
      res = run_search(s, st, *text, repo, 20, offset);
    }
    auto words = query_words(*text);
    Data hits{Data::type::list};
    for (const auto& h : res.hits) {
      Data item = summary_data(h.record);
      if (ref) item.set("url", revision_url(h.record.id, *repo, *ref));
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

namespace {

// What the page shows of one exception's match: what was read, what
// qualifies the answers, the throw sites.
Data answer_data(const Snapshot& s, const match::MatchResult& m) {
  Data d;
  d.set("engine", s.matcher->name());
  d.set("exception_class", m.exception.error_class.empty() ? std::string("(no exception line found)")
                                                            : std::string(m.exception.error_class));
  d.set("exception_message", m.exception.error_class.empty() ? std::string() : std::string(m.exception.message));
  d.set("has_frames", !m.frames.empty());
  d.set("frame_count", std::to_string(m.frames.size()));
  if (!m.frames.empty())
    d.set("last_frame", m.frames.back().file + ":" + std::to_string(m.frames.back().line));
  d.set("fulltext", m.fulltext_fallback);
  d.set("class_sites", m.class_sites > 0);
  d.set("class_site_count", std::to_string(m.class_sites));
  d.set("ambiguous", m.ambiguous);
  const bool below = m.raised_below && !m.frames.empty();
  d.set("raised_below", below);
  if (below) {
    const auto& f = m.frames.back();
    d.set("below_place", f.file + ":" + std::to_string(f.line) + (f.function.empty() ? "" : " in " + f.function));
    d.set("below_source", f.source);
    d.set("below_same_message", !m.candidates.empty() && m.candidates.front().reasons.pattern_text);
  }
  const match::Weakness weak = match::weakness(m);
  d.set("weak", weak == match::Weakness::class_only);
  d.set("weak_placeholders", weak == match::Weakness::placeholders);
  d.set("weak_words", weak == match::Weakness::words);
  Data cands{Data::type::list};
  bool first = true;
  for (const auto& c : m.candidates) {
    const model::ErrorRecord* r = s.matched(c.index);
    if (!r) continue;
    Data item = summary_data(*r);
    item.set("url", candidate_url(s, *r));
    // A message variant that matched is shown, with the record's own.
    const std::string& message = match::matched_message(*r, c);
    item.set("variant", &message != &r->error_message);
    if (&message != &r->error_message) {
      item.set("error_message", title_of(message));
      item.set("record_message", title_of(r->error_message));
    }
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
    const model::ErrorRecord* wrapped = c.wraps ? s.matched(*c.wraps) : nullptr;
    item.set("wraps", wrapped != nullptr);
    if (wrapped) {
      item.set("wraps_class", wrapped->error_class);
      item.set("wraps_place", wrapped->file_path + ":" + std::to_string(wrapped->line_number));
      item.set("wraps_url", candidate_url(s, *wrapped));
    }
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
  return d;
}

}  // namespace

Response match_page(const Snapshot& s, const std::string* text) {
  Data d;
  d.set("text", text ? *text : "");
  d.set("has_result", text != nullptr);
  if (text) {
    auto m = s.matcher->match(*text, 5);
    Data answers{Data::type::list};
    Data last = answer_data(s, m);
    last.set("heading", "What we read");
    last.set("cause_note", false);
    answers.push_back(last);
    // When no indexed raise explains the last exception of a chain, the
    // nearest cause one explains (or, raised by C code, one whose message a
    // site prints).
    auto answer = [&](std::string_view t) { return s.matcher->match(t, 5); };
    if (auto cause = match::match_cause(answer, *text, m)) {
      Data earlier = answer_data(s, cause->result);
      earlier.set("heading", cause->direct ? "Its cause" : "Raised while handling");
      earlier.set("cause_note", std::string("The exception above was raised ") +
                                    (cause->direct ? "from this one (raise … from)" : "while handling this one") +
                                    (match::explains(cause->result)
                                         ? ", which a raise of the index explains."
                                         : ", raised below its innermost frame; the sites below print its message."));
      answers.push_back(earlier);
    }
    d.set("answers", answers);
  }
  return page(200, text ? "Match" : "Paste an error", "match.html", d);
}

// The repository's stored revisions, first to last, each after the first
// linking its diff page from the one before it, and the whole span's; no
// list when one revision is stored.
void set_revisions(Data& d, store::Store& st, const std::string& repo) {
  auto revs = st.revisions(repo);
  if (!revs) throw StoreFailure{revs.error()};
  d.set("has_revisions", revs->size() > 1);
  if (revs->size() < 2) return;
  auto key = [](const store::Revision& r) { return r.ref.empty() ? r.sha : r.ref; };
  auto diff_url = [&](const store::Revision& from, const store::Revision& to) {
    return "/repos/" + percent_encode(repo, true) + "/diff?from=" + percent_encode(key(from)) +
           "&to=" + percent_encode(key(to));
  };
  Data list{Data::type::list};
  for (std::size_t k = 0; k < revs->size(); ++k) {
    Data item;
    item.set("name", store::revision_name((*revs)[k]));
    item.set("url", repo_url(repo) + "?ref=" + percent_encode(key((*revs)[k])));
    item.set("current", k + 1 == revs->size());
    item.set("diff_url", k == 0 ? Data(false) : Data(diff_url((*revs)[k - 1], (*revs)[k])));
    item.set("previous", k == 0 ? std::string() : store::revision_name((*revs)[k - 1]));
    list.push_back(item);
  }
  d.set("revisions", list);
  d.set("revision_count", std::to_string(revs->size()));
  d.set("span_url", diff_url(revs->front(), revs->back()));
  d.set("first", store::revision_name(revs->front()));
  d.set("last", store::revision_name(revs->back()));
}

Response repo_page(const Snapshot& s, const std::string& repo, const Query& q, store::Store& st) {
  auto it = s.by_repo.find(repo);
  const store::RepoSummary* summary = nullptr;
  for (const auto& r : s.repos)
    if (r.repo == repo) summary = &r;
  if (it == s.by_repo.end() || !summary) throw HttpError{404, "No repository " + repo + " is indexed."};
  // `ref`: one stored revision's sites, read from the store (the snapshot
  // holds the current revision's), each linking its page in that revision.
  const std::optional<std::string> ref = opt_param(q, "ref");
  std::vector<model::DatasetLine> at_ref;
  std::vector<const model::ErrorRecord*> records;
  if (ref) {
    auto lines = st.list_at(repo, *ref);
    if (!lines) throw StoreFailure{lines.error()};
    if (!*lines) throw HttpError{404, repo + " has no stored revision " + *ref};
    at_ref = std::move(**lines);
    for (const auto& l : at_ref) records.push_back(&l.record);
  } else {
    for (auto i : it->second) records.push_back(&s.lines[i]->record);
  }
  std::string filter = util::to_lower_ascii(opt_param(q, "filter").value_or(""));
  bool by_class = opt_param(q, "by").value_or("file") == "class";
  // `cursor`: how many matching sites earlier pages showed.
  const auto skip = static_cast<std::size_t>(cursor_param(q, static_cast<int>(records.size())));
  std::map<std::string, std::vector<std::size_t>> groups;
  std::size_t matching = 0, shown = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = *records[i];
    if (!filter.empty() && util::to_lower_ascii(r.file_path).find(filter) == std::string::npos &&
        util::to_lower_ascii(r.error_class).find(filter) == std::string::npos &&
        util::to_lower_ascii(r.error_message).find(filter) == std::string::npos)
      continue;
    if (matching++ < skip || shown == k_repo_page_items) continue;
    ++shown;
    groups[by_class ? model::shown_class(r.error_class) : r.file_path].push_back(i);
  }
  Data gl{Data::type::list};
  for (const auto& [name, idx] : groups) {
    Data g;
    g.set("name", name);
    g.set("count", std::to_string(idx.size()));
    Data items{Data::type::list};
    for (auto i : idx) {
      const auto& r = *records[i];
      Data item = summary_data(r);
      if (ref) item.set("url", revision_url(r.id, repo, *ref));
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
  d.set("records", std::to_string(records.size()));
  d.set("ref", optional_value(ref));
  const std::string& sha = ref && !records.empty() ? records.front()->analyzed_sha : summary->sha;
  d.set("sha", sha);
  d.set("sha10", ref ? sha10(sha) : shown_commit(s, *summary));
  d.set("dataset_version", summary->dataset_version);
  d.set("filter", opt_param(q, "filter").value_or(""));
  d.set("by_file", !by_class);
  d.set("by_class", by_class);
  d.set("filtered", shown != records.size() && matching > 0);
  d.set("shown", std::to_string(shown));
  d.set("of", filter.empty() ? std::to_string(matching)
                             : "the " + std::to_string(matching) + " sites that match (of " +
                                   std::to_string(records.size()) + ")");
  d.set("from", std::to_string(std::min(skip + 1, matching)));
  d.set("to", std::to_string(skip + shown));
  // The next page of the same filter and grouping, when sites are left.
  if (skip + shown < matching) {
    std::string next = repo_url(repo) + "?";
    if (ref) next += "ref=" + percent_encode(*ref) + "&";
    if (auto f = opt_param(q, "filter"); f && !f->empty()) next += "filter=" + percent_encode(*f) + "&";
    if (by_class) next += "by=class&";
    d.set("next_url", next + "cursor=" + std::to_string(skip + shown));
  } else {
    d.set("next_url", false);
  }
  d.set("groups", gl);
  set_revisions(d, st, repo);
  return page(200, repo, "repo.html", d);
}

// /repos/{owner}/{name}/diff?from=&to=: what changed between two revisions.
Response repo_diff_page(const Snapshot& s, const std::string& repo, const Query& q, store::Store& st) {
  auto from = opt_param(q, "from"), to = opt_param(q, "to");
  if (!from || !to) throw HttpError{400, "Say which revisions to compare: ?from=…&to=…"};
  std::string missing;
  auto d = s.diffs->diff(st, repo, *from, *to, &missing);
  if (!d) throw StoreFailure{d.error()};
  if (!*d) throw HttpError{404, repo + " has no stored revision " + missing + "."};
  const store::RevisionDiff& diff = **d;
  // Each site links its page as the revision it is listed from holds it.
  auto key = [](const store::Revision& r) { return r.ref.empty() ? r.sha : r.ref; };
  auto sites = [&](const std::vector<store::SiteAt>& list, const store::Revision& in) {
    Data out{Data::type::list};
    for (const auto& s : list) {
      Data item;
      item.set("url", revision_url(s.id, repo, key(in)));
      item.set("where", s.file_path + ":" + std::to_string(s.line));
      item.set("error_class", model::shown_class(s.error_class));
      item.set("message", s.error_message);
      out.push_back(item);
    }
    return out;
  };
  auto pairs = [&](const std::vector<std::pair<store::SiteAt, store::SiteAt>>& list) {
    Data out{Data::type::list};
    for (const auto& [a, b] : list) {
      Data item;
      item.set("old_url", revision_url(a.id, repo, key(diff.from)));
      item.set("new_url", revision_url(b.id, repo, key(diff.to)));
      item.set("old_where", a.file_path + ":" + std::to_string(a.line));
      item.set("new_where", b.file_path + ":" + std::to_string(b.line));
      item.set("old_class", model::shown_class(a.error_class));
      item.set("new_class", model::shown_class(b.error_class));
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
  page_data.set("added", sites(diff.added, diff.to));
  page_data.set("removed", sites(diff.removed, diff.from));
  page_data.set("reworded", pairs(diff.reworded));
  page_data.set("class_changed", pairs(diff.class_changed));
  page_data.set("moved", pairs(diff.moved));
  page_data.set("api_url", "/api/repos/" + percent_encode(repo, true) + "/diff?from=" + percent_encode(*from) +
                               "&to=" + percent_encode(*to));
  return page(200, repo + ": " + store::revision_name(diff.from) + " → " + store::revision_name(diff.to),
              "diff.html", page_data);
}

namespace {

// The sites a record's page lists beside it: those of its file (each with
// its context) and those raising its class and message in its repository,
// of the current records or of the revision the page shows.
struct Neighbours {
  SiteContext self;
  std::vector<std::pair<const model::ErrorRecord*, SiteContext>> in_file;
  std::vector<const model::ErrorRecord*> same;  // the record itself left out
};

Neighbours current_neighbours(const Snapshot& s, const model::ErrorRecord& r) {
  Neighbours n;
  // A site the current revision no longer holds, or holds in another
  // file, has none here.
  auto found = s.by_id.find(r.id);
  if (found == s.by_id.end() || s.lines[found->second]->record.file_path != r.file_path) return n;
  const std::size_t self = found->second;
  n.self = s.contexts[self];
  if (auto f = s.by_file.find(r.repo + '\n' + r.file_path); f != s.by_file.end())
    for (auto i : f->second)
      if (i != self) n.in_file.emplace_back(&s.lines[i]->record, s.contexts[i]);
  if (auto t = s.by_template.find(r.repo + '\n' + r.error_class + '\n' + r.error_message); t != s.by_template.end())
    for (auto i : t->second)
      if (i != self) n.same.push_back(&s.lines[i]->record);
  return n;
}

Neighbours revision_neighbours(const std::vector<model::DatasetLine>& lines, std::size_t self) {
  Neighbours n;
  const auto& r = lines[self].record;
  n.self = site_context(r);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& o = lines[i].record;
    if (i == self || o.repo != r.repo) continue;
    if (o.file_path == r.file_path) n.in_file.emplace_back(&o, site_context(o));
    if (o.error_class == r.error_class && o.error_message == r.error_message) n.same.push_back(&o);
  }
  return n;
}

}  // namespace

// `line` is the current record, or (`revision`) the record in a stored
// revision, whose related sections list that revision's sites.
Response error_page(const Snapshot& s, const model::DatasetLine& line, store::Store& st, const std::string& report_url,
                    const std::vector<model::DatasetLine>* revision, std::size_t at) {
  const auto& r = line.record;
  auto found = s.by_id.find(r.id);
  const Neighbours near = revision ? revision_neighbours(*revision, at) : current_neighbours(s, r);
  // The links of a revision's page stay in that revision.
  auto url_of = [&](const model::ErrorRecord& o) {
    return revision ? revision_url(o.id, o.repo, revision_key(line)) : error_url(o);
  };
  Data d;
  d.set("revision", optional_value(revision ? std::optional<std::string>(line.ref.empty() ? r.analyzed_sha.substr(0, 10) : line.ref)
                                            : std::nullopt));
  d.set("current_url", found != s.by_id.end() ? error_url(s.lines[found->second]->record) : std::string());
  d.set("has_current", found != s.by_id.end());
  set_record_fields(d, r, line.dataset_version, report_url);
  if (revision)
    d.set("api_url", "/api/errors/" + r.id + "?repo=" + percent_encode(r.repo) + "&ref=" + percent_encode(revision_key(line)));
  const SiteContext& ctx = near.self;
  d.set("function", optional_value(ctx.function.empty() ? std::nullopt : std::optional<std::string>(ctx.function)));
  // Related: same function, same class in the file, same guard names.
  Data related{Data::type::list};
  std::vector<const model::ErrorRecord*> listed;
  auto add_group = [&](const std::string& heading, auto&& pred) {
    Data items{Data::type::list};
    std::size_t n = 0;
    for (const auto& [o, o_ctx] : near.in_file) {
      if (std::find(listed.begin(), listed.end(), o) != listed.end() || !pred(*o, o_ctx)) continue;
      listed.push_back(o);
      Data item = summary_data(*o);
      item.set("url", url_of(*o));
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
              [&](const model::ErrorRecord&, const SiteContext& c) { return c.function == ctx.function; });
  add_group(model::shown_class(r.error_class) + " elsewhere in this file",
            [&](const model::ErrorRecord& o, const SiteContext&) { return o.error_class == r.error_class; });
  if (!ctx.guard_names.empty())
    add_group("Guarded by the same names (" + join(ctx.guard_names, ", ") + ")",
              [&](const model::ErrorRecord&, const SiteContext& c) {
                for (const auto& n : c.guard_names)
                  if (std::find(ctx.guard_names.begin(), ctx.guard_names.end(), n) != ctx.guard_names.end()) return true;
                return false;
              });
  d.set("related", related);

  Data also{Data::type::list};
  const std::size_t others = near.same.size();
  for (std::size_t i = 0; i < others && i < k_also_items; ++i) {
    const auto& o = *near.same[i];
    Data item;
    item.set("url", url_of(o));
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

  set_history(d, st, r.id, s.diffs.get());
  return page(200,
              model::shown_class(r.error_class) + (r.error_message.empty() ? "" : ": " + title_of(r.error_message)),
              "error.html", d);
}

Response match_submit(const Snapshot& s, const Request& req) {
  // The paste box's form, or what a client posts to /api/match.
  std::string text = pasted_text(req);
  return match_page(s, &text);
}

}  // namespace errdex::web
