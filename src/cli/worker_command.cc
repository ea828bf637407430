// errdex enqueue, worker and jobs: scans queued in a PostgreSQL store and
// run by workers on any machine that reaches it.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli/commands.h"
#include "store/jobs.h"
#include "util/text.h"

namespace errdex::cli {
namespace {

// How often an idle worker looks for new jobs.
constexpr auto k_idle_poll = std::chrono::milliseconds(500);
// Most characters of a failed scan's messages kept as the job's error.
constexpr std::size_t k_error_chars = 4000;

std::atomic<bool> g_stop{false};

extern "C" void on_stop_signal(int) { g_stop = true; }

// Everything written to the stream is kept and passed on: a failed job's
// error is what its scan printed.
class Tee : public std::streambuf {
 public:
  explicit Tee(std::streambuf* out) : m_out(out) {}
  std::string text() const {
    std::lock_guard lock(m_mu);
    return m_kept;
  }

 protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    char ch = static_cast<char>(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    {
      std::lock_guard lock(m_mu);
      m_kept.append(s, static_cast<std::size_t>(n));
    }
    return m_out->sputn(s, n);
  }
  int sync() override { return m_out->pubsync(); }

 private:
  std::streambuf* m_out;
  mutable std::mutex m_mu;
  std::string m_kept;
};

std::string worker_name() {
  char host[256] = {0};
  if (::gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "unknown");
  return std::string(host) + ":" + std::to_string(::getpid());
}

std::string describe(const store::JobSpec& s) {
  std::string out = s.source;
  for (const auto& r : s.revs) out += " --rev " + r;
  if (s.repo) out += " --repo " + *s.repo;
  if (s.ref) out += " --ref " + *s.ref;
  if (s.revs_glob) out += " --revs " + *s.revs_glob;
  if (s.prefix) out += " --prefix " + *s.prefix;
  if (s.sha) out += " --sha " + *s.sha;
  if (s.include_tests) out += " --include-tests";
  if (s.no_evidence) out += " --no-evidence";
  if (s.blame) out += " --blame";
  if (s.no_cache) out += " --no-cache";
  return out;
}

// Extends the job's lease every third of it until stopped.
class Heartbeat {
 public:
  Heartbeat(store::JobQueue& queue, const store::Job& job, std::chrono::seconds lease)
      : m_thread([this, &queue, &job, lease] {
          const auto every = std::max<std::chrono::milliseconds>(std::chrono::milliseconds(lease) / 3,
                                                                 std::chrono::milliseconds(200));
          std::unique_lock lock(m_mu);
          while (!m_cv.wait_for(lock, every, [this] { return m_done; })) {
            lock.unlock();
            auto r = queue.heartbeat(job, lease);
            lock.lock();
            // A heartbeat that failed (the store unreachable) is tried again
            // at the next beat; the lease may run out meanwhile.
            if (r && !*r) m_lost = true;
          }
        }) {}
  ~Heartbeat() {
    {
      std::lock_guard lock(m_mu);
      m_done = true;
    }
    m_cv.notify_all();
    m_thread.join();
  }
  bool lost() {
    std::lock_guard lock(m_mu);
    return m_lost;
  }

 private:
  std::mutex m_mu;
  std::condition_variable m_cv;
  bool m_done = false;
  bool m_lost = false;
  std::thread m_thread;  // last: starts once the rest is made
};

// Runs the job's scan in this process, as `errdex scan` would; the error
// (what the scan printed) when it failed.
std::optional<std::string> run_job(const store::Job& job, const WorkerArgs& a) {
  ScanArgs scan;
  scan.path = job.spec.source;
  scan.revs = job.spec.revs;
  scan.repo = job.spec.repo;
  scan.ref = job.spec.ref;
  scan.revs_glob = job.spec.revs_glob;
  scan.prefix = job.spec.prefix;
  scan.sha = job.spec.sha;
  scan.include_tests = job.spec.include_tests;
  scan.no_evidence = job.spec.no_evidence;
  scan.blame = job.spec.blame;
  scan.no_cache = job.spec.no_cache;
  scan.db = a.db;
  scan.jobs = a.jobs;
  scan.quiet = true;
  Tee tee(std::cerr.rdbuf());
  std::streambuf* before = std::cerr.rdbuf(&tee);
  int code = 2;
  std::string thrown;
  try {
    code = run_scan(scan);
  } catch (const std::exception& e) {
    thrown = std::string("internal error: ") + e.what();
  }
  std::cerr.rdbuf(before);
  if (code == 0 && thrown.empty()) return std::nullopt;
  std::string error = thrown.empty() ? std::string(util::trim(tee.text())) : thrown;
  if (error.empty()) error = "the scan exited with code " + std::to_string(code);
  if (error.size() > k_error_chars) error = "…" + error.substr(error.size() - k_error_chars);
  return error;
}

}  // namespace

int run_enqueue(const EnqueueArgs& a) {
  if (a.source.empty()) {
    std::cerr << "errdex enqueue: SOURCE is empty\n";
    return 2;
  }
  auto queue = store::open_job_queue(a.db);
  if (!queue) {
    std::cerr << "errdex enqueue: " << queue.error() << "\n";
    return 2;
  }
  // A worker may run anywhere: a relative path would mean its own folder.
  std::error_code ec;
  auto absolute = std::filesystem::absolute(a.source, ec);
  store::JobSpec spec = a.spec_options;
  spec.source = ec ? a.source : absolute.lexically_normal().string();
  spec.revs = a.revs;
  spec.repo = a.repo;
  spec.ref = a.ref;
  auto id = (*queue)->enqueue(spec);
  if (!id) {
    std::cerr << "errdex enqueue: " << id.error() << "\n";
    return 2;
  }
  if (a.json) std::printf("{\"id\":%lld}\n", static_cast<long long>(*id));
  else std::printf("enqueued job %lld: %s\n", static_cast<long long>(*id), describe(spec).c_str());
  return 0;
}

int run_worker(const WorkerArgs& a) {
  auto queue = store::open_job_queue(a.db);
  if (!queue) {
    std::cerr << "errdex worker: " << queue.error() << "\n";
    return 2;
  }
  // A worker asked to stop finishes the job it holds first: stopping
  // half-way would only leave the job to be run again after its lease.
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGINT, on_stop_signal);
  const std::string name = worker_name();
  const std::chrono::seconds lease(a.lease);
  std::printf("errdex worker %s: taking jobs (lease %d s)\n", name.c_str(), a.lease);
  std::fflush(stdout);
  int failed = 0;
  bool store_down = false;
  while (!g_stop) {
    auto taken = (*queue)->take(name, lease, a.max_attempts);
    if (!taken) {
      // The store is away: wait for it, as an idle worker waits for jobs.
      if (!store_down) std::cerr << "errdex worker: " << taken.error() << " (trying again)\n";
      store_down = true;
      std::this_thread::sleep_for(k_idle_poll);
      continue;
    }
    store_down = false;
    if (!*taken) {
      if (a.once) {
        // Done when nothing is queued or running: a running job whose
        // worker died comes back when its lease runs out.
        auto open = (*queue)->open_jobs();
        if (open && *open == 0) break;
      }
      std::this_thread::sleep_for(k_idle_poll);
      continue;
    }
    const store::Job& job = **taken;
    std::printf("errdex worker: job %lld (attempt %d): %s\n", static_cast<long long>(job.id), job.attempts,
                describe(job.spec).c_str());
    std::fflush(stdout);
    const auto t0 = std::chrono::steady_clock::now();
    std::optional<std::string> error;
    bool lost = false;
    const std::uint64_t broken_before = store::store_connections_lost();
    {
      Heartbeat beat(**queue, job, lease);
      std::this_thread::sleep_for(std::chrono::seconds(a.pause_before_scan));
      error = run_job(job, a);
      lost = beat.lost();
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // A scan that failed while a store connection broke under it failed
    // because of the store, not the job: the job goes back in the queue (its
    // transaction was rolled back, so nothing of it landed) and is run
    // again, here or by another worker.
    if (error && store::store_connections_lost() != broken_before) {
      auto back = (*queue)->requeue(job, "the store's connection was lost mid-scan: " + *error, a.max_attempts);
      if (back && *back) {
        const bool given_up = job.attempts >= a.max_attempts;
        failed += given_up;
        std::printf("errdex worker: job %lld lost its store connection after %.2f s; %s\n",
                    static_cast<long long>(job.id), secs, given_up ? "failed (too many attempts)" : "queued again");
        std::fflush(stdout);
        continue;
      }
      // Not put back (the store still away, or the job no longer ours): its
      // lease runs out and it is taken again.
      std::cerr << "errdex worker: job " << job.id << " lost its store connection; it runs again when its lease ends\n";
      continue;
    }
    auto finished = (*queue)->finish(job, error);
    if (!finished) {
      // Its lease runs out and another worker runs it again; its dataset,
      // if stored, is replaced by the same one.
      std::cerr << "errdex worker: job " << job.id << ": cannot record its end: " << finished.error() << "\n";
    } else if (!*finished || lost) {
      std::cerr << "errdex worker: job " << job.id << " was taken by another worker meanwhile (its lease ran out)\n";
    }
    if (error) ++failed;
    std::printf("errdex worker: job %lld %s in %.2f s\n", static_cast<long long>(job.id), error ? "failed" : "done",
                secs);
    std::fflush(stdout);
  }
  return failed ? 2 : 0;
}

int run_jobs(const JobsArgs& a) {
  auto queue = store::open_job_queue(a.db);
  if (!queue) {
    std::cerr << "errdex jobs: " << queue.error() << "\n";
    return 2;
  }
  auto jobs = (*queue)->list(a.limit);
  if (!jobs) {
    std::cerr << "errdex jobs: " << jobs.error() << "\n";
    return 2;
  }
  if (a.json) {
    std::printf("%s\n", store::to_json(*jobs).c_str());
    return 0;
  }
  if (jobs->empty()) {
    std::printf("no jobs\n");
    return 0;
  }
  std::printf("%-6s %-8s %-8s %-24s %-24s %s\n", "ID", "STATE", "ATTEMPTS", "WORKER", "UPDATED", "SOURCE");
  for (const auto& j : *jobs) {
    const std::string& updated = !j.finished_at.empty()   ? j.finished_at
                                 : !j.heartbeat_at.empty() ? j.heartbeat_at
                                                           : j.enqueued_at;
    std::printf("%-6lld %-8s %-8d %-24s %-24s %s\n", static_cast<long long>(j.id), j.state.c_str(), j.attempts,
                j.worker.empty() ? "-" : j.worker.c_str(), updated.c_str(), describe(j.spec).c_str());
    if (!j.error.empty()) {
      std::string first = j.error.substr(0, j.error.find('\n'));
      std::printf("       error: %s\n", first.c_str());
    }
  }
  return 0;
}

}  // namespace errdex::cli
