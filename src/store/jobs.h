#pragma once
// A queue of scan jobs in the store, shared by the workers of many machines
// (`errdex enqueue`, `errdex worker`, `errdex jobs`). PostgreSQL only: a
// job is taken with FOR UPDATE SKIP LOCKED and held under a lease that its
// worker's heartbeats extend; a job whose lease ran out (its worker died)
// is taken again.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "util/expected.h"

namespace errdex::store {

// What a job scans: `errdex scan SOURCE [--rev …] [--repo …] [--ref …]`
// and the other options of scan that say what is stored (not how the
// worker runs: its threads and analyst are its own).
struct JobSpec {
  std::string source;
  std::vector<std::string> revs;
  std::optional<std::string> repo, ref;
  std::optional<std::string> revs_glob, prefix, sha;  // --revs, --prefix, --sha
  bool include_tests = false, no_evidence = false, blame = false, no_cache = false;
};

struct Job {
  std::int64_t id = 0;
  std::string state;  // queued, running, done or failed
  JobSpec spec;
  int attempts = 0;    // times taken (a retake after a lost worker counts)
  std::string worker;  // who took it last; "" while never taken
  std::string error;   // why it failed; "" otherwise
  // ISO 8601 times in UTC; "" when not yet.
  std::string enqueued_at, started_at, heartbeat_at, lease_until, finished_at;
};

// Thread-safe.
class JobQueue {
 public:
  virtual ~JobQueue() = default;
  // Adds a queued job; its id.
  virtual Expected<std::int64_t> enqueue(const JobSpec& spec) = 0;
  // Takes the oldest job that is queued, or running under a lease that ran
  // out, for `worker` until now + `lease`; empty when there is none. A job
  // whose lease ran out `max_attempts` times is failed instead of taken.
  virtual Expected<std::optional<Job>> take(const std::string& worker, std::chrono::seconds lease,
                                            int max_attempts) = 0;
  // Extends the lease of `job` as taken (its worker and attempt). false
  // when the job is no longer this worker's (its lease ran out and another
  // took it).
  virtual Expected<bool> heartbeat(const Job& job, std::chrono::seconds lease) = 0;
  // Marks `job` as taken done (no error) or failed with `error`. false when
  // it was no longer this worker's: nothing is changed.
  virtual Expected<bool> finish(const Job& job, const std::optional<std::string>& error) = 0;
  // Puts `job` as taken back in the queue with `why` as its last error, or
  // fails it with `why` when it was taken `max_attempts` times: for a job
  // whose scan failed because the store's connection was lost, not because
  // of the job. false when it was no longer this worker's.
  virtual Expected<bool> requeue(const Job& job, const std::string& why, int max_attempts) = 0;
  // Every job, newest first, at most `limit`.
  virtual Expected<std::vector<Job>> list(int limit) = 0;
  // How many jobs are queued or running.
  virtual Expected<std::int64_t> open_jobs() = 0;
};

// How many times this process lost a connection to a store mid-statement
// (grows when a scan's store connection is terminated under it).
std::uint64_t store_connections_lost();

// The queue of the store at `url`; an error for a store without one
// (SQLite: "needs a PostgreSQL store").
Expected<std::unique_ptr<JobQueue>> open_job_queue(const std::string& url);

// {"jobs": [{"id", "state", "source", "revs", "repo", "ref", "revsGlob",
// "prefix", "sha", "includeTests", "noEvidence", "blame", "noCache",
// "attempts", "worker", "error", "enqueuedAt", "startedAt", "heartbeatAt",
// "leaseUntil", "finishedAt"}]}: what `errdex jobs --json` prints and GET
// /api/jobs answers. Options unset are null (false for flags), times null
// when not yet.
std::string to_json(const std::vector<Job>& jobs);

}  // namespace errdex::store
