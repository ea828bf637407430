#pragma once
// When a server reloads its snapshot after news that the store changed.
// A reload costs time in proportion to the store (every record is indexed
// again), so news arriving in a burst (a `scan --python` stores a dataset
// per distribution) is taken together: after a reload that took T, the
// next waits until T has passed since it ended (reloading takes at most
// half the server's time), and then loads every dataset that landed
// meanwhile. News after a quiet spell reloads at once.
// Pure: the caller passes the time, so that the rule can be tested.
#include <chrono>

namespace errdex::web {

class ReloadPacer {
 public:
  using Clock = std::chrono::steady_clock;

  // The store changed (a notification, or a poll that may find a change).
  void news() { m_pending = true; }
  // Whether to reload now.
  bool due(Clock::time_point now) const { return m_pending && now >= m_earliest; }
  // A reload ran from `start` to `end`: news before `start` is served.
  void reloaded(Clock::time_point start, Clock::time_point end) {
    m_pending = false;
    m_earliest = end + (end - start);
  }
  // How long until a pending reload is due (zero when none is pending or
  // it is due).
  Clock::duration wait(Clock::time_point now) const {
    return m_pending && now < m_earliest ? m_earliest - now : Clock::duration(0);
  }

 private:
  bool m_pending = false;
  Clock::time_point m_earliest{};
};

}  // namespace errdex::web
