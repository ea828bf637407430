// The driver of bench/match/compilers.sh and bench/match/pgo.sh: two builds
// of the matcher (ab_side.cc, compiled once as side `a` and once as side
// `b`), in one process, over the same index and lines. It first checks that
// both give the same answer to every line (pasted and traceback), then
// times whole passes over the pasted lines, the two builds taking turns and
// alternating which goes first, so a slower moment of a shared machine
// weighs on both. Prints each build's lines per second over all passes and
// the median of the per-round time ratios.
//
// With --train it only runs side b over the training lines (the pasted
// lines of even index and every traceback) ROUNDS times: pgo.sh links it
// with an instrumented side b to make the profile that side is then built
// with. The odd lines are never seen in training.
//
// usage: ab_main DB CASES.jsonl ROUNDS LABEL_A LABEL_B
//        ab_main --train DB CASES.jsonl ROUNDS
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

extern "C" void* side_a_build(const char*);
extern "C" void side_a_free(void*);
extern "C" std::uint64_t side_a_match(const void*, const char*, std::size_t, int);
extern "C" void* side_b_build(const char*);
extern "C" void side_b_free(void*);
extern "C" std::uint64_t side_b_match(const void*, const char*, std::size_t, int);

namespace {

int usage() {
  std::fprintf(stderr, "usage: ab_main DB CASES.jsonl ROUNDS LABEL_A LABEL_B\n       ab_main --train DB CASES.jsonl ROUNDS\n");
  return 2;
}

// Side b over the training lines, `rounds` times.
int train(void* b, const std::vector<std::string>& pasted, const std::vector<std::string>& tracebacks, int rounds) {
  std::vector<const std::string*> lines;
  for (std::size_t i = 0; i < pasted.size(); i += 2) lines.push_back(&pasted[i]);
  for (const auto& t : tracebacks) lines.push_back(&t);
  std::uint64_t sink = 0;
  for (int r = 0; r < rounds; ++r)
    for (const std::string* t : lines) sink += side_b_match(b, t->data(), t->size(), 0);
  std::printf("trained on %zu lines, %d rounds [%llu]\n", lines.size(), rounds, static_cast<unsigned long long>(sink % 7));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool training = argc == 5 && std::strcmp(argv[1], "--train") == 0;
  if (!training && argc != 6) return usage();
  char** arg = argv + (training ? 2 : 1);
  const int rounds = std::atoi(arg[2]);
  if (rounds <= 0) return usage();
  std::vector<std::string> pasted, tracebacks;
  std::ifstream in(arg[1]);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("last") || !j.contains("traceback")) continue;
    pasted.push_back(j["last"]);
    tracebacks.push_back(j["traceback"]);
  }
  if (pasted.empty()) {
    std::fprintf(stderr, "ab_main: no cases in %s\n", arg[1]);
    return 2;
  }
  void* b = side_b_build(arg[0]);
  if (!b) {
    std::fprintf(stderr, "ab_main: cannot read %s\n", arg[0]);
    return 2;
  }
  if (training) {
    int status = train(b, pasted, tracebacks, rounds);
    side_b_free(b);
    return status;
  }
  void* a = side_a_build(arg[0]);
  if (!a) {
    std::fprintf(stderr, "ab_main: cannot read %s\n", arg[0]);
    return 2;
  }
  const char* label_a = arg[3];
  const char* label_b = arg[4];
  std::size_t differ = 0;
  for (const auto* set : {&pasted, &tracebacks})
    for (const auto& t : *set) differ += side_a_match(a, t.data(), t.size(), 1) != side_b_match(b, t.data(), t.size(), 1);
  std::printf("lines %zu, answers that differ between the builds: %zu\n", pasted.size() + tracebacks.size(), differ);
  using Clock = std::chrono::steady_clock;
  double a_s = 0, b_s = 0;
  std::vector<double> ratios;  // b's time / a's time, per round
  std::uint64_t sink = 0;
  auto pass = [&](bool side_b) {
    auto t0 = Clock::now();
    for (const auto& t : pasted) sink += side_b ? side_b_match(b, t.data(), t.size(), 0) : side_a_match(a, t.data(), t.size(), 0);
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  for (int r = 0; r < rounds; ++r) {
    double ta, tb;
    if (r % 2) {
      ta = pass(false);
      tb = pass(true);
    } else {
      tb = pass(true);
      ta = pass(false);
    }
    a_s += ta;
    b_s += tb;
    ratios.push_back(tb / ta);
  }
  std::sort(ratios.begin(), ratios.end());
  const double n = static_cast<double>(pasted.size()) * rounds;
  std::printf("%s %.0f lines/s, %s %.0f lines/s, %s/%s speed %.3f over all rounds, median round %.3f "
              "(quartiles %.3f, %.3f) [%llu]\n",
              label_a, n / a_s, label_b, n / b_s, label_b, label_a, a_s / b_s, 1 / ratios[ratios.size() / 2],
              1 / ratios[ratios.size() * 3 / 4], 1 / ratios[ratios.size() / 4], static_cast<unsigned long long>(sink % 7));
  side_a_free(a);
  side_b_free(b);
  return differ == 0 ? 0 : 1;
}
