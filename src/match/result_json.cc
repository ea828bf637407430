#include "match/result_json.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace errdex::match {

std::vector<std::string> reason_words(const Reasons& r) {
  std::vector<std::string> out;
  if (r.frame_line) out.push_back("frame-line");
  else if (r.frame_source) out.push_back("frame-statement");
  else if (r.frame) out.push_back("frame-file");
  if (r.error_class) out.push_back("class");
  if (r.pattern) out.push_back("pattern");
  if (r.wraps) out.push_back("wraps");
  if (r.fulltext) out.push_back("fulltext");
  return out;
}

std::vector<Capture> shown_captures(std::span<const Capture> captures) {
  std::vector<Capture> out;
  for (const Capture& c : captures) {
    // Text the message picks by a condition (`"s" if plural else ""`) is
    // grammar, not a value.
    if (c.name.find(" if ") != std::string_view::npos && c.name.find(" else ") != std::string_view::npos) continue;
    bool seen = !c.name.empty() && std::any_of(out.begin(), out.end(), [&](const Capture& o) { return o.name == c.name; });
    if (!seen) out.push_back(c);
  }
  return out;
}

const std::string& matched_message(const model::ErrorRecord& r, const Candidate& c) {
  return c.variant && *c.variant < r.message_variants.size() ? r.message_variants[*c.variant].error_message
                                                              : r.error_message;
}

namespace {

using nlohmann::json;

json result_object(const MatchResult& m, const ResultJsonSource& src) {
  json cands = json::array();
  for (const auto& c : m.candidates) {
    const model::ErrorRecord* r = src.record ? src.record(c.index) : nullptr;
    if (!r) continue;
    json caps = json::array();
    for (const auto& [n, v] : c.captures) caps.push_back({{"name", std::string(n)}, {"value", std::string(v)}});
    auto [ref, sha] = src.revision ? src.revision(*r) : std::pair<std::string, std::string>{"", r->analyzed_sha};
    json item = {{"id", r->id},
                 {"repo", r->repo},
                 {"ref", std::move(ref)},
                 {"sha", std::move(sha)},
                 {"filePath", r->file_path},
                 {"lineNumber", r->line_number},
                 {"errorClass", r->error_class},
                 {"errorMessage", r->error_message},
                 {"matchedMessage", matched_message(*r, c)},
                 {"variant", c.variant ? json(*c.variant) : json(nullptr)},
                 {"score", c.score},
                 {"captures", std::move(caps)},
                 {"reasons", reason_words(c.reasons)}};
    if (src.url) item["url"] = src.url(*r);
    // The other revisions holding this site that the text agrees with as
    // well: always there, so a client reads one shape.
    json revisions = json::array();
    for (std::uint32_t other : c.revisions) {
      const model::ErrorRecord* o = src.record ? src.record(other) : nullptr;
      if (!o) continue;
      auto [oref, osha] = src.revision ? src.revision(*o) : std::pair<std::string, std::string>{"", o->analyzed_sha};
      revisions.push_back({{"ref", std::move(oref)}, {"sha", std::move(osha)}, {"lineNumber", o->line_number}});
    }
    item["alsoIn"] = std::move(revisions);
    // The site whose message it raises again: always there, null when none.
    item["wraps"] = nullptr;
    if (const model::ErrorRecord* w = c.wraps && src.record ? src.record(*c.wraps) : nullptr)
      item["wraps"] = {{"id", w->id}, {"repo", w->repo}, {"filePath", w->file_path}, {"lineNumber", w->line_number},
                       {"errorClass", w->error_class}};
    cands.push_back(std::move(item));
  }
  json frames = json::array();
  for (const auto& f : m.frames)
    frames.push_back({{"file", f.file}, {"line", f.line}, {"function", f.function}, {"source", f.source}});
  json chained = json::array();
  for (const auto& e : m.chained)
    chained.push_back({{"errorClass", std::string(e.error_class)}, {"message", std::string(e.message)}});
  json out = json::object();
  if (!src.engine.empty()) out["engine"] = src.engine;
  out["exception"] = {{"errorClass", std::string(m.exception.error_class)}, {"message", std::string(m.exception.message)}};
  out["frames"] = std::move(frames);
  out["chained"] = std::move(chained);
  out["chainedLeftOut"] = m.chained_left_out;
  out["ambiguous"] = m.ambiguous;
  out["fulltextFallback"] = m.fulltext_fallback;
  out["truncated"] = m.truncated;
  out["classSites"] = m.class_sites;
  out["raisedBelowFrame"] = m.raised_below;
  const Weakness w = weakness(m);
  out["weak"] = w == Weakness::none ? json(nullptr) : json(std::string(weakness_word(w)));
  out["candidates"] = std::move(cands);
  return out;
}

}  // namespace

std::string result_json(const MatchResult& m, const ResultJsonSource& src, int indent, const CauseMatch* cause) {
  json out = result_object(m, src);
  // Always there, null when the last exception is explained or no cause is.
  out["cause"] = nullptr;
  if (cause) {
    json c = result_object(cause->result, src);
    c["relation"] = cause->direct ? "direct" : "handling";
    c["depth"] = cause->depth;
    out["cause"] = std::move(c);
  }
  return out.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace errdex::match
