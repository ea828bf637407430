#pragma once
// Explains a pasted error: one line (`ValueError: ...`), a Python traceback
// (plain, chained, exception groups, pytest `E   ` lines, IPython and
// Jupyter, log prefixes, terminal colours) or any text, answered with the
// throw sites that produce it, best first.
//
// A Matcher is built once from records and then only answers. After build
// returns, match() may be called from any number of threads at once; the
// Matcher is never modified again. It keeps no reference to the records it
// was built from: it copies only what matching needs (pattern, template,
// class, file, line, id), so a caller that shows records keeps its own
// vector and reads it at Candidate::index.
//
// Candidates come from the templates' constant text (each pattern keyed on
// its rarest whole word; one pass over the message's words; a candidate
// whose other words are missing is dropped), confirmed with RE2 (linear
// time in the input: no input can make matching slow). Templates with no
// constant text are reached only through traceback frames or the class.
// Indexes of more than 200,000 records compile patterns on first use (once,
// safely across threads), so building stays fast and small at millions.
// Without a pattern that explains the message, a full-text ranking (idf
// over the words of each record's pattern and of the string literals of its
// raise statement and the lines building its message) takes part: the
// matcher's own index, no store needed at match time; when it is the only
// evidence the result says so.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/error_record.h"

namespace errdex::match {

// Why a candidate ranks where it does. Several may hold at once.
struct Reasons {
  bool frame = false;     // a traceback frame's file agrees (by module path
                          // under an import root, or by path suffix)
  bool frame_line = false;  // ... and its line is the record's line (and, when
                            // the frame printed its source, so is the text)
  bool frame_source = false;  // ... the frame printed this site's statement,
                              // on another line: another version of the file
  bool error_class = false;  // the exception's class agrees (last dotted name;
                             // an "[Errno N]" message agrees with OSError)
  bool pattern = false;   // the record's messagePattern matched the message
  bool pattern_text = false;  // ... and the template that matched has fixed
                              // text with a word (not `{msg}` alone, nor
                              // `{message} {detail}`, which any message fits)
  bool fulltext = false;  // found only by full-text ranking (no pattern matched)
  bool wraps = false;     // raises again, as the printed class, the exception
                          // its handler caught, of a site whose pattern
                          // matched (`except ImportError as err: raise
                          // ValueError(str(err))`)
};

// True when nothing but the class (and the file of a frame) ties the
// candidate to the text: no frame's line and no message text agree. What
// raised it is then most likely code with no record (a built-in, C code)
// called from a frame, not this site.
bool weak(const Reasons& r);

// A value taken out of the message, named after the interpolation it
// fills (`{values}` -> "values"), or numbered from 1 when the template's
// interpolations cannot name the pattern's groups. Both views are held by
// the MatchResult the candidate belongs to.
struct Capture {
  std::string_view name;
  std::string_view value;
};

struct Candidate {
  // Index into the vector given to Matcher::build, and the record's id
  // (the Matcher's copy: valid while the Matcher lives).
  std::size_t index = 0;
  std::string_view id;
  // Higher is better; comparable only within one MatchResult.
  double score = 0;
  // Captured values, named after the interpolations of errorMessage in
  // order; empty when the pattern did not match. A view of the
  // MatchResult's own storage: valid while that result lives (a moved
  // result keeps it).
  std::span<const Capture> captures;
  Reasons reasons;
  // With several revisions of a repository indexed (Matcher::build's
  // `preference`): the same site in other revisions that the text agrees
  // with as well as this one (the same score), as indexes like `index`,
  // most preferred first. The text is consistent with each. Empty with one
  // revision. A view of the MatchResult's storage, as captures are.
  std::span<const std::uint32_t> revisions;
  // Reasons::wraps: the site whose message it raises again (the caught
  // exception's own site, whose pattern matched), as an index like
  // `index`; empty otherwise.
  std::optional<std::size_t> wraps;
  // The message that matched, when it is not the record's own
  // (errorMessage): the index of the record's messageVariants entry whose
  // pattern did (typing's `Too few arguments for {cls}` beside the record's
  // `Too many …`). The captures are named after its interpolations.
  std::optional<std::uint32_t> variant;
};

// One exception of the pasted text as the parser read it. Views of the
// MatchResult's own storage, as captures are.
struct ParsedException {
  std::string_view error_class;  // as printed, e.g. "json.decoder.JSONDecodeError"
  std::string_view message;      // may span several lines
};

struct ParsedFrame {
  std::string file;  // as printed
  int line = 0;
  std::string function;
  std::string source;  // the line printed under it, trimmed; "" when none
};

struct MatchResult {
  // Best first, at most `top` of them. A view of the result's storage.
  std::span<const Candidate> candidates;
  // The exception being explained: the last of a chain (the one printed
  // last), or the whole text when no "Class: message" line was found. When
  // the last is a copy raised again by a frame that only hands an object
  // on (`raise self._value`: multiprocessing, concurrent.futures), the
  // earlier exception of the same class and message, with its own frames:
  // the worker's traceback, printed as the copy's cause.
  ParsedException exception;
  // That exception's frames, outermost first (as printed).
  std::vector<ParsedFrame> frames;
  // The text's other exceptions, in the order printed: earlier ones of a
  // chain ("During handling of the above exception..."), exceptions inside
  // a group, and a pool's copy (printed last) when the worker's is explained.
  // At most k_max_chained: of a longer chain, its first half and its last
  // half, the ones between counted in `chained_left_out`.
  std::vector<ParsedException> chained;
  static constexpr std::size_t k_max_chained = 32;
  std::size_t chained_left_out = 0;
  // True when the best score is shared by more than one candidate: every
  // tied candidate is in `candidates` (even beyond `top`; at most 100).
  bool ambiguous = false;
  // True when no pattern matched and candidates come from full-text
  // ranking: the first answer's pattern did not match either (one that did
  // came in by its class, its message a placeholder any text fits:
  // weakness() says so).
  bool fulltext_fallback = false;
  // Sites of the printed class with no text of their own (`raise
  // NotImplementedError`, `raise ValueError(msg)`) when they are too many
  // to list and none agrees with the text otherwise, else 0: only a
  // traceback's frames can tell which raised it.
  std::uint32_t class_sites = 0;
  // True when the innermost frame is in an indexed file, on a line where
  // no site raises (in any revision the text agrees with), and the
  // statement it printed raises nothing itself (no `raise`/`throw`): what
  // raised the exception lies below that frame, in code with no frame of
  // its own (a built-in, C code: `binascii.a2b_base64(s)`, `self.scan_once(s,
  // idx)`) or in the statement itself (`d[key]`, `a / b`). The candidates
  // then print the same message elsewhere; they did not raise this one.
  bool raised_below = false;
  // True when the input was longer than the matcher reads (its last part
  // was parsed) or the message was cut before pattern matching.
  bool truncated = false;

  MatchResult() = default;
  // Moving keeps every view valid (a block held inline is copied and the
  // views into it follow); a result is not copied.
  MatchResult(MatchResult&& other) noexcept;
  MatchResult& operator=(MatchResult&& other) noexcept;
  MatchResult(const MatchResult&) = delete;
  MatchResult& operator=(const MatchResult&) = delete;
  ~MatchResult() = default;

  // What `candidates`, `exception`, `chained` and the captures view: one
  // block holding the candidates, every Capture of the result, then their
  // names and values and the exceptions' text. A small block (most
  // results) is held inline, so a result costs no allocation; a larger
  // one in `storage`.
  static constexpr std::size_t k_inline = 768;
  alignas(16) char inline_block[k_inline];
  std::unique_ptr<char[]> storage;
  std::size_t block_size = 0;  // bytes of the block in use, wherever it is
  // The block: inline_block or storage.get().
  char* block() { return storage ? storage.get() : inline_block; }
};

// How little ties a result's first answer to the text, when only that
// (weak()): the one verdict the text output, JSON (`weak`) and the page
// say above the answers.
enum class Weakness {
  none,          // not weak, or no answer
  class_only,    // the class (or a frame's file); its message does not fit
  placeholders,  // its message is placeholders only (`{msg}`), which any
                 // text fills: which site printed it is not told
  words,         // only words shared with the site: no class was printed,
                 // or the answer does not raise it
};
Weakness weakness(const MatchResult& r);

// "class", "placeholders", "words"; "" for none.
std::string_view weakness_word(Weakness w);

struct BuildStats {
  std::size_t records = 0;
  std::size_t patterns = 0;         // patterns compiled into the index
  std::size_t bad_patterns = 0;     // patterns RE2 rejected (record kept for frames/class)
  std::size_t match_anything = 0;   // no constant text: reached only via frames/class
  std::size_t memory_bytes = 0;     // approximate size of the index
};

// Each repository's import roots (source/import_roots.h: "", "Lib",
// "src"), by repository name, as the store keeps them with its dataset. An
// installed frame's module path (`.../lib/python3.11/ipaddress.py` reads
// `ipaddress.py`) then names the file `Lib/ipaddress.py` whole. A repository
// not listed is taken to import from "", "src", "lib" and "Lib". An
// absolute root (`/usr/lib/python3.11/site-packages`, stored by
// `scan --python`) is where the repository is installed: a frame whose path
// is that root and then the record's module path belongs to it, and ranks
// above the same module path held by another repository.
using ImportRoots = std::unordered_map<std::string, std::vector<std::string>>;

class Matcher {
 public:
  // Builds the index over every record's messagePattern, class and file.
  // Never fails: a pattern RE2 rejects is counted in stats() and its record
  // is still reachable through frames and class.
  //
  // Records of several revisions of one repository may be given together.
  // Records with the same repo and id are then one site: it is answered
  // once, by its revision the text agrees with best, and on equal terms by
  // the one whose `preference` is lowest (the current revision 0, then the
  // newest); the others that agree as well are its `revisions`. Empty
  // `preference`: every record is a site of its own. `refs`, by record
  // with `preference`: its revision's name; the standard library's
  // (python/cpython) are Python versions (`v3.11.7`), and a traceback whose
  // frames name their interpreter (`lib/python3.11/`) is answered by that
  // version's revision among those its text agrees with.
  static Matcher build(const std::vector<model::ErrorRecord>& records, const ImportRoots& roots = {},
                       std::span<const std::uint32_t> preference = {}, std::span<const std::string> refs = {});

  Matcher(Matcher&&) noexcept;
  Matcher& operator=(Matcher&&) noexcept;
  ~Matcher();

  // Explains `text`. Returns at most `top` candidates (top <= 0 means 1),
  // more only when a tie at the best score must be shown whole. Any bytes
  // are accepted; time is bounded by the input's length (inputs beyond
  // 16 MB are read only in their last part, where the exception is; messages
  // beyond 64 KB are matched on their first part; `truncated` says so).
  // Thread-safe.
  MatchResult match(std::string_view text, int top = 5) const;

  const BuildStats& stats() const;
  std::size_t size() const;  // number of records

 private:
  struct Impl;
  explicit Matcher(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace errdex::match
