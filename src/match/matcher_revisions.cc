#include "match/matcher_revisions.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "match/path_suffix.h"
#include "match/pattern_text.h"

namespace errdex::match::detail {
namespace {

// Records in preference order, then by index: an answer's other revisions.
auto by_preference(const Index& m) {
  return [&m](std::uint32_t a, std::uint32_t b) {
    return m.preference[a] != m.preference[b] ? m.preference[a] < m.preference[b] : a < b;
  };
}

}  // namespace

void find_sites(Index& m, const std::vector<model::ErrorRecord>& records, std::span<const std::uint32_t> preference,
                std::span<const std::string> refs) {
  if (preference.empty() || preference.size() != records.size()) return;
  std::unordered_map<std::string, std::uint32_t> sites;
  m.site_of.reserve(records.size());
  for (const auto& r : records) {
    auto [it, added] = sites.emplace(r.repo + '\n' + r.id, static_cast<std::uint32_t>(sites.size()));
    m.revisions |= !added;
    m.site_of.push_back(it->second);
  }
  m.preference.assign(preference.begin(), preference.end());
  if (!m.revisions) {
    m.site_of.clear();
    m.preference.clear();
    return;
  }
  if (refs.size() != records.size()) return;
  m.python_version.reserve(records.size());
  for (std::size_t r = 0; r < records.size(); ++r)
    m.python_version.push_back(records[r].repo == k_standard_library_repo ? python_version_of_ref(refs[r]) : 0);
}

void link_revisions(Index& m, const std::vector<model::ErrorRecord>& records, std::span<const int> built_at,
                    std::span<const std::pair<std::uint32_t, std::uint32_t>> variant_of) {
  const std::size_t n = m.entries.size();
  std::vector<std::uint32_t> order(records.size());
  for (std::uint32_t r = 0; r < order.size(); ++r) order[r] = r;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return m.preference[a] < m.preference[b]; });
  m.shadow_of.assign(records.size(), 0);
  m.kin_of.assign(records.size(), 0);
  std::unordered_map<std::string, std::uint32_t> same, moved;  // key -> representative
  std::string key;
  for (std::uint32_t r : order) {
    const auto& rec = records[r];
    key.clear();
    for (const std::string* f : {&rec.repo, &rec.id, &rec.file_path, &rec.error_class, &rec.error_message, &rec.message_pattern}) {
      key += *f;
      key += '\0';
    }
    key += std::to_string(m.statement[r]) + '\0' + std::to_string(m.function[r]) + '\0';
    key += statement_literals(rec.source_code, rec.source_code_start, rec.line_number);
    key += '\0';
    if (built_at[r] > 0) key += statement_literals(rec.source_code, rec.source_code_start, built_at[r]);
    for (const auto& v : rec.message_variants) {
      key += '\0';
      key += v.error_message;
      key += '\0';
      key += v.message_pattern;
    }
    const std::size_t without_line = key.size();
    key += '\0' + std::to_string(rec.line_number) + '\0' + std::to_string(built_at[r] > 0 ? rec.line_number - built_at[r] : 0);
    if (auto [it, added] = same.emplace(key, r); !added) {
      m.shadow_of[r] = it->second + 1;
      continue;
    }
    key.resize(without_line);
    if (auto [it, added] = moved.emplace(key, r); !added) m.kin_of[r] = it->second + 1;
  }
  // Each representative's run, most preferred first.
  auto runs = [&](const std::vector<std::uint32_t>& of, std::vector<std::uint32_t>& at, std::vector<std::uint32_t>& list) {
    at.assign(records.size() + 1, 0);
    for (std::uint32_t r = 0; r < records.size(); ++r)
      if (of[r]) ++at[of[r]];
    for (std::size_t r = 1; r < at.size(); ++r) at[r] += at[r - 1];
    list.resize(at.back());
    std::vector<std::uint32_t> fill(at.begin(), at.end() - 1);
    for (std::uint32_t r : order)
      if (of[r]) list[fill[of[r] - 1]++] = r;
  };
  runs(m.shadow_of, m.shadows_at, m.shadow_list);
  runs(m.kin_of, m.kin_at, m.kin_list);
  // Which sites have more than one record that can be ranked.
  std::vector<std::uint32_t> indexed_in_site(records.size(), 0);
  for (std::uint32_t r = 0; r < records.size(); ++r)
    if (!m.shadow_of[r]) ++indexed_in_site[m.site_of[r]];
  m.site_shared.assign(records.size(), 0);
  for (std::uint32_t r = 0; r < records.size(); ++r)
    m.site_shared[r] = !m.shadow_of[r] && indexed_in_site[m.site_of[r]] > 1;
  // The quiet runs: for a record that can answer (not a shadow), its
  // shadows, and when it represents kin (or is one), the whole group's.
  m.quiet_at.assign(records.size() + 1, 0);
  std::vector<std::uint32_t> group;
  for (std::uint32_t r = 0; r < records.size(); ++r) {
    m.quiet_at[r] = static_cast<std::uint32_t>(m.quiet_list.size());
    if (m.shadow_of[r]) continue;
    group.clear();
    const std::uint32_t rep = m.kin_of[r] ? m.kin_of[r] - 1 : r;
    auto with_shadows = [&](std::uint32_t k) {
      if (k != r) group.push_back(k);
      for (std::uint32_t j = m.shadows_at[k]; j < m.shadows_at[k + 1]; ++j) group.push_back(m.shadow_list[j]);
    };
    with_shadows(r);
    if (rep != r) with_shadows(rep);
    for (std::uint32_t j = m.kin_at[rep]; j < m.kin_at[rep + 1]; ++j)
      if (m.kin_list[j] != r) with_shadows(m.kin_list[j]);
    std::stable_sort(group.begin(), group.end(), [&](std::uint32_t a, std::uint32_t b) { return m.preference[a] < m.preference[b]; });
    m.quiet_list.insert(m.quiet_list.end(), group.begin(), group.end());
  }
  m.quiet_at[records.size()] = static_cast<std::uint32_t>(m.quiet_list.size());
  // A kin's entries read their representative's full-text weights: entry
  // by entry, its own pattern and then its variants, as the records'.
  std::vector<std::uint32_t> first_variant(records.size(), 0);
  for (std::size_t k = variant_of.size(); k-- > 0;) first_variant[variant_of[k].first] = static_cast<std::uint32_t>(records.size() + k);
  m.entry_rep.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    m.entry_rep[i] = static_cast<std::uint32_t>(i);
    const std::uint32_t r = m.entries[i].record;
    if (!m.kin_of[r]) continue;
    const std::uint32_t rep = m.kin_of[r] - 1;
    m.entry_rep[i] = i < records.size() ? rep : first_variant[rep] + (static_cast<std::uint32_t>(i) - first_variant[r]);
  }
}

std::uint32_t prefer_version(const Index& m, std::uint32_t record, std::uint32_t version, std::span<std::uint32_t> others) {
  if (version == 0 || m.python_version.empty() || m.python_version[record] == version) return record;
  auto it = std::find_if(others.begin(), others.end(), [&](std::uint32_t r) { return m.python_version[r] == version; });
  if (it == others.end()) return record;
  const std::uint32_t chosen = *it;
  *it = record;
  std::sort(others.begin(), others.end(), by_preference(m));
  return chosen;
}

void add_revisions(const Index& m, std::uint32_t record, bool frame,
                   std::span<const std::pair<std::uint32_t, std::uint32_t>> also, std::vector<std::uint32_t>& out) {
  const std::size_t from = out.size();
  auto add_run = [&](std::uint32_t r) {
    if (frame) {
      for (std::uint32_t k = m.shadows_at[r]; k < m.shadows_at[r + 1]; ++k) out.push_back(m.shadow_list[k]);
    } else {
      out.insert(out.end(), m.quiet_list.begin() + m.quiet_at[r], m.quiet_list.begin() + m.quiet_at[r + 1]);
    }
  };
  add_run(record);
  if (!also.empty()) {
    const std::uint32_t s = m.site_of[record];
    auto run = std::lower_bound(also.begin(), also.end(), std::pair<std::uint32_t, std::uint32_t>{s, 0},
                                [](const auto& a, const auto& b) { return a.first < b.first; });
    bool more = false;
    for (; run != also.end() && run->first == s; ++run) {
      out.push_back(run->second);
      add_run(run->second);
      more = true;
    }
    if (more) {
      auto begin = out.begin() + static_cast<std::ptrdiff_t>(from);
      std::sort(begin, out.end(), by_preference(m));
      auto end = std::unique(begin, out.end());
      out.erase(std::remove(begin, end, record), out.end());
    }
  }
}

std::optional<std::uint32_t> matched_variant(const Index& m, std::uint32_t record, std::uint32_t e) {
  const auto records = static_cast<std::uint32_t>(m.stats.records);
  auto shown = [&](std::uint32_t entry) -> std::optional<std::uint32_t> {
    const std::int32_t v = m.variant_shown[entry - records] & ~Index::k_first_line;
    return v == Index::k_own_message ? std::nullopt : std::optional<std::uint32_t>(v);
  };
  if (m.entries[e].record == record) return e < records ? std::nullopt : shown(e);
  const std::uint32_t pattern = m.entries[e].pattern_id;
  if (!m.has_variants || m.entries[record].pattern_id == pattern) return std::nullopt;
  for (std::uint32_t v = m.variants_at[record]; v < m.variants_at[record + 1]; ++v)
    if (m.entries[records + v].pattern_id == pattern) return shown(records + v);
  return std::nullopt;
}

}  // namespace errdex::match::detail
