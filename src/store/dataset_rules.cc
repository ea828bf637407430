#include "store/dataset_rules.h"

#include <algorithm>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "model/record_json.h"
#include "util/text.h"

namespace errdex::store {
namespace {

constexpr std::size_t k_max_query_words = 32;

// Runs of word characters (search_words), at most `most`.
std::vector<std::string> words(std::string_view text, std::size_t most) {
  std::vector<std::string> out;
  std::string word;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if ((u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u >= 0x80) {
      word += c;
      continue;
    }
    if (word.empty()) continue;
    out.push_back(std::move(word));
    word.clear();
    if (out.size() == most) return out;
  }
  if (!word.empty() && out.size() < most) out.push_back(std::move(word));
  return out;
}

}  // namespace

Status check_dataset(const Dataset& dataset) {
  if (dataset.repo.empty()) return Error{"dataset has no repo"};
  if (dataset.sha.empty()) return Error{"dataset of " + dataset.repo + " has no sha"};
  if (!dataset.site_keys.empty() && dataset.site_keys.size() != dataset.records.size())
    return Error{"dataset of " + dataset.repo + " has " + std::to_string(dataset.site_keys.size()) + " site keys for " +
                 std::to_string(dataset.records.size()) + " records"};
  if (!dataset.record_body_keys.empty() && dataset.record_body_keys.size() != dataset.record_bodies.size())
    return Error{"dataset of " + dataset.repo + " has " + std::to_string(dataset.record_body_keys.size()) +
                 " body keys for " + std::to_string(dataset.record_bodies.size()) + " bodies"};
  std::unordered_set<std::string_view> ids;
  for (const auto& r : dataset.records) {
    if (!model::is_record_id(r.id)) return Error{"record id \"" + r.id + "\" is not 16 lowercase hex digits"};
    if (r.repo != dataset.repo)
      return Error{"record " + r.id + " belongs to " + r.repo + ", not to dataset repo " + dataset.repo};
    if (r.analyzed_sha != dataset.sha)
      return Error{"record " + r.id + " was analyzed at " + r.analyzed_sha + ", not at dataset sha " + dataset.sha};
    if (!ids.insert(r.id).second)
      return Error{"duplicate record id " + r.id + " in dataset " + dataset.repo + "@" + dataset.sha};
  }
  return ok();
}

void order_revisions(std::vector<StoredRevision>& rows) {
  if (std::all_of(rows.begin(), rows.end(), [](const StoredRevision& r) { return !r.revision.ref.empty(); }))
    std::stable_sort(rows.begin(), rows.end(), [](const StoredRevision& a, const StoredRevision& b) {
      return util::version_less(a.revision.ref, b.revision.ref);
    });
  for (auto& r : rows) r.revision.current = false;
  if (!rows.empty()) rows.back().revision.current = true;
}

const StoredRevision* find_revision(const std::vector<StoredRevision>& rows, const std::string& rev) {
  const StoredRevision* found = nullptr;
  for (const auto& r : rows)
    if (r.revision.ref == rev || r.revision.sha == rev || (rev.size() >= 7 && r.revision.sha.starts_with(rev)))
      found = &r;
  return found;
}

std::vector<std::int64_t> datasets_to_forget(const std::vector<StoredRevision>& rows,
                                             const std::optional<std::string>& rev) {
  std::vector<std::int64_t> drop;
  if (!rev) {
    for (const auto& r : rows) drop.push_back(r.id);
  } else if (const StoredRevision* r = find_revision(rows, *rev)) {
    drop.push_back(r->id);
  }
  return drop;
}

std::vector<std::string> search_words(std::string_view text) { return words(text, k_max_query_words); }

std::string indexed_words(std::string_view text) {
  std::string out;
  for (const auto& w : words(text, std::string::npos)) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

std::vector<std::string> folded_words(std::string_view text) {
  auto out = words(text, std::string::npos);
  for (auto& w : out)
    for (char& c : w)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::vector<std::string> import_roots_from_json(std::string_view json) {
  std::vector<std::string> out;
  auto roots = nlohmann::json::parse(json, nullptr, false);
  if (roots.is_array())
    for (const auto& root : roots)
      if (root.is_string()) out.push_back(root.get<std::string>());
  return out;
}

}  // namespace errdex::store
