#include <gtest/gtest.h>

#include <bitset>

#include "analyze/analyst.h"

namespace errdex::analyze {
namespace {

TEST(RecordId, SixteenHexDigitsFromRepoPathClassTemplateAndOrdinal) {
  std::string a = record_id("o/n", "src/x.py", "ValueError", "bad {x}", 0);
  EXPECT_EQ(a.size(), 16u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(a, record_id("o/n", "src/x.py", "ValueError", "bad {x}", 0));
  EXPECT_NE(a, record_id("o/m", "src/x.py", "ValueError", "bad {x}", 0));
  EXPECT_NE(a, record_id("o/n", "src/y.py", "ValueError", "bad {x}", 0));
  EXPECT_NE(a, record_id("o/n", "src/x.py", "TypeError", "bad {x}", 0));
  EXPECT_NE(a, record_id("o/n", "src/x.py", "ValueError", "bad {y}", 0));
  // Field boundaries count: ("ab", "c") is not ("a", "bc").
  EXPECT_NE(record_id("o/n", "ab", "c", "", 0), record_id("o/n", "a", "bc", "", 0));
}

// Regression: plain FNV-1a left ids of identical sites in one file (which
// differ only in the ordinal, the last byte hashed) nearly equal.
TEST(RecordId, OrdinalsGiveUnrelatedIds) {
  std::string a = record_id("python/cpython", "Lib/json/decoder.py", "JSONDecodeError", "Expecting value", 0);
  std::string b = record_id("python/cpython", "Lib/json/decoder.py", "JSONDecodeError", "Expecting value", 1);
  std::uint64_t x = std::stoull(a, nullptr, 16) ^ std::stoull(b, nullptr, 16);
  EXPECT_GE(std::bitset<64>(x).count(), 16u) << a << " vs " << b;
}

}  // namespace
}  // namespace errdex::analyze
