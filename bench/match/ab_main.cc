// The driver of bench/match/compilers.sh: the matcher built by gcc and by
// clang (ab_side.cc), in one process, over the same index and lines. It
// first checks that both give the same answer to every line (pasted and
// traceback), then times whole passes over the pasted lines, the two
// builds taking turns and alternating which goes first, so a slower moment
// of a shared machine weighs on both. Prints each build's lines per second
// over all passes and the median of the per-round time ratios.
//
// usage: ab_main DB CASES.jsonl ROUNDS
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

extern "C" void* side_gcc_build(const char*);
extern "C" void side_gcc_free(void*);
extern "C" std::uint64_t side_gcc_match(const void*, const char*, std::size_t, int);
extern "C" void* side_clang_build(const char*);
extern "C" void side_clang_free(void*);
extern "C" std::uint64_t side_clang_match(const void*, const char*, std::size_t, int);

int main(int argc, char** argv) {
  if (argc != 4 || std::atoi(argv[3]) <= 0) {
    std::fprintf(stderr, "usage: ab_main DB CASES.jsonl ROUNDS\n");
    return 2;
  }
  const int rounds = std::atoi(argv[3]);
  std::vector<std::string> pasted, tracebacks;
  std::ifstream in(argv[2]);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("last") || !j.contains("traceback")) continue;
    pasted.push_back(j["last"]);
    tracebacks.push_back(j["traceback"]);
  }
  if (pasted.empty()) {
    std::fprintf(stderr, "ab_main: no cases in %s\n", argv[2]);
    return 2;
  }
  void* g = side_gcc_build(argv[1]);
  void* c = side_clang_build(argv[1]);
  if (!g || !c) {
    std::fprintf(stderr, "ab_main: cannot read %s\n", argv[1]);
    return 2;
  }
  std::size_t differ = 0;
  for (const auto* set : {&pasted, &tracebacks})
    for (const auto& t : *set) differ += side_gcc_match(g, t.data(), t.size(), 1) != side_clang_match(c, t.data(), t.size(), 1);
  std::printf("lines %zu, answers that differ between the builds: %zu\n", pasted.size() + tracebacks.size(), differ);
  using Clock = std::chrono::steady_clock;
  double gcc_s = 0, clang_s = 0;
  std::vector<double> ratios;  // clang time / gcc time, per round
  std::uint64_t sink = 0;
  auto pass = [&](bool clang) {
    auto t0 = Clock::now();
    for (const auto& t : pasted) sink += clang ? side_clang_match(c, t.data(), t.size(), 0) : side_gcc_match(g, t.data(), t.size(), 0);
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  for (int r = 0; r < rounds; ++r) {
    double tg, tc;
    if (r % 2) {
      tg = pass(false);
      tc = pass(true);
    } else {
      tc = pass(true);
      tg = pass(false);
    }
    gcc_s += tg;
    clang_s += tc;
    ratios.push_back(tc / tg);
  }
  std::sort(ratios.begin(), ratios.end());
  const double n = static_cast<double>(pasted.size()) * rounds;
  std::printf("gcc %.0f lines/s, clang %.0f lines/s, clang/gcc speed %.3f over all rounds, median round %.3f "
              "(quartiles %.3f, %.3f) [%llu]\n",
              n / gcc_s, n / clang_s, gcc_s / clang_s, 1 / ratios[ratios.size() / 2], 1 / ratios[ratios.size() * 3 / 4],
              1 / ratios[ratios.size() / 4], static_cast<unsigned long long>(sink % 7));
  side_gcc_free(g);
  side_clang_free(c);
  return differ == 0 ? 0 : 1;
}
