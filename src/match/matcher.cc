#include "match/matcher.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <tuple>
#include <type_traits>
#include <unordered_map>

#include "analyze/category.h"
#include "match/excerpt.h"
#include "match/path_suffix.h"
#include "match/pattern_text.h"
#include "match/traceback.h"
#include "match/word_hash.h"
#include "match/word_table.h"

namespace errdex::match {

bool weak(const Reasons& r) { return !r.frame_line && !r.frame_source && !r.pattern_text; }
namespace {

// Messages longer than this are matched on their first part: a pattern's
// constant text is short, and RE2's time grows with the text.
constexpr std::size_t k_max_message = 64u << 10;
// At most this many candidates are confirmed with RE2 per message, and at
// most this many tied candidates are listed.
constexpr std::size_t k_max_confirm = 20000;
constexpr std::size_t k_max_tied = 100;
// Up to this many candidates, the walk confirming each keeps its groups for
// the captures (see Matcher::match).
constexpr std::size_t k_keep_walks = 32;
// Items (literal runs) of a pattern the (-?\d+) search reads itself; past
// that its recursion would grow with the pattern, and RE2 decides.
constexpr std::uint32_t k_max_search_items = 256;
// Up to this many shown answers are picked from many candidates by one
// pass over them (see Matcher::match's ranking).
constexpr std::size_t k_small_top = 16;
// Full-text fallback: words this common say nothing and cost the most.
constexpr std::size_t k_fulltext_max_df = 2000;
// A class raised from more sites with no constant text than this tells
// nothing by itself (ValueError(msg)): such sites are not listed by class.
constexpr std::size_t k_max_class_sites = 500;

// Score tiers: frame and line > frame file > class > pattern specificity.
constexpr double k_frame_line = 1e8;
constexpr double k_frame_line_per_component = 1e6;
constexpr double k_frame_file = 1e7;
constexpr double k_frame_file_per_component = 1e5;
constexpr double k_class = 1e6;
// The frame's printed statement on another line (another version of the
// file): below its own line, above the file alone. Among several such, the
// pattern decides first; the nearer line only breaks what it leaves equal
// (all of 9,999 lines weigh less than one constant character).
constexpr double k_frame_source = 5e7;
constexpr double k_frame_source_per_line = 5e-5;
constexpr int k_frame_source_max_lines = 9999;
constexpr double k_per_constant_char = 4;
constexpr double k_module_per_part = 40;  // < k_class / 4 for any pattern under 250k chars

enum class Kind : std::uint8_t {
  keyed,    // reached by its rarest whole word
  weak,     // no whole word to key on: only frames or class reach it
  empty,    // no message at all: matches only an empty message
  invalid,  // RE2 rejects it: frames and class only, never confirmed
};

// One message a record's site can raise: its messagePattern, or one of its
// messageVariants. Entries are what is indexed; candidates are reported by
// record. Only what ranking reads is here, so entries pack densely; the
// strings only shown candidates need (id, capture names) live apart.
struct Entry {
  std::uint32_t record = 0;  // index into the records given to build
  std::uint32_t pattern_id = 0;  // into Impl::patterns; equal patterns share one
  std::uint32_t class_id = 0;  // 0: no class
  std::uint32_t file_id = 0;
  int line = 0;
  std::uint32_t constant_chars = 0;
  Kind kind = Kind::keyed;
  bool match_all = false;  // the pattern is `(.+?)` groups and blanks only
  bool silent = false;  // a built-in class raised bare (`assert x`, `raise KeyError`): prints no message
  std::uint32_t names_at = 0;  // its capture names in Impl::name_blob
};

// A word's bit in a 64-bit summary of a set of words: the hash's top bits,
// which the word tables' slots do not use.
std::uint64_t mask_bit(std::uint64_t h) { return std::uint64_t{1} << (h >> 58); }

// The name a record's class is known by: "errors.InvalidArgument" ->
// "InvalidArgument", "error[0]" -> "error", "self.error" -> "error".
std::string_view class_name(std::string_view written) {
  auto cut = written.find_first_of("[(");
  if (cut != std::string_view::npos) written = written.substr(0, cut);
  return last_component(written);
}

// Whether a name in lower case reads as an exception class: re's `error`,
// socket's `timeout`, nntplib's `error_reply`, not a variable (`exc`, `e`).
bool reads_as_class(std::string_view name) {
  for (std::string_view word : {"error", "Error", "timeout", "Timeout", "warning", "Warning"})
    if (name.find(word) != std::string_view::npos) return true;
  return false;
}

// "tomllib.TOMLDecodeError" -> {"tomllib"}; a builtin class has none.
// Their word hashes are appended to `parts`.
void module_parts(std::string_view printed_class, std::vector<std::uint64_t>& parts) {
  auto dot = printed_class.rfind('.');
  if (dot == std::string_view::npos) return;
  std::string_view mod = printed_class.substr(0, dot);
  std::size_t i = 0;
  while (i <= mod.size()) {
    auto j = mod.find('.', i);
    if (j == std::string_view::npos) j = mod.size();
    if (j > i) parts.push_back(word_hash(mod.substr(i, j - i)));
    i = j + 1;
  }
}

// How many leading parts of `modules` (a printed class's module, as word
// hashes) a file's module path starts with, the most over the import roots
// `mask` names (module_lengths: bit k, the last k of the file's `parts`
// path components are its module path). `names` are the hashes of the
// components, then of the last one's stem when it has an extension.
std::int32_t module_prefix_agreement(const std::vector<std::uint64_t>& modules, std::span<const std::uint64_t> names,
                                     std::size_t parts, std::uint64_t mask) {
  std::int32_t best = 0;
  for (std::size_t k = 1; k < 64 && k <= parts; ++k) {
    if (!((mask >> k) & 1)) continue;
    std::int32_t agree = 0;
    for (std::size_t i = parts - k; i < parts && static_cast<std::size_t>(agree) < modules.size(); ++i) {
      // The file's own component is its stem: `util` of util.py.
      std::uint64_t h = i + 1 == parts && names.size() > parts ? names[parts] : names[i];
      if (h != modules[static_cast<std::size_t>(agree)]) break;
      ++agree;
    }
    best = std::max(best, agree);
  }
  return best;
}

std::string_view stem(std::string_view file) {
  auto dot = file.rfind('.');
  return dot == std::string_view::npos ? file : file.substr(0, dot);
}

// An interpolated value may be empty (`argument{"" if n == 1 else "s"}`),
// but stored patterns write each as `(.+?)`: the matcher confirms with
// `(.*?)` in their place. A `(.+?)` after an odd run of backslashes is
// literal text and stays.
std::string relax(std::string_view p) {
  std::string out;
  out.reserve(p.size());
  std::size_t slashes = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (slashes % 2 == 0 && p.compare(i, 5, "(.+?)") == 0) {
      out += "(.*?)";
      i += 4;
      slashes = 0;
      continue;
    }
    slashes = p[i] == '\\' ? slashes + 1 : 0;
    out += p[i];
  }
  return out;
}

RE2::Options re2_options() {
  RE2::Options o;
  o.set_log_errors(false);
  o.set_dot_nl(true);  // an interpolated value may span lines
  o.set_max_mem(1 << 20);  // templates are short; bounds each one at millions of them
  return o;
}

// Message variants a pattern may be written against (see match()).
struct Variants {
  std::string_view text;
  std::string_view unquoted;  // `'bad key'` -> `bad key` (KeyError's repr)
  bool has_unquoted = false;
  std::string_view after_errno;  // "[Errno 2] No such file: 'x'" -> "No such file: 'x'"
  bool text_ascii = false, unquoted_ascii = false;
};

// A folder a package's build is written to, and the build's rank in
// Impl::build_rank (0 CommonJS or unknown, 1 ES, 2 browser); -1 for any
// other folder.
int build_folder(std::string_view c) {
  static constexpr std::string_view k_common[] = {"dist", "lib", "cjs", "commonjs", "node", "build", "src", "out"};
  static constexpr std::string_view k_es[] = {"esm", "es", "es5", "es6", "es2015", "es2017", "es2020", "esnext", "module", "mjs",
                                              "esm5", "esm2015", "esm2020", "esm2022", "fesm2015", "fesm2020", "fesm2022"};
  static constexpr std::string_view k_browser[] = {"browser", "esm-browser", "cjs-browser", "umd", "bundles"};
  for (std::string_view b : k_common)
    if (c == b) return 0;
  for (std::string_view b : k_es)
    if (c == b) return 1;
  for (std::string_view b : k_browser)
    if (c == b) return 2;
  return -1;
}

bool js_file(std::string_view name) {
  for (std::string_view ext : {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"})
    if (name.ends_with(ext)) return true;
  return false;
}

// What twin builds share of a file's path: its components outside build
// folders, the last without its extension; and the build's rank.
std::string build_free_path(const std::vector<std::string_view>& parts, std::uint8_t& rank) {
  std::string key;
  int r = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::string_view c = parts[i];
    if (i + 1 < parts.size()) {
      if (int b = build_folder(c); b >= 0) {
        r = std::max(r, b);
        continue;
      }
    } else {
      if (c.ends_with(".mjs")) r = std::max(r, 1);
      c = c.substr(0, c.rfind('.'));
    }
    key.append(c);
    key += '/';
  }
  rank = static_cast<std::uint8_t>(r);
  return key;
}

bool is_ascii(std::string_view s) {
  // Eight bytes at a time: a high bit anywhere in them is a non-ASCII byte.
  // The last eight, overlapping the rest, cover what is left.
  std::uint64_t high = 0;
  if (s.size() < 8) {
    for (char c : s) high |= static_cast<unsigned char>(c);
  } else {
    std::uint64_t x;
    for (std::size_t i = 0; i + 8 <= s.size(); i += 8) {
      std::memcpy(&x, s.data() + i, 8);
      high |= x;
    }
    std::memcpy(&x, s.data() + s.size() - 8, 8);
    high |= x;
  }
  return (high & 0x8080808080808080ull) == 0;
}

// `unquoted` is the caller's buffer; the result's `unquoted` views it or `m`.
Variants make_variants(std::string_view m, std::string& unquoted) {
  Variants v;
  v.text = m;
  if (m.size() >= 2 && (m.front() == '\'' || m.front() == '"') && m.back() == m.front()) {
    std::string_view inner = m.substr(1, m.size() - 2);
    if (inner.find('\\') == std::string_view::npos) {
      v.unquoted = inner;  // nothing to unescape: a view of the message
    } else {
      unquoted.clear();
      unquoted.reserve(inner.size());
      for (std::size_t i = 0; i < inner.size(); ++i) {
        if (inner[i] == '\\' && i + 1 < inner.size() && (inner[i + 1] == '\\' || inner[i + 1] == '\'' || inner[i + 1] == '"')) ++i;
        unquoted += inner[i];
      }
      v.unquoted = unquoted;
    }
    v.has_unquoted = true;
  }
  if (m.substr(0, 7) == "[Errno ") {
    auto close = m.find("] ");
    if (close != std::string_view::npos && close < 20) v.after_errno = m.substr(close + 2);
  }
  v.text_ascii = is_ascii(v.text);
  v.unquoted_ascii = v.has_unquoted && is_ascii(v.unquoted);
  return v;
}

// A pattern made of literal text and `(.+?)` groups only, the shape of
// nearly every template: matched against a whole message without RE2.
// Items are literal runs, each after `groups` groups; `trailing` groups end
// the pattern. Lazy groups take the least text Perl and RE2 give them: of
// adjacent groups all but the last are empty, and each run is placed at its
// first occurrence, which leaves the most room for the rest.
//
// A `%d` interpolation's `(-?\d+)` may stand alone between two runs (or
// end the pattern) when the run after it starts with no digit: its extent
// is then the digits where it starts. Such a pattern (has_int) is matched
// exactly only by a walk that places every run at its first occurrence;
// when that walk fails, the walk with `(-?\d+)` read as any text (a
// superset) rules the pattern out, and only what it lets through is asked
// of RE2, which may find a later placement.
struct SimpleItem {
  std::uint32_t lit_begin = 0, lit_size = 0;
  std::uint32_t groups = 0;
  bool int_gap = false;  // the gap before the run is one `(-?\d+)`
};
struct Simple {
  std::uint32_t first = 0;   // into Impl::simple_items
  std::uint32_t items = 0;
  std::uint32_t trailing = 0;
  bool trailing_int = false;  // the trailing gap is one `(-?\d+)`
  bool has_int = false;
  bool ok = false;
};

// The end of `-?\d+` at `pos` in `t`, or npos when there is none.
std::size_t int_end(std::string_view t, std::size_t pos) {
  std::size_t i = pos;
  if (i < t.size() && t[i] == '-') ++i;
  std::size_t digits = i;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  return i == digits ? std::string_view::npos : i;
}

char simple_escape(char e) {
  switch (e) {
    case 'a': return '\a';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'v': return '\v';
    default: break;
  }
  auto u = static_cast<unsigned char>(e);
  return u < 0x80 && !is_word_char(u) ? e : 0;
}

// A literal run of a simple pattern and the gap of groups before it.
struct SimpleRun {
  std::uint32_t groups = 0;
  bool int_gap = false;
  std::string run;
};

// Splits `p` into runs and the groups before each; false when it holds
// anything else, or a `(-?\d+)` that is not alone in its gap or is
// followed by a digit.
bool read_simple(std::string_view p, std::vector<SimpleRun>& items, std::uint32_t& trailing, bool& trailing_int) {
  std::string run;
  std::uint32_t groups = 0, run_groups = 0;  // groups since the last run; before the open run
  bool ints = false, run_ints = false;      // whether those gaps hold a `(-?\d+)`
  auto quantifier = [&](std::size_t at) {
    return at < p.size() && (p[at] == '*' || p[at] == '+' || p[at] == '?' || p[at] == '{');
  };
  auto close_run = [&] {
    if (run.empty()) return true;
    if (run_ints && (run_groups != 1 || (run[0] >= '0' && run[0] <= '9'))) return false;
    items.push_back({run_groups, run_ints, std::move(run)});
    run.clear();
    groups = 0;
    ints = false;
    return true;
  };
  for (std::size_t i = 0; i < p.size(); ++i) {
    const bool any = p.compare(i, 5, "(.+?)") == 0, integer = p.compare(i, 7, "(-?\\d+)") == 0;
    if (any || integer) {
      const std::size_t len = any ? 5 : 7;
      if (quantifier(i + len)) return false;
      if (!close_run()) return false;
      ++groups;
      ints |= integer;
      i += len - 1;
      continue;
    }
    char c = p[i], lit = 0;
    if (c == '\\') {
      if (i + 1 >= p.size()) return false;
      lit = simple_escape(p[++i]);
      if (lit == 0) return false;
    } else if (std::string_view(".^$*+?{}()[]|").find(c) != std::string_view::npos) {
      return false;
    } else {
      lit = c;
    }
    if (quantifier(i + 1)) return false;
    if (run.empty()) {
      run_groups = groups;
      run_ints = ints;
    }
    run += lit;
  }
  if (!close_run()) return false;
  if (ints && groups != 1) return false;
  trailing = groups;
  trailing_int = ints;
  return true;
}

// A record's full-text score: the weight it shares with the message times
// the share of its own weight that is (so a record whose every word is
// there beats a longer one that shares a few more). `own` > 0.
double fulltext_score(double shared, double own) { return shared * std::min(1.0, shared / own); }

// A histogram of positive scores by their top bits: sign, exponent and
// four mantissa bits (a positive double's bits order like its value), so
// buckets are 1/16 of an octave, in order, from 2^-16 to 2^16; scores
// beyond either end share the end bucket. Filled while scores are made,
// it tells keep_best where its cut falls without a pass of its own.
struct ScoreHistogram {
  static constexpr std::size_t k_buckets = 512;
  static constexpr std::uint64_t k_low = (1023 - 16) << 4;  // the bucket of 2^-16
  std::array<std::uint32_t, k_buckets> count{};
  static std::size_t index(double s) {
    const std::uint64_t b = std::bit_cast<std::uint64_t>(s) >> 48;
    return static_cast<std::size_t>(std::clamp<std::uint64_t>(b, k_low, k_low + k_buckets - 1) - k_low);
  }
  void add(double s) { ++count[index(s)]; }
};

// Leaves in `v` its best `keep` items, in no particular order: higher score
// first, the lower entry on a tie (a strict order, so the set is the one a
// full sort would give). Scores must be positive and counted in `h`. The
// histogram finds the bucket the cut falls in; only that bucket is
// ordered, so the cost is a pass over `v` rather than a selection's
// unpredictable comparisons.
// `best` is the highest score in `v`; `tie` is working memory.
void keep_best(std::vector<std::pair<double, std::uint32_t>>& v, std::size_t keep, double best,
               const ScoreHistogram& h, std::vector<std::pair<double, std::uint32_t>>& tie) {
  if (v.size() <= keep) return;
  auto index = ScoreHistogram::index;
  const auto& count = h.count;
  std::size_t above = 0, cut = index(best);
  while (above + count[cut] < keep) above += count[cut--];  // ends: v.size() > keep
  // Those above the cut move to the front (in place: never ahead of the
  // reading position); those in its bucket are ordered apart.
  tie.clear();
  std::size_t kept = 0;
  for (const auto& item : v) {
    std::size_t i = index(item.first);
    if (i > cut) v[kept++] = item;
    else if (i == cut) tie.push_back(item);
  }
  auto better = [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; };
  auto need = static_cast<std::ptrdiff_t>(keep - above);
  std::nth_element(tie.begin(), tie.begin() + need, tie.end(), better);
  std::copy(tie.begin(), tie.begin() + need, v.begin() + static_cast<std::ptrdiff_t>(kept));
  v.resize(keep);
}

// The distinct word hashes of a message in the order first seen (`items`),
// with an open-addressing set over them (`slots`, 0 free; a hash of 0 is
// kept apart) so a membership test is a probe: no sort, and none of a
// sort's or a binary search's unpredictable branches.
struct WordSet {
  std::vector<std::uint64_t> items;
  std::vector<std::uint64_t> slots;
  std::vector<std::uint32_t> used;  // slots to free again
  std::size_t mask = 0;
  bool zero = false;

  // Room for `words` at a load of at most 1/4. Every slot is free here.
  void prepare(std::size_t words) {
    std::size_t size = 64;
    while (size < words * 4) size <<= 1;
    if (slots.size() < size) slots.assign(size, 0);
    mask = size - 1;
  }
  void insert(std::uint64_t h) {
    if (h == 0) {
      if (!zero) items.push_back(h);
      zero = true;
      return;
    }
    std::size_t i = static_cast<std::size_t>(h) & mask;
    for (; slots[i] != 0; i = (i + 1) & mask)
      if (slots[i] == h) return;
    slots[i] = h;
    used.push_back(static_cast<std::uint32_t>(i));
    items.push_back(h);
  }
  bool has(std::uint64_t h) const {
    if (h == 0) return zero;
    for (std::size_t i = static_cast<std::size_t>(h) & mask; slots[i] != 0; i = (i + 1) & mask)
      if (slots[i] == h) return true;
    return false;
  }
  void clear() {
    for (std::uint32_t i : used) slots[i] = 0;
    used.clear();
    items.clear();
    zero = false;
  }
};

// A capture of a shown answer before it is copied into the result: its
// name (or number, when > 0) and value as views.
struct PendingCapture {
  std::string_view name;
  std::string_view value;
  std::uint32_t number = 0;
};

// How many decimal digits n has.
std::size_t number_size(std::uint32_t n) {
  std::size_t k = 1;
  for (; n >= 10; n /= 10) ++k;
  return k;
}

struct Confirmed {
  int kind = 0;  // 3 whole message, 2 its start, 1 somewhere in it, 0 no match
  int variant = 0;  // 0 text, 1 unquoted, 2 after errno
};

struct Cand {
  std::uint32_t entry = 0;
  double score = 0;
  Reasons reasons;
  int suffix = 0;
  int line_distance = 0;  // frame_source: lines between the frame's and the site's
  bool by_class = false;  // listed because its class agrees, nothing else
  Confirmed confirmed;
  double fulltext = 0;
};

// A candidate's place in the ranking, small so ranking moves little.
struct Ranked {
  double score = 0;
  std::uint32_t entry = 0;
  std::uint32_t at = 0;  // index into the candidates
};

// Groups' spans (offset, size) as a walk of a literal pattern takes them.
using Spans = std::vector<std::pair<std::size_t, std::size_t>>;

// Per-thread working memory of match(), indexed by entry and pattern so a
// message costs no hashing and no allocation once warm. Every slot a match
// sets is reset before it returns (Reset), so the arrays are at rest (zero)
// between calls and one thread may use several Matchers.
struct Scratch {
  std::vector<std::uint32_t> slot;       // by entry: 1 + index into cands, 0 none
  // By entry, once touched by the full-text pass: the weight it shares
  // with the message (> 0) and its own (from Impl::posting_weight, so the
  // ranking after the pass reads one place per entry).
  struct FullText {
    float shared = 0;
    float own = 0;
  };
  std::vector<FullText> ft;
  std::vector<std::uint8_t> confirmed;   // by pattern: 1 + kind * 4 + variant, 0 not yet
  // By pattern, once confirmed by a literal walk: where in `walked` the
  // groups' spans of that walk are (1 + offset, 0 none) and how many, so
  // the captures of a shown answer need no second walk.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> walked_at;
  Spans walked;
  Spans walk_spans[3];  // Impl::confirm's working memory, by form
  std::vector<std::uint32_t> slot_touched, confirmed_touched;
  // Entries the full-text pass touched: the first ft_count of ft_touched,
  // which is only grown (the pass writes ahead of the count).
  std::vector<std::uint32_t> ft_touched;
  std::size_t ft_count = 0;
  // Entries the pass met a second time (sharing two words or more with the
  // message, listed once per word after the first), the first ft_multi_count.
  std::vector<std::uint32_t> ft_multi;
  std::size_t ft_multi_count = 0;
  // The lists the pass read, and each word's weight as the pass added it.
  struct FullTextList {
    std::span<const std::uint32_t> entries;
    const float* own = nullptr;
    float weight = 0;
  };
  std::vector<FullTextList> ft_lists;
  std::vector<std::uint8_t> ft_scored;  // by entry: 1 while scored in this ranking
  std::vector<std::uint32_t> ft_marked;  // entries whose ft_scored is set
  ScoreHistogram histogram;
  std::vector<Cand> cands;
  std::vector<Ranked> ranked;
  std::vector<std::uint64_t> hashes;  // the message's word hashes, repeats kept
  std::vector<std::uint64_t> keying;  // of the message's distinct words, those that may key a pattern
  std::vector<std::uint32_t> passing;  // positions in a keyed list whose masks pass
  WordScratch word_scratch;
  WordSet present;
  Spans spans;
  std::vector<std::pair<double, std::uint32_t>> best, tie;
  std::vector<std::uint32_t> class_sites;
  std::vector<std::uint64_t> modules;  // the printed class's module parts, by word hash
  std::vector<std::string_view> frame_parts;  // the innermost frame's path components
  CompiledFrame compiled;  // the innermost frame's compiled-to-source lookup
  std::string unquoted;  // Variants::unquoted
  std::vector<re2::StringPiece> sub;  // RE2 captures
  std::vector<std::uint32_t> record_at;  // by record: 1 + its entry's index in `ranked`, while keeping its best
  std::vector<std::uint32_t> twin_at;  // by twin group: 1 + its best's index in `ranked`, while keeping it
  std::vector<PendingCapture> pending;  // the shown answers' captures, in order
  std::vector<std::uint32_t> pending_end;  // by shown answer: end of its captures in `pending`
  // Several revisions: ranked candidates a better revision of their site
  // replaced, the (site, record) pairs as good as their site's best, and
  // the shown answers' revisions with each one's end.
  std::vector<Ranked> dropped;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> also;
  std::vector<std::uint32_t> revisions, revisions_end;
  std::vector<Candidate> shown;  // the answers, until copied into the result
  std::vector<const ExceptionBlock*> others;  // a traceback's exceptions not explained

  void fit(std::size_t entries, std::size_t patterns, std::size_t records, std::size_t twins) {
    if (record_at.size() < records) record_at.resize(records, 0);
    if (twin_at.size() < twins) twin_at.resize(twins, 0);
    if (slot.size() < entries) {
      slot.resize(entries, 0);
      ft.resize(entries);
      ft_scored.resize(entries, 0);
    }
    if (confirmed.size() < patterns) {
      confirmed.resize(patterns, 0);
      walked_at.resize(patterns);
    }
  }
};

struct Reset {
  Scratch& s;
  ~Reset() {
    for (std::uint32_t e : s.slot_touched) s.slot[e] = 0;
    for (std::size_t i = 0; i < s.ft_count; ++i) s.ft[s.ft_touched[i]] = {};
    for (std::uint32_t p : s.confirmed_touched) {
      s.confirmed[p] = 0;
      s.walked_at[p] = {};
    }
    s.walked.clear();
    s.slot_touched.clear();
    s.ft_count = 0;
    s.ft_multi_count = 0;
    s.ft_lists.clear();
    s.confirmed_touched.clear();
    s.cands.clear();
    s.hashes.clear();
    s.present.clear();
    s.class_sites.clear();
    s.modules.clear();
  }
};

}  // namespace

struct Matcher::Impl {
  std::vector<Entry> entries;
  bool has_variants = false;  // more entries than records
  // Compiled patterns by entry; filled at build (small indexes) or on first
  // use. A slot holds nullptr until compiled.
  std::vector<std::string> patterns;  // distinct messagePatterns
  std::unique_ptr<std::atomic<RE2*>[]> compiled;  // by pattern id
  std::vector<std::string> files;                     // by file_id
  std::vector<std::vector<std::string_view>> file_parts;  // path components, by file_id
  std::vector<std::uint64_t> module_mask;                 // module_lengths() of each file, by file_id
  // Where a repository's files are installed (its absolute import roots:
  // a site-packages folder, the standard library's): a frame under one of
  // them belongs to that repository. By file_id, an index into `installed`
  // (0: none known).
  struct Installed {
    std::string root;        // as stored, without a trailing separator
    std::size_t components;  // path_components(root).size()
  };
  std::vector<std::vector<Installed>> installed{1};
  // Several revisions (build's `preference`): by record, its site (records
  // of one repo and id share one) and its preference among them.
  bool revisions = false;
  std::vector<std::uint32_t> site_of;
  std::vector<std::uint32_t> preference;
  // A record the same as a more preferred one in every field matching
  // reads (a site unchanged between revisions) is its shadow: never
  // indexed, so unchanged revisions cost matching nothing, and answered
  // with it. By record: 1 + its representative, or 0; and each
  // representative's shadows (a run of shadow_list from shadows_at).
  std::vector<std::uint32_t> shadow_of;
  std::vector<std::uint32_t> shadows_at, shadow_list;
  bool is_shadow(std::uint32_t record) const { return !shadow_of.empty() && shadow_of[record] != 0; }
  // A record of one site the same as a more preferred one but for its
  // line is its kin: indexed for frames only. By record: 1 + its
  // representative, or 0; each representative's kin; and by entry, the
  // entry whose full-text weights it reads (itself unless a kin's).
  std::vector<std::uint32_t> kin_of;
  std::vector<std::uint32_t> kin_at, kin_list;
  std::vector<std::uint32_t> entry_rep;
  bool is_kin(std::uint32_t record) const { return !kin_of.empty() && kin_of[record] != 0; }
  // By record: 1 when another record of its site may rank beside it (a
  // kin, or another indexed record of the site), so answers must be
  // merged by site; and what an answer by this record without a frame on
  // its file lists as its revisions (its shadows, its kin and theirs, in
  // preference order), a run of quiet_list from quiet_at.
  std::vector<std::uint8_t> site_shared;
  std::vector<std::uint32_t> quiet_at, quiet_list;
  std::vector<std::uint32_t> file_installed;
  // Builds of one package: npm packages ship one source as CommonJS, ES
  // and browser builds (`dist/cjs/x.js`, `dist/esm/x.js`), whose sites
  // raise the same message from the same file under another folder. Such
  // twins are one answer: without a frame on one of them they tie, and
  // the build `require` loads speaks for them. By record: 1 + its group,
  // or 0 when it has no twin (empty when no record has one); and its
  // build's rank (0 CommonJS or unknown, 1 an ES build, 2 a browser one).
  std::vector<std::uint32_t> twin_of;
  std::vector<std::uint8_t> build_rank;
  std::uint32_t twin_groups = 0;
  // By file_id: word_hash() of the package of an `npm/<package>` repository,
  // whose files are the package's as installed; 0 for other repositories.
  std::vector<std::uint64_t> file_package;
  // By record: statement_hash() of its statement's first line, read from
  // its source excerpt; 0 when the excerpt does not hold it.
  std::vector<std::uint32_t> statement;
  // By record: statement_hash() of the name of the function holding it, as
  // its excerpt shows it; 0 when unknown.
  std::vector<std::uint32_t> function;
  // The word hashes of each file's path components and of its last one's
  // stem ("decoder" of "decoder.py"), the names a module agrees with: file
  // f's are file_names[file_names_at[f] .. file_names_at[f + 1]).
  std::vector<std::uint64_t> file_names;
  std::vector<std::uint32_t> file_names_at;
  // Looked up by a view of the frame's path: no string is made per match.
  struct ViewHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view v) const { return std::hash<std::string_view>{}(v); }
  };
  std::unordered_map<std::string, std::vector<std::uint32_t>, ViewHash, std::equal_to<>> by_basename;
  WordTable class_ids;  // hash of a class's last component -> its id (1-based), one posting
  std::uint32_t os_error = 0;  // OSError's class id, 0 if no record raises it
  WordTable keyed;     // rarest whole word -> keyed entries
  // One bit per keyed word (its hash's low k_keyed_bits bits): most words
  // of a message key nothing, and this small table, unlike `keyed`, stays
  // in the nearest cache.
  static constexpr unsigned k_keyed_bits = 16;
  std::vector<std::uint64_t> keyed_bits;
  bool may_key(std::uint64_t h) const {
    std::uint64_t b = h & ((std::uint64_t{1} << k_keyed_bits) - 1);
    return (keyed_bits[b >> 6] >> (b & 63)) & 1;
  }
  WordTable all_words; // every whole word -> entries (full-text fallback)
  std::vector<std::vector<std::uint32_t>> weak_by_class;  // class id -> weak/empty/invalid entries
  std::size_t fulltext_max_df = k_fulltext_max_df;
  std::vector<double> idf_by_df;  // log((entries + 1) / df) for df 1..fulltext_max_df
  // By position in `all_words`' postings, the posted entry's own weight
  // (the sum of idf over its full-text words): the full-text pass reads it
  // in a run beside the list rather than at each entry.
  std::vector<float> posting_weight;
  // Every whole word of each keyed pattern (hashes, sorted), as one flat
  // array in the order of `keyed`'s postings: a candidate whose words are
  // not all in the message cannot match, and RE2 is not asked.
  std::vector<std::uint64_t> required;
  // A keyed posting as the lookup reads it: the entry, one bit per required
  // word (mask_bit of its hash), so a candidate missing a word is usually
  // dropped by one AND, and where its words start in `required` (they end
  // where the next posting's start).
  struct Required {
    std::uint64_t mask = 0;
    std::uint32_t entry = 0;
    std::uint32_t begin = 0;
  };
  // By position in `keyed`'s postings, that posting's Required, and one
  // more that ends the last one's words: a word's list is one run of
  // memory, read without the postings themselves, so most entries are
  // ruled out, and the rest checked, without a read of the entry's own (at
  // a million entries, a miss each).
  std::vector<Required> keyed_required;
  // Each pattern's literal runs (PatternText::runs), all in one string: a
  // message holding them not in order cannot match, and RE2 is not asked.
  // Patterns the reader cannot vouch for have none.
  std::string lits;
  std::vector<std::uint32_t> lit_run_end;  // by run: end offset into `lits`
  std::vector<std::uint32_t> lit_end;      // by pattern: end index into `lit_run_end`
  std::vector<std::string> ids;  // by record
  // Each entry's interpolation names (interpolation_names of its template),
  // read once at build: at Entry::names_at, a 16-bit count, then each name
  // as a 16-bit size and its bytes (equal lists stored once). One read
  // names every capture of an answer, with no template parsed per answer.
  std::string name_blob;
  static constexpr std::uint16_t k_unnamed = 0xffff;  // a list too long to store: captures are numbered

  static std::uint16_t read16(const char* p) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  // Reads an entry's capture names in order: the template's interpolation
  // when it has one per group, else the group's number from 1. A capture
  // is noted as views (the name in name_blob, the value in the message)
  // until the result copies every one at once.
  struct CaptureNames {
    const char* at = nullptr;
    bool numbered = true;
    std::uint32_t g = 0;
    void add(std::vector<PendingCapture>& captures, std::string_view value) {
      if (numbered) {
        captures.push_back({{}, value, ++g});
        return;
      }
      std::uint16_t size = read16(at);
      captures.push_back({{at + 2, size}, value, 0});
      at += 2 + size;
    }
  };
  CaptureNames capture_names(std::uint32_t e, std::size_t groups) const {
    const char* at = name_blob.data() + entries[e].names_at;
    std::uint16_t count = read16(at);
    return {at + 2, count == k_unnamed || count != groups};
  }

  // Patterns of literal text and groups only, matched whole without RE2.
  std::vector<Simple> simple;  // by pattern
  std::vector<SimpleItem> simple_items;
  std::string simple_lits;

  // Whether `t` is a whole match of simple pattern `sp`; the groups' spans
  // (offset, size) are appended to `spans` when given. `(-?\d+)` gaps are
  // read as such unless `relaxed` (then as any text: see Simple).
  // With `to_end` false, whether `t` starts with a match, and its groups as
  // RE2 takes them from the start: a trailing `(-?\d+)` takes every digit
  // there, trailing lazy groups nothing. A walk that fits is RE2's match:
  // each lazy group ends at the first place its run occurs, so any shorter
  // extent fails at once, and each `(-?\d+)` takes its longest extent, as a
  // shorter one would leave a digit where its run must start.
  bool simple_whole(const Simple& sp, std::string_view t, Spans* spans,
                    bool relaxed = false, bool to_end = true) const {
    std::size_t pos = 0;
    auto take = [&](std::uint32_t groups, std::size_t end) { take_groups(spans, groups, pos, end); };
    for (std::uint32_t k = 0; k < sp.items; ++k) {
      const SimpleItem& it = simple_items[sp.first + k];
      std::string_view run(simple_lits.data() + it.lit_begin, it.lit_size);
      bool at_end = to_end && k + 1 == sp.items && sp.trailing == 0;
      std::size_t at;
      if (it.int_gap && !relaxed) {
        at = int_end(t, pos);
        if (at == std::string_view::npos || t.compare(at, run.size(), run) != 0) return false;
        if (at_end && at + run.size() != t.size()) return false;
      } else if (it.groups == 0) {
        if (t.substr(pos, run.size()) != run) return false;
        at = pos;
        if (at_end && at + run.size() != t.size()) return false;
      } else if (at_end) {
        if (t.size() < pos + run.size() || !t.ends_with(run)) return false;
        at = t.size() - run.size();
      } else {
        at = t.find(run, pos);
        if (at == std::string_view::npos) return false;
      }
      take(it.groups, at);
      pos = at + run.size();
    }
    if (sp.trailing == 0) return !to_end || pos == t.size();
    if (!to_end) {
      std::size_t end = pos;
      if (sp.trailing_int && !relaxed) {
        end = int_end(t, pos);
        if (end == std::string_view::npos) return false;
      }
      take(sp.trailing, end);
      return true;
    }
    if (sp.trailing_int && !relaxed && int_end(t, pos) != t.size()) return false;
    take(sp.trailing, t.size());
    return true;
  }

  // Whether simple pattern `sp` matches somewhere in `t` (from its start
  // when `from_start`): its runs in order, groups taking anything between.
  // The groups' spans are appended to `spans` when given, as RE2 gives
  // them: the match starts where the first run first occurs (a leading
  // group starts it at 0), each run at its first occurrence (a later one
  // would leave less room for the rest), lazy groups before a run take up
  // to it, and groups after the last run take nothing.
  // `starts`, when given, is set to whether the match (from the start or
  // not) could also be one from the start: a walk from the start is this
  // walk when the pattern opens with a group, and otherwise when its first
  // run is first found at 0.
  bool simple_within(const Simple& sp, std::string_view t, bool from_start,
                     Spans* spans = nullptr, bool* starts = nullptr) const {
    std::size_t pos = 0;
    if (starts) *starts = sp.items == 0 || simple_items[sp.first].groups > 0;
    for (std::uint32_t k = 0; k < sp.items; ++k) {
      const SimpleItem& it = simple_items[sp.first + k];
      std::string_view run(simple_lits.data() + it.lit_begin, it.lit_size);
      std::size_t at = k == 0 && it.groups == 0 && from_start ? (t.substr(0, run.size()) == run ? 0 : std::string_view::npos)
                                                              : t.find(run, pos);
      if (at == std::string_view::npos) {
        if (starts) *starts = false;
        return false;
      }
      if (starts && k == 0 && at == 0) *starts = true;
      take_groups(spans, it.groups, pos, at);
      pos = at + run.size();
    }
    take_groups(spans, sp.trailing, pos, pos);
    return true;
  }

  // Whether simple pattern `sp`, with `(-?\d+)` gaps, matches `t` as RE2
  // would with anchor `a` (groups as `(.*?)`, see relax). A `(-?\d+)` gap
  // ends where the digits after the run before it end (the run after it
  // never starts with a digit: read_simple), so only a run after lazy
  // groups, or the first run of an unanchored search, has places to
  // choose from: each place it occurs is tried in turn. The bytes read are
  // bounded by a multiple of the text's length: past that, nothing is said
  // (nullopt) and RE2 decides, so no text makes this slower than RE2. It
  // recurses once per item: a pattern of more items than k_max_search_items
  // is left to RE2 too.
  std::optional<bool> simple_search(const Simple& sp, std::string_view t, RE2::Anchor a) const {
    if (sp.items > k_max_search_items) return std::nullopt;
    std::size_t budget = 64 + 8 * t.size();
    auto spend = [&](std::size_t bytes) {
      if (bytes >= budget) return false;
      budget -= bytes;
      return true;
    };
    auto digit = [&](std::size_t i) { return t[i] >= '0' && t[i] <= '9'; };
    // The end of the `(-?\d+)` at `pos`, or npos; nullopt past the budget.
    auto integer = [&](std::size_t pos) -> std::optional<std::size_t> {
      const std::size_t end = int_end(t, pos);
      if (!spend(1 + (end == std::string_view::npos ? 0 : end - pos))) return std::nullopt;
      return end;
    };
    // The pattern from item `k` on, the text read up to `pos`.
    auto rest = [&](auto& self, std::uint32_t k, std::size_t pos) -> std::optional<bool> {
      if (k == sp.items) {
        if (sp.trailing == 0) return a != RE2::ANCHOR_BOTH || pos == t.size();
        if (!sp.trailing_int) return true;  // lazy groups take the rest, or nothing
        const auto end = integer(pos);
        if (!end) return std::nullopt;
        return *end != std::string_view::npos && (a != RE2::ANCHOR_BOTH || *end == t.size());
      }
      const SimpleItem& it = simple_items[sp.first + k];
      const std::string_view run(simple_lits.data() + it.lit_begin, it.lit_size);
      const bool free_start = k == 0 && a == RE2::UNANCHORED;
      if (!free_start && (it.groups == 0 || it.int_gap)) {
        std::size_t at = pos;
        if (it.int_gap) {
          const auto end = integer(pos);
          if (!end) return std::nullopt;
          if (*end == std::string_view::npos) return false;
          at = *end;
        }
        if (!spend(run.size())) return std::nullopt;
        if (t.compare(at, run.size(), run) != 0) return false;
        return self(self, k + 1, at + run.size());
      }
      // Each place the run occurs: after lazy groups, anywhere from `pos`;
      // the first of an unanchored search, anywhere, and after a `(-?\d+)`
      // where a digit ends right before it.
      for (std::size_t from = pos;;) {
        const std::size_t at = t.find(run, from);
        if (!spend((at == std::string_view::npos ? t.size() : at) - from + run.size())) return std::nullopt;
        if (at == std::string_view::npos) return false;
        from = at + 1;
        if (it.int_gap && (at == 0 || !digit(at - 1))) continue;
        auto found = self(self, k + 1, at + run.size());
        if (!found || *found) return found;
      }
    };
    if (sp.items == 0 && sp.trailing_int && a == RE2::UNANCHORED) {
      for (std::size_t i = 0; i < t.size(); ++i)
        if (digit(i)) return true;
      return false;
    }
    return rest(rest, 0, 0);
  }

  // `groups` adjacent lazy groups from `pos` to `end`: all but the last
  // empty, the last up to `end`.
  static void take_groups(Spans* spans, std::uint32_t groups,
                          std::size_t pos, std::size_t end) {
    if (!spans) return;
    for (std::uint32_t g = 0; g < groups; ++g) spans->emplace_back(pos, g + 1 < groups ? 0 : end - pos);
  }
  BuildStats stats;

  ~Impl() {
    if (compiled)
      for (std::size_t i = 0; i < patterns.size(); ++i) delete compiled[i].load(std::memory_order_relaxed);
  }

  const RE2* regex(std::uint32_t e) const {
    std::uint32_t p = entries[e].pattern_id;
    RE2* re = compiled[p].load(std::memory_order_acquire);
    if (re) return re;
    auto* fresh = new RE2(relax(patterns[p]), re2_options());
    RE2* expected = nullptr;
    if (compiled[p].compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) return fresh;
    delete fresh;  // another thread compiled it first
    return expected;
  }

  bool may_match(std::uint32_t p, std::string_view t) const {
    std::size_t first = p == 0 ? 0 : lit_end[p - 1], at = 0;
    for (std::size_t k = first; k < lit_end[p]; ++k) {
      std::size_t begin = k == 0 ? 0 : lit_run_end[k - 1];
      std::string_view run(lits.data() + begin, lit_run_end[k] - begin);
      auto f = t.find(run, at);
      if (f == std::string_view::npos) return false;
      at = f + run.size();
    }
    return true;
  }

  // How `v` matches entry `e`'s pattern. When a literal walk (not RE2)
  // decided it, `*decisive` is set to that walk's groups, which are the
  // captures the answer shows; else to nullptr. `walk` is working memory:
  // the unanchored walks of forms 0 and 1, and the last anchored one.
  // With `keep_walk` false (many candidates, few of them shown) no spans
  // are kept and `*decisive` stays nullptr.
  Confirmed confirm(std::uint32_t e, const Variants& v, bool keep_walk, Spans (&walk)[3], const Spans** decisive) const {
    *decisive = nullptr;
    const Entry& en = entries[e];
    if (en.kind == Kind::invalid) return {};
    if (en.kind == Kind::empty) return {v.text.empty() ? 3 : 0, 0};
    // Only groups and blanks, e.g. "(.+?)": any message fits, no need to ask RE2.
    if (en.kind == Kind::weak && en.constant_chars == 0 && en.match_all) return {3, 0};
    // Literal text missing from a form rules that form out without RE2. A
    // simple pattern on ASCII text is matched directly below, which finds
    // the same runs: the pre-test would only repeat it.
    const Simple& sp = simple[en.pattern_id];
    bool maybe_text = (sp.ok && v.text_ascii) || may_match(en.pattern_id, v.text);
    bool maybe_unquoted = v.has_unquoted && ((sp.ok && v.unquoted_ascii) || may_match(en.pattern_id, v.unquoted));
    if (!maybe_text && !maybe_unquoted) return {};
    const RE2* re = nullptr;
    auto run = [&](std::string_view t, RE2::Anchor a) {
      if (!re) re = regex(e);
      return re->ok() && re->Match(absl_view(t), 0, t.size(), a, nullptr, 0);
    };
    // A form's unanchored walk also answers whether it matches from the
    // start (simple patterns without `(-?\d+)`): -1 not known, else 0 or 1.
    int start_known[3] = {-1, -1, -1};
    // The walk a true answer of test() came from (nullptr: RE2's answer).
    const Spans* last = nullptr;
    auto test = [&](std::string_view t, bool ascii, RE2::Anchor a, int form) {
      last = nullptr;
      if (!sp.ok || !ascii) return run(t, a);
      if (!sp.has_int) {
        if (a == RE2::ANCHOR_START && start_known[form] >= 0) {
          last = keep_walk ? &walk[form] : nullptr;
          return start_known[form] == 1;
        }
        Spans* out = keep_walk ? &walk[a == RE2::UNANCHORED ? form : 2] : nullptr;
        if (out) out->clear();
        last = out;
        if (a == RE2::ANCHOR_BOTH) return simple_whole(sp, t, out);
        if (a == RE2::ANCHOR_START) return simple_within(sp, t, true, out);
        bool starts = false;
        bool found = simple_within(sp, t, false, out, &starts);
        start_known[form] = found && starts;
        return found;
      }
      // `(-?\d+)` gaps: a walk that fits is a match (whole, or from the
      // start), with its groups; else the search decides; where it runs
      // out of tries and `(-?\d+)` read as any text does not fit either,
      // there is none; RE2 decides the rest.
      if (a != RE2::UNANCHORED) {
        Spans* out = keep_walk ? &walk[2] : nullptr;
        if (out) out->clear();
        if (simple_whole(sp, t, out, false, a == RE2::ANCHOR_BOTH)) {
          last = out;
          return true;
        }
      }
      if (std::optional<bool> found = simple_search(sp, t, a)) return *found;
      bool relaxed = a == RE2::ANCHOR_BOTH ? simple_whole(sp, t, nullptr, true) : simple_within(sp, t, a == RE2::ANCHOR_START);
      return relaxed && run(t, a);
    };
    // The common case first: the pattern explains the whole message.
    if (maybe_text && test(v.text, v.text_ascii, RE2::ANCHOR_BOTH, 0)) {
      *decisive = last;
      return {3, 0};
    }
    bool in_text = maybe_text && test(v.text, v.text_ascii, RE2::UNANCHORED, 0);
    const Spans* text_walk = in_text ? last : nullptr;
    bool in_unquoted = maybe_unquoted && test(v.unquoted, v.unquoted_ascii, RE2::UNANCHORED, 1);
    const Spans* unquoted_walk = in_unquoted ? last : nullptr;
    if (!in_text && !in_unquoted) return {};
    std::string_view forms[3] = {v.text, v.unquoted, v.after_errno};
    bool ascii[3] = {v.text_ascii, v.unquoted_ascii, v.text_ascii};
    bool usable[3] = {in_text, in_unquoted, in_text && !v.after_errno.empty()};
    for (RE2::Anchor a : {RE2::ANCHOR_BOTH, RE2::ANCHOR_START})
      for (int k = 0; k < 3; ++k)
        if (usable[k] && !(k == 0 && a == RE2::ANCHOR_BOTH) &&
            test(forms[k], ascii[k], a, k)) {
          *decisive = last;
          return {a == RE2::ANCHOR_BOTH ? 3 : 2, k};
        }
    *decisive = in_text ? text_walk : unquoted_walk;
    return {1, in_text ? 0 : 1};
  }

  static re2::StringPiece absl_view(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

  std::uint32_t class_of(std::string_view error_class) const {
    std::string_view last = last_component(error_class);
    if (last.empty()) return 0;
    auto id = class_ids.find(word_hash(last));
    return id.empty() ? 0 : id.front();
  }
};

namespace {

// Which of a traceback's exceptions to explain: the last printed, unless
// its innermost frame raises an object made elsewhere (`raise
// self._value`) and an earlier exception with the same class (IPython
// names it bare) and message has frames of its own. That is the object before it was handed on: a
// worker's exception that multiprocessing or concurrent.futures print as
// the cause of their copy. Its frames lead to where it was raised.
std::size_t explained_block(const std::vector<ExceptionBlock>& blocks) {
  const std::size_t last = blocks.size() - 1;
  const ExceptionBlock& b = blocks[last];
  if (b.frames.empty() || !b.frames.back().reraise) return last;
  for (std::size_t k = last; k-- > 0;)
    if (!blocks[k].frames.empty() && last_component(blocks[k].error_class) == last_component(b.error_class) &&
        blocks[k].message == b.message)
      return k;
  return last;
}

}  // namespace

MatchResult::MatchResult(MatchResult&& other) noexcept { *this = std::move(other); }

MatchResult& MatchResult::operator=(MatchResult&& other) noexcept {
  if (this == &other) return *this;
  frames = std::move(other.frames);
  chained = std::move(other.chained);
  ambiguous = other.ambiguous;
  fulltext_fallback = other.fulltext_fallback;
  truncated = other.truncated;
  block_size = std::exchange(other.block_size, 0);
  candidates = std::exchange(other.candidates, {});
  exception = std::exchange(other.exception, {});
  storage = std::move(other.storage);
  if (storage || block_size == 0) return *this;  // a block on the heap keeps its place
  // The block was inline: it is copied, and every view into it moves with it.
  std::memcpy(inline_block, other.inline_block, block_size);
  const char* from = other.inline_block;
  const char* to_end = from + block_size;
  auto follow = [&](const auto* p) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(p)>>;
    const char* c = reinterpret_cast<const char*>(p);
    return c >= from && c < to_end ? reinterpret_cast<T*>(inline_block + (c - from)) : const_cast<T*>(p);
  };
  auto follow_view = [&](std::string_view v) { return v.empty() ? v : std::string_view(follow(v.data()), v.size()); };
  Candidate* placed = follow(candidates.data());
  candidates = {placed, candidates.size()};
  // Each Capture belongs to one candidate: it moves with that one's run.
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    Candidate& c = placed[i];
    if (c.captures.empty()) continue;
    Capture* list = follow(c.captures.data());
    for (std::size_t k = 0; k < c.captures.size(); ++k) list[k] = {follow_view(list[k].name), follow_view(list[k].value)};
    c.captures = {list, c.captures.size()};
  }
  exception = {follow_view(exception.error_class), follow_view(exception.message)};
  for (ParsedException& e : chained) e = {follow_view(e.error_class), follow_view(e.message)};
  return *this;
}

Matcher::Matcher(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Matcher::Matcher(Matcher&&) noexcept = default;
Matcher& Matcher::operator=(Matcher&&) noexcept = default;
Matcher::~Matcher() = default;

const BuildStats& Matcher::stats() const { return m_impl->stats; }
std::size_t Matcher::size() const { return m_impl->stats.records; }

Matcher Matcher::build(const std::vector<model::ErrorRecord>& records, const ImportRoots& roots,
                       std::span<const std::uint32_t> preference) {
  auto impl = std::make_unique<Impl>();
  Impl& m = *impl;
  if (!preference.empty() && preference.size() == records.size()) {
    std::unordered_map<std::string, std::uint32_t> sites;
    m.site_of.reserve(records.size());
    for (const auto& r : records) {
      auto [it, added] = sites.emplace(r.repo + '\n' + r.id, static_cast<std::uint32_t>(sites.size()));
      m.revisions |= !added;
      m.site_of.push_back(it->second);
    }
    m.preference.assign(preference.begin(), preference.end());
    if (!m.revisions) {
      m.site_of.clear();
      m.preference.clear();
    }
  }
  // The record's own pattern first, then its variants: entry i < records
  // is record i.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> variant_of;  // entry - records -> (record, variant)
  for (std::size_t r = 0; r < records.size(); ++r)
    for (std::size_t v = 0; v < records[r].message_variants.size(); ++v)
      variant_of.emplace_back(static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(v));
  const std::size_t n = records.size() + variant_of.size();
  m.entries.resize(n);
  m.has_variants = !variant_of.empty();
  m.ids.reserve(records.size());
  for (const auto& r : records) m.ids.push_back(r.id);
  m.stats.records = records.size();
  m.statement.reserve(records.size());
  m.function.reserve(records.size());
  for (const auto& r : records) {
    m.statement.push_back(excerpt_line_hash(r.source_code, r.source_code_start, r.line_number));
    m.function.push_back(excerpt_function_hash(r.source_code, r.source_code_start, r.line_number));
  }
  auto record_of = [&](std::size_t i) { return i < records.size() ? i : variant_of[i - records.size()].first; };
  auto variant = [&](std::size_t i) -> const model::MessageVariant& {
    const auto& [r, v] = variant_of[i - records.size()];
    return records[r].message_variants[v];
  };
  auto pattern_of = [&](std::size_t i) -> const std::string& {
    return i < records.size() ? records[i].message_pattern : variant(i).message_pattern;
  };
  auto template_of = [&](std::size_t i) -> const std::string& {
    return i < records.size() ? records[i].error_message : variant(i).error_message;
  };
  // What is read off a pattern, once per distinct pattern.
  struct Read {
    Kind kind = Kind::keyed;
    std::uint32_t constant_chars = 0;
    bool match_all = false;
    std::vector<std::string> words;
  };
  std::unordered_map<std::string, std::uint32_t> pattern_ids;
  std::vector<Read> reads;
  const bool keep_compiled = n <= 200000;

  std::unordered_map<std::string, std::uint32_t> file_ids;
  std::vector<const std::string*> file_repo;  // by file_id
  std::unordered_map<std::uint64_t, std::uint32_t> class_ids;  // interned while reading; frozen into m.class_ids
  std::vector<std::vector<std::string>> words(n);
  std::unordered_map<std::uint64_t, std::uint32_t> df;  // word hash -> patterns holding it
  m.weak_by_class.emplace_back();                      // class id 0: none
  std::vector<int> built_at(n, 0);  // line where a raised variable was built
  std::vector<std::string_view> name_views;
  std::unordered_map<std::string, std::uint32_t> name_lists;  // a list as stored -> its offset in name_blob
  std::string name_list(2, '\0');
  m.name_blob = name_list;  // offset 0: the empty list
  name_lists.emplace(name_list, 0);

  // Pass 1: read each pattern, intern classes and files, count word use.
  for (std::size_t i = 0; i < n; ++i) {
    const auto& r = records[record_of(i)];
    Entry& e = m.entries[i];
    e.record = static_cast<std::uint32_t>(record_of(i));
    name_views.clear();
    interpolation_names(template_of(i), name_views);
    {
      auto put16 = [&](std::size_t v) {
        const auto x = static_cast<std::uint16_t>(v);
        name_list.append(reinterpret_cast<const char*>(&x), 2);
      };
      bool storable = name_views.size() < Impl::k_unnamed;
      for (std::string_view v : name_views) storable &= v.size() <= 0xffff;
      name_list.clear();
      put16(storable ? name_views.size() : Impl::k_unnamed);
      if (storable)
        for (std::string_view v : name_views) {
          put16(v.size());
          name_list += v;
        }
      auto [at, added] = name_lists.emplace(name_list, static_cast<std::uint32_t>(m.name_blob.size()));
      if (added && m.name_blob.size() + name_list.size() > UINT32_MAX) {
        name_lists.erase(at);
        e.names_at = 0;  // no room: the empty list, so captures are numbered
      } else {
        if (added) m.name_blob += name_list;
        e.names_at = at->second;
      }
    }
    e.line = r.line_number;
    // `raise ve_exc` where `ve_exc = ValueError(...)` a few lines up: the
    // class is the one that was built.
    std::string_view last = class_name(r.error_class);
    Assignment built;
    if (!last.empty() && last.size() == r.error_class.size() && std::islower(static_cast<unsigned char>(last[0]))) {
      built = find_assignment(r.source_code, r.source_code_start, r.line_number, last);
      if (built.line > 0 && !built.callee.empty() && std::isupper(static_cast<unsigned char>(built.callee[0])))
        last = built.callee;
      else
        built = {};
    }
    built_at[i] = built.line;
    if (!last.empty()) {
      auto [it, added] = class_ids.emplace(word_hash(last), static_cast<std::uint32_t>(m.weak_by_class.size()));
      if (added) m.weak_by_class.emplace_back();
      e.class_id = it->second;
    }
    // By repository and path: the repositories' import roots differ.
    auto [fit, fadded] = file_ids.emplace(r.repo + '\n' + r.file_path, static_cast<std::uint32_t>(m.files.size()));
    if (fadded) {
      m.files.push_back(r.file_path);
      file_repo.push_back(&r.repo);
    }
    e.file_id = fit->second;

    const std::string& pat = pattern_of(i);
    auto [pit, padded] = pattern_ids.emplace(pat, static_cast<std::uint32_t>(m.patterns.size()));
    e.pattern_id = pit->second;
    if (padded) {
      m.patterns.push_back(pat);
      Read rd;
      if (!RE2(relax(pat), re2_options()).ok()) {
        rd.kind = Kind::invalid;
      } else if (pat.empty()) {
        rd.kind = Kind::empty;
      } else {
        PatternText pt = read_pattern(pat);
        rd.constant_chars = static_cast<std::uint32_t>(pt.constant_chars);
        // Inline flags ("(?i)") would change what a literal run matches.
        if (!pt.unreliable && pat.find("(?") == std::string::npos)
          for (const auto& run : pt.runs) {
            if (m.lits.size() + run.size() > UINT32_MAX) break;
            m.lits += run;
            m.lit_run_end.push_back(static_cast<std::uint32_t>(m.lits.size()));
          }
        if (pt.unreliable || pt.words.empty()) {
          rd.kind = Kind::weak;
          rd.match_all = !pt.unreliable && pt.constant_chars == 0 && pat.find_first_not_of("(.+?) ") == std::string::npos;
        } else {
          std::sort(pt.words.begin(), pt.words.end());
          pt.words.erase(std::unique(pt.words.begin(), pt.words.end()), pt.words.end());
          rd.words = std::move(pt.words);
        }
      }
      Simple sp;
      std::vector<SimpleRun> items;
      if (rd.kind != Kind::invalid && rd.kind != Kind::empty && read_simple(pat, items, sp.trailing, sp.trailing_int) &&
          m.simple_lits.size() + pat.size() <= UINT32_MAX) {
        sp.ok = true;
        sp.first = static_cast<std::uint32_t>(m.simple_items.size());
        sp.items = static_cast<std::uint32_t>(items.size());
        sp.has_int = sp.trailing_int;
        for (auto& it : items) {
          m.simple_items.push_back({static_cast<std::uint32_t>(m.simple_lits.size()), static_cast<std::uint32_t>(it.run.size()),
                                    it.groups, it.int_gap});
          m.simple_lits += it.run;
          sp.has_int |= it.int_gap;
        }
      }
      m.simple.push_back(sp);
      reads.push_back(std::move(rd));
      m.lit_end.push_back(static_cast<std::uint32_t>(m.lit_run_end.size()));
    }
    const Read& rd = reads[e.pattern_id];
    e.kind = rd.kind;
    e.constant_chars = rd.constant_chars;
    e.match_all = rd.match_all;
    // Python prints no message for a built-in class raised without
    // arguments, and a site with nothing else it may print (no variants)
    // wrote none. Its class as written: `raise exc` names a variable.
    e.silent = e.kind == Kind::empty && i < records.size() && r.message_variants.empty() &&
               analyze::is_builtin_exception(r.error_class);
    if (e.kind == Kind::invalid) {
      ++m.stats.bad_patterns;
      continue;
    }
    ++m.stats.patterns;
    if (e.kind == Kind::weak) ++m.stats.match_anything;
    if (e.kind != Kind::keyed) continue;
    for (const auto& w : rd.words) ++df[word_hash(w)];
    words[i] = rd.words;
  }
  {
    WordTable::Builder classes;
    for (const auto& [h, id] : class_ids) classes.add(h, id);
    m.class_ids = classes.build();
    m.os_error = m.class_of("OSError");
  }
  m.compiled = std::make_unique<std::atomic<RE2*>[]>(m.patterns.size());
  for (std::size_t p = 0; p < m.patterns.size(); ++p) {
    // Small indexes keep every pattern compiled; large ones compile on
    // first use, so memory follows the patterns actually asked for.
    bool eager = keep_compiled && reads[p].kind != Kind::invalid;
    m.compiled[p].store(eager ? new RE2(relax(m.patterns[p]), re2_options()) : nullptr, std::memory_order_relaxed);
  }
  reads.clear();
  pattern_ids.clear();

  // Shadows: records of one site whose matching fields are all the same.
  // Kin: records of one site the same but for the line (the site moved
  // between revisions): reached only through frames, which tell the lines
  // apart; without a frame on their file they would score as their
  // representative does, and are answered with it.
  if (m.revisions) {
    std::vector<std::uint32_t> order(records.size());
    for (std::uint32_t r = 0; r < order.size(); ++r) order[r] = r;
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return m.preference[a] < m.preference[b]; });
    m.shadow_of.assign(records.size(), 0);
    m.kin_of.assign(records.size(), 0);
    std::unordered_map<std::string, std::uint32_t> same, moved;  // key -> representative
    std::string key;
    for (std::uint32_t r : order) {
      const auto& rec = records[r];
      key.clear();
      for (const std::string* f : {&rec.repo, &rec.id, &rec.file_path, &rec.error_class, &rec.error_message, &rec.message_pattern}) {
        key += *f;
        key += '\0';
      }
      key += std::to_string(m.statement[r]) + '\0' + std::to_string(m.function[r]) + '\0';
      key += statement_literals(rec.source_code, rec.source_code_start, rec.line_number);
      key += '\0';
      if (built_at[r] > 0) key += statement_literals(rec.source_code, rec.source_code_start, built_at[r]);
      for (const auto& v : rec.message_variants) {
        key += '\0';
        key += v.error_message;
        key += '\0';
        key += v.message_pattern;
      }
      const std::size_t without_line = key.size();
      key += '\0' + std::to_string(rec.line_number) + '\0' + std::to_string(built_at[r] > 0 ? rec.line_number - built_at[r] : 0);
      if (auto [it, added] = same.emplace(key, r); !added) {
        m.shadow_of[r] = it->second + 1;
        continue;
      }
      key.resize(without_line);
      if (auto [it, added] = moved.emplace(key, r); !added) m.kin_of[r] = it->second + 1;
    }
    // Each representative's run, most preferred first.
    auto runs = [&](const std::vector<std::uint32_t>& of, std::vector<std::uint32_t>& at, std::vector<std::uint32_t>& list) {
      at.assign(records.size() + 1, 0);
      for (std::uint32_t r = 0; r < records.size(); ++r)
        if (of[r]) ++at[of[r]];
      for (std::size_t r = 1; r < at.size(); ++r) at[r] += at[r - 1];
      list.resize(at.back());
      std::vector<std::uint32_t> fill(at.begin(), at.end() - 1);
      for (std::uint32_t r : order)
        if (of[r]) list[fill[of[r] - 1]++] = r;
    };
    runs(m.shadow_of, m.shadows_at, m.shadow_list);
    runs(m.kin_of, m.kin_at, m.kin_list);
    // Which sites have more than one record that can be ranked.
    std::vector<std::uint32_t> indexed_in_site(records.size(), 0);
    for (std::uint32_t r = 0; r < records.size(); ++r)
      if (!m.shadow_of[r]) ++indexed_in_site[m.site_of[r]];
    m.site_shared.assign(records.size(), 0);
    for (std::uint32_t r = 0; r < records.size(); ++r)
      m.site_shared[r] = !m.shadow_of[r] && indexed_in_site[m.site_of[r]] > 1;
    // The quiet runs: for a record that can answer (not a shadow), its
    // shadows, and when it represents kin (or is one), the whole group's.
    m.quiet_at.assign(records.size() + 1, 0);
    std::vector<std::uint32_t> group;
    for (std::uint32_t r = 0; r < records.size(); ++r) {
      m.quiet_at[r] = static_cast<std::uint32_t>(m.quiet_list.size());
      if (m.shadow_of[r]) continue;
      group.clear();
      const std::uint32_t rep = m.kin_of[r] ? m.kin_of[r] - 1 : r;
      auto with_shadows = [&](std::uint32_t k) {
        if (k != r) group.push_back(k);
        for (std::uint32_t j = m.shadows_at[k]; j < m.shadows_at[k + 1]; ++j) group.push_back(m.shadow_list[j]);
      };
      with_shadows(r);
      if (rep != r) with_shadows(rep);
      for (std::uint32_t j = m.kin_at[rep]; j < m.kin_at[rep + 1]; ++j)
        if (m.kin_list[j] != r) with_shadows(m.kin_list[j]);
      std::stable_sort(group.begin(), group.end(), [&](std::uint32_t a, std::uint32_t b) { return m.preference[a] < m.preference[b]; });
      m.quiet_list.insert(m.quiet_list.end(), group.begin(), group.end());
    }
    m.quiet_at[records.size()] = static_cast<std::uint32_t>(m.quiet_list.size());
    // A kin's entries read their representative's full-text weights: entry
    // by entry, its own pattern and then its variants, as the records'.
    std::vector<std::uint32_t> first_variant(records.size(), 0);
    for (std::size_t k = variant_of.size(); k-- > 0;) first_variant[variant_of[k].first] = static_cast<std::uint32_t>(records.size() + k);
    m.entry_rep.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      m.entry_rep[i] = static_cast<std::uint32_t>(i);
      const std::uint32_t r = m.entries[i].record;
      if (!m.kin_of[r]) continue;
      const std::uint32_t rep = m.kin_of[r] - 1;
      m.entry_rep[i] = i < records.size() ? rep : first_variant[rep] + (static_cast<std::uint32_t>(i) - first_variant[r]);
    }
  }
  auto shadow_entry = [&](std::size_t i) { return m.is_shadow(m.entries[i].record); };
  // Shadows and kin are left out of the word, full-text and class tables.
  auto unindexed_entry = [&](std::size_t i) { return shadow_entry(i) || m.is_kin(m.entries[i].record); };

  // Pass 2: key each pattern on its rarest word (longest on a tie). The
  // full-text table gets the pattern's words and those of the string
  // literals in the raise statement itself.
  WordTable::Builder keyed, all;
  m.keyed_bits.assign((std::size_t{1} << Impl::k_keyed_bits) / 64, 0);
  std::vector<std::string_view> literal_words;
  std::vector<std::uint64_t> entry_words, all_entry_words;
  std::vector<std::size_t> all_entry_ends;
  all_entry_ends.reserve(n);
  // Each keyed entry's words, by entry, until they are laid out by posting.
  std::vector<std::uint64_t> entry_required;
  std::vector<std::pair<std::size_t, std::size_t>> required_of;  // by entry: range in entry_required
  std::vector<std::uint64_t> mask_of(n, 0);
  required_of.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    Entry& e = m.entries[i];
    const auto& r = records[e.record];
    entry_words.clear();
    if (unindexed_entry(i)) {
      // Reached only through its representative.
      all_entry_ends.push_back(all_entry_words.size());
      required_of.emplace_back(entry_required.size(), entry_required.size());
      words[i].clear();
      continue;
    }
    for (const auto& w : words[i]) entry_words.push_back(word_hash(w));
    // A variant's words are its pattern's: the statement's are the record's.
    if (i < records.size()) {
      std::string literals = statement_literals(r.source_code, r.source_code_start, r.line_number);
      if (built_at[i] > 0) literals += " " + statement_literals(r.source_code, r.source_code_start, built_at[i]);
      literal_words.clear();
      split_words(literals, literal_words);
      for (std::string_view w : literal_words) entry_words.push_back(word_hash(w));
    }
    std::sort(entry_words.begin(), entry_words.end());
    entry_words.erase(std::unique(entry_words.begin(), entry_words.end()), entry_words.end());
    for (std::uint64_t h : entry_words) all.add(h, static_cast<std::uint32_t>(i));
    all_entry_words.insert(all_entry_words.end(), entry_words.begin(), entry_words.end());
    all_entry_ends.push_back(all_entry_words.size());

    const std::size_t req_begin = entry_required.size();
    if (e.kind == Kind::keyed) {
      for (const auto& w : words[i]) {
        entry_required.push_back(word_hash(w));
        mask_of[i] |= mask_bit(entry_required.back());
      }
      std::sort(entry_required.begin() + static_cast<std::ptrdiff_t>(req_begin), entry_required.end());
    }
    required_of.emplace_back(req_begin, entry_required.size());
    if (e.kind != Kind::keyed) {
      m.weak_by_class[e.class_id].push_back(static_cast<std::uint32_t>(i));
      continue;
    }
    const std::string* best = nullptr;
    std::uint32_t best_df = 0;
    for (const auto& w : words[i]) {
      std::uint32_t d = df[word_hash(w)];
      if (!best || d < best_df || (d == best_df && w.size() > best->size())) {
        best = &w;
        best_df = d;
      }
    }
    const std::uint64_t key = word_hash(*best);
    keyed.add(key, static_cast<std::uint32_t>(i));
    const std::uint64_t b = key & ((std::uint64_t{1} << Impl::k_keyed_bits) - 1);
    m.keyed_bits[b >> 6] |= std::uint64_t{1} << (b & 63);
    words[i].clear();
    words[i].shrink_to_fit();
  }
  m.keyed = keyed.build();
  m.keyed_required.reserve(m.keyed.postings().size() + 1);
  m.required.reserve(entry_required.size());
  for (std::uint32_t e : m.keyed.postings()) {
    m.keyed_required.push_back({mask_of[e], e, static_cast<std::uint32_t>(m.required.size())});
    const auto [begin, end] = required_of[e];
    m.required.insert(m.required.end(), entry_required.begin() + static_cast<std::ptrdiff_t>(begin),
                      entry_required.begin() + static_cast<std::ptrdiff_t>(end));
  }
  m.keyed_required.push_back({0, 0, static_cast<std::uint32_t>(m.required.size())});
  m.all_words = all.build();
  // A word in more than one record in 60 ("invalid", "must", "value")
  // barely ranks, and its list is most of the full-text pass's reads: it is
  // left out, as is one in thousands of records in a large index.
  m.fulltext_max_df = std::min(k_fulltext_max_df, std::max<std::size_t>(100, n / 60));
  {
    const double total = static_cast<double>(n) + 1;
    m.idf_by_df.assign(m.fulltext_max_df + 1, 0);
    for (std::size_t df = 1; df <= m.fulltext_max_df; ++df) m.idf_by_df[df] = std::log(total / static_cast<double>(df));
    std::vector<float> word_weight(n, 0);
    std::size_t begin = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double w = 0;
      for (std::size_t k = begin; k < all_entry_ends[i]; ++k) {
        std::size_t df_k = m.all_words.find(all_entry_words[k]).size();
        if (df_k > 0 && df_k <= m.fulltext_max_df) w += m.idf_by_df[df_k];
      }
      word_weight[i] = static_cast<float>(w);
      begin = all_entry_ends[i];
    }
    // Each word's list lightest record first: a record sharing only that
    // word with a message scores less the heavier it is, so the full-text
    // pass reads such records of a long list only as far as they can rank.
    m.all_words.sort_lists([&](std::uint32_t a, std::uint32_t b) {
      return word_weight[a] != word_weight[b] ? word_weight[a] < word_weight[b] : a < b;
    });
    m.posting_weight.reserve(m.all_words.postings().size());
    for (std::uint32_t e : m.all_words.postings()) m.posting_weight.push_back(word_weight[e]);
  }

  m.file_parts.resize(m.files.size());
  m.module_mask.resize(m.files.size());
  m.file_names_at.assign(1, 0);
  static const std::vector<std::string> k_default_roots = {"", "src", "lib", "Lib"};
  // A repository's roots: folders inside it, and absolute ones where it is
  // installed (scan --python).
  struct RepoRoots {
    std::vector<std::string> inside;
    std::uint32_t installed = 0;
  };
  std::unordered_map<std::string, RepoRoots> repo_roots;
  for (const auto& [repo, listed] : roots) {
    RepoRoots& rr = repo_roots[repo];
    std::vector<Impl::Installed> at;
    for (const auto& root : listed) {
      if (!is_absolute_path(root)) {
        rr.inside.push_back(root);
        continue;
      }
      std::string r = root;
      while (r.size() > 1 && (r.back() == '/' || r.back() == '\\')) r.pop_back();
      at.push_back({r, path_components(r).size()});
    }
    if (!at.empty()) {
      rr.installed = static_cast<std::uint32_t>(m.installed.size());
      m.installed.push_back(std::move(at));
    }
  }
  m.file_installed.assign(m.files.size(), 0);
  m.file_package.assign(m.files.size(), 0);
  for (std::size_t f = 0; f < m.files.size(); ++f) {
    if (std::string_view repo = *file_repo[f]; repo.starts_with("npm/")) m.file_package[f] = word_hash(repo.substr(4));
    const auto& parts = m.file_parts[f] = path_components(m.files[f]);
    auto listed = repo_roots.find(*file_repo[f]);
    m.module_mask[f] = module_lengths(parts, listed == repo_roots.end() ? k_default_roots : listed->second.inside);
    if (listed != repo_roots.end()) m.file_installed[f] = listed->second.installed;
    for (std::string_view part : parts) m.file_names.push_back(word_hash(part));
    if (!parts.empty()) {
      m.by_basename[std::string(parts.back())];
      if (std::string_view s = stem(parts.back()); s.size() != parts.back().size()) m.file_names.push_back(word_hash(s));
    }
    m.file_names_at.push_back(static_cast<std::uint32_t>(m.file_names.size()));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto& parts = m.file_parts[m.entries[i].file_id];
    if (!parts.empty() && !shadow_entry(i)) m.by_basename[std::string(parts.back())].push_back(static_cast<std::uint32_t>(i));
  }
  // Twin builds: records of one dataset (repository and commit) raising
  // the same class and pattern from the same build-free path in different
  // files; within a file, the n-th such statement is the n-th's twin in
  // each other build. A bundle (`dist/qs.js` of npm/qs, a file under
  // `umd/`) holds every module: its record is the twin of the one group
  // raising the same class and pattern elsewhere, when there is one.
  {
    std::vector<std::uint32_t> order;
    for (std::uint32_t r = 0; r < records.size(); ++r) {
      const auto& parts = m.file_parts[m.entries[r].file_id];
      if (!parts.empty() && js_file(parts.back()) && !m.is_shadow(r)) order.push_back(r);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return m.entries[a].file_id != m.entries[b].file_id ? m.entries[a].file_id < m.entries[b].file_id
                                                          : m.entries[a].line < m.entries[b].line;
    });
    std::unordered_map<std::string, std::uint32_t> groups, in_file, by_message;  // by_message: 1 + group, 0 when several
    std::vector<std::uint32_t> group_of(records.size(), 0), size;
    std::vector<std::uint8_t> rank(records.size(), 0);
    std::vector<std::uint32_t> bundled;
    std::string key, message;
    for (std::uint32_t r : order) {
      const auto& parts = m.file_parts[m.entries[r].file_id];
      const auto& rec = records[r];
      message.clear();
      for (const std::string* f : {&rec.repo, &rec.analyzed_sha, &rec.error_class, &rec.message_pattern}) {
        message += *f;
        message += '\0';
      }
      std::string path = build_free_path(parts, rank[r]);
      const std::string_view package = rec.repo.starts_with("npm/") ? std::string_view(rec.repo).substr(4) : std::string_view();
      if (rank[r] == 2 || (!package.empty() && stem(parts.back()) == package)) {
        rank[r] = std::max<std::uint8_t>(rank[r], 2);
        bundled.push_back(r);
        continue;
      }
      key = message + path;
      const std::uint32_t nth = in_file[key + '\0' + std::to_string(m.entries[r].file_id)]++;
      key += '\0' + std::to_string(nth);
      auto [it, added] = groups.emplace(key, static_cast<std::uint32_t>(size.size()) + 1);
      if (added) size.push_back(0);
      group_of[r] = it->second;
      ++size[it->second - 1];
      auto [one, first] = by_message.emplace(message, it->second);
      if (!first && one->second != it->second) one->second = 0;
    }
    for (std::uint32_t r : bundled) {
      message.clear();
      for (const std::string* f : {&records[r].repo, &records[r].analyzed_sha, &records[r].error_class, &records[r].message_pattern}) {
        message += *f;
        message += '\0';
      }
      if (auto it = by_message.find(message); it != by_message.end() && it->second != 0) {
        group_of[r] = it->second;
        ++size[it->second - 1];
        it->second = 0;  // one bundle record per group: a second is another statement
      }
    }
    // Only groups of two or more are twins; they are numbered densely.
    std::vector<std::uint32_t> number(size.size(), 0);
    for (std::size_t g = 0; g < size.size(); ++g)
      if (size[g] > 1) number[g] = ++m.twin_groups;
    if (m.twin_groups > 0) {
      m.twin_of.assign(records.size(), 0);
      for (std::uint32_t r = 0; r < records.size(); ++r)
        if (group_of[r]) m.twin_of[r] = number[group_of[r] - 1];
      m.build_rank = std::move(rank);
    }
  }

  std::size_t mem = sizeof(Impl) + n * sizeof(Entry) + m.patterns.size() * (sizeof(std::string) + sizeof(std::atomic<RE2*>));
  for (const auto& p : m.patterns) mem += p.capacity() > 15 ? p.capacity() : 0;
  for (const auto& id : m.ids) mem += sizeof(std::string) + (id.capacity() > 15 ? id.capacity() : 0);
  mem += m.name_blob.capacity();
  mem += m.keyed.memory_bytes() + m.all_words.memory_bytes() + m.class_ids.memory_bytes() + m.keyed_bits.capacity() * sizeof(std::uint64_t);
  mem += m.simple.capacity() * sizeof(Simple) + m.simple_items.capacity() * sizeof(SimpleItem) + m.simple_lits.capacity();
  mem += m.lits.capacity() + (m.lit_run_end.capacity() + m.lit_end.capacity()) * sizeof(std::uint32_t);
  mem += n * 4 * 2;  // basename and class lists
  mem += m.idf_by_df.capacity() * sizeof(double);
  mem += m.required.capacity() * sizeof(std::uint64_t) + m.keyed_required.capacity() * sizeof(Impl::Required);
  mem += m.posting_weight.capacity() * sizeof(float);
  mem += m.file_names.capacity() * sizeof(std::uint64_t) + m.file_names_at.capacity() * sizeof(std::uint32_t);
  mem += m.module_mask.capacity() * sizeof(std::uint64_t);
  m.stats.memory_bytes = mem;
  return Matcher(std::move(impl));
}

MatchResult Matcher::match(std::string_view text, int top) const {
  const Impl& m = *m_impl;
  if (top <= 0) top = 1;
  MatchResult out;

  // A single line (most of what is pasted) is read in place; anything else
  // through the traceback parser. Either way `error_class`, `whole` and
  // `frames` are the exception to explain.
  // The parser's last question is usually about the class it settles on:
  // its answer is kept, so the class is not looked up twice.
  std::string_view asked;
  std::uint32_t asked_id = 0;
  auto known = [&](std::string_view last) {
    // Sites raise variables too (`raise exc`, `raise e`, `raise path`): a
    // name in lower case is a class only when it reads as one, or `path:
    // /srv/x` in a log line would be taken for an exception.
    if (!last.empty() && last[0] >= 'a' && last[0] <= 'z' && !reads_as_class(last)) return false;
    auto id = m.class_ids.find(word_hash(last));
    asked = last;
    asked_id = id.empty() ? 0 : id.front();
    return asked_id != 0;
  };
  LineException one;
  Traceback tb;
  std::size_t explained = 0;  // of tb.exceptions
  std::string_view error_class, whole;
  static const std::vector<Frame> no_frames;
  const std::vector<Frame>* frames = &no_frames;
  std::vector<Frame> scratch_frames;
  const bool single = parse_single_line(text, known, one);
  if (single) {
    error_class = one.error_class;
    whole = one.message;
  } else {
    tb = parse_traceback(text, known);
    out.truncated = tb.truncated;
    explained = explained_block(tb.exceptions);
    const ExceptionBlock& ex = tb.exceptions[explained];
    error_class = ex.error_class;
    whole = ex.message;
    frames = &ex.frames;
    // Python prints where a SyntaxError's text is wrong as a last `File
    // "x", line 1` with no `, in function`, under the frames (also inside
    // a message that quotes one: py_compile's PyCompileError): a place in
    // the text compiled, not a frame. The Python frame above it raised.
    // (Node's `file:line` above a V8 stack has no function either, and is
    // the throw.)
    const auto& fs = ex.frames;
    if (fs.size() >= 2 && fs.back().function.empty() && !fs[fs.size() - 2].function.empty() &&
        fs[fs.size() - 2].file.ends_with(".py")) {
      scratch_frames.assign(fs.begin(), fs.end() - 1);
      frames = &scratch_frames;
    }
    // A module the interpreter runs frozen (3.11+: os, codecs,
    // _collections_abc, importlib's bootstrap) prints `<frozen os>` for its
    // file: the standard library's file of that module path, read as an
    // installed one.
    if (!frames->empty()) {
      if (auto path = frozen_module_file(frames->back().file)) {
        if (frames != &scratch_frames) scratch_frames.assign(frames->begin(), frames->end());
        scratch_frames.back().file = std::move(*path);
        frames = &scratch_frames;
      }
    }
  }
  std::string_view message = whole;
  if (message.size() > k_max_message) {
    message = message.substr(0, k_max_message);
    out.truncated = true;
  }
  const std::string_view last_class = single ? one.last_class : last_component(error_class);
  const std::uint32_t cls = !last_class.empty() && last_class.data() == asked.data() && last_class.size() == asked.size()
                                ? asked_id
                                : m.class_of(error_class);
  thread_local Scratch scratch;
  scratch.fit(m.entries.size(), m.patterns.size(), m.has_variants || m.revisions ? m.stats.records : 0, m.twin_groups);
  Reset reset{scratch};
  Variants variants = make_variants(message, scratch.unquoted);
  // "[Errno 2] ..." is OSError(errno, ...): Python prints the subclass the
  // errno maps to (FileNotFoundError), the source raises OSError.
  const std::uint32_t os_error = variants.after_errno.empty() ? 0 : m.os_error;
  auto class_agrees = [&](std::uint32_t id) { return id != 0 && (id == cls || id == os_error); };
  // A printed message rules out the sites that print none: by class or by
  // shared words they are no answer (a frame on their line still is).
  const bool skip_silent = !error_class.empty() && !message.empty();

  std::vector<Cand>& cands = scratch.cands;
  // Equal patterns (one message raised from many places) are confirmed once.
  auto confirm = [&](std::uint32_t e) {
    std::uint32_t p = m.entries[e].pattern_id;
    std::uint8_t& known = scratch.confirmed[p];
    if (known == 0) {
      const Spans* walked = nullptr;
      // Only a handful are shown: past that many candidates, keeping each
      // walk's groups would cost more than walking the shown ones again.
      Confirmed c = m.confirm(e, variants, cands.size() <= k_keep_walks, scratch.walk_spans, &walked);
      known = static_cast<std::uint8_t>(1 + c.kind * 4 + c.variant);
      scratch.confirmed_touched.push_back(p);
      if (c.kind > 0 && walked) {
        scratch.walked_at[p] = {static_cast<std::uint32_t>(1 + scratch.walked.size()), static_cast<std::uint32_t>(walked->size())};
        scratch.walked.insert(scratch.walked.end(), walked->begin(), walked->end());
      }
      return c;
    }
    return Confirmed{(known - 1) / 4, (known - 1) % 4};
  };
  auto in_cands = [&](std::uint32_t e) { return scratch.slot[e] != 0; };
  auto add = [&](std::uint32_t e) -> Cand& {
    std::uint32_t& at = scratch.slot[e];
    if (at == 0) {
      cands.push_back(Cand{.entry = e});
      at = static_cast<std::uint32_t>(cands.size());
      scratch.slot_touched.push_back(e);
    }
    return cands[at - 1];
  };

  // Frames: the innermost frame is where the exception was raised.
  if (!frames->empty()) {
    const Frame& f = frames->back();
    std::vector<std::string_view>& parts = scratch.frame_parts;
    path_components(f.file, parts);
    if (!parts.empty()) {
      auto it = m.by_basename.find(parts.back());
      if (it != m.by_basename.end()) {
        // An installed path's module path (after site-packages, lib/python3.11)
        // names a file whole when the rest of the file's path is an import
        // root: `ipaddress.py` is `Lib/ipaddress.py`, though one component
        // alone is never enough by suffix.
        const int start = module_start(parts, f.file.find('\\') != std::string::npos);
        // The statement printed under the frame: where the file's line
        // holds another statement, another version of the file raised it.
        const std::uint32_t printed = f.source.empty() ? 0 : statement_hash(f.source);
        // The function the frame names (a dotted name read as its last
        // part; `<module>`, `<lambda>`, `<genexpr>` and the like name no
        // def, and say nothing); a site in another function is not the
        // frame's statement, whatever its text.
        std::string_view fn = f.function;
        if (auto dot = fn.rfind('.'); dot != std::string_view::npos) fn.remove_prefix(dot + 1);
        const std::uint32_t frame_function = fn.empty() || fn.front() == '<' ? 0 : statement_hash(fn);
        const std::size_t module_len = start < 0 ? 0 : parts.size() - static_cast<std::size_t>(start);
        // Whether the frame's path is one of `roots` followed by the
        // record's path, or by its module path (the record's path after
        // one of its repository's import roots).
        auto installed_here = [&](std::uint32_t file) {
          const auto& roots = m.installed[m.file_installed[file]];
          const auto& rec = m.file_parts[file];
          for (const auto& r : roots) {
            if (r.components >= parts.size() || !f.file.starts_with(r.root)) continue;
            const char next = f.file.size() > r.root.size() ? f.file[r.root.size()] : '\0';
            if (next != '/' && next != '\\') continue;
            const std::size_t k = parts.size() - r.components;
            if (common_suffix(parts, rec) >= k && (k == rec.size() || (k < 64 && ((m.module_mask[file] >> k) & 1))))
              return true;
          }
          return false;
        };
        // A file under `node_modules/<pkg>/` is that package's: of the
        // npm/* repositories only npm/<pkg> holds it, at the same path.
        std::string frame_package;
        std::size_t package_file_start = 0;
        const std::uint64_t frame_package_hash =
            npm_package_path(parts, frame_package, package_file_start) ? word_hash(frame_package) : 0;
        // Entries of one file are listed together: its path is compared once.
        std::uint32_t last_file = 0;
        int agree = -1;
        for (std::uint32_t e : it->second) {
          const std::uint32_t file = m.entries[e].file_id;
          if (agree < 0 || file != last_file) {
            const auto& rec = m.file_parts[file];
            if (module_len > 0 && module_len < 64 && ((m.module_mask[file] >> module_len) & 1) &&
                common_suffix(parts, rec) >= module_len)
              agree = static_cast<int>(rec.size());
            else
              agree = suffix_agreement(parts, rec);
            // The frame's file is this repository's installed file: one
            // more than any other repository holding the same module path
            // (two distributions shipping `attr/`, another environment's
            // copy) can show.
            if (agree > 0 && m.file_installed[file] != 0 && installed_here(file))
              agree = static_cast<int>(rec.size()) + 1;
            if (frame_package_hash != 0 && m.file_package[file] != 0) {
              const std::size_t in_package = parts.size() - package_file_start;
              const bool same = m.file_package[file] == frame_package_hash && rec.size() == in_package &&
                                common_suffix(parts, rec) >= in_package;
              agree = same ? static_cast<int>(rec.size()) + 1 : 0;
            }
            last_file = file;
          }
          if (agree <= 0) continue;
          Cand& c = add(e);
          c.suffix = agree;
          c.reasons.frame = true;
          const Entry& entry = m.entries[e];
          const std::uint32_t own = printed ? m.statement[entry.record] : 0;
          const std::uint32_t in_function = m.function[entry.record];
          const bool same_function = frame_function == 0 || in_function == 0 || in_function == frame_function;
          const bool same_line = entry.line == f.line;
          c.reasons.frame_line = same_line && (own == 0 || own == printed) && same_function;
          c.reasons.frame_source = !same_line && own != 0 && own == printed && same_function;
          if (c.reasons.frame_source) c.line_distance = std::min(std::abs(entry.line - f.line), k_frame_source_max_lines);
        }
      }
    }
  }

  // A compiled file (`dist/x.js`) of a repository whose source is
  // TypeScript (`src/x.ts`): the source's records, by their path inside
  // the output folder; its lines are not the source's, so the frame names
  // the file only and the message picks the site.
  if (!frames->empty()) {
    const Frame& f = frames->back();
    std::vector<std::string_view>& parts = scratch.frame_parts;
    path_components(f.file, parts);
    CompiledFrame& compiled = scratch.compiled;
    if (compiled_frame(parts, compiled)) {
      std::string frame_package;
      std::size_t package_file_start = 0;
      const std::uint64_t frame_package_hash =
          npm_package_path(parts, frame_package, package_file_start) ? word_hash(frame_package) : 0;
      for (const std::string& source : compiled.sources) {
        auto it = m.by_basename.find(source);
        if (it == m.by_basename.end()) continue;
        for (std::uint32_t e : it->second) {
          const std::uint32_t file = m.entries[e].file_id;
          if (frame_package_hash != 0 && m.file_package[file] != 0 && m.file_package[file] != frame_package_hash) continue;
          if (in_cands(e) || !compiled_from(parts, compiled, m.file_parts[file])) continue;
          Cand& c = add(e);
          c.suffix = static_cast<int>(parts.size() - compiled.inside);
          c.reasons.frame = true;
        }
      }
    }
  }

  // Words: every whole word of the message looks up the patterns keyed on
  // it; a pattern whose other words are not all there is dropped unasked.
  std::vector<std::uint64_t>& hashes = scratch.hashes;
  word_hashes(message, scratch.word_scratch, hashes);
  // The unquoted form has the same words: it drops the quotes around the
  // message and one backslash of an escape pair, never a word character,
  // and always leaves a non-word character between the words it joined.
  WordSet& word_set = scratch.present;
  word_set.prepare(hashes.size());
  std::uint64_t present_mask = 0;
  for (std::uint64_t h : hashes) {
    present_mask |= mask_bit(h);
    word_set.insert(h);
  }
  const std::vector<std::uint64_t>& present = word_set.items;  // distinct, in message order
  auto all_present = [&](const Impl::Required* r) {
    std::size_t b = r[0].begin, end = r[1].begin;
    for (std::size_t k = b; k < end; ++k)
      if (!word_set.has(m.required[k])) return false;
    return true;
  };
  // A word may key hundreds of patterns in a large index: their masks are
  // read in one run beside the list, and only an entry whose mask passes
  // is read further (its word range, its candidate slot).
  constexpr std::size_t k_ahead = 8;
  constexpr std::size_t k_long_list = 8;
  // The words that may key a pattern, and then the entries of a list whose
  // masks pass, are gathered without a branch per item (each is written
  // and counted only if it passes): which pass differs from message to
  // message, so a branch on each would be mispredicted at random. The
  // words' slots are requested together first: the lookups below then find
  // them on their way rather than waiting for each in turn.
  std::vector<std::uint64_t>& keying = scratch.keying;
  if (keying.size() < present.size()) keying.resize(2 * present.size());
  std::size_t keying_count = 0;
  for (std::uint64_t h : present) {
    keying[keying_count] = h;
    keying_count += m.may_key(h);
  }
  for (std::size_t k = 0; k < keying_count; ++k) m.keyed.prefetch(keying[k]);
  for (std::size_t k = 0; k < keying_count; ++k) {
    if (cands.size() >= k_max_confirm) {
      out.truncated = true;
      break;
    }
    const auto posting = m.keyed.find(keying[k]);
    const Impl::Required* req = m.keyed_required.data() + m.keyed.position(posting);
    std::vector<std::uint32_t>& passing = scratch.passing;
    if (passing.size() < posting.size()) passing.resize(2 * posting.size());
    std::size_t passing_count = 0;
    for (std::size_t i = 0; i < posting.size(); ++i) {
      passing[passing_count] = static_cast<std::uint32_t>(i);
      passing_count += (req[i].mask & ~present_mask) == 0;
    }
    // A long list (a large index): the words of the entries whose masks
    // pass, and their candidate slots, are asked for all at once before
    // any is read, so their misses overlap.
    if (posting.size() >= k_long_list)
      for (std::size_t j = 0; j < passing_count; ++j) {
        __builtin_prefetch(m.required.data() + req[passing[j]].begin);
        __builtin_prefetch(&scratch.slot[req[passing[j]].entry]);
      }
    for (std::size_t j = 0; j < passing_count; ++j) {
      const std::uint32_t i = passing[j];
      const std::uint32_t e = req[i].entry;
      if (cands.size() >= k_max_confirm) {
        out.truncated = true;
        break;
      }
      if (in_cands(e) || !all_present(req + i)) continue;
      add(e);
    }
  }

  // A pattern that explains the message from its start is evidence; one
  // found somewhere inside it ("a", "{x} in {y}") barely is.
  // As above, a candidate's entry and then its pattern's data are asked
  // for a few candidates ahead.
  bool any_pattern = false, any_frame_line = false, any_class_pattern = false, any_whole = false;
  for (std::size_t i = 0, n = cands.size(); i < n; ++i) {
    if (i + 2 * k_ahead < n) __builtin_prefetch(&m.entries[cands[i + 2 * k_ahead].entry]);
    if (i + k_ahead < n) {
      std::uint32_t p = m.entries[cands[i + k_ahead].entry].pattern_id;
      __builtin_prefetch(&scratch.confirmed[p]);
      __builtin_prefetch(&m.simple[p]);
      __builtin_prefetch(&m.lit_end[p]);
    }
    Cand& c = cands[i];
    c.confirmed = confirm(c.entry);
    c.reasons.pattern = c.confirmed.kind > 0;
    bool specific = c.confirmed.kind >= 2 && m.entries[c.entry].constant_chars > 0;
    any_pattern |= specific;
    any_whole |= specific && c.confirmed.kind == 3;
    any_class_pattern |= specific && (error_class.empty() || class_agrees(m.entries[c.entry].class_id));
    any_frame_line |= c.reasons.frame_line || c.reasons.frame_source;
  }

  // No site of this class has a pattern that matched: its sites with no
  // constant text (a message built elsewhere) come in by class, and words
  // shared with their raise statements order them.
  std::vector<std::uint32_t>& class_sites = scratch.class_sites;
  bool by_class = false;
  for (std::uint32_t id : {cls, os_error == cls ? 0u : os_error}) {
    if (any_frame_line || any_class_pattern || id == 0 || m.weak_by_class[id].empty() ||
        m.weak_by_class[id].size() > k_max_class_sites)
      continue;
    class_sites.insert(class_sites.end(), m.weak_by_class[id].begin(), m.weak_by_class[id].end());
    by_class = true;
  }
  // Without a pattern that explains the message (of its class) or a frame,
  // full-text ranking over every record's words takes part: it is the
  // answer when nothing else is, and orders what came in by class.
  bool no_evidence = !any_pattern && !any_frame_line;
  if (no_evidence || by_class || (!any_class_pattern && !any_frame_line)) {
    std::vector<Scratch::FullText>& ft = scratch.ft;
    for (std::uint64_t h : present) {
      auto posting = m.all_words.find(h);
      if (posting.empty() || posting.size() > m.fulltext_max_df) continue;
      const double idf = m.idf_by_df[posting.size()];
      const float* own = m.posting_weight.data() + m.all_words.position(posting);
      // Every entry is written down and counted only when new (no branch
      // on it): room for the whole list first. `own` is the entry's own
      // weight at every posting of it.
      std::vector<std::uint32_t>& touched = scratch.ft_touched;
      if (touched.size() < scratch.ft_count + posting.size()) touched.resize(2 * (scratch.ft_count + posting.size()));
      std::vector<std::uint32_t>& multi = scratch.ft_multi;
      if (multi.size() < scratch.ft_multi_count + posting.size()) multi.resize(2 * (scratch.ft_multi_count + posting.size()));
      std::uint32_t* at = touched.data();
      std::uint32_t* again = multi.data();
      std::size_t count = scratch.ft_count, multi_count = scratch.ft_multi_count;
      for (std::size_t k = 0; k < posting.size(); ++k) {
        Scratch::FullText& f = ft[posting[k]];
        at[count] = posting[k];
        again[multi_count] = posting[k];
        const bool seen = f.shared != 0;  // idf > 0: n > df
        count += !seen;
        multi_count += seen;
        f.own = own[k];
        f.shared += idf;
      }
      scratch.ft_count = count;
      scratch.ft_multi_count = multi_count;
      // What a record sharing only this word holds of it: the sum above
      // from zero, in the float the pass keeps.
      scratch.ft_lists.push_back({posting, own, static_cast<float>(0.0f + idf)});
    }
    // Sites of the class: all that share words with the message; of the
    // others, which all score alike, enough to show their tie.
    std::size_t wordless = 0;
    for (std::uint32_t e : class_sites) {
      // A site raising the bare class prints nothing: it cannot have
      // written a message that another site's pattern explains whole.
      if (any_whole && !message.empty() && m.entries[e].kind == Kind::empty) continue;
      // Nor can a built-in class raised bare have written any message.
      if (skip_silent && m.entries[e].silent) continue;
      if (ft[e].shared == 0 && !in_cands(e) && wordless++ > k_max_tied) continue;
      Cand& c = add(e);
      c.confirmed = confirm(e);
      c.reasons.pattern = c.confirmed.kind > 0;
      c.by_class = true;
    }
    // The best full-text records join the candidates: the answer when
    // nothing else is, a rival to weak pattern matches otherwise. A few
    // beyond `top`, as class and module agreement may reorder them; and
    // when full text is the only evidence, every record tied at the best
    // score (up to k_max_tied), so a tie is shown whole.
    {
      std::vector<std::pair<double, std::uint32_t>>& best = scratch.best;
      best.clear();
      best.reserve(scratch.ft_count);
      ScoreHistogram& histogram = scratch.histogram;
      histogram.count.fill(0);
      double best_score = 0;
      std::size_t at_best = 0;
      // Only records that can be among the best `reach` are scored: every
      // record sharing two words or more, and of each word's list (lightest
      // first) the first `reach` and any tied with the last of them. A
      // record sharing one word scores s * min(1, s / own) for that word's
      // s, less the heavier it is, and any record of the list scores at
      // least that for its own weight (it holds s or more): one past that
      // reach has `reach` records scoring strictly more. So the best
      // `reach`, the best score and every record tied at it are the ones
      // scoring every record would give.
      std::uint8_t* const scored_by_entry = scratch.ft_scored.data();
      std::vector<std::uint32_t>& marked = scratch.ft_marked;
      auto score_within = [&](std::size_t reach) {
        best.clear();
        histogram.count.fill(0);
        best_score = 0;
        at_best = 0;
        // Inlined in both loops below: a call per record costs as much as
        // the score.
        auto take = [&](std::uint32_t e) __attribute__((always_inline)) {
          std::uint8_t& scored = scored_by_entry[e];
          if (scored) return;
          scored = 1;
          marked.push_back(e);
          if (skip_silent && m.entries[e].silent) return;
          double s = ft[e].shared;
          double own = ft[e].own;
          double score = own > 0 ? fulltext_score(s, own) : 0;
          if (score <= 0) return;
          best.emplace_back(score, e);
          histogram.add(score);
          if (score > best_score) {
            best_score = score;
            at_best = 0;
          }
          at_best += score == best_score;
        };
        for (std::size_t i = 0; i < scratch.ft_multi_count; ++i) take(scratch.ft_multi[i]);
        for (const Scratch::FullTextList& list : scratch.ft_lists) {
          std::size_t end = std::min(reach, list.entries.size());
          if (end > 0) {
            const double last = fulltext_score(list.weight, list.own[end - 1]);
            while (end < list.entries.size() && fulltext_score(list.weight, list.own[end]) == last) ++end;
          }
          for (std::size_t k = 0; k < end; ++k) take(list.entries[k]);
        }
        for (std::uint32_t e : marked) scored_by_entry[e] = 0;
        marked.clear();
      };
      std::size_t keep = 16 + static_cast<std::size_t>(top);
      score_within(keep);
      if (no_evidence) {
        // Every record tied at the best score is shown (up to k_max_tied):
        // the ranking reaches that far when the tie is longer than `keep`.
        const std::size_t tied_keep = std::min(at_best, k_max_tied) + static_cast<std::size_t>(top);
        if (tied_keep > keep) {
          keep = tied_keep;
          score_within(keep);
        }
      }
      keep = std::min(keep, scratch.ft_count);
      keep_best(best, keep, best_score, histogram, scratch.tie);
      for (const auto& [score, e] : best) {
        Cand& c = add(e);
        if (!c.reasons.pattern) c.reasons.fulltext = true;
      }
      out.fulltext_fallback = no_evidence && keep > 0;
    }
    // Every candidate's full-text score, whatever brought it in.
    for (Cand& c : cands) {
      const Scratch::FullText& f = ft[m.entry_rep.empty() ? c.entry : m.entry_rep[c.entry]];
      double own = f.own;
      if (f.shared > 0 && own > 0) c.fulltext = fulltext_score(f.shared, own);
    }
  }

  // The printed class's module ("tomllib" of tomllib.TOMLDecodeError)
  // named among a record's path components is a hint of its own: below
  // class agreement, above a few characters of pattern.
  // Names are compared by their word hashes, as the word tables compare
  // words: a file's are in one run beside the others'.
  std::vector<std::uint64_t>& modules = scratch.modules;
  if (last_class.size() != error_class.size()) module_parts(error_class, modules);
  auto module_agreement = [&](std::uint32_t file) {
    const std::uint64_t* names = m.file_names.data() + m.file_names_at[file];
    const std::size_t count = m.file_names_at[file + 1] - m.file_names_at[file];
    // A file whose module path is known (under an import root) agrees by
    // the printed module's leading parts, in order: Python prints the
    // module the class was imported as, so `pygments.util.ClassNotFound`
    // comes from the `pygments` package, not from a vendored copy at
    // `pip/_vendor/pygments/` that would print `pip._vendor.pygments…`.
    if (std::uint64_t mask = m.module_mask[file]; mask != 0)
      return module_prefix_agreement(modules, std::span(names, count), m.file_parts[file].size(), mask);
    std::int32_t agree = 0;
    for (std::uint64_t h : modules) {
      bool named = false;
      for (std::size_t k = 0; k < count; ++k) named |= names[k] == h;
      agree += named;
    }
    return agree;
  };
  // The class only ranks: a candidate needs a frame, its pattern or shared
  // words to be an answer at all.
  std::vector<Ranked>& ranked = scratch.ranked;
  ranked.clear();
  bool any_variant = false;  // an entry past the records: a variant of one
  bool site_shared = false;  // a record whose site another ranked record may share
  for (std::uint32_t k = 0; k < cands.size(); ++k) {
    Cand& c = cands[k];
    const Entry& e = m.entries[c.entry];
    c.reasons.error_class = class_agrees(e.class_id);
    c.reasons.pattern_text = c.reasons.pattern && e.constant_chars > 0;
    double s = 0;
    if (!modules.empty()) s += k_module_per_part * module_agreement(e.file_id);
    if (c.reasons.frame_line) s += k_frame_line + k_frame_line_per_component * c.suffix;
    else if (c.reasons.frame_source)
      s += k_frame_source + k_frame_file_per_component * c.suffix - k_frame_source_per_line * c.line_distance;
    else if (c.reasons.frame) s += k_frame_file + k_frame_file_per_component * c.suffix;
    if (c.reasons.error_class) s += k_class;
    if (c.reasons.pattern)
      s += k_per_constant_char * e.constant_chars * (c.confirmed.kind >= 2 ? 1.0 : 0.25) + c.confirmed.kind;
    s += std::min(c.fulltext, 10000.0);
    c.score = s;
    if (c.reasons.frame || c.reasons.pattern || c.reasons.fulltext || c.by_class) {
      ranked.push_back({s, c.entry, k});
      any_variant |= c.entry >= m.stats.records;
      site_shared |= m.revisions && m.site_shared[e.record];
    }
  }
  auto better = [](const Ranked& a, const Ranked& b) { return a.score != b.score ? a.score > b.score : a.entry < b.entry; };
  // A record with variants is one answer: its best entry speaks for it.
  // With several revisions, so is a site: its best revision, on equal
  // scores the preferred one; those as good are its revisions.
  std::vector<std::pair<std::uint32_t, std::uint32_t>>& also = scratch.also;  // (site, record)
  also.clear();
  if (any_variant || site_shared) {
    auto site = [&](const Ranked& r) {
      const std::uint32_t record = m.entries[r.entry].record;
      return m.revisions ? m.site_of[record] : record;
    };
    auto better_here = [&](const Ranked& a, const Ranked& b) {
      if (a.score != b.score) return a.score > b.score;
      if (site_shared) {
        const std::uint32_t pa = m.preference[m.entries[a.entry].record], pb = m.preference[m.entries[b.entry].record];
        if (pa != pb) return pa < pb;
      }
      return a.entry < b.entry;
    };
    std::vector<std::uint32_t>& at = scratch.record_at;
    std::vector<Ranked>& dropped = scratch.dropped;
    dropped.clear();
    std::size_t kept = 0;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      std::uint32_t& slot = at[site(ranked[i])];
      if (slot == 0) {
        ranked[kept++] = ranked[i];
        slot = static_cast<std::uint32_t>(kept);
      } else if (better_here(ranked[i], ranked[slot - 1])) {
        if (m.revisions) dropped.push_back(ranked[slot - 1]);
        ranked[slot - 1] = ranked[i];
      } else if (m.revisions) {
        dropped.push_back(ranked[i]);
      }
    }
    ranked.resize(kept);
    for (const Ranked& d : dropped) {
      const Ranked& best = ranked[at[site(d)] - 1];
      const std::uint32_t record = m.entries[d.entry].record;
      if (d.score == best.score && record != m.entries[best.entry].record) also.emplace_back(site(d), record);
    }
    for (const Ranked& r : ranked) at[site(r)] = 0;
    if (!also.empty()) {
      // By site, then preference: each answer's run is read in order.
      std::sort(also.begin(), also.end(), [&](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first
                                  : m.preference[a.second] != m.preference[b.second] ? m.preference[a.second] < m.preference[b.second]
                                                                                      : a.second < b.second;
      });
      also.erase(std::unique(also.begin(), also.end()), also.end());
    }
  }
  // Twin builds are one answer: the best scoring, on equal scores the
  // build `require` loads.
  if (m.twin_groups > 0) {
    std::vector<std::uint32_t>& at = scratch.twin_at;
    auto rank = [&](const Ranked& r) { return m.build_rank[m.entries[r.entry].record]; };
    std::size_t kept = 0;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      const std::uint32_t group = m.twin_of[m.entries[ranked[i].entry].record];
      if (group == 0) {
        ranked[kept++] = ranked[i];
        continue;
      }
      std::uint32_t& slot = at[group - 1];
      if (slot == 0) {
        ranked[kept++] = ranked[i];
        slot = static_cast<std::uint32_t>(kept);
        continue;
      }
      const Ranked& held = ranked[slot - 1];
      if (ranked[i].score != held.score ? ranked[i].score > held.score
                                        : rank(ranked[i]) != rank(held) ? rank(ranked[i]) < rank(held) : ranked[i].entry < held.entry)
        ranked[slot - 1] = ranked[i];
    }
    ranked.resize(kept);
    for (const Ranked& r : ranked)
      if (const std::uint32_t group = m.twin_of[m.entries[r.entry].record]) at[group - 1] = 0;
  }
  // Only the shown ones are ordered: the best score and its ties say how
  // many that is. Entries are distinct, so the order is strict.
  double top_score = ranked.empty() ? 0 : ranked.front().score;
  std::size_t tied = 0;
  for (const Ranked& r : ranked) {
    if (r.score > top_score) {
      top_score = r.score;
      tied = 0;
    }
    tied += r.score == top_score;
  }
  out.ambiguous = tied > 1;
  std::size_t shown = std::min(ranked.size(), std::max<std::size_t>(static_cast<std::size_t>(top), std::min(tied, k_max_tied)));
  if (ranked.size() <= 16) {
    // A handful (the usual case): insertion sort moves least.
    for (std::size_t i = 1; i < ranked.size(); ++i)
      for (std::size_t j = i; j > 0 && better(ranked[j], ranked[j - 1]); --j) std::swap(ranked[j], ranked[j - 1]);
  } else if (tied >= shown) {
    // A tie as long as what is shown: the shown are tied ones, which only
    // their entries order. They are gathered in one pass, and only they
    // are ordered, rather than a heap of them sifting every other.
    std::size_t kept = 0;
    for (const Ranked& r : ranked) {
      ranked[kept] = r;
      kept += r.score == top_score;
    }
    auto by_entry = [](const Ranked& a, const Ranked& b) { return a.entry < b.entry; };
    if (kept == shown)
      std::sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(kept), by_entry);
    else
      std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(shown),
                        ranked.begin() + static_cast<std::ptrdiff_t>(kept), by_entry);
  } else if (shown <= k_small_top) {
    // A few shown of many (a class's sites, full text): one pass keeps
    // the best so far in order in a small buffer; most candidates lose to
    // its last at the first comparison, where a heap would sift.
    Ranked best[k_small_top];
    std::size_t kept = 0;
    for (const Ranked& r : ranked) {
      if (kept == shown && !better(r, best[kept - 1])) continue;
      std::size_t j = kept < shown ? kept++ : shown - 1;
      for (; j > 0 && better(r, best[j - 1]); --j) best[j] = best[j - 1];
      best[j] = r;
    }
    std::copy(best, best + kept, ranked.begin());
  } else {
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(shown), ranked.end(), better);
  }
  std::vector<Candidate>& answers = scratch.shown;
  answers.clear();
  std::vector<PendingCapture>& pending = scratch.pending;
  pending.clear();
  scratch.pending_end.clear();
  scratch.revisions.clear();
  scratch.revisions_end.clear();
  // What the shown answers read beyond ranking (their ids, capture names)
  // is asked for together.
  for (std::size_t i = 0; i < shown; ++i) {
    const Entry& e = m.entries[cands[ranked[i].at].entry];
    __builtin_prefetch(&m.ids[e.record]);
    __builtin_prefetch(m.name_blob.data() + e.names_at);
  }

  for (std::size_t i = 0; i < shown; ++i) {
    const Cand& c = cands[ranked[i].at];
    const Entry& e = m.entries[c.entry];
    Candidate cd;
    cd.index = e.record;
    cd.id = m.ids[e.record];
    cd.score = c.score;
    cd.reasons = c.reasons;
    const Simple& sp = m.simple[e.pattern_id];
    const bool form_ascii = c.confirmed.variant == 1 ? variants.unquoted_ascii : variants.text_ascii;
    // Captures as RE2 gives them: from the simple walk where it is exact
    // (for `(-?\d+)` gaps, a whole or from-the-start match it finds
    // itself), else from RE2.
    bool captured = false;
    if (c.reasons.pattern && e.kind != Kind::empty && sp.ok && form_ascii && (!sp.has_int || c.confirmed.kind >= 2)) {
      std::string_view forms[3] = {variants.text, variants.unquoted, variants.after_errno};
      std::string_view t = forms[c.confirmed.variant];
      // The walk that confirmed the pattern has its groups already; else
      // the pattern is walked again.
      std::span<const std::pair<std::size_t, std::size_t>> spans;
      if (auto [at, count] = scratch.walked_at[e.pattern_id]; at != 0) {
        spans = {scratch.walked.data() + (at - 1), count};
        captured = true;
      } else {
        Spans& walked = scratch.spans;
        walked.clear();
        captured = c.confirmed.kind == 3  ? m.simple_whole(sp, t, &walked)
                   : sp.has_int           ? m.simple_whole(sp, t, &walked, false, false)
                                          : m.simple_within(sp, t, c.confirmed.kind == 2, &walked);
        spans = walked;
      }
      if (captured && !spans.empty()) {
        Impl::CaptureNames names = m.capture_names(c.entry, spans.size());
        for (const auto& [offset, size] : spans) names.add(pending, t.substr(offset, size));
      }
    }
    if (!captured && c.reasons.pattern && e.kind != Kind::empty) {
      const RE2* re = m.regex(c.entry);
      int groups = re->NumberOfCapturingGroups();
      if (groups > 0) {
        std::string_view forms[3] = {variants.text, variants.unquoted, variants.after_errno};
        std::string_view t = forms[c.confirmed.variant];
        RE2::Anchor a = c.confirmed.kind == 3 ? RE2::ANCHOR_BOTH : c.confirmed.kind == 2 ? RE2::ANCHOR_START : RE2::UNANCHORED;
        std::vector<re2::StringPiece>& sub = scratch.sub;
        sub.assign(static_cast<std::size_t>(groups) + 1, re2::StringPiece());
        if (re->Match(Impl::absl_view(t), 0, t.size(), a, sub.data(), groups + 1)) {
          Impl::CaptureNames names = m.capture_names(c.entry, static_cast<std::size_t>(groups));
          for (int g = 1; g <= groups; ++g)
            names.add(pending, std::string_view(sub[g].data() ? sub[g].data() : "", sub[g].size()));
        }
      }
    }
    scratch.pending_end.push_back(static_cast<std::uint32_t>(pending.size()));
    if (m.revisions) {
      // Its shadows; without a frame on its file, its kin and theirs too
      // (they would have scored as it does): one run, in preference order.
      // Then the other revisions as good, and theirs.
      const std::size_t from = scratch.revisions.size();
      auto add_run = [&](std::uint32_t record) {
        if (c.reasons.frame) {
          for (std::uint32_t k = m.shadows_at[record]; k < m.shadows_at[record + 1]; ++k)
            scratch.revisions.push_back(m.shadow_list[k]);
        } else {
          scratch.revisions.insert(scratch.revisions.end(), m.quiet_list.begin() + m.quiet_at[record],
                                   m.quiet_list.begin() + m.quiet_at[record + 1]);
        }
      };
      add_run(e.record);
      if (!also.empty()) {
        const std::uint32_t s = m.site_of[e.record];
        auto run = std::lower_bound(also.begin(), also.end(), std::pair<std::uint32_t, std::uint32_t>{s, 0},
                                    [](const auto& a, const auto& b) { return a.first < b.first; });
        bool more = false;
        for (; run != also.end() && run->first == s; ++run) {
          scratch.revisions.push_back(run->second);
          add_run(run->second);
          more = true;
        }
        if (more) {
          auto begin = scratch.revisions.begin() + static_cast<std::ptrdiff_t>(from);
          std::sort(begin, scratch.revisions.end(), [&](std::uint32_t a, std::uint32_t b) {
            return m.preference[a] != m.preference[b] ? m.preference[a] < m.preference[b] : a < b;
          });
          auto end = std::unique(begin, scratch.revisions.end());
          scratch.revisions.erase(std::remove(begin, end, e.record), scratch.revisions.end());
        }
      }
    }
    scratch.revisions_end.push_back(static_cast<std::uint32_t>(scratch.revisions.size()));
    answers.push_back(cd);
  }
  // The answers, every capture of them, then the captures' names and
  // values, the exception's text and the chained ones', are copied into
  // one block the result holds; each answer's captures are its run of the
  // Captures.
  // The text's other exceptions, in the order printed.
  std::vector<const ExceptionBlock*>& others = scratch.others;
  others.clear();
  if (!single)
    for (std::size_t k = 0; k < tb.exceptions.size(); ++k)
      if (k != explained) others.push_back(&tb.exceptions[k]);
  // A value inside the message (the text form and the errno form are parts
  // of it) is a view of the message's copy; only one taken from the
  // unquoted form, which lives in the scratch, is copied itself.
  auto in_whole = [&](std::string_view v) {
    return std::less_equal<>()(whole.data(), v.data()) && std::less_equal<>()(v.data() + v.size(), whole.data() + whole.size());
  };
  std::size_t bytes = error_class.size() + whole.size();
  for (const ExceptionBlock* b : others) bytes += b->error_class.size() + b->message.size();
  for (const PendingCapture& p : pending)
    bytes += (in_whole(p.value) ? 0 : p.value.size()) + (p.number > 0 ? number_size(p.number) : p.name.size());
  static_assert(alignof(Candidate) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ && sizeof(Candidate) % alignof(Capture) == 0);
  static_assert(std::is_trivially_destructible_v<Candidate> && std::is_trivially_destructible_v<Capture>);
  const std::size_t answer_bytes = answers.size() * sizeof(Candidate);
  const std::size_t list_bytes = pending.size() * sizeof(Capture);
  const std::size_t revision_bytes = scratch.revisions.size() * sizeof(std::uint32_t);
  static_assert(sizeof(Capture) % alignof(std::uint32_t) == 0);
  out.block_size = answer_bytes + list_bytes + revision_bytes + bytes;
  if (out.block_size > MatchResult::k_inline) out.storage = std::make_unique_for_overwrite<char[]>(out.block_size);
  char* block = out.block();
  Candidate* placed = reinterpret_cast<Candidate*>(block);
  Capture* list = reinterpret_cast<Capture*>(block + answer_bytes);
  std::uint32_t* revision_list = reinterpret_cast<std::uint32_t*>(block + answer_bytes + list_bytes);
  if (revision_bytes) std::memcpy(revision_list, scratch.revisions.data(), revision_bytes);
  char* at = block + answer_bytes + list_bytes + revision_bytes;
  auto copy = [&](std::string_view v) {
    if (v.empty()) return std::string_view();
    std::memcpy(at, v.data(), v.size());
    at += v.size();
    return std::string_view(at - v.size(), v.size());
  };
  out.exception = {copy(error_class), copy(whole)};
  for (std::size_t k = 0; k < pending.size(); ++k) {
    const PendingCapture& p = pending[k];
    std::string_view name;
    if (p.number > 0) {
      char* end = std::to_chars(at, at + number_size(p.number), p.number).ptr;
      name = {at, static_cast<std::size_t>(end - at)};
      at = end;
    } else {
      name = copy(p.name);
    }
    std::string_view value = p.value.empty() ? std::string_view()
                             : in_whole(p.value)
                                 ? out.exception.message.substr(static_cast<std::size_t>(p.value.data() - whole.data()), p.value.size())
                                 : copy(p.value);
    std::construct_at(list + k, Capture{name, value});
  }
  for (std::size_t i = 0, begin = 0, from = 0; i < answers.size(); ++i) {
    const std::size_t end = scratch.pending_end[i];
    answers[i].captures = {list + begin, end - begin};
    answers[i].revisions = {revision_list + from, scratch.revisions_end[i] - from};
    from = scratch.revisions_end[i];
    std::construct_at(placed + i, answers[i]);
    begin = end;
  }
  out.candidates = {placed, answers.size()};
  out.chained.reserve(others.size());
  for (const ExceptionBlock* b : others) out.chained.push_back({copy(b->error_class), copy(b->message)});
  if (!single) {
    ExceptionBlock& ex = tb.exceptions[explained];
    out.frames.reserve(ex.frames.size());
    for (auto& f : ex.frames) out.frames.push_back({std::move(f.file), f.line, std::move(f.function)});
  }
  return out;
}

}  // namespace errdex::match
