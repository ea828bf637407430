#include "store/jobs.h"

#include <nlohmann/json.hpp>

namespace errdex::store {

std::string to_json(const std::vector<Job>& jobs) {
  using nlohmann::json;
  auto optional = [](const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); };
  auto time = [](const std::string& v) { return v.empty() ? json(nullptr) : json(v); };
  json list = json::array();
  for (const auto& j : jobs)
    list.push_back({{"id", j.id},
                    {"state", j.state},
                    {"source", j.spec.source},
                    {"revs", j.spec.revs},
                    {"repo", optional(j.spec.repo)},
                    {"ref", optional(j.spec.ref)},
                    {"revsGlob", optional(j.spec.revs_glob)},
                    {"prefix", optional(j.spec.prefix)},
                    {"sha", optional(j.spec.sha)},
                    {"includeTests", j.spec.include_tests},
                    {"noEvidence", j.spec.no_evidence},
                    {"blame", j.spec.blame},
                    {"noCache", j.spec.no_cache},
                    {"attempts", j.attempts},
                    {"worker", j.worker},
                    {"error", j.error},
                    {"enqueuedAt", time(j.enqueued_at)},
                    {"startedAt", time(j.started_at)},
                    {"heartbeatAt", time(j.heartbeat_at)},
                    {"leaseUntil", time(j.lease_until)},
                    {"finishedAt", time(j.finished_at)}});
  return json{{"jobs", list}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace errdex::store
