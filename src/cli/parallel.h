#pragma once
// Work spread over threads for the scan's passes.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace errdex::cli {

namespace detail {

// Threads kept for the whole process and lent to one parallel_for at a
// time. A thread that exits hands its allocator cache back (jemalloc
// flushes it and madvises the pages away: a TLB shootdown on every core,
// and page faults when the memory is touched again); a scan of 20
// revisions ran ~140 loops, and their threads' exits were a sixth of its
// CPU, most of it in the kernel (bench/RESULTS.md).
class ThreadPool {
 public:
  static ThreadPool& shared() {
    static ThreadPool pool;
    return pool;
  }
  ThreadPool() = default;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool() {
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    for (auto& t : m_threads) t.join();
  }

  // Runs `body` once on each of `extra` pool threads and once on the
  // caller, and returns when all have returned (rethrowing what the
  // caller's run threw; a pool thread's exception terminates, as an
  // exception leaving a std::thread does). Returns false, having run
  // nothing, while another caller holds the pool: a parallel_for inside
  // another's work, or on another thread.
  bool run(int extra, const std::function<void()>& body) {
    std::unique_lock busy(m_busy, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      std::lock_guard lock(m_mutex);
      while (m_threads.size() < static_cast<std::size_t>(extra))
        m_threads.emplace_back([this, id = m_threads.size()] { loop(id); });
      m_body = &body;
      m_wanted = static_cast<std::size_t>(extra);
      m_running = m_wanted;
      ++m_generation;
    }
    m_wake.notify_all();
    std::exception_ptr thrown;
    try {
      body();
    } catch (...) {
      thrown = std::current_exception();
    }
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [&] { return m_running == 0; });
    m_body = nullptr;
    lock.unlock();
    if (thrown) std::rethrow_exception(thrown);
    return true;
  }

 private:
  // Thread `id` runs the body of each generation it is wanted for. A
  // generation starts only after every wanted thread finished the last,
  // so none is missed.
  void loop(std::size_t id) noexcept {
    std::uint64_t seen = 0;
    std::unique_lock lock(m_mutex);
    for (;;) {
      m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
      if (m_stop) return;
      seen = m_generation;
      if (id >= m_wanted) continue;
      const std::function<void()>* body = m_body;
      lock.unlock();
      (*body)();
      lock.lock();
      if (--m_running == 0) m_done.notify_all();
    }
  }

  std::mutex m_busy;  // held by the caller of run
  std::mutex m_mutex;
  std::condition_variable m_wake, m_done;
  std::vector<std::thread> m_threads;
  const std::function<void()>* m_body = nullptr;
  std::size_t m_wanted = 0, m_running = 0;
  std::uint64_t m_generation = 0;
  bool m_stop = false;
};

}  // namespace detail

// Runs `work(i)` for i in [0, n) on `jobs` threads (the caller's among
// them; never more threads than items); returns when all are done. The
// other threads come from a pool kept for the process; a call made while
// the pool is lent out (nested, or from another thread) starts threads of
// its own.
template <typename F>
void parallel_for(std::size_t n, int jobs, F&& work) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < n;) work(i);
  };
  const int extra = static_cast<int>(std::min<std::size_t>(jobs > 1 ? static_cast<std::size_t>(jobs - 1) : 0,
                                                           n > 0 ? n - 1 : 0));
  if (extra == 0) {
    worker();
    return;
  }
  const std::function<void()> body = worker;
  if (detail::ThreadPool::shared().run(extra, body)) return;
  std::vector<std::thread> threads;
  for (int t = 0; t < extra; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
}

}  // namespace errdex::cli
