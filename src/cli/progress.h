#pragma once
// A one-line progress bar on stderr, drawn only when stderr is a terminal.
// Thread-safe: workers call tick(); drawing is rate-limited.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <unistd.h>

namespace errdex::cli {

class Progress {
 public:
  Progress(std::string label, std::size_t total)
      : m_label(std::move(label)), m_total(total), m_enabled(::isatty(2) != 0 && total > 0) {}
  ~Progress() { finish(); }

  void tick() {
    std::size_t done = ++m_done;
    if (!m_enabled) return;
    auto now = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(m_mutex, std::try_to_lock);
    if (!lock.owns_lock()) return;
    if (done != m_total && now - m_last < std::chrono::milliseconds(80)) return;
    m_last = now;
    draw(done);
  }

  void finish() {
    if (!m_enabled || m_finished) return;
    m_finished = true;
    std::lock_guard<std::mutex> lock(m_mutex);
    draw(m_done.load());
    std::fputc('\n', stderr);
  }

 private:
  void draw(std::size_t done) {
    constexpr int k_width = 30;
    int filled = static_cast<int>(k_width * done / m_total);
    std::string bar(filled, '#');
    bar.append(k_width - filled, '.');
    std::fprintf(stderr, "\r%s [%s] %zu/%zu files %3d%%", m_label.c_str(), bar.c_str(), done, m_total,
                 static_cast<int>(100 * done / m_total));
    std::fflush(stderr);
  }

  std::string m_label;
  std::size_t m_total;
  bool m_enabled;
  bool m_finished = false;
  std::atomic<std::size_t> m_done{0};
  std::mutex m_mutex;
  std::chrono::steady_clock::time_point m_last{};
};

}  // namespace errdex::cli
