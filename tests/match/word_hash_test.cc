#include "match/word_hash.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "match/pattern_text.h"

namespace errdex::match {
namespace {

// What word_hashes must give: split_words' words, each through word_hash.
std::vector<std::uint64_t> expected(std::string_view text) {
  std::vector<std::string_view> words;
  split_words(text, words);
  std::vector<std::uint64_t> out;
  for (auto w : words) out.push_back(word_hash(w));
  return out;
}

std::vector<std::uint64_t> fast(std::string_view text) {
  WordScratch s;
  std::vector<std::uint64_t> out;
  word_hashes(text, s, out);
  return out;
}

TEST(WordHash, SameWordsAndHashesAsSplitWords) {
  for (std::string text : {std::string(""), std::string("ValueError"), std::string("  a  "),
                           std::string("The batch size is not consistent across layers: [2, 3]"),
                           std::string("x_1 y\xc3\xa9z 0x7f631a09a8f0 (char 0)"), std::string("a\0b", 3),
                           std::string(63, 'a') + " " + std::string(130, 'b') + "!" + std::string(17, 'c')})
    EXPECT_EQ(fast(text), expected(text)) << text;
}

// Words of every length from 1 to 70 at every offset in a 64-byte block,
// and random bytes: the fast pass reads whole 16-byte groups and masks, so
// lengths and block edges are where it could differ.
TEST(WordHash, EveryLengthAndOffsetAndRandomBytes) {
  for (std::size_t offset = 0; offset < 64; ++offset)
    for (std::size_t len = 1; len <= 70; ++len) {
      std::string text = std::string(offset, ' ') + std::string(len, 'w') + ":";
      ASSERT_EQ(fast(text), expected(text)) << offset << " " << len;
    }
  std::mt19937 rng(7);
  const std::string alphabet = "ab_Z09 .:'\"\n\t\x80\xff";
  for (int round = 0; round < 2000; ++round) {
    std::string text(rng() % 300, ' ');
    for (char& c : text) c = rng() % 4 == 0 ? static_cast<char>(rng()) : alphabet[rng() % alphabet.size()];
    ASSERT_EQ(fast(text), expected(text)) << round;
  }
}

// word_hash as word_hash.h defines it, a chunk at a time by copying: the
// fast one reads chunks with overlapping loads, so every length from 0 to
// 40 is checked on random bytes.
std::uint64_t reference_hash(std::string_view w) {
  auto fold = [](std::uint64_t a, std::uint64_t b) {
    unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
    return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
  };
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ w.size();
  const std::size_t chunks = std::max<std::size_t>(2, (w.size() + 7) / 8);
  for (std::size_t c = 0; c < chunks; ++c) {
    std::uint64_t x = 0;
    for (std::size_t i = 0; i < 8 && c * 8 + i < w.size(); ++i)
      x |= static_cast<std::uint64_t>(static_cast<unsigned char>(w[c * 8 + i])) << (8 * i);
    h = fold(h ^ x, 0xbf58476d1ce4e5b9ull);
  }
  return fold(h, 0x94d049bb133111ebull);
}

TEST(WordHash, EveryLengthAgreesWithTheChunkDefinition) {
  std::mt19937 rng(11);
  for (std::size_t len = 0; len <= 40; ++len)
    for (int round = 0; round < 50; ++round) {
      std::string w(len, ' ');
      for (char& c : w) c = static_cast<char>(rng());
      ASSERT_EQ(word_hash(w), reference_hash(w)) << len;
    }
}

TEST(WordHash, DistinguishesLengthAndBytes) {
  EXPECT_NE(word_hash("a"), word_hash(std::string("a\0", 2)));
  EXPECT_NE(word_hash("abcdefgh"), word_hash("abcdefgh_"));
  EXPECT_NE(word_hash("value"), word_hash("values"));
  EXPECT_EQ(word_hash("value"), word_hash(std::string("value")));
}

}  // namespace
}  // namespace errdex::match
