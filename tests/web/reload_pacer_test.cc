// When a server reloads after news of the store (web/reload_pacer.h).
#include <gtest/gtest.h>

#include "web/reload_pacer.h"

namespace errdex::web {
namespace {

using std::chrono::seconds;

// Every dataset a `scan --python` stored into PostgreSQL made every server
// reload its whole snapshot at once, one reload after another while the
// scan ran: news is now taken together, a reload at most every 2× its cost.
TEST(ReloadPacer, ABurstOfNewsIsLoadedTogether) {
  ReloadPacer p;
  const ReloadPacer::Clock::time_point t0{seconds(100)};
  EXPECT_FALSE(p.due(t0)) << "no news, no reload";
  p.news();
  EXPECT_TRUE(p.due(t0)) << "news after a quiet spell reloads at once";
  p.reloaded(t0, t0 + seconds(2));
  EXPECT_FALSE(p.due(t0 + seconds(3))) << "nothing pending";
  p.news();
  p.news();
  EXPECT_FALSE(p.due(t0 + seconds(3)));
  EXPECT_EQ(p.wait(t0 + seconds(3)), seconds(1));
  EXPECT_TRUE(p.due(t0 + seconds(4))) << "the reload's cost after it ended";
  EXPECT_EQ(p.wait(t0 + seconds(4)), seconds(0));
  p.reloaded(t0 + seconds(6), t0 + seconds(6));
  p.news();
  EXPECT_TRUE(p.due(t0 + seconds(6))) << "a reload that cost nothing holds nothing back";
}

}  // namespace
}  // namespace errdex::web
