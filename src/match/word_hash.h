#pragma once
// The 64-bit hash the matcher's word tables are keyed by, and the pass that
// reads a message's words and hashes them. The pass is the matcher's
// per-message front end, so it is written to branch little: a message is
// classified 16 bytes at a time into a bit per word character, words are
// found in those bits, and a word of up to 16 bytes is hashed with no
// branch on its length.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace errdex::match {

// The hash of one word (or any string): its bytes in 8-byte chunks, zero
// padded, at least two of them, each folded in by a 64x64->128 multiply.
std::uint64_t word_hash(std::string_view word);

// Working memory of word_hashes, reused across calls.
struct WordScratch {
  std::string pad;                  // the text, then zero bytes
  std::vector<std::uint64_t> bits;  // one bit per byte: a word character
};

// Appends word_hash of each whole word of `text` (split_words' words, in
// order, repeats kept) to `out`.
void word_hashes(std::string_view text, WordScratch& scratch, std::vector<std::uint64_t>& out);

}  // namespace errdex::match
