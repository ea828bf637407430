#include "model/restamp.h"

#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace errdex::model {
namespace {

// A string value as to_json writes it (record_json.cc's dump settings).
std::string quoted(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The four stamped values of a record, swapped in and out of it.
void swap_stamp(ErrorRecord& r, std::string& url, std::string& sha, std::string& at, std::string& analysis_at) {
  std::swap(r.github_url, url);
  std::swap(r.analyzed_sha, sha);
  std::swap(r.analyzed_at, at);
  if (r.analysis) std::swap(r.analysis->at, analysis_at);
}

bool same_but_stamp(const ErrorRecord& from, ErrorRecord& to) {
  if (from.analysis.has_value() != to.analysis.has_value()) return false;
  std::string url = from.github_url, sha = from.analyzed_sha, at = from.analyzed_at;
  std::string analysis_at = from.analysis ? from.analysis->at : std::string();
  swap_stamp(to, url, sha, at, analysis_at);
  const bool same = from == to;
  swap_stamp(to, url, sha, at, analysis_at);
  return same;
}

}  // namespace

std::optional<std::string> restamp_json(std::string_view from_json, const ErrorRecord& from, ErrorRecord& to) {
  if (!same_but_stamp(from, to)) return std::nullopt;
  // Each key is found by its first unquoted occurrence after the one
  // before: inside a JSON string a quote is escaped, so `,"githubUrl":`
  // there is never raw, and no object before these keys has one of them.
  struct Field {
    std::string_view key;
    const std::string* old_value;
    const std::string* new_value;
  };
  std::vector<Field> fields = {{",\"githubUrl\":", &from.github_url, &to.github_url},
                               {",\"analyzedSha\":", &from.analyzed_sha, &to.analyzed_sha},
                               {",\"analyzedAt\":", &from.analyzed_at, &to.analyzed_at}};
  if (from.analysis) {
    // The analysis object's keys before "at" hold strings and numbers only.
    fields.push_back({",\"analysis\":{", nullptr, nullptr});
    fields.push_back({",\"at\":", &from.analysis->at, &to.analysis->at});
  }
  std::string out;
  out.reserve(from_json.size() + 64);
  std::size_t at = 0;
  for (const auto& f : fields) {
    std::size_t k = from_json.find(f.key, at);
    if (k == std::string_view::npos) return std::nullopt;
    k += f.key.size();
    out.append(from_json, at, k - at);
    at = k;
    if (!f.old_value) continue;
    std::string old_text = quoted(*f.old_value);
    if (from_json.substr(at, old_text.size()) != old_text) return std::nullopt;
    out += quoted(*f.new_value);
    at += old_text.size();
  }
  out.append(from_json, at);
  return out;
}

}  // namespace errdex::model
