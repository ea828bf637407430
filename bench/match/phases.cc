// Where a pasted line's time goes inside Matcher::match, phase by phase,
// and how much of each phase is the processor's state that other messages
// displace (caches, branch history) rather than the work itself. Linked by
// bench/match/phases.sh with a copy of src/match/matcher.cc that reads the
// time stamp counter at each phase's start (errdex_phase_mark), never with
// the matcher the project ships.
//
// Two passes over the standard library's pasted lines (the cases'
// "last"): cycled, every line in turn ROUNDS times (as match_bench's (a)
// row), and repeated, each line ROUNDS times in a row (its caches and
// branch history its own). A phase that costs much more cycled than
// repeated waits on memory or mispredicts branches that a line of its own
// would have warmed.
//
// usage: phases --db sqlite:PATH --cases CASES.jsonl [--rounds N]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "match/matcher.h"
#include "store/store.h"

// Defined by the instrumented copy of the matcher: ticks spent in each
// phase (summed over calls) and the calls counted.
extern std::uint64_t errdex_phase_ticks[16];
extern std::uint64_t errdex_phase_calls;
extern const char* const errdex_phase_names[];
extern const int errdex_phase_count;
// The instrumented copy's clock (the time stamp counter on x86).
std::uint64_t errdex_phase_clock();

namespace {

struct Pass {
  std::vector<double> per_line;  // ticks per call, by phase
  double total = 0;
};

Pass read_and_reset() {
  Pass p;
  const double calls = errdex_phase_calls ? static_cast<double>(errdex_phase_calls) : 1;
  for (int k = 0; k < errdex_phase_count; ++k) {
    p.per_line.push_back(static_cast<double>(errdex_phase_ticks[k]) / calls);
    p.total += p.per_line.back();
    errdex_phase_ticks[k] = 0;
  }
  errdex_phase_calls = 0;
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  std::string db, cases;
  int rounds = 200;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::printf("usage: phases --db sqlite:PATH --cases CASES.jsonl [--rounds N]\n");
      return 0;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "phases: %s needs a value\n", a.c_str());
      return 2;
    }
    if (a == "--db") db = argv[++i];
    else if (a == "--cases") cases = argv[++i];
    else if (a == "--rounds") rounds = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "phases: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (db.empty() || cases.empty() || rounds <= 0) {
    std::fprintf(stderr, "usage: phases --db sqlite:PATH --cases CASES.jsonl [--rounds N]\n");
    return 2;
  }
  auto st = errdex::store::open_store(db);
  if (!st) {
    std::fprintf(stderr, "phases: %s\n", st.error().c_str());
    return 2;
  }
  auto listed = (*st)->list(std::nullopt);
  if (!listed) {
    std::fprintf(stderr, "phases: %s\n", listed.error().c_str());
    return 2;
  }
  std::vector<errdex::model::ErrorRecord> records;
  for (auto& l : *listed) records.push_back(std::move(l.record));
  std::vector<std::string> pasted;
  std::ifstream in(cases);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("last") && j["last"].is_string()) pasted.push_back(j["last"]);
  }
  if (pasted.empty()) {
    std::fprintf(stderr, "phases: no cases in %s\n", cases.c_str());
    return 2;
  }
  // The counter's ticks per microsecond, against the steady clock: what a
  // goal in messages per second is in ticks per line.
  double ticks_per_us = 0;
  {
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t c0 = errdex_phase_clock();
    while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(200)) {
    }
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    ticks_per_us = static_cast<double>(errdex_phase_clock() - c0) / us;
  }
  const auto m = errdex::match::Matcher::build(records);
  std::size_t sink = 0;
  for (const auto& p : pasted) sink += m.match(p, 5).candidates.size();  // scratch grown, patterns compiled
  read_and_reset();
  for (int r = 0; r < rounds; ++r)
    for (const auto& p : pasted) sink += m.match(p, 5).candidates.size();
  const Pass cycled = read_and_reset();
  for (const auto& p : pasted)
    for (int r = 0; r < rounds; ++r) sink += m.match(p, 5).candidates.size();
  const Pass repeated = read_and_reset();
  std::printf("%zu lines, %d rounds, %zu records (checksum %zu); clock ticks per line, %.0f ticks a microsecond "
              "(1,000,000 lines/s is %.0f ticks a line; the clock's own reads are in the figures)\n\n",
              pasted.size(), rounds, records.size(), sink, ticks_per_us, ticks_per_us);
  std::printf("| phase | cycled | share | repeated | cycled - repeated |\n|---|---:|---:|---:|---:|\n");
  for (int k = 0; k < errdex_phase_count; ++k)
    std::printf("| %s | %.0f | %.1f %% | %.0f | %.0f |\n", errdex_phase_names[k], cycled.per_line[k],
                100 * cycled.per_line[k] / cycled.total, repeated.per_line[k], cycled.per_line[k] - repeated.per_line[k]);
  std::printf("| **all** | **%.0f** | | **%.0f** | **%.0f** |\n", cycled.total, repeated.total, cycled.total - repeated.total);
  return 0;
}
