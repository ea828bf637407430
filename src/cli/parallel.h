#pragma once
// Work spread over threads for the scan's passes.
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace errdex::cli {

// Runs `work(i)` for i in [0, n) on `jobs` threads (the caller's among
// them); returns when all are done.
template <typename F>
void parallel_for(std::size_t n, int jobs, F&& work) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < n;) work(i);
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
}

}  // namespace errdex::cli
