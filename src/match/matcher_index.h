#pragma once
// The index a Matcher answers from: what Matcher::build (matcher_build.cc)
// makes and Matcher::match (matcher.cc) only reads. Private to the
// matcher's files. Only data and the one-line lookups both sides use are
// here: what match() calls per candidate (the literal walks, the
// confirmation, matcher_confirm.h) stays in matcher.cc's translation unit
// at internal linkage, so its calls there compile as they did in one file.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "match/matcher.h"
#include "match/traceback.h"
#include "match/word_hash.h"
#include "match/word_table.h"

namespace re2 {
class RE2;
}

namespace errdex::match::detail {

// Python 3's other names of OSError (`raise IOError(...)`,
// `socket.error`): such a site raises OSError, which is what Python
// prints. Any other class is its last name, `last`.
inline std::string_view canonical_class(std::string_view written, std::string_view last) {
  if (last == "IOError" || last == "EnvironmentError" || last == "WindowsError" || written == "socket.error" ||
      written == "select.error" || written == "os.error")
    return "OSError";
  return last;
}

// Whether a file's name is JavaScript's or TypeScript's.
inline bool js_file(std::string_view name) {
  for (std::string_view ext : {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"})
    if (name.ends_with(ext)) return true;
  return false;
}

// Full-text fallback: words this common say nothing and cost the most.
constexpr std::size_t k_fulltext_max_df = 2000;

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
  std::uint32_t pattern_id = 0;  // into Index::patterns; equal patterns share one
  std::uint32_t class_id = 0;  // 0: no class
  std::uint32_t file_id = 0;
  int line = 0;
  std::uint32_t constant_chars = 0;
  Kind kind = Kind::keyed;
  bool match_all = false;  // the pattern is `(.+?)` groups and blanks only
  bool silent = false;  // a built-in class raised bare (`assert x`, `raise KeyError`): prints no message
  // A JavaScript site throwing a class of its own code (`new
  // InvalidUnitError(unit)`): unless that class sets `name`, V8 prints the
  // built-in class it extends (`Error: Invalid unit nope`). So may a
  // caught error thrown again with a message of the site's own
  // (`err.message = \`Cannot load ${file}: ${err.message}\`; throw err`):
  // its class is whatever was caught.
  bool js_own_class = false;
  std::uint32_t names_at = 0;  // its capture names in Index::name_blob
};

// A word's bit in a 64-bit summary of a set of words: the hash's top bits,
// which the word tables' slots do not use.
inline std::uint64_t mask_bit(std::uint64_t h) { return std::uint64_t{1} << (h >> 58); }

// Whether a name in lower case reads as an exception class: re's `error`,
// socket's `timeout`, nntplib's `error_reply`, not a variable (`exc`, `e`).
inline bool reads_as_class(std::string_view name) {
  for (std::string_view word : {"error", "Error", "timeout", "Timeout", "warning", "Warning"})
    if (name.find(word) != std::string_view::npos) return true;
  return false;
}

// The words of a class name or expression that say which class it is, in
// lower case, as word hashes: `self._undefined_exception` and
// `UndefinedError` both give {undefined}; `self`, `cls` and the words every
// class has (error, exception, warning) say nothing.
inline void class_words(std::string_view text, std::vector<std::uint64_t>& out) {
  std::string word;
  auto flush = [&] {
    if (!word.empty() && word != "self" && word != "cls" && word != "error" && word != "exception" &&
        word != "exc" && word != "err" && word != "warning")
      out.push_back(word_hash(word));
    word.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool upper = c >= 'A' && c <= 'Z';
    if (!(upper || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
      flush();
      continue;
    }
    // A capital after a lower-case letter starts a word: UndefinedError.
    if (upper && i > 0 && text[i - 1] >= 'a' && text[i - 1] <= 'z') flush();
    word += upper ? static_cast<char>(c - 'A' + 'a') : c;
  }
  flush();
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
  std::uint32_t first = 0;   // into Index::simple_items
  std::uint32_t items = 0;
  std::uint32_t trailing = 0;
  bool trailing_int = false;  // the trailing gap is one `(-?\d+)`
  bool has_int = false;
  bool ok = false;
};

// The RE2 a pattern is confirmed with: stored patterns write each
// interpolation as `(.+?)`, confirmed as `(.*?)` (a value may be empty),
// with `.` matching newlines and memory bounded per pattern. The caller
// owns it; ok() is false for a pattern RE2 rejects.
re2::RE2* compile_pattern(std::string_view pattern);

// A stored pattern without the blanks (spaces, tabs and escaped line
// breaks) its fixed text begins or ends with: a message is read trimmed
// (`ValueError:  specify …` and a text ending in `\n` alike), so the
// pattern it is confirmed against is too. A pattern of blanks only stays.
std::string edge_trimmed(std::string_view pattern);

// Everything the index holds (Matcher::Impl is this).
struct Index {
  std::vector<Entry> entries;
  bool has_variants = false;  // more entries than records
  // With variants, by record (and one more): where its variants' entries
  // start, counted from the first entry past the records. Record r's
  // variant v is entry records + variants_at[r] + v.
  std::vector<std::uint32_t> variants_at;
  // With variants, by entry past the records: which of its record's
  // messages it shows, its index in messageVariants or k_own_message, with
  // k_first_line set when the entry is only that message's first line (a
  // message of several lines, for a paste of one line of it). A first
  // line matching a whole paste is taken for the start of the message.
  static constexpr std::int32_t k_own_message = 0xffffff, k_first_line = 0x1000000;
  std::vector<std::int32_t> variant_shown;
  // (Without variants no entry is past the records.)
  bool first_line(std::uint32_t e) const { return e >= stats.records && (variant_shown[e - stats.records] & k_first_line); }
  // Compiled patterns by entry; filled at build (small indexes) or on first
  // use. A slot holds nullptr until compiled.
  std::vector<std::string> patterns;  // distinct messagePatterns
  std::unique_ptr<std::atomic<re2::RE2*>[]> compiled;  // by pattern id
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
  // By record with several revisions: the Python version (3011) a
  // standard library record's revision is, else 0. A traceback whose
  // frames name its interpreter (`lib/python3.11/`) is answered by the
  // revision of that version among those that agree.
  std::vector<std::uint32_t> python_version;
  std::vector<std::uint32_t> file_installed;
  // Builds of one package: npm packages ship one source as CommonJS, ES
  // and browser builds (`dist/cjs/x.js`, `dist/esm/x.js`), whose sites
  // raise the same message from the same file under another folder. Such
  // twins are one answer: without a frame on one of them they tie, and
  // the build `require` loads speaks for them. By record: 1 + its group,
  // or 0 when it has no twin (empty when no record has one); and its
  // build's rank (0 CommonJS or unknown, 1 an ES build, 2 a browser one;
  // a bundle 3 more than its folder's).
  std::vector<std::uint32_t> twin_of;
  std::vector<std::uint8_t> build_rank;
  std::uint32_t twin_groups = 0;
  // By file_id: word_hash() of the package of an `npm/<package>` repository,
  // whose files are the package's as installed; 0 for other repositories.
  std::vector<std::uint64_t> file_package;
  // The packages of those repositories, sorted. A frame under
  // `node_modules/<pkg>/` is read as that package's only when the index
  // holds npm/<pkg>: a repository of GitHub's `npm` owner named otherwise
  // (npm/node-semver, the `semver` package) is matched by its paths.
  std::vector<std::uint64_t> packages;
  std::uint64_t indexed_package(std::string_view name) const {
    const std::uint64_t h = word_hash(name);
    return std::binary_search(packages.begin(), packages.end(), h) ? h : 0;
  }
  // By record: statement_hash() of its statement's first line, read from
  // its source excerpt; 0 when the excerpt does not hold it.
  std::vector<std::uint32_t> statement;
  // By record: statement_hash() of the name of the function holding it, as
  // its excerpt shows it; 0 when unknown.
  std::vector<std::uint32_t> function;
  // Records of a JavaScript `throw err` whose `err` is made on a line above
  // (excerpt_made_above), by record: a stack's frame names that line.
  struct MadeAbove {
    std::uint32_t record = 0;
    std::int32_t above = 0;
    std::uint32_t statement = 0;
  };
  std::vector<MadeAbove> made_above;
  // The line above record `r`'s throw its frame names, and that line's
  // statement hash; null when the error is made on the throw's line.
  const MadeAbove* made_above_of(std::uint32_t r) const {
    auto it = std::lower_bound(made_above.begin(), made_above.end(), r, [](const MadeAbove& a, std::uint32_t v) { return a.record < v; });
    return it != made_above.end() && it->record == r ? &*it : nullptr;
  }
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
  // The records whose raise gives its class by an expression, not a class's
  // name (`self.failureException(msg)`, `self._undefined_exception(...)`,
  // a factory's result): a printed class no site names may be theirs.
  std::vector<std::uint32_t> expression_class_entries;
  // By position in expression_class_entries, class_words() of its class
  // expression: expression_words[expression_words_at[k]..[k + 1]).
  std::vector<std::uint64_t> expression_words;
  std::vector<std::uint32_t> expression_words_at{0};
  // (caught class id, record): a record whose message is the exception its
  // handler caught, raised again as its own class (`except ImportError as
  // err: raise ValueError(str(err))`). Sorted.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> wrappers;
  std::vector<std::uint8_t> wrapped;  // by class id: 1 when `wrappers` holds it
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

  // By pattern: nonzero when its fixed text is blanks and punctuation only
  // (`{a}.{b}`): a match by it is no match of the message's text
  // (Reasons::pattern_text); k_blanks_only when it is blanks only
  // (`{message} {detail}`): then it is no evidence either, and its
  // characters rank below any shared word.
  static constexpr std::uint8_t k_punctuation_only = 1, k_blanks_only = 2;
  std::vector<std::uint8_t> wordless;
  // Patterns of literal text and groups only, matched whole without RE2.
  std::vector<Simple> simple;  // by pattern
  std::vector<SimpleItem> simple_items;
  std::string simple_lits;
  BuildStats stats;

  Index() = default;
  Index(const Index&) = delete;
  Index& operator=(const Index&) = delete;
  ~Index();  // deletes the compiled patterns

  // The id of a printed class, by its last dotted name; 0 when no record
  // raises it.
  std::uint32_t class_of(std::string_view error_class) const {
    std::string_view last = canonical_class(error_class, last_component(error_class));
    if (last.empty()) return 0;
    auto id = class_ids.find(word_hash(last));
    return id.empty() ? 0 : id.front();
  }
};

}  // namespace errdex::match::detail

namespace errdex::match {

struct Matcher::Impl : detail::Index {};

}  // namespace errdex::match
