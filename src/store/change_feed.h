#pragma once
// News that another process stored or dropped a dataset, so that a server
// reloads at once instead of at its next poll. PostgreSQL only (its
// LISTEN/NOTIFY: Store::ingest and forget notify in their transaction);
// other stores have no feed and are polled.
#include <chrono>
#include <memory>
#include <string>

#include "util/expected.h"

namespace errdex::store {

class ChangeFeed {
 public:
  virtual ~ChangeFeed() = default;
  // Waits at most `timeout` for news. true: a dataset changed (every
  // pending notification is consumed), or the feed has just (re)connected
  // and may have missed some; false: nothing came in time. An error when
  // the server cannot be reached or the connection broke; the next call
  // connects again. Used by one thread at a time.
  virtual Expected<bool> wait(std::chrono::milliseconds timeout) = 0;
};

// A feed on the store at `url`, on a connection of its own (made by the
// first wait); nullptr when the store has none (SQLite).
std::unique_ptr<ChangeFeed> open_change_feed(const std::string& url);

}  // namespace errdex::store
