#include "web/page_data.h"

#include <nlohmann/json.hpp>

#include "model/record_json.h"
#include "web/html.h"
#include "web/routes.h"
#include "web/url.h"

namespace errdex::web {

using nlohmann::json;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string error_url(const model::ErrorRecord& r) { return record_page_path(r); }

std::string repo_url(const std::string& repo) { return "/repos/" + percent_encode(repo, true); }

std::string sha10(const std::string& sha) { return sha.substr(0, 10); }

std::string pinned_ref(const std::string& url, const std::string& sha) {
  auto blob = url.find("/blob/");
  if (blob == std::string::npos) return sha10(sha);
  auto start = blob + 6, end = url.find('/', start);
  std::string ref = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
  bool hex = ref.size() == 40 && ref.find_first_not_of("0123456789abcdef") == std::string::npos;
  return hex ? sha10(ref) : ref;
}

std::string title_of(const std::string& message) {
  std::string t = message.substr(0, message.find('\n'));
  if (t.size() <= 90) return t;
  auto cut = t.rfind(' ', 90);
  if (cut == std::string::npos || cut < 40) cut = 90;
  while (cut > 0 && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
  return t.substr(0, cut) + "…";
}

PageData optional_value(const std::optional<std::string>& v) {
  PageData list{PageData::type::list};
  if (v && !v->empty()) list.push_back(PageData{"value", *v});
  return list;
}

PageData prose_list(const std::vector<std::string>& items) {
  PageData list{PageData::type::list};
  for (const auto& s : items) list.push_back(PageData{"html", prose_html(s)});
  return list;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

void set_record_fields(PageData& d, const model::ErrorRecord& r, const std::string& dataset_version,
                       const std::string& report_url) {
  d.set("id", r.id);
  d.set("repo", r.repo);
  d.set("repo_url", repo_url(r.repo));
  d.set("severity", r.severity);
  d.set("error_class", model::shown_class(r.error_class));
  d.set("title", r.error_message.empty() ? "(no message)" : title_of(r.error_message));
  d.set("error_message", r.error_message);
  d.set("error_type", r.error_type);
  d.set("error_code", optional_value(r.error_code));
  d.set("http_status", optional_value(r.http_status ? std::optional<std::string>(std::to_string(*r.http_status)) : std::nullopt));
  d.set("message_pattern", r.message_pattern);
  d.set("has_pattern", !r.message_pattern.empty());
  d.set("documentation", prose_html(r.documentation));
  d.set("file_path", r.file_path);
  d.set("line_number", std::to_string(r.line_number));
  PageData lines{PageData::type::list};
  auto html = highlight_source(r.file_path, r.source_code);
  for (std::size_t i = 0; i < html.size(); ++i) {
    PageData l;
    int number = r.source_code_start + static_cast<int>(i);
    l.set("number", std::to_string(number));
    l.set("marked", number == r.line_number);
    l.set("html", html[i]);
    lines.push_back(l);
  }
  d.set("lines", lines);
  PageData github{PageData::type::list};
  // Only links that can only go to GitHub: a record's URL is data, and a
  // javascript: or data: URL must never become a link.
  if (r.github_url.rfind("https://github.com/", 0) == 0) {
    PageData g;
    g.set("url", r.github_url);
    g.set("sha10", pinned_ref(r.github_url, r.analyzed_sha));
    github.push_back(g);
  }
  d.set("github", github);
  d.set("solutions", prose_list(r.solutions));
  d.set("has_solutions", !r.solutions.empty());
  d.set("example_fix", optional_value(r.example_fix));
  d.set("handling_strategy", r.handling_strategy);
  d.set("validation_code", optional_value(r.validation_code));
  d.set("type_guard", optional_value(r.type_guard));
  d.set("try_catch", optional_value(r.try_catch_pattern));
  d.set("prevention", prose_list(r.prevention_tips));
  d.set("has_prevention", !r.prevention_tips.empty());
  d.set("trigger_scenarios", prose_html(r.trigger_scenarios));
  d.set("common_situations", prose_html(r.common_situations));
  // The repository's tests that raise it on purpose.
  PageData tests{PageData::type::list};
  for (const auto& t : r.evidence.tests) {
    PageData item;
    item.set("file_path", t.file_path);
    item.set("line_number", std::to_string(t.line_number));
    item.set("name", t.name);
    item.set("code", t.code);
    tests.push_back(item);
  }
  d.set("has_tests", !r.evidence.tests.empty());
  d.set("tests", tests);
  // The public calls that lead to the raise, the docs that mention it and
  // the commit that added it.
  PageData entry_points{PageData::type::list};
  for (const auto& e : r.evidence.entry_points) {
    PageData item;
    item.set("name", e.name);
    std::string chain;
    for (const auto& step : e.chain) chain += (chain.empty() ? "" : " → ") + step;
    item.set("chain", chain);
    item.set("has_chain", e.chain.size() > 1);
    entry_points.push_back(item);
  }
  d.set("has_entry_points", !r.evidence.entry_points.empty());
  d.set("entry_points", entry_points);
  PageData docs{PageData::type::list};
  for (const auto& doc : r.evidence.docs) {
    PageData item;
    item.set("file_path", doc.file_path);
    item.set("line_number", std::to_string(doc.line_number));
    docs.push_back(item);
  }
  d.set("has_docs", !r.evidence.docs.empty());
  d.set("docs", docs);
  d.set("has_introduced", r.evidence.introduced.has_value());
  if (const auto& in = r.evidence.introduced) {
    d.set("introduced_sha", in->sha.substr(0, 12));
    d.set("introduced_summary", in->summary);
    d.set("introduced_date", in->date.substr(0, 10));
  }

  // Fields beyond schema version 2 (analysis provenance, lints) are read
  // from the record's JSON, so the page shows them whatever else the
  // record gains.
  json j = json::parse(model::to_json(r), nullptr, false);
  PageData lints{PageData::type::list};
  if (j.is_object() && j.contains("lints") && j["lints"].is_array()) {
    for (const auto& l : j["lints"]) {
      PageData item;
      if (l.is_object()) {
        item.set("rule", l.value("rule", std::string("lint")));
        item.set("level", l.value("level", std::string("warning")));
        item.set("message_html", prose_html(l.value("message", dump(l))));
      } else {
        item.set("rule", "lint");
        item.set("level", "warning");
        item.set("message_html", prose_html(l.is_string() ? l.get<std::string>() : dump(l)));
      }
      lints.push_back(item);
    }
  }
  PageData variants{PageData::type::list};
  for (const auto& v : r.message_variants) {
    PageData item;
    item.set("message", v.error_message);
    item.set("pattern", v.message_pattern);
    variants.push_back(item);
  }
  d.set("has_variants", !r.message_variants.empty());
  d.set("variants", variants);
  d.set("has_lints", !lints.is_empty_list());
  d.set("lints", lints);
  std::string date = r.analyzed_at.substr(0, 10);
  std::string provenance = "Static analysis of " + r.repo + "@" + sha10(r.analyzed_sha) + " (" + date + ").";
  if (j.is_object() && j.contains("analysis") && j["analysis"].is_object()) {
    const auto& a = j["analysis"];
    std::string analyst = a.value("analyst", std::string("static"));
    std::string at = a.value("at", r.analyzed_at).substr(0, 10);
    provenance = (analyst == "llm" ? "AI-assisted analysis" : "Static analysis") + std::string(" of ") + r.repo + "@" +
                 sha10(r.analyzed_sha) + " (" + at + ")";
    if (a.contains("model") && a["model"].is_string() && !a["model"].get<std::string>().empty())
      provenance += ", model " + a["model"].get<std::string>();
    if (a.contains("fields") && a["fields"].is_array() && !a["fields"].empty()) {
      std::vector<std::string> f;
      for (const auto& x : a["fields"])
        if (x.is_string()) f.push_back(x.get<std::string>());
      provenance += "; model-written fields: " + join(f, ", ");
    }
    provenance += ".";
  }
  d.set("provenance", provenance + " Dataset " + dataset_version + ".");
  d.set("api_url", "/api/errors/" + r.id);
  std::string title = "Problem with errdex record " + r.id;
  std::string body = "Record: " + r.id + "\nRepository: " + r.repo + "\nThrown at: " + r.file_path + ":" +
                     std::to_string(r.line_number) + "\nPage: " + error_url(r) + "\n\nWhat is wrong:\n";
  d.set("report_url", report_url + "?title=" + percent_encode(title) + "&body=" + percent_encode(body));
}

}  // namespace errdex::web
