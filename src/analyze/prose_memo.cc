#include "analyze/prose_memo.h"

#include <unordered_set>

namespace errdex::analyze {

namespace {

// Calls f(record's field, prose's field) for each field of StaticProse.
template <class Record, class Prose, class F>
void each_field(Record& r, Prose& p, F f) {
  f(r.documentation, p.documentation);
  f(r.trigger_scenarios, p.trigger_scenarios);
  f(r.common_situations, p.common_situations);
  f(r.solutions, p.solutions);
  f(r.example_fix, p.example_fix);
  f(r.handling_strategy, p.handling_strategy);
  f(r.validation_code, p.validation_code);
  f(r.type_guard, p.type_guard);
  f(r.try_catch_pattern, p.try_catch_pattern);
  f(r.prevention_tips, p.prevention_tips);
  f(r.tags, p.tags);
  f(r.background_tag, p.background_tag);
}

}  // namespace

StaticProse StaticProse::of(const model::ErrorRecord& r) {
  StaticProse p;
  each_field(r, p, [](const auto& from, auto& to) { to = from; });
  return p;
}

void StaticProse::apply_to(model::ErrorRecord& r) const {
  each_field(r, *this, [](auto& to, const auto& from) { to = from; });
}

std::shared_ptr<const FileProse> ProseMemo::earlier(const std::string& path) const {
  std::lock_guard lock(m_mutex);
  auto it = m_by_path.find(path);
  return it == m_by_path.end() ? nullptr : it->second;
}

void ProseMemo::keep(const std::string& path, std::shared_ptr<const FileProse> prose) {
  std::lock_guard lock(m_mutex);
  m_by_path.insert_or_assign(path, std::move(prose));
}

void ProseMemo::keep_only(const std::vector<std::string>& paths) {
  std::unordered_set<std::string_view> kept(paths.begin(), paths.end());
  std::lock_guard lock(m_mutex);
  std::erase_if(m_by_path, [&](const auto& kv) { return !kept.count(kv.first); });
}

}  // namespace errdex::analyze
