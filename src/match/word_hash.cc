#include "match/word_hash.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "match/pattern_text.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace errdex::match {
namespace {

constexpr std::uint64_t k_seed = 0x9e3779b97f4a7c15ull;
constexpr std::uint64_t k_mul = 0xbf58476d1ce4e5b9ull;
constexpr std::uint64_t k_final = 0x94d049bb133111ebull;
// Bytes readable past a word in WordScratch::pad: two whole chunks.
constexpr std::size_t k_pad = 16;

std::uint64_t fold(std::uint64_t a, std::uint64_t b) {
  unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}

std::uint64_t load(const char* p) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  return x;
}

// The low `n` bytes of a chunk, n in 0..8.
std::uint64_t low_bytes(std::size_t n) { return n >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * n)) - 1; }

// word_hash of the `n` bytes at `p`, which has k_pad readable bytes after
// them: the first two chunks are read whole and masked, with no branch on n.
std::uint64_t padded_hash(const char* p, std::size_t n) {
  std::uint64_t h = k_seed ^ n;
  const std::size_t na = std::min<std::size_t>(n, 8);
  const std::size_t nb = n > 8 ? std::min<std::size_t>(n - 8, 8) : 0;
  h = fold(h ^ (load(p) & low_bytes(na)), k_mul);
  h = fold(h ^ (load(p + 8) & low_bytes(nb)), k_mul);
  for (std::size_t at = 16; at < n; at += 8) h = fold(h ^ (load(p + at) & low_bytes(n - at)), k_mul);
  return fold(h, k_final);
}

// One bit per byte of p[0..16): set for a word character.
std::uint32_t word_bits16(const char* p) {
#if defined(__SSE2__)
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  auto in_range = [&](char lo, char span) {  // lo <= c <= lo + span, unsigned
    __m128i d = _mm_sub_epi8(c, _mm_set1_epi8(lo));
    return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(span)), d);
  };
  __m128i word = _mm_or_si128(_mm_or_si128(in_range('a', 25), in_range('A', 25)),
                              _mm_or_si128(in_range('0', 9), _mm_cmpeq_epi8(c, _mm_set1_epi8('_'))));
  // Non-ASCII bytes (high bit set) are word characters too.
  return static_cast<std::uint32_t>(_mm_movemask_epi8(word) | _mm_movemask_epi8(c));
#else
  std::uint32_t m = 0;
  for (int i = 0; i < 16; ++i) m |= static_cast<std::uint32_t>(is_word_char(static_cast<unsigned char>(p[i]))) << i;
  return m;
#endif
}

// The 8-byte chunk of `p` (n bytes) at `at`, zero past the end, read with
// overlapping loads inside the n bytes rather than a copy of variable size.
std::uint64_t chunk_at(const char* p, std::size_t n, std::size_t at) {
  if (at >= n) return 0;
  const std::size_t k = n - at;  // bytes left from `at`
  p += at;
  if (k >= 8) return load(p);
  if (n >= 8) return load(p + k - 8) >> (8 * (8 - k));  // the chunk's k bytes end the last 8
  if (k >= 4) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + k - 4, 4);
    return lo | (static_cast<std::uint64_t>(hi) << (8 * (k - 4)));
  }
  auto byte = [&](std::size_t i) { return static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])); };
  return byte(0) | (byte(k / 2) << (8 * (k / 2))) | (byte(k - 1) << (8 * (k - 1)));
}

}  // namespace

std::uint64_t word_hash(std::string_view word) {
  const char* p = word.data();
  const std::size_t n = word.size();
  std::uint64_t h = k_seed ^ n;
  h = fold(h ^ chunk_at(p, n, 0), k_mul);
  h = fold(h ^ chunk_at(p, n, 8), k_mul);
  for (std::size_t at = 16; at < n; at += 8) h = fold(h ^ chunk_at(p, n, at), k_mul);
  return fold(h, k_final);
}

void word_hashes(std::string_view text, WordScratch& s, std::vector<std::uint64_t>& out) {
  const std::size_t n = text.size();
  // Rounded up to whole 16-byte groups, then k_pad: every read below is
  // inside `pad`, and the zero bytes past the text are not word characters.
  // Only the bytes past the text are zeroed: the pad is reused, and most
  // messages are short, so filling all of it first would cost more than
  // the pass.
  const std::size_t groups = (n + 15) / 16;
  const std::size_t padded = groups * 16 + k_pad;
  if (s.pad.size() < padded) s.pad.resize(padded);
  if (n > 0) std::memcpy(s.pad.data(), text.data(), n);
  std::memset(s.pad.data() + n, 0, padded - n);
  // One spare block, always zero: a run's end is found without a bound
  // check. Every block is written whole.
  const std::size_t blocks = groups / 4 + 2;
  if (s.bits.size() < blocks) s.bits.resize(blocks);
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint64_t w = 0;
    for (std::size_t g = 4 * b; g < std::min(groups, 4 * b + 4); ++g)
      w |= static_cast<std::uint64_t>(word_bits16(s.pad.data() + g * 16)) << (16 * (g % 4));
    s.bits[b] = w;
  }
  const char* p = s.pad.data();
  std::uint64_t carry = 0;  // whether the previous block ended inside a word
  for (std::size_t b = 0; b * 64 < n; ++b) {
    const std::uint64_t w = s.bits[b];
    for (std::uint64_t starts = w & ~((w << 1) | carry); starts != 0; starts &= starts - 1) {
      const std::size_t start = b * 64 + static_cast<std::size_t>(std::countr_zero(starts));
      std::size_t end = start;
      for (;;) {  // the run of word characters from `start`
        const std::uint64_t rest = ~s.bits[end / 64] >> (end % 64);
        if (rest != 0) {
          end += static_cast<std::size_t>(std::countr_zero(rest));
          break;
        }
        end = (end / 64 + 1) * 64;
      }
      out.push_back(padded_hash(p + start, end - start));
    }
    carry = w >> 63;
  }
}

}  // namespace errdex::match
