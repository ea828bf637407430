#include "cli/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <vector>

namespace errdex::cli {
namespace {

std::atomic<int> g_threads_seen{0};
// Constructed once per thread that touches it.
struct CountsThread {
  CountsThread() { ++g_threads_seen; }
};
thread_local CountsThread t_counts;

TEST(ParallelFor, EveryIndexRunsOnce) {
  for (int jobs : {1, 2, 4}) {
    for (std::size_t n : {0u, 1u, 2u, 1000u}) {
      std::vector<std::atomic<int>> done(n);
      parallel_for(n, jobs, [&](std::size_t i) { ++done[i]; });
      for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(done[i].load(), 1) << jobs << " " << n << " " << i;
    }
  }
}

// The pool's point: a scan runs a loop per pass and revision, and a
// thread started and ended for each made the allocator give its memory
// back each time.
TEST(ParallelFor, LoopsAfterTheFirstStartNoThread) {
  // Until both other threads have run an item (the caller may take them all).
  for (int loop = 0; loop < 1000 && g_threads_seen.load() < 3; ++loop)
    parallel_for(100, 3, [](std::size_t) {
      (void)&t_counts;
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    });
  const int after_first = g_threads_seen.load();
  for (int loop = 0; loop < 50; ++loop)
    parallel_for(100, 3, [](std::size_t) {
      (void)&t_counts;
      std::this_thread::yield();
    });
  EXPECT_EQ(g_threads_seen.load(), after_first);
}

TEST(ParallelFor, ALoopInsideAnothersWorkRunsEveryIndex) {
  std::vector<std::atomic<int>> done(40 * 30);
  parallel_for(40, 3, [&](std::size_t i) {
    parallel_for(30, 3, [&](std::size_t j) { ++done[i * 30 + j]; });
  });
  for (auto& d : done) EXPECT_EQ(d.load(), 1);
}

TEST(ParallelFor, TheCallersExceptionIsRethrownAfterTheOthersFinish) {
  std::atomic<int> ran{0};
  const std::thread::id caller = std::this_thread::get_id();
  EXPECT_THROW(parallel_for(200, 3,
                            [&](std::size_t) {
                              ++ran;
                              std::this_thread::sleep_for(std::chrono::milliseconds(1));
                              if (std::this_thread::get_id() == caller) throw std::runtime_error("x");
                            }),
               std::runtime_error);
  // The pool is free again.
  std::vector<std::atomic<int>> done(10);
  parallel_for(10, 3, [&](std::size_t i) { ++done[i]; });
  for (auto& d : done) EXPECT_EQ(d.load(), 1);
}

}  // namespace
}  // namespace errdex::cli
