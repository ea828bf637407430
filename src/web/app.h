#pragma once
// The site and the JSON API as a function from request to response, with no
// network in it: the server (server.h) parses HTTP and calls App::handle.
//
// An App serves a snapshot of the store: every current record in memory
// with its indexes (by id, file, template, repository) and the matcher built
// over them. refresh() swaps in a new snapshot when a repository's dataset
// changed. Full-text search goes to the store given with each request; when
// the store fails, what needs it answers 503 (JSON under /api) and the rest
// still answers from the snapshot.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "store/jobs.h"
#include "store/store.h"
#include "util/expected.h"

namespace errdex::web {

struct Request {
  std::string method;  // as sent: GET, HEAD, POST, ...
  std::string target;  // path and query, as sent (still percent-encoded)
  std::string body;
  std::string content_type;
  std::string accept_encoding;
  std::string if_none_match;
};

struct Response {
  int status = 200;
  std::string content_type;
  std::shared_ptr<const std::string> body;
  std::string etag;  // quoted, empty when none
  std::vector<std::pair<std::string, std::string>> headers;  // extra: Location, Allow, Vary, Content-Encoding...
};

struct AppOptions {
  // Where "report a problem" links go: a GitHub new-issue URL, to which
  // `?title=…&body=…` naming the record is added.
  std::string report_url = "https://github.com/errdex/errdex/issues/new";
  // Responses kept for repeated GETs; the cache is emptied when the
  // snapshot changes or when it grows past this many bytes.
  std::size_t cache_bytes = 256u << 20;
  // The store's job queue, for GET /api/jobs; null when it has none
  // (SQLite): that route then answers 404.
  std::shared_ptr<store::JobQueue> jobs;
};

class App {
 public:
  // Loads the first snapshot from `store`.
  static Expected<std::unique_ptr<App>> create(store::Store& store, AppOptions options = {});
  ~App();

  // Answers one request. Never throws; a failure inside is a 500 response.
  // Thread-safe: each thread passes its own store.
  Response handle(const Request& request, store::Store& store);

  // Reloads the snapshot if the store's current datasets differ from the
  // served ones. Returns true when it swapped. Thread-safe; requests in
  // flight finish on the snapshot they started with.
  Expected<bool> refresh(store::Store& store);

  // Records in the served snapshot.
  std::size_t records() const;
  // What answers POST /api/match: "matcher" (the match stage's Matcher).
  std::string match_engine() const;

 private:
  struct Impl;
  explicit App(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace errdex::web
