#include "match/matcher.h"

#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include "match/excerpt.h"
#include "match/frame_file.h"
#include "match/matcher_confirm.h"
#include "match/matcher_index.h"
#include "match/matcher_paste.h"
#include "match/matcher_revisions.h"
#include "match/matcher_scratch.h"
#include "match/path_suffix.h"
#include "match/traceback.h"
#include "match/word_hash.h"
#include "model/throw_site.h"

// Matcher::match: one pasted text (read by matcher_paste.cc) against the
// index (matcher_index.h) that Matcher::build (matcher_build.cc) made.
// What it runs per line and per candidate is in this translation unit at
// internal linkage (the answers' copy into the result, once per match, is
// matcher_result.cc's): this file (Search, the steps of one match),
// matcher_confirm.h (does a candidate's pattern match) and
// matcher_scratch.h (the working memory), which only this file includes.
namespace errdex::match {
namespace {

using detail::class_words;
using detail::js_frame;
using detail::minified_name;
using detail::mask_bit;
using detail::Paste;
using detail::raises_itself;

// At most this many candidates are confirmed with RE2 per message, and at
// most this many tied candidates are listed.
constexpr std::size_t k_max_confirm = 20000;
constexpr std::size_t k_max_tied = 100;
// Up to this many candidates, the walk confirming each keeps its groups for
// the captures (see Search::confirm).
constexpr std::size_t k_keep_walks = 32;
// Up to this many shown answers are picked from many candidates by one
// pass over them (see Search::order_shown).
constexpr std::size_t k_small_top = 16;
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
// A pattern's fixed text of blanks only (`{a} {b}`): a tie-breaker among
// patterns, below a full-text score of shared words.
constexpr double k_blanks_per_char = 0.01;
// A JavaScript class of its own printed as the built-in it extends: less
// than one constant character below the printed class itself.
constexpr double k_base_class = k_class - 1;
constexpr double k_module_per_part = 40;  // < k_class / 4 for any pattern under 250k chars
// A site of the printed class's package raising a class given by an
// expression, when no site names the printed class: it may be that class.
constexpr double k_expression_class = k_class / 2;

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

// One match's search: the candidates a paste brings in (by its frames, its
// message's words, its class, full text), then their ranking. The steps
// run in the order Matcher::match calls them, each reading what the ones
// before it found; all share the thread's Scratch. Built per call, at
// internal linkage, so its steps inline into match() as the code they
// were split from.
struct Search {
  const Index& m;
  const Paste& p;
  Scratch& scratch;
  MatchResult& out;
  std::vector<Cand>& cands;
  Variants variants;
  // "[Errno 2] ..." is OSError(errno, ...): Python prints the subclass the
  // errno maps to (FileNotFoundError), the source raises OSError.
  std::uint32_t os_error;
  // A built-in JavaScript class printed bare (`Error: Invalid unit nope`)
  // is also what a site throwing a class of its own prints when that class
  // sets no `name`: its class agrees when its message's text does, a hair
  // below a site throwing the printed class itself with the same text.
  bool printed_js_builtin;
  // A printed message rules out the sites that print none: by class or by
  // shared words they are no answer (a frame on their line still is).
  bool skip_silent;
  // What the confirmed candidates show (confirm_candidates).
  bool any_pattern = false, any_frame_line = false, any_class_pattern = false, any_whole = false;
  bool by_class = false;  // sites came in by class alone (by_class_sites)
  // A ranked entry past the records (a variant of one), and a record whose
  // site another ranked record may share (rank).
  bool any_variant = false, site_shared = false;

  Search(const Index& index, const Paste& paste, Scratch& s, MatchResult& result)
      : m(index),
        p(paste),
        scratch(s),
        out(result),
        cands(s.cands),
        variants(make_variants(paste.message, s.unquoted, s.flat)),
        os_error(variants.after_errno.empty() ? 0 : index.os_error),
        printed_js_builtin(paste.error_class == paste.last_class && model::javascript_builtin_error(paste.last_class)),
        skip_silent(!paste.error_class.empty() && !paste.message.empty()) {}

  bool class_agrees(std::uint32_t id) const { return id != 0 && (id == p.cls || id == os_error); }
  bool base_class_agrees(const Entry& e, const Confirmed& confirmed) const {
    return printed_js_builtin && e.js_own_class && confirmed.kind >= 2 && e.constant_chars > 0;
  }

  // Whether entry e's pattern matches the message, and how. Equal patterns
  // (one message raised from many places) are confirmed once. A message's
  // first line fitting the whole paste is a match of the message's start.
  Confirmed confirm(std::uint32_t e) {
    Confirmed c = confirm_pattern(e);
    if (c.kind == 3 && m.first_line(e)) c.kind = 2;
    return c;
  }
  Confirmed confirm_pattern(std::uint32_t e) {
    std::uint32_t pattern = m.entries[e].pattern_id;
    std::uint8_t& known = scratch.confirmed[pattern];
    if (known == 0) {
      const Spans* walked = nullptr;
      // Only a handful are shown: past that many candidates, keeping each
      // walk's groups would cost more than walking the shown ones again.
      Confirmed c = confirm_entry(m, e, variants, cands.size() <= k_keep_walks, scratch.walk_spans, &walked);
      known = static_cast<std::uint8_t>(1 + c.kind * 4 + c.variant);
      scratch.confirmed_touched.push_back(pattern);
      if (c.kind > 0 && walked) {
        scratch.walked_at[pattern] = {static_cast<std::uint32_t>(1 + scratch.walked.size()), static_cast<std::uint32_t>(walked->size())};
        scratch.walked.insert(scratch.walked.end(), walked->begin(), walked->end());
      }
      return c;
    }
    return Confirmed{(known - 1) / 4, (known - 1) % 4};
  }
  bool in_cands(std::uint32_t e) const { return scratch.slot[e] != 0; }
  // Entry e's candidate, listed now if it was not. Inlined where it is
  // called, as the steps' loops were written with it.
  __attribute__((always_inline)) Cand& add(std::uint32_t e) {
    std::uint32_t& at = scratch.slot[e];
    if (at == 0) {
      cands.push_back(Cand{.entry = e});
      at = static_cast<std::uint32_t>(cands.size());
      scratch.slot_touched.push_back(e);
    }
    return cands[at - 1];
  }

  // Lists the sites a frame's file and line agree with (an `outer` frame:
  // only the sites on its line), and says whether its file is indexed, and
  // whether a site there is its statement.
  std::pair<bool, bool> read_frame(const Frame& f, bool outer) {
    bool file_known = false, statement_known = false;
    std::vector<std::string_view>& parts = scratch.frame_parts;
    path_components(f.file, parts);
    if (parts.empty()) return {false, false};
    auto it = m.by_basename.find(parts.back());
    // A minified build (`dist/index.min.js`, which the scan skips) names
    // the readable build beside it (`dist/index.js`), its file only: every
    // statement of the minified file is on its line 1.
    std::string readable;
    const bool minified = it == m.by_basename.end() && !outer && minified_name(parts.back(), readable);
    if (minified) {
      parts.back() = readable;
      it = m.by_basename.find(readable);
    }
    if (it == m.by_basename.end()) return {false, false};
    const detail::FramePath path = detail::frame_path(m, f.file, parts);
    // The statement printed under the frame: where the file's line
    // holds another statement, another version of the file raised it.
    const std::uint32_t printed = f.source.empty() ? 0 : statement_hash(f.source);
    const std::uint32_t frame_function = detail::frame_function(f.function);
    // Entries of one file are listed together: its path is compared once.
    std::uint32_t last_file = 0;
    int agree = -1;
    for (std::uint32_t e : it->second) {
      const std::uint32_t file = m.entries[e].file_id;
      if (agree < 0 || file != last_file) {
        agree = detail::file_agreement(m, path, file);
        last_file = file;
      }
      if (agree <= 0) continue;
      const Entry& entry = m.entries[e];
      if (outer && entry.line != f.line) continue;
      Cand& c = add(e);
      c.suffix = agree;
      if (minified) {
        c.file_only = true;  // a frame of it only if its message fits (rank)
        continue;
      }
      c.reasons.frame = true;
      const std::uint32_t own = printed ? m.statement[entry.record] : 0;
      const std::uint32_t in_function = m.function[entry.record];
      const bool same_function = frame_function == 0 || in_function == 0 || in_function == frame_function;
      const bool same_line = entry.line == f.line;
      c.reasons.frame_line = same_line && (own == 0 || own == printed) && same_function;
      // V8 names where a JavaScript error was made: `const err = new
      // Error(…)` a few lines above its `throw err`.
      if (!same_line && entry.line > f.line)
        if (const auto* made = m.made_above_of(entry.record); made && entry.line - made->above == f.line)
          c.reasons.frame_line = (printed == 0 || printed == made->statement) && same_function;
      c.reasons.frame_source = !same_line && own != 0 && own == printed && same_function;
      if (c.reasons.frame_source) c.line_distance = std::min(std::abs(entry.line - f.line), k_frame_source_max_lines);
      file_known = true;
      statement_known = statement_known || c.reasons.frame_line || c.reasons.frame_source;
    }
    return {file_known, statement_known};
  }

  // Frames: the innermost frame is where the exception was raised. Lists
  // what it agrees with, and decides whether the exception was raised
  // below the sites indexed (out.raised_below).
  void by_frames() {
    const std::vector<Frame>& frames = *p.frames;
    if (frames.empty()) return;
    const Frame& innermost = frames.back();
    const auto [file_known, statement_known] = read_frame(innermost, false);
    // A JavaScript stack is taken where the error was made, which may be a
    // helper that returns it (postcss's `input.error(…)`): it is thrown on
    // an outer frame's line (`throw this.input.error('Unclosed block')`).
    bool thrown_above = false;
    if (!statement_known && js_frame(innermost.file))
      for (std::size_t k = frames.size() - 1; k-- > 0 && !thrown_above;) thrown_above = read_frame(frames[k], true).second;
    out.raised_below =
        file_known && !statement_known && !thrown_above && innermost.line > 0 && !raises_itself(innermost.source);
  }

  // A compiled file (`dist/x.js`) of a repository whose source is
  // TypeScript (`src/x.ts`): lists the source's records, by their path
  // inside the output folder; its lines are not the source's, so the frame
  // names the file only and the message picks the site.
  void by_compiled_frame() {
    if (p.frames->empty()) return;
    const Frame& f = p.frames->back();
    std::vector<std::string_view>& parts = scratch.frame_parts;
    path_components(f.file, parts);
    CompiledFrame& compiled = scratch.compiled;
    if (!compiled_frame(parts, compiled)) return;
    std::string frame_package;
    std::size_t package_file_start = 0;
    const std::uint64_t frame_package_hash =
        npm_package_path(parts, frame_package, package_file_start) ? m.indexed_package(frame_package) : 0;
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

  // Words: every whole word of the message looks up the patterns keyed on
  // it; a pattern whose other words are not all there is dropped unasked.
  // Leaves the message's distinct words in scratch.present.
  void by_words() {
    std::vector<std::uint64_t>& hashes = scratch.hashes;
    word_hashes(p.message, scratch.word_scratch, hashes);
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
    auto all_present = [&](const detail::Index::Required* r) {
      std::size_t b = r[0].begin, end = r[1].begin;
      for (std::size_t k = b; k < end; ++k)
        if (!word_set.has(m.required[k])) return false;
      return true;
    };
    // A word may key hundreds of patterns in a large index: their masks are
    // read in one run beside the list, and only an entry whose mask passes
    // is read further (its word range, its candidate slot).
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
      const detail::Index::Required* req = m.keyed_required.data() + m.keyed.position(posting);
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
  }

  // Confirms every candidate's pattern against the message. A pattern that
  // explains the message from its start is evidence; one found somewhere
  // inside it ("a", "{x} in {y}") barely is.
  void confirm_candidates() {
    // As in by_words, a candidate's entry and then its pattern's data are
    // asked for a few candidates ahead.
    constexpr std::size_t k_ahead = 8;
    for (std::size_t i = 0, n = cands.size(); i < n; ++i) {
      if (i + 2 * k_ahead < n) __builtin_prefetch(&m.entries[cands[i + 2 * k_ahead].entry]);
      if (i + k_ahead < n) {
        std::uint32_t pattern = m.entries[cands[i + k_ahead].entry].pattern_id;
        __builtin_prefetch(&scratch.confirmed[pattern]);
        __builtin_prefetch(&m.simple[pattern]);
        __builtin_prefetch(&m.lit_end[pattern]);
      }
      Cand& c = cands[i];
      c.confirmed = confirm(c.entry);
      c.reasons.pattern = c.confirmed.kind > 0;
      // A pattern whose fixed text is blanks only (`{message} {detail}`)
      // says only that the message has a blank: it is no evidence that
      // keeps full-text ranking out.
      const Entry& en = m.entries[c.entry];
      bool specific = c.confirmed.kind >= 2 && en.constant_chars > 0 && m.wordless[en.pattern_id] != Index::k_blanks_only;
      any_pattern |= specific;
      any_whole |= specific && c.confirmed.kind == 3;
      any_class_pattern |= specific && (p.error_class.empty() || class_agrees(en.class_id) || base_class_agrees(en, c.confirmed));
      any_frame_line |= c.reasons.frame_line || c.reasons.frame_source;
    }
  }

  // The printed class's module ("tomllib" of tomllib.TOMLDecodeError)
  // named among a record's path components is a hint of its own: below
  // class agreement, above a few characters of pattern. How many of the
  // module's parts (scratch.modules) the file agrees with.
  // Names are compared by their word hashes, as the word tables compare
  // words: a file's are in one run beside the others'.
  std::int32_t module_agreement(std::uint32_t file) const {
    const std::vector<std::uint64_t>& modules = scratch.modules;
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
  }

  // No site of the printed class has a pattern that matched, and one of
  // another class did: a site that raises again, as the printed class,
  // the exception of that class its handler caught, message and all
  // (`except ImportError as err: raise ValueError(str(err))`), turned the
  // one into the other. It ranks as its class and that pattern together.
  void by_wrapped() {
    if (p.cls == 0 || any_class_pattern || any_frame_line || m.wrappers.empty()) return;
    const std::size_t n = cands.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Entry& writer = m.entries[cands[i].entry];
      if (!m.wrapped[writer.class_id] || !(cands[i].confirmed.kind >= 2 && writer.constant_chars > 0)) continue;
      auto it = std::lower_bound(m.wrappers.begin(), m.wrappers.end(), std::pair<std::uint32_t, std::uint32_t>(writer.class_id, 0));
      for (std::size_t k = 0; it != m.wrappers.end() && it->first == writer.class_id && k < k_max_tied; ++it, ++k) {
        const std::uint32_t w = it->second;
        if (!class_agrees(m.entries[w].class_id)) continue;
        Cand& c = add(w);
        if (c.wrapped_chars == 0) {
          c.confirmed = confirm(w);
          c.reasons.pattern = c.confirmed.kind > 0;
          c.by_class = true;
        }
        c.reasons.wraps = true;
        if (writer.constant_chars > c.wrapped_chars) {
          c.wrapped_chars = writer.constant_chars;
          c.wrapped_record = writer.record + 1;
        }
      }
    }
  }

  // No site of this class has a pattern that matched: gathers its sites
  // with no constant text (a message built elsewhere) in
  // scratch.class_sites, to come in by class while words shared with their
  // raise statements order them; and, for a printed class no site raises
  // by name, the sites raising a class given by an expression.
  void by_class_sites() {
    std::vector<std::uint32_t>& class_sites = scratch.class_sites;
    for (std::uint32_t id : {p.cls, os_error == p.cls ? 0u : os_error}) {
      if (any_frame_line || any_class_pattern || id == 0 || m.weak_by_class[id].empty()) continue;
      if (m.weak_by_class[id].size() > k_max_class_sites) {
        // Too many to tell apart by words: said, not listed.
        if (id == p.cls) out.class_sites = static_cast<std::uint32_t>(m.weak_by_class[id].size());
        continue;
      }
      class_sites.insert(class_sites.end(), m.weak_by_class[id].begin(), m.weak_by_class[id].end());
      by_class = true;
    }
    // A printed class that no site raises by its name, of a package the index
    // holds (`jinja2.exceptions.UndefinedError`), is one a site of that
    // package raises through an expression (`raise
    // self._undefined_exception(self._undefined_message)`): those sites come
    // in as the class's would, and rank above sites of other classes.
    const bool by_expression = p.cls == 0 && !scratch.modules.empty() && !any_frame_line;
    if (!by_expression) return;
    class_words(p.last_class, scratch.class_words);
    for (std::size_t k = 0; k < m.expression_class_entries.size(); ++k) {
      const std::uint32_t e = m.expression_class_entries[k];
      if (!p.message.empty() && m.entries[e].kind == Kind::empty) continue;
      if (module_agreement(m.entries[e].file_id) == 0) continue;
      // Among them, an expression naming the class's words
      // (`_undefined_exception` for UndefinedError) is likelier.
      std::uint32_t shared = 0;
      for (std::uint32_t w = m.expression_words_at[k]; w < m.expression_words_at[k + 1]; ++w)
        shared += std::find(scratch.class_words.begin(), scratch.class_words.end(), m.expression_words[w]) !=
                  scratch.class_words.end();
      scratch.expression_sites.emplace_back(e, shared);
      class_sites.push_back(e);
      by_class = true;
    }
  }

  // Full text: every record's weight shared with the message's words
  // (scratch.ft), and the lists read (scratch.ft_lists).
  void fulltext_pass() {
    std::vector<Scratch::FullText>& ft = scratch.ft;
    for (std::uint64_t h : scratch.present.items) {
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
  }

  // Lists the sites of the class (by_class_sites): all that share words
  // with the message; of the others, which all score alike, enough to show
  // their tie.
  void add_class_sites() {
    std::size_t wordless = 0;
    for (std::uint32_t e : scratch.class_sites) {
      // A site raising the bare class prints nothing: it cannot have
      // written a message that another site's pattern explains whole.
      if (any_whole && !p.message.empty() && m.entries[e].kind == Kind::empty) continue;
      // Nor can a built-in class raised bare have written any message.
      if (skip_silent && m.entries[e].silent) continue;
      if (scratch.ft[e].shared == 0 && !in_cands(e) && wordless++ > k_max_tied) continue;
      Cand& c = add(e);
      c.confirmed = confirm(e);
      c.reasons.pattern = c.confirmed.kind > 0;
      c.by_class = true;
    }
  }

  // Scores by full text the records that can be among the best `reach`,
  // into scratch.best and scratch.histogram, with the best score and how
  // many are tied at it. Those are every record sharing two words or more,
  // and of each word's list (lightest first) the first `reach` and any
  // tied with the last of them. A record sharing one word scores s * min(1,
  // s / own) for that word's s, less the heavier it is, and any record of
  // the list scores at least that for its own weight (it holds s or more):
  // one past that reach has `reach` records scoring strictly more. So the
  // best `reach`, the best score and every record tied at it are the ones
  // scoring every record would give.
  void score_fulltext(std::size_t reach, double& best_score, std::size_t& at_best) {
    std::vector<std::pair<double, std::uint32_t>>& best = scratch.best;
    ScoreHistogram& histogram = scratch.histogram;
    const std::vector<Scratch::FullText>& ft = scratch.ft;
    std::uint8_t* const scored_by_entry = scratch.ft_scored.data();
    std::vector<std::uint32_t>& marked = scratch.ft_marked;
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
  }

  // The best full-text records join the candidates: the answer when
  // nothing else is (`no_evidence`), a rival to weak pattern matches
  // otherwise. A few beyond `top`, as class and module agreement may
  // reorder them; and when full text is the only evidence, every record
  // tied at the best score (up to k_max_tied), so a tie is shown whole.
  void add_best_fulltext(int top, bool no_evidence) {
    std::vector<std::pair<double, std::uint32_t>>& best = scratch.best;
    best.reserve(scratch.ft_count);
    double best_score = 0;
    std::size_t at_best = 0;
    std::size_t keep = 16 + static_cast<std::size_t>(top);
    score_fulltext(keep, best_score, at_best);
    if (no_evidence) {
      // Every record tied at the best score is shown (up to k_max_tied):
      // the ranking reaches that far when the tie is longer than `keep`.
      const std::size_t tied_keep = std::min(at_best, k_max_tied) + static_cast<std::size_t>(top);
      if (tied_keep > keep) {
        keep = tied_keep;
        score_fulltext(keep, best_score, at_best);
      }
    }
    keep = std::min(keep, scratch.ft_count);
    keep_best(best, keep, best_score, scratch.histogram, scratch.tie);
    for (const auto& [score, e] : best) {
      Cand& c = add(e);
      if (!c.reasons.pattern) c.reasons.fulltext = true;
    }
    out.fulltext_fallback = no_evidence && keep > 0;
  }

  // Without a pattern that explains the message (of its class) or a frame,
  // full-text ranking over every record's words takes part: it is the
  // answer when nothing else is, and orders what came in by class.
  void by_fulltext(int top) {
    const bool no_evidence = !any_pattern && !any_frame_line;
    if (!(no_evidence || by_class || (!any_class_pattern && !any_frame_line))) return;
    fulltext_pass();
    add_class_sites();
    add_best_fulltext(top, no_evidence);
    // The expression-class sites that came in, marked for the ranking.
    for (const auto& [e, shared] : scratch.expression_sites)
      if (in_cands(e)) cands[scratch.slot[e] - 1].expression_words = static_cast<std::uint8_t>(1 + std::min(shared, 254u));
    // Every candidate's full-text score, whatever brought it in.
    for (Cand& c : cands) {
      const Scratch::FullText& f = scratch.ft[m.entry_rep.empty() ? c.entry : m.entry_rep[c.entry]];
      double own = f.own;
      if (f.shared > 0 && own > 0) c.fulltext = fulltext_score(f.shared, own);
    }
  }

  // Scores every candidate into scratch.ranked. The class only ranks: a
  // candidate needs a frame, its pattern or shared words to be an answer
  // at all.
  void rank() {
    std::vector<Ranked>& ranked = scratch.ranked;
    ranked.clear();
    const bool by_module = !scratch.modules.empty();
    for (std::uint32_t k = 0; k < cands.size(); ++k) {
      Cand& c = cands[k];
      const Entry& e = m.entries[c.entry];
      c.reasons.error_class = class_agrees(e.class_id);
      const bool base_class = !c.reasons.error_class && base_class_agrees(e, c.confirmed);
      c.reasons.error_class |= base_class;
      c.reasons.pattern_text = c.reasons.pattern && e.constant_chars > 0 && !m.wordless[e.pattern_id];
      // A minified frame's file says which build threw a message its site
      // prints, not which site threw another (V8's own TypeError).
      if (c.file_only) c.reasons.frame = c.reasons.pattern_text;
      double s = 0;
      if (by_module) s += k_module_per_part * module_agreement(e.file_id);
      if (c.reasons.frame_line) s += k_frame_line + k_frame_line_per_component * c.suffix;
      else if (c.reasons.frame_source)
        s += k_frame_source + k_frame_file_per_component * c.suffix - k_frame_source_per_line * c.line_distance;
      else if (c.reasons.frame && (!out.raised_below || c.reasons.error_class || c.expression_words > 0))
        // Raised below the innermost frame, its file is where the call was
        // made: a site of it raising another class is not the one.
        s += k_frame_file + k_frame_file_per_component * c.suffix;
      if (c.reasons.error_class) s += base_class ? k_base_class : k_class;
      else if (c.expression_words > 0) s += k_expression_class + k_module_per_part * (c.expression_words - 1);
      if (c.reasons.pattern) {
        // A message's first line explains only the start of what its site
        // prints: its text weighs as a match somewhere in the message, below
        // a site whose whole message the paste is.
        // Fixed text of blanks only weighs less than any shared word of a
        // message its pattern does not explain, though more than
        // placeholders alone; punctuation (`{a}.{b}`, `{m}:{line}:{col}`)
        // is a layout, and weighs as text.
        const bool whole = c.confirmed.kind >= 2 && !m.first_line(c.entry);
        const double per_char = m.wordless[e.pattern_id] == Index::k_blanks_only ? k_blanks_per_char : k_per_constant_char;
        s += per_char * e.constant_chars * (whole ? 1.0 : 0.25) + c.confirmed.kind;
      }
      s += k_per_constant_char * c.wrapped_chars;
      s += std::min(c.fulltext, 10000.0);
      c.score = s;
      if (c.reasons.frame || c.reasons.pattern || c.reasons.fulltext || c.by_class) {
        ranked.push_back({s, c.entry, k});
        any_variant |= c.entry >= m.stats.records;
        site_shared |= m.revisions && m.site_shared[e.record];
      }
    }
  }

  // A record with variants is one answer: its best entry speaks for it.
  // With several revisions, so is a site: its best revision, on equal
  // scores the preferred one; those as good are its revisions, left in
  // scratch.also as (site, record) pairs.
  void one_per_site() {
    std::vector<Ranked>& ranked = scratch.ranked;
    std::vector<std::pair<std::uint32_t, std::uint32_t>>& also = scratch.also;
    also.clear();
    if (!any_variant && !site_shared) return;
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
    if (also.empty()) return;
    // By site, then preference: each answer's run is read in order.
    std::sort(also.begin(), also.end(), [&](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first
                                : m.preference[a.second] != m.preference[b.second] ? m.preference[a.second] < m.preference[b.second]
                                                                                    : a.second < b.second;
    });
    also.erase(std::unique(also.begin(), also.end()), also.end());
  }

  // Twin builds are one answer: the best scoring, on equal scores the
  // build `require` loads.
  void one_per_twin_group() {
    if (m.twin_groups == 0) return;
    std::vector<Ranked>& ranked = scratch.ranked;
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

  // Decides how many answers are shown (at least `top`, and the whole tie
  // at the best score up to k_max_tied; out.ambiguous says whether there
  // is one) and puts those first in scratch.ranked, in order. Only the
  // shown ones are ordered. Entries are distinct, so the order is strict.
  std::size_t order_shown(int top) {
    std::vector<Ranked>& ranked = scratch.ranked;
    auto better = [](const Ranked& a, const Ranked& b) { return a.score != b.score ? a.score > b.score : a.entry < b.entry; };
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
    return shown;
  }

  // Notes the captures of a shown candidate's pattern in scratch.shown,
  // as RE2 gives them: from the simple walk where it is exact (for
  // `(-?\d+)` gaps, a whole or from-the-start match it finds itself), else
  // from RE2.
  void note_captures(const Cand& c, const Entry& e) {
    if (!c.reasons.pattern || e.kind == Kind::empty) return;
    // A first line that fits the whole paste is captured whole.
    const int kind = c.confirmed.kind == 2 && m.first_line(c.entry) ? confirm_pattern(c.entry).kind : c.confirmed.kind;
    std::vector<PendingCapture>& pending = scratch.shown.pending;
    const Simple& sp = m.simple[e.pattern_id];
    const bool form_ascii = c.confirmed.variant == 1   ? variants.unquoted_ascii
                            : c.confirmed.variant == 3 ? variants.flat_ascii
                                                       : variants.text_ascii;
    const std::string_view forms[4] = {variants.text, variants.unquoted, third_form(variants), variants.flat};
    const std::string_view t = forms[c.confirmed.variant];
    if (sp.ok && form_ascii && (!sp.has_int || kind >= 2)) {
      // The walk that confirmed the pattern has its groups already; else
      // the pattern is walked again.
      std::span<const std::pair<std::size_t, std::size_t>> spans;
      bool captured = false;
      if (auto [at, count] = scratch.walked_at[e.pattern_id]; at != 0) {
        spans = {scratch.walked.data() + (at - 1), count};
        captured = true;
      } else {
        Spans& walked = scratch.spans;
        walked.clear();
        captured = kind == 3  ? simple_whole(m, sp, t, &walked)
                   : sp.has_int           ? simple_whole(m, sp, t, &walked, false, false)
                                          : simple_within(m, sp, t, kind == 2, &walked);
        spans = walked;
      }
      if (captured) {
        if (!spans.empty()) {
          CaptureNames names = capture_names(m, c.entry, spans.size());
          for (const auto& [offset, size] : spans) names.add(pending, t.substr(offset, size));
        }
        return;
      }
    }
    const RE2* re = regex(m, c.entry);
    int groups = re->NumberOfCapturingGroups();
    if (groups <= 0) return;
    RE2::Anchor a = kind == 3 ? RE2::ANCHOR_BOTH : kind == 2 ? RE2::ANCHOR_START : RE2::UNANCHORED;
    std::vector<re2::StringPiece>& sub = scratch.sub;
    sub.assign(static_cast<std::size_t>(groups) + 1, re2::StringPiece());
    if (re->Match(absl_view(t), 0, t.size(), a, sub.data(), groups + 1)) {
      CaptureNames names = capture_names(m, c.entry, static_cast<std::size_t>(groups));
      for (int g = 1; g <= groups; ++g)
        names.add(pending, std::string_view(sub[g].data() ? sub[g].data() : "", sub[g].size()));
    }
  }

  // The paste's interpreter (detail::python_version_of_frames), read once.
  std::uint32_t paste_python_version() {
    if (!python_version) python_version = detail::python_version_of_frames(*p.frames, scratch.frame_parts);
    return *python_version;
  }
  std::optional<std::uint32_t> python_version;

  // The first `shown` ranked candidates as answers, with their captures and
  // other revisions (scratch.shown).
  void describe_shown(std::size_t shown) {
    const std::vector<Ranked>& ranked = scratch.ranked;
    detail::ShownAnswers& noted = scratch.shown;
    noted.clear();
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
      if (c.wrapped_record != 0) cd.wraps = c.wrapped_record - 1;
      note_captures(c, e);
      noted.pending_end.push_back(static_cast<std::uint32_t>(noted.pending.size()));
      // The same site in the other revisions the text agrees with as well;
      // of them, the one the traceback's interpreter is.
      if (m.revisions) {
        const std::size_t from = noted.revisions.size();
        detail::add_revisions(m, e.record, c.reasons.frame, scratch.also, noted.revisions);
        cd.index = detail::prefer_version(m, e.record, paste_python_version(),
                                          std::span<std::uint32_t>(noted.revisions).subspan(from));
      }
      if (c.reasons.pattern) cd.variant = detail::matched_variant(m, static_cast<std::uint32_t>(cd.index), c.entry);
      noted.revisions_end.push_back(static_cast<std::uint32_t>(noted.revisions.size()));
      noted.answers.push_back(cd);
    }
  }
};

}  // namespace

// The steps of one match, in order: read the paste; list candidates by
// its frames, its message's words (each confirmed by its pattern), a
// caught exception raised again, the class's sites and full text; rank
// them, one answer per site and twin build; order the shown ones and
// describe them; copy them into the result (matcher_result.cc).
MatchResult Matcher::match(std::string_view text, int top) const {
  const Impl& m = *m_impl;
  if (top <= 0) top = 1;
  MatchResult out;
  Paste paste;
  detail::read_paste(m, text, paste);
  out.truncated = paste.truncated;
  thread_local Scratch scratch;
  scratch.fit(m.entries.size(), m.patterns.size(), m.has_variants || m.revisions ? m.stats.records : 0, m.twin_groups);
  Reset reset{scratch};
  Search search(m, paste, scratch, out);
  search.by_frames();
  search.by_compiled_frame();
  search.by_words();
  search.confirm_candidates();
  if (paste.last_class.size() != paste.error_class.size()) module_parts(paste.error_class, scratch.modules);
  search.by_wrapped();
  search.by_class_sites();
  search.by_fulltext(top);
  search.rank();
  search.one_per_site();
  search.one_per_twin_group();
  const std::size_t shown = search.order_shown(top);
  // A first answer whose pattern matched came in by its class, not by
  // full text, though full text ordered it among the class's sites.
  if (shown > 0 && scratch.cands[scratch.ranked[0].at].reasons.pattern) out.fulltext_fallback = false;
  search.describe_shown(shown);
  detail::fill_result(paste, scratch.shown, out);
  return out;
}

}  // namespace errdex::match
