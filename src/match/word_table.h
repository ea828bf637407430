#pragma once
// An immutable map from a word's 64-bit hash to a list of entry numbers:
// one open-addressing table over one flat array of postings, so a lookup is
// a probe or two and the whole index is three vectors.
#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace errdex::match {

class WordTable {
 public:
  class Builder {
   public:
    void add(std::uint64_t word, std::uint32_t entry) { m_pairs.emplace_back(word, entry); }
    WordTable build();

   private:
    std::vector<std::pair<std::uint64_t, std::uint32_t>> m_pairs;
  };

  // The entries added under `word`, in the order added; empty if none.
  std::span<const std::uint32_t> find(std::uint64_t word) const;
  // Asks for the slot `word` hashes to, so a lookup soon after need not wait.
  void prefetch(std::uint64_t word) const {
    if (!m_slots.empty()) __builtin_prefetch(&m_slots[static_cast<std::size_t>(word) & (m_slots.size() - 1)]);
  }
  // Where a list find() returned starts among all postings (0 to the
  // number of postings): data kept by posting in a parallel array is read
  // at that position.
  std::size_t position(std::span<const std::uint32_t> list) const {
    return static_cast<std::size_t>(list.data() - m_postings.data());
  }
  // Every posting in table order (the order position() counts in).
  const std::vector<std::uint32_t>& postings() const { return m_postings; }
  std::size_t memory_bytes() const;
  // Reorders each word's list by `less` (a strict order over entries).
  template <class Less>
  void sort_lists(Less less) {
    for (const Slot& slot : m_slots)
      if (slot.count > 1)
        std::sort(m_postings.begin() + slot.begin, m_postings.begin() + slot.begin + slot.count, less);
  }

 private:
  struct Slot {
    std::uint64_t word = 0;
    std::uint32_t begin = 0;
    std::uint32_t count = 0;  // 0: empty slot
  };
  std::vector<Slot> m_slots;  // size is a power of two
  std::vector<std::uint32_t> m_postings;
};

}  // namespace errdex::match
