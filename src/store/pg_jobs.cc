// The PostgreSQL JobQueue, over the jobs table (migration 3).
#include <nlohmann/json.hpp>

#include "store/jobs.h"
#include "store/pg_pool.h"
#include "store/pg_store.h"
#include "store/store.h"

namespace errdex::store {
namespace {

using pg::field;
using pg::field_int;
using pg::Params;
using pg::Sql;

// ISO 8601 in UTC with milliseconds, as the datasets' times; NULL stays
// NULL (read as "").
#define ERRDEX_ISO(column) "to_char(" column " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
#define ERRDEX_JOB_COLUMNS                                                                                         \
  "id, state, source, array_to_json(revs)::text, repo, ref, attempts, worker, error, " ERRDEX_ISO("enqueued_at") \
  ", " ERRDEX_ISO("started_at") ", " ERRDEX_ISO("heartbeat_at") ", " ERRDEX_ISO("lease_until") ", "              \
  ERRDEX_ISO("finished_at") ", options"

const Sql k_enqueue{"jobs_enqueue",
                    "INSERT INTO jobs(source, revs, repo, ref, options) VALUES($1, $2, $3, $4, $5) RETURNING id"};

// The options column (migration 7) of `spec`, and back.
std::string options_json(const JobSpec& spec) {
  nlohmann::json o = nlohmann::json::object();
  if (spec.revs_glob) o["revsGlob"] = *spec.revs_glob;
  if (spec.prefix) o["prefix"] = *spec.prefix;
  if (spec.sha) o["sha"] = *spec.sha;
  if (spec.include_tests) o["includeTests"] = true;
  if (spec.no_evidence) o["noEvidence"] = true;
  if (spec.blame) o["blame"] = true;
  if (spec.no_cache) o["noCache"] = true;
  return o.dump();
}

void read_options(std::string_view text, JobSpec& spec) {
  auto o = nlohmann::json::parse(text, nullptr, false);
  if (!o.is_object()) return;
  auto text_of = [&](const char* key) -> std::optional<std::string> {
    auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  auto flag = [&](const char* key) { return o.value(key, nlohmann::json(false)).is_boolean() && o.value(key, false); };
  spec.revs_glob = text_of("revsGlob");
  spec.prefix = text_of("prefix");
  spec.sha = text_of("sha");
  spec.include_tests = flag("includeTests");
  spec.no_evidence = flag("noEvidence");
  spec.blame = flag("blame");
  spec.no_cache = flag("noCache");
}
// A job lost `max_attempts` times is given up on, not run forever.
const Sql k_give_up{"jobs_give_up",
                    "UPDATE jobs SET state = 'failed', finished_at = now(),"
                    " error = 'its worker was lost (lease ran out) ' || attempts || ' times'"
                    " WHERE state = 'running' AND lease_until < now() AND attempts >= $1"};
// Two workers never take one job: the row is locked by the first, and the
// second skips it for the next.
const Sql k_take{"jobs_take",
                 "UPDATE jobs SET state = 'running', worker = $1, attempts = attempts + 1, error = '',"
                 " started_at = now(), heartbeat_at = now(), lease_until = now() + make_interval(secs => $2)"
                 " WHERE id = (SELECT id FROM jobs WHERE state = 'queued' OR (state = 'running' AND lease_until < now())"
                 " ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING " ERRDEX_JOB_COLUMNS};
const Sql k_heartbeat{"jobs_heartbeat",
                      "UPDATE jobs SET heartbeat_at = now(), lease_until = now() + make_interval(secs => $4)"
                      " WHERE id = $1 AND worker = $2 AND attempts = $3 AND state = 'running'"};
const Sql k_finish{"jobs_finish",
                   "UPDATE jobs SET state = $4, error = $5, finished_at = now(), lease_until = NULL"
                   " WHERE id = $1 AND worker = $2 AND attempts = $3 AND state = 'running'"};
const Sql k_requeue{"jobs_requeue",
                    "UPDATE jobs SET state = CASE WHEN attempts >= $4 THEN 'failed' ELSE 'queued' END, error = $5,"
                    " lease_until = NULL, finished_at = CASE WHEN attempts >= $4 THEN now() END"
                    " WHERE id = $1 AND worker = $2 AND attempts = $3 AND state = 'running'"};
const Sql k_list{"jobs_list", "SELECT " ERRDEX_JOB_COLUMNS " FROM jobs ORDER BY id DESC LIMIT $1"};
const Sql k_open{"jobs_open", "SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')"};

Job job_at(const pg::Result& r, int i) {
  Job j;
  j.id = field_int(r, i, 0);
  j.state = field(r, i, 1);
  j.spec.source = field(r, i, 2);
  auto revs = nlohmann::json::parse(field(r, i, 3), nullptr, false);
  if (revs.is_array())
    for (const auto& v : revs)
      if (v.is_string()) j.spec.revs.push_back(v.get<std::string>());
  if (!PQgetisnull(r.get(), i, 4)) j.spec.repo = std::string(field(r, i, 4));
  if (!PQgetisnull(r.get(), i, 5)) j.spec.ref = std::string(field(r, i, 5));
  j.attempts = static_cast<int>(field_int(r, i, 6));
  j.worker = field(r, i, 7);
  j.error = field(r, i, 8);
  j.enqueued_at = field(r, i, 9);
  j.started_at = field(r, i, 10);
  j.heartbeat_at = field(r, i, 11);
  j.lease_until = field(r, i, 12);
  j.finished_at = field(r, i, 13);
  read_options(field(r, i, 14), j.spec);
  return j;
}

class PgJobQueue final : public JobQueue {
 public:
  explicit PgJobQueue(std::shared_ptr<pg::Pool> pool) : m_pool(std::move(pool)) {}

  Expected<std::int64_t> enqueue(const JobSpec& spec) override {
    if (!pg::sendable(spec.source)) return Error{"the job's source is not UTF-8 text"};
    for (const auto& option : {spec.repo, spec.ref, spec.revs_glob, spec.prefix, spec.sha})
      if (option && !pg::sendable(*option)) return Error{"an option of the job is not UTF-8 text: " + *option};
    pg::ArrayLiteral revs;
    for (const auto& r : spec.revs) revs.add(r);
    auto c = m_pool->take();
    if (!c) return Error{c.error()};
    auto r = (*c)->run(k_enqueue,
                       Params().text(spec.source).text(revs.finish()).text_or_null(spec.repo).text_or_null(spec.ref)
                           .text(options_json(spec)),
                       "enqueue a job");
    if (!r) return Error{r.error()};
    return field_int(*r, 0, 0);
  }

  Expected<std::optional<Job>> take(const std::string& worker, std::chrono::seconds lease, int max_attempts) override {
    auto c = m_pool->take();
    if (!c) return Error{c.error()};
    if (auto r = (*c)->run(k_give_up, Params().integer(max_attempts), "give up on lost jobs"); !r) return Error{r.error()};
    auto r = (*c)->run(k_take, Params().text(worker).integer(lease.count()), "take a job");
    if (!r) return Error{r.error()};
    if (PQntuples(r->get()) == 0) return std::optional<Job>();
    return std::optional<Job>(job_at(*r, 0));
  }

  Expected<bool> heartbeat(const Job& job, std::chrono::seconds lease) override {
    auto c = m_pool->take();
    if (!c) return Error{c.error()};
    auto r = (*c)->run(k_heartbeat, Params().integer(job.id).text(job.worker).integer(job.attempts).integer(lease.count()),
                       "extend the job's lease");
    if (!r) return Error{r.error()};
    return std::string_view(PQcmdTuples(r->get())) == "1";
  }

  Expected<bool> finish(const Job& job, const std::optional<std::string>& error) override {
    auto c = m_pool->take();
    if (!c) return Error{c.error()};
    std::string why = error.value_or("");
    if (!pg::sendable(why)) why = "the scan failed (its message is not UTF-8 text)";
    auto r = (*c)->run(k_finish,
                       Params().integer(job.id).text(job.worker).integer(job.attempts).text(error ? "failed" : "done").text(why),
                       "finish the job");
    if (!r) return Error{r.error()};
    return std::string_view(PQcmdTuples(r->get())) == "1";
  }

  Expected<bool> requeue(const Job& job, const std::string& why, int max_attempts) override {
    auto c = m_pool->take();
    if (!c) return Error{c.error()};
    const std::string sent = pg::sendable(why) ? why : "the store's connection was lost";
    auto r = (*c)->run(k_requeue,
                       Params().integer(job.id).text(job.worker).integer(job.attempts).integer(max_attempts).text(sent),
                       "put the job back in the queue");
    if (!r) return Error{r.error()};
    return std::string_view(PQcmdTuples(r->get())) == "1";
  }

  Expected<std::vector<Job>> list(int limit) override {
    auto c = m_pool->take();
    if (!c) return Error{c.error()};
    auto r = (*c)->run(k_list, Params().integer(limit), "list jobs");
    if (!r) return Error{r.error()};
    std::vector<Job> out;
    for (int i = 0, n = PQntuples(r->get()); i < n; ++i) out.push_back(job_at(*r, i));
    return out;
  }

  Expected<std::int64_t> open_jobs() override {
    auto c = m_pool->take();
    if (!c) return Error{c.error()};
    auto r = (*c)->run(k_open, Params(), "count open jobs");
    if (!r) return Error{r.error()};
    return field_int(*r, 0, 0);
  }

 private:
  std::shared_ptr<pg::Pool> m_pool;
};

}  // namespace

std::uint64_t store_connections_lost() { return pg::connections_lost(); }

Expected<std::unique_ptr<JobQueue>> open_job_queue(const std::string& url) {
  if (!is_postgresql(url))
    return Error{"the job queue needs a PostgreSQL store (--db postgresql://…); " + url + " is not one"};
  auto pool = pg::migrated_pool(url);
  if (!pool) return Error{pool.error()};
  return std::unique_ptr<JobQueue>(std::make_unique<PgJobQueue>(std::move(*pool)));
}

}  // namespace errdex::store
