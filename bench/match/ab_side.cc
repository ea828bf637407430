// One side of bench/match/compilers.sh and bench/match/pgo.sh: compiled,
// with the matcher's own sources, once as side a and once as side b (two
// compilers, or without and with a profile), each time with `errdex` renamed
// (-Derrdex=errdex_SIDE) so both builds live in one process. The driver
// (ab_main.cc) reaches each side through these C entry points.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "match/matcher.h"
#include "model/record_json.h"
#include "store/store.h"

#define ERRDEX_CAT2(a, b) a##b
#define ERRDEX_CAT(a, b) ERRDEX_CAT2(a, b)
#define SIDE_FN(name) ERRDEX_CAT(ERRDEX_CAT(side_, SIDE), name)

// The matcher over every record of `db`: a store URL, or a dataset file
// (`errdex export`'s lines, `.jsonl`), which a side built from an older
// commit reads as well as today's (a store's schema moves on); nullptr
// when it cannot be read.
extern "C" void* SIDE_FN(_build)(const char* db) {
  if (std::string_view(db).ends_with(".jsonl")) {
    std::ifstream in(db);
    if (!in) return nullptr;
    std::vector<errdex::model::ErrorRecord> records;
    for (std::string line; std::getline(in, line);) {
      auto l = errdex::model::dataset_line_from_json(line);
      if (!l) return nullptr;
      records.push_back(std::move(l->record));
    }
    return new errdex::match::Matcher(errdex::match::Matcher::build(records));
  }
  auto store = errdex::store::open_store(db);
  if (!store) return nullptr;
  auto lines = (*store)->list(std::nullopt);
  if (!lines) return nullptr;
  std::vector<errdex::model::ErrorRecord> records;
  for (auto& l : *lines) records.push_back(std::move(l.record));
  return new errdex::match::Matcher(errdex::match::Matcher::build(records));
}

extern "C" void SIDE_FN(_free)(void* m) { delete static_cast<errdex::match::Matcher*>(m); }

namespace {
std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return (h ^ v) * 0x100000001b3ull + (h >> 29); }
std::uint64_t mix(std::uint64_t h, std::string_view s) {
  h = mix(h, s.size());
  for (unsigned char c : s) h = mix(h, c);
  return h;
}
}  // namespace

// Matches `text` (top 5) and returns a hash of the whole answer: every
// candidate's id, score, reasons and captures, and the result's flags. With
// `full` false only the number of candidates (the timed calls: the answer
// is read, as a caller would, but not hashed).
extern "C" std::uint64_t SIDE_FN(_match)(const void* m, const char* text, std::size_t size, int full) {
  auto r = static_cast<const errdex::match::Matcher*>(m)->match(std::string_view(text, size), 5);
  if (!full) return r.candidates.size();
  std::uint64_t h = mix(0xcbf29ce484222325ull, std::uint64_t(r.ambiguous) | std::uint64_t(r.fulltext_fallback) << 1 |
                                                   std::uint64_t(r.truncated) << 2);
  h = mix(h, r.exception.error_class);
  h = mix(h, r.exception.message);
  for (const auto& c : r.candidates) {
    h = mix(h, c.id);
    std::uint64_t bits;
    std::memcpy(&bits, &c.score, sizeof bits);
    h = mix(h, bits);
    h = mix(h, std::uint64_t(c.reasons.frame) | std::uint64_t(c.reasons.frame_line) << 1 |
                   std::uint64_t(c.reasons.error_class) << 2 | std::uint64_t(c.reasons.pattern) << 3 |
                   std::uint64_t(c.reasons.fulltext) << 4);
    for (const auto& cap : c.captures) {
      h = mix(h, cap.name);
      h = mix(h, cap.value);
    }
  }
  return h;
}
