#pragma once
// Part of matcher.cc's translation unit, and included by it alone: the
// per-thread working memory one match() works in and what it is made of
// (the message's word set, the candidates, the full-text histogram, the
// captures noted for the answers). Internal linkage (an unnamed namespace),
// as when these were matcher.cc's own: match() reads them per candidate.
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "match/matcher_answers.h"
#include "match/matcher_confirm.h"
#include "match/matcher_index.h"
#include "match/path_suffix.h"
#include "match/traceback.h"
#include "match/word_hash.h"

namespace errdex::match {
namespace {

// A record's full-text score: the weight it shares with the message times
// the share of its own weight that is (so a record whose every word is
// there beats a longer one that shares a few more). `own` > 0.
double fulltext_score(double shared, double own) { return shared * std::min(1.0, shared / own); }

// A histogram of positive scores by their top bits: sign, exponent and
// four mantissa bits (a positive double's bits order like its value), so
// buckets are 1/16 of an octave, in order, from 2^-16 to 2^16; scores
// beyond either end share the end bucket. Filled while scores are made,
// it tells keep_best where its cut falls without a pass of its own.
struct ScoreHistogram {
  static constexpr std::size_t k_buckets = 512;
  static constexpr std::uint64_t k_low = (1023 - 16) << 4;  // the bucket of 2^-16
  std::array<std::uint32_t, k_buckets> count{};
  static std::size_t index(double s) {
    const std::uint64_t b = std::bit_cast<std::uint64_t>(s) >> 48;
    return static_cast<std::size_t>(std::clamp<std::uint64_t>(b, k_low, k_low + k_buckets - 1) - k_low);
  }
  void add(double s) { ++count[index(s)]; }
};

// Leaves in `v` its best `keep` items, in no particular order: higher score
// first, the lower entry on a tie (a strict order, so the set is the one a
// full sort would give). Scores must be positive and counted in `h`. The
// histogram finds the bucket the cut falls in; only that bucket is
// ordered, so the cost is a pass over `v` rather than a selection's
// unpredictable comparisons.
// `best` is the highest score in `v`; `tie` is working memory.
void keep_best(std::vector<std::pair<double, std::uint32_t>>& v, std::size_t keep, double best,
               const ScoreHistogram& h, std::vector<std::pair<double, std::uint32_t>>& tie) {
  if (v.size() <= keep) return;
  auto index = ScoreHistogram::index;
  const auto& count = h.count;
  std::size_t above = 0, cut = index(best);
  while (above + count[cut] < keep) above += count[cut--];  // ends: v.size() > keep
  // Those above the cut move to the front (in place: never ahead of the
  // reading position); those in its bucket are ordered apart.
  tie.clear();
  std::size_t kept = 0;
  for (const auto& item : v) {
    std::size_t i = index(item.first);
    if (i > cut) v[kept++] = item;
    else if (i == cut) tie.push_back(item);
  }
  auto better = [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; };
  auto need = static_cast<std::ptrdiff_t>(keep - above);
  std::nth_element(tie.begin(), tie.begin() + need, tie.end(), better);
  std::copy(tie.begin(), tie.begin() + need, v.begin() + static_cast<std::ptrdiff_t>(kept));
  v.resize(keep);
}

// The distinct word hashes of a message in the order first seen (`items`),
// with an open-addressing set over them (`slots`, 0 free; a hash of 0 is
// kept apart) so a membership test is a probe: no sort, and none of a
// sort's or a binary search's unpredictable branches.
struct WordSet {
  std::vector<std::uint64_t> items;
  std::vector<std::uint64_t> slots;
  std::vector<std::uint32_t> used;  // slots to free again
  std::size_t mask = 0;
  bool zero = false;

  // Room for `words` at a load of at most 1/4. Every slot is free here.
  void prepare(std::size_t words) {
    std::size_t size = 64;
    while (size < words * 4) size <<= 1;
    if (slots.size() < size) slots.assign(size, 0);
    mask = size - 1;
  }
  void insert(std::uint64_t h) {
    if (h == 0) {
      if (!zero) items.push_back(h);
      zero = true;
      return;
    }
    std::size_t i = static_cast<std::size_t>(h) & mask;
    for (; slots[i] != 0; i = (i + 1) & mask)
      if (slots[i] == h) return;
    slots[i] = h;
    used.push_back(static_cast<std::uint32_t>(i));
    items.push_back(h);
  }
  bool has(std::uint64_t h) const {
    if (h == 0) return zero;
    for (std::size_t i = static_cast<std::size_t>(h) & mask; slots[i] != 0; i = (i + 1) & mask)
      if (slots[i] == h) return true;
    return false;
  }
  void clear() {
    for (std::uint32_t i : used) slots[i] = 0;
    used.clear();
    items.clear();
    zero = false;
  }
};

using detail::PendingCapture;

inline std::uint16_t read16(const char* p) {
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
// Reads an entry's capture names in order: the template's interpolation
// when it has one per group, else the group's number from 1. A capture
// is noted as views (the name in name_blob, the value in the message)
// until the result copies every one at once.
struct CaptureNames {
  const char* at = nullptr;
  bool numbered = true;
  std::uint32_t g = 0;
  void add(std::vector<PendingCapture>& captures, std::string_view value) {
    if (numbered) {
      captures.push_back({{}, value, ++g});
      return;
    }
    std::uint16_t size = read16(at);
    captures.push_back({{at + 2, size}, value, 0});
    at += 2 + size;
  }
};
inline CaptureNames capture_names(const Index& m, std::uint32_t e, std::size_t groups) {
  const char* at = m.name_blob.data() + m.entries[e].names_at;
  std::uint16_t count = read16(at);
  return {at + 2, count == Index::k_unnamed || count != groups};
}

struct Cand {
  std::uint32_t entry = 0;
  double score = 0;
  Reasons reasons;
  int suffix = 0;
  int line_distance = 0;  // frame_source: lines between the frame's and the site's
  bool by_class = false;  // listed because its class agrees, nothing else
  // Listed by a frame in a minified build (`index.min.js:1:3111`), which
  // names the readable build's file beside it but no statement of it.
  bool file_only = false;
  // Listed as a site of the printed class's package raising a class given
  // by an expression: 1 + the words it shares with the class's name; 0 not.
  std::uint8_t expression_words = 0;
  // Listed as wrapping a caught exception (Reasons::wraps): the fixed
  // characters of the caught class's pattern that matched.
  std::uint32_t wrapped_chars = 0;
  std::uint32_t wrapped_record = 0;  // 1 + the writer's record, 0 none
  Confirmed confirmed;
  double fulltext = 0;
};

// A candidate's place in the ranking, small so ranking moves little.
struct Ranked {
  double score = 0;
  std::uint32_t entry = 0;
  std::uint32_t at = 0;  // index into the candidates
};

// Per-thread working memory of match(), indexed by entry and pattern so a
// message costs no hashing and no allocation once warm. Every slot a match
// sets is reset before it returns (Reset), so the arrays are at rest (zero)
// between calls and one thread may use several Matchers.
struct Scratch {
  std::vector<std::uint32_t> slot;       // by entry: 1 + index into cands, 0 none
  // By entry, once touched by the full-text pass: the weight it shares
  // with the message (> 0) and its own (from Impl::posting_weight, so the
  // ranking after the pass reads one place per entry).
  struct FullText {
    float shared = 0;
    float own = 0;
  };
  std::vector<FullText> ft;
  std::vector<std::uint8_t> confirmed;   // by pattern: 1 + kind * 4 + variant, 0 not yet
  // By pattern, once confirmed by a literal walk: where in `walked` the
  // groups' spans of that walk are (1 + offset, 0 none) and how many, so
  // the captures of a shown answer need no second walk.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> walked_at;
  Spans walked;
  Spans walk_spans[3];  // Impl::confirm's working memory, by form
  std::vector<std::uint32_t> slot_touched, confirmed_touched;
  // Entries the full-text pass touched: the first ft_count of ft_touched,
  // which is only grown (the pass writes ahead of the count).
  std::vector<std::uint32_t> ft_touched;
  std::size_t ft_count = 0;
  // Entries the pass met a second time (sharing two words or more with the
  // message, listed once per word after the first), the first ft_multi_count.
  std::vector<std::uint32_t> ft_multi;
  std::size_t ft_multi_count = 0;
  // The lists the pass read, and each word's weight as the pass added it.
  struct FullTextList {
    std::span<const std::uint32_t> entries;
    const float* own = nullptr;
    float weight = 0;
  };
  std::vector<FullTextList> ft_lists;
  std::vector<std::uint8_t> ft_scored;  // by entry: 1 while scored in this ranking
  std::vector<std::uint32_t> ft_marked;  // entries whose ft_scored is set
  ScoreHistogram histogram;
  std::vector<Cand> cands;
  std::vector<Ranked> ranked;
  std::vector<std::uint64_t> hashes;  // the message's word hashes, repeats kept
  std::vector<std::uint64_t> keying;  // of the message's distinct words, those that may key a pattern
  std::vector<std::uint32_t> passing;  // positions in a keyed list whose masks pass
  WordScratch word_scratch;
  WordSet present;
  Spans spans;
  std::vector<std::pair<double, std::uint32_t>> best, tie;
  std::vector<std::uint32_t> class_sites;
  // By expression-class site that came in: (entry, words its expression
  // shares with the printed class's name).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> expression_sites;
  std::vector<std::uint64_t> class_words;  // the printed class name's words
  std::vector<std::uint64_t> modules;  // the printed class's module parts, by word hash
  std::vector<std::string_view> frame_parts;  // the innermost frame's path components
  CompiledFrame compiled;  // the innermost frame's compiled-to-source lookup
  std::string unquoted;  // Variants::unquoted
  std::string flat;      // Variants::flat
  std::vector<re2::StringPiece> sub;  // RE2 captures
  std::vector<std::uint32_t> record_at;  // by record: 1 + its entry's index in `ranked`, while keeping its best
  std::vector<std::uint32_t> twin_at;  // by twin group: 1 + its best's index in `ranked`, while keeping it
  // Several revisions: ranked candidates a better revision of their site
  // replaced, and the (site, record) pairs as good as their site's best.
  std::vector<Ranked> dropped;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> also;
  detail::ShownAnswers shown;  // the answers, until copied into the result

  void fit(std::size_t entries, std::size_t patterns, std::size_t records, std::size_t twins) {
    if (record_at.size() < records) record_at.resize(records, 0);
    if (twin_at.size() < twins) twin_at.resize(twins, 0);
    if (slot.size() < entries) {
      slot.resize(entries, 0);
      ft.resize(entries);
      ft_scored.resize(entries, 0);
    }
    if (confirmed.size() < patterns) {
      confirmed.resize(patterns, 0);
      walked_at.resize(patterns);
    }
  }
};

struct Reset {
  Scratch& s;
  ~Reset() {
    for (std::uint32_t e : s.slot_touched) s.slot[e] = 0;
    for (std::size_t i = 0; i < s.ft_count; ++i) s.ft[s.ft_touched[i]] = {};
    for (std::uint32_t p : s.confirmed_touched) {
      s.confirmed[p] = 0;
      s.walked_at[p] = {};
    }
    s.walked.clear();
    s.slot_touched.clear();
    s.ft_count = 0;
    s.ft_multi_count = 0;
    s.ft_lists.clear();
    s.confirmed_touched.clear();
    s.cands.clear();
    s.hashes.clear();
    s.present.clear();
    s.class_sites.clear();
    s.expression_sites.clear();
    s.class_words.clear();
    s.modules.clear();
  }
};

}  // namespace
}  // namespace errdex::match
