#pragma once
// Part of matcher.cc's translation unit, and included by it alone: whether
// a candidate's pattern matches the message, asked of every candidate. The
// literal walks and the confirmation are at internal linkage (an unnamed
// namespace), as they were when they were matcher.cc's own: match()'s
// loops call them as before (clang's internal calling convention and
// specialisation need it; bench/RESULTS.md, "matcher.cc split"). Those
// that were Matcher::Impl's members, defined in the class, are declared
// inline, so the inliner weighs them as it did.
#include <re2/re2.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "match/matcher_index.h"

namespace errdex::match {
namespace {

using detail::Index;
using detail::Entry;
using detail::Kind;
using detail::Simple;
using detail::SimpleItem;

// Items (literal runs) of a pattern the (-?\d+) search reads itself; past
// that its recursion would grow with the pattern, and RE2 decides.
constexpr std::uint32_t k_max_search_items = 256;

// Message variants a pattern may be written against (see match()).
struct Variants {
  std::string_view text;
  std::string_view unquoted;  // `'bad key'` -> `bad key` (KeyError's repr)
  bool has_unquoted = false;
  std::string_view after_errno;  // "[Errno 2] No such file: 'x'" -> "No such file: 'x'"
  // "ValidationException: Could not find model 'm'." -> "Could not find
  // model 'm'.": a class that prints a code of its own before the text it
  // was given (moto's `{code}: {message}`, joserfc's `{error}: {description}`).
  std::string_view after_code;
  // A message wrapped over lines (`textwrap.fill`, sympy's `filldedent`)
  // with each line break and the blanks around it one space, ends trimmed:
  // its source wrote the text on one line, or the scanner laid it out so.
  std::string_view flat;
  bool has_flat = false, flat_ascii = false;
  bool text_ascii = false, unquoted_ascii = false;
};

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

// The text after a leading code word and ": " (one word of letters,
// digits, `_`, `.` or `-`, starting with a letter), or empty: where the
// code ends the message's own text starts.
std::string_view after_leading_code(std::string_view m) {
  constexpr std::size_t k_max_code = 48;
  if (m.empty() || !((m[0] >= 'A' && m[0] <= 'Z') || (m[0] >= 'a' && m[0] <= 'z'))) return {};
  for (std::size_t i = 1; i < m.size() && i <= k_max_code; ++i) {
    char c = m[i];
    if (c == ':') return i + 2 < m.size() && m[i + 1] == ' ' && m[i + 2] != ' ' ? m.substr(i + 2) : std::string_view{};
    bool word = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!word) return {};
  }
  return {};
}

// The third form a pattern is tried against: the text after `[Errno N] `,
// else after a leading code (see Variants).
inline std::string_view third_form(const Variants& v) { return v.after_errno.empty() ? v.after_code : v.after_errno; }

// `unquoted` and `flat` are the caller's buffers; the result's `unquoted`
// views `unquoted` or `m`, its `flat` views `flat`.
Variants make_variants(std::string_view m, std::string& unquoted, std::string& flat) {
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
  v.after_code = after_leading_code(m);
  if (m.find('\n') != std::string_view::npos) {
    flat.clear();
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    for (std::size_t i = 0; i < m.size();) {
      if (!blank(m[i])) {
        flat += m[i++];
        continue;
      }
      std::size_t end = i;
      bool broken = false;
      while (end < m.size() && blank(m[end])) broken |= m[end++] == '\n';
      if (!broken) flat.append(m, i, end - i);
      else if (!flat.empty() && end < m.size()) flat += ' ';
      i = end;
    }
    v.flat = flat;
    v.has_flat = !flat.empty() && v.flat != m;
    v.flat_ascii = v.has_flat && is_ascii(v.flat);
  }
  v.text_ascii = is_ascii(v.text);
  v.unquoted_ascii = v.has_unquoted && is_ascii(v.unquoted);
  return v;
}

// The end of `-?\d+` at `pos` in `t`, or npos when there is none.
std::size_t int_end(std::string_view t, std::size_t pos) {
  std::size_t i = pos;
  if (i < t.size() && t[i] == '-') ++i;
  std::size_t digits = i;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  return i == digits ? std::string_view::npos : i;
}

struct Confirmed {
  int kind = 0;  // 3 whole message, 2 its start, 1 somewhere in it, 0 no match
  int variant = 0;  // 0 text, 1 unquoted, 2 after errno
};

// Groups' spans (offset, size) as a walk of a literal pattern takes them.
using Spans = std::vector<std::pair<std::size_t, std::size_t>>;

// `groups` adjacent lazy groups from `pos` to `end`: all but the last
// empty, the last up to `end`.
inline void take_groups(Spans* spans, std::uint32_t groups, std::size_t pos, std::size_t end) {
  if (!spans) return;
  for (std::uint32_t g = 0; g < groups; ++g) spans->emplace_back(pos, g + 1 < groups ? 0 : end - pos);
}

// Whether `t` is a whole match of simple pattern `sp`; the groups' spans
// (offset, size) are appended to `spans` when given. `(-?\d+)` gaps are
// read as such unless `relaxed` (then as any text: see Simple).
// With `to_end` false, whether `t` starts with a match, and its groups as
// RE2 takes them from the start: a trailing `(-?\d+)` takes every digit
// there, trailing lazy groups nothing. A walk that fits is RE2's match:
// each lazy group ends at the first place its run occurs, so any shorter
// extent fails at once, and each `(-?\d+)` takes its longest extent, as a
// shorter one would leave a digit where its run must start.
inline bool simple_whole(const Index& m, const Simple& sp, std::string_view t, Spans* spans,
                         bool relaxed = false, bool to_end = true) {
  std::size_t pos = 0;
  auto take = [&](std::uint32_t groups, std::size_t end) { take_groups(spans, groups, pos, end); };
  for (std::uint32_t k = 0; k < sp.items; ++k) {
    const SimpleItem& it = m.simple_items[sp.first + k];
    std::string_view run(m.simple_lits.data() + it.lit_begin, it.lit_size);
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
inline bool simple_within(const Index& m, const Simple& sp, std::string_view t, bool from_start,
                          Spans* spans = nullptr, bool* starts = nullptr) {
  std::size_t pos = 0;
  if (starts) *starts = sp.items == 0 || m.simple_items[sp.first].groups > 0;
  for (std::uint32_t k = 0; k < sp.items; ++k) {
    const SimpleItem& it = m.simple_items[sp.first + k];
    std::string_view run(m.simple_lits.data() + it.lit_begin, it.lit_size);
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
inline std::optional<bool> simple_search(const Index& m, const Simple& sp, std::string_view t, RE2::Anchor a) {
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
    const SimpleItem& it = m.simple_items[sp.first + k];
    const std::string_view run(m.simple_lits.data() + it.lit_begin, it.lit_size);
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

// Entry `e`'s RE2, compiled on first use (once, safely across threads).
inline const RE2* regex(const Index& m, std::uint32_t e) {
  std::uint32_t p = m.entries[e].pattern_id;
  RE2* re = m.compiled[p].load(std::memory_order_acquire);
  if (re) return re;
  auto* fresh = detail::compile_pattern(m.patterns[p]);
  RE2* expected = nullptr;
  if (m.compiled[p].compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) return fresh;
  delete fresh;  // another thread compiled it first
  return expected;
}

inline re2::StringPiece absl_view(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

// Whether `t` holds pattern `p`'s literal runs in order (true when it has none).
inline bool may_match(const Index& m, std::uint32_t p, std::string_view t) {
  std::size_t first = p == 0 ? 0 : m.lit_end[p - 1], at = 0;
  for (std::size_t k = first; k < m.lit_end[p]; ++k) {
    std::size_t begin = k == 0 ? 0 : m.lit_run_end[k - 1];
    std::string_view run(m.lits.data() + begin, m.lit_run_end[k] - begin);
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
inline Confirmed confirm_entry(const Index& m, std::uint32_t e, const Variants& v, bool keep_walk, Spans (&walk)[3],
                               const Spans** decisive) {
  *decisive = nullptr;
  const Entry& en = m.entries[e];
  if (en.kind == Kind::invalid) return {};
  if (en.kind == Kind::empty) return {v.text.empty() ? 3 : 0, 0};
  // Only groups and blanks, e.g. "(.+?)": any message fits, no need to ask RE2.
  if (en.kind == Kind::weak && en.constant_chars == 0 && en.match_all) return {3, 0};
  // Literal text missing from a form rules that form out without RE2. A
  // simple pattern on ASCII text is matched directly below, which finds
  // the same runs: the pre-test would only repeat it.
  const Simple& sp = m.simple[en.pattern_id];
  bool maybe_text = (sp.ok && v.text_ascii) || may_match(m, en.pattern_id, v.text);
  bool maybe_unquoted = v.has_unquoted && ((sp.ok && v.unquoted_ascii) || may_match(m, en.pattern_id, v.unquoted));
  if (!maybe_text && !maybe_unquoted && !v.has_flat) return {};
  const RE2* re = nullptr;
  auto run = [&](std::string_view t, RE2::Anchor a) {
    if (!re) re = regex(m, e);
    return re->ok() && re->Match(absl_view(t), 0, t.size(), a, nullptr, 0);
  };
  // A form's unanchored walk also answers whether it matches from the
  // start (simple patterns without `(-?\d+)`): -1 not known, else 0 or 1.
  int start_known[4] = {-1, -1, -1, -1};
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
      if (a == RE2::ANCHOR_BOTH) return simple_whole(m, sp, t, out);
      if (a == RE2::ANCHOR_START) return simple_within(m, sp, t, true, out);
      bool starts = false;
      bool found = simple_within(m, sp, t, false, out, &starts);
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
      if (simple_whole(m, sp, t, out, false, a == RE2::ANCHOR_BOTH)) {
        last = out;
        return true;
      }
    }
    if (std::optional<bool> found = simple_search(m, sp, t, a)) return *found;
    bool relaxed = a == RE2::ANCHOR_BOTH ? simple_whole(m, sp, t, nullptr, true) : simple_within(m, sp, t, a == RE2::ANCHOR_START);
    return relaxed && run(t, a);
  };
  // The common case first: the pattern explains the whole message.
  if (maybe_text && test(v.text, v.text_ascii, RE2::ANCHOR_BOTH, 0)) {
    *decisive = last;
    return {3, 0};
  }
  // A wrapped message whose flat form the pattern explains (only anchored
  // walks for that form: its unanchored slot is not kept).
  if (v.has_flat && ((sp.ok && v.flat_ascii) || may_match(m, en.pattern_id, v.flat)))
    for (RE2::Anchor a : {RE2::ANCHOR_BOTH, RE2::ANCHOR_START})
      if (test(v.flat, v.flat_ascii, a, 3)) {
        *decisive = last;
        return {a == RE2::ANCHOR_BOTH ? 3 : 2, 3};
      }
  bool in_text = maybe_text && test(v.text, v.text_ascii, RE2::UNANCHORED, 0);
  const Spans* text_walk = in_text ? last : nullptr;
  bool in_unquoted = maybe_unquoted && test(v.unquoted, v.unquoted_ascii, RE2::UNANCHORED, 1);
  const Spans* unquoted_walk = in_unquoted ? last : nullptr;
  if (!in_text && !in_unquoted) return {};
  std::string_view forms[3] = {v.text, v.unquoted, third_form(v)};
  bool ascii[3] = {v.text_ascii, v.unquoted_ascii, v.text_ascii};
  bool usable[3] = {in_text, in_unquoted, in_text && !forms[2].empty()};
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

}  // namespace
}  // namespace errdex::match
