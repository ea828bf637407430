#pragma once
// Where a scan's time goes: wall and process CPU seconds per phase, summed
// over the revisions of one command and written to standard error at exit
// when ERRDEX_PHASES is set. A diagnostic for benchmarks (bench/scan/), not
// output a user reads.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>

namespace errdex::cli {

class PhaseClock {
 public:
  static PhaseClock& instance() {
    static PhaseClock clock;
    return clock;
  }
  bool on() const { return m_on; }
  // Ends the phase running (if any) and starts `name`; "" ends it only.
  void phase(const std::string& name) {
    if (!m_on) return;
    const auto wall = std::chrono::steady_clock::now();
    const std::clock_t cpu = std::clock();
    if (!m_name.empty()) {
      auto& [w, c] = m_seconds[m_name];
      w += std::chrono::duration<double>(wall - m_wall).count();
      c += double(cpu - m_cpu) / CLOCKS_PER_SEC;
    }
    m_name = name;
    m_wall = wall;
    m_cpu = cpu;
  }
  ~PhaseClock() {
    if (!m_on) return;
    phase("");
    double w_all = 0, c_all = 0;
    for (const auto& [name, s] : m_seconds) w_all += s.first, c_all += s.second;
    std::fprintf(stderr, "%-28s %8s %8s\n", "phase", "wall s", "CPU s");
    for (const auto& [name, s] : m_seconds) std::fprintf(stderr, "%-28s %8.2f %8.2f\n", name.c_str(), s.first, s.second);
    std::fprintf(stderr, "%-28s %8.2f %8.2f\n", "(all)", w_all, c_all);
  }

 private:
  PhaseClock() : m_on(std::getenv("ERRDEX_PHASES") != nullptr) {}
  bool m_on;
  std::string m_name;
  std::chrono::steady_clock::time_point m_wall;
  std::clock_t m_cpu = 0;
  std::map<std::string, std::pair<double, double>> m_seconds;
};

inline void phase(const std::string& name) { PhaseClock::instance().phase(name); }

}  // namespace errdex::cli
