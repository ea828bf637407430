#include "match/word_table.h"

#include <algorithm>

namespace errdex::match {

WordTable WordTable::Builder::build() {
  WordTable t;
  std::stable_sort(m_pairs.begin(), m_pairs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t distinct = 0;
  for (std::size_t i = 0; i < m_pairs.size(); ++i)
    if (i == 0 || m_pairs[i].first != m_pairs[i - 1].first) ++distinct;
  std::size_t cap = 16;
  while (cap < distinct * 2) cap <<= 1;  // load factor <= 1/2
  t.m_slots.assign(cap, Slot{});
  t.m_postings.reserve(m_pairs.size());
  for (std::size_t i = 0; i < m_pairs.size();) {
    std::size_t j = i;
    while (j < m_pairs.size() && m_pairs[j].first == m_pairs[i].first) t.m_postings.push_back(m_pairs[j++].second);
    std::uint64_t w = m_pairs[i].first;
    std::size_t s = static_cast<std::size_t>(w) & (cap - 1);
    while (t.m_slots[s].count != 0) s = (s + 1) & (cap - 1);
    t.m_slots[s] = Slot{w, static_cast<std::uint32_t>(t.m_postings.size() - (j - i)), static_cast<std::uint32_t>(j - i)};
    i = j;
  }
  m_pairs.clear();
  m_pairs.shrink_to_fit();
  return t;
}

std::span<const std::uint32_t> WordTable::find(std::uint64_t word) const {
  if (m_slots.empty()) return {};
  std::size_t mask = m_slots.size() - 1;
  for (std::size_t s = static_cast<std::size_t>(word) & mask;; s = (s + 1) & mask) {
    const Slot& slot = m_slots[s];
    if (slot.count == 0) return {};
    if (slot.word == word) return {m_postings.data() + slot.begin, slot.count};
  }
}

std::size_t WordTable::memory_bytes() const {
  return m_slots.capacity() * sizeof(Slot) + m_postings.capacity() * sizeof(std::uint32_t);
}

}  // namespace errdex::match
