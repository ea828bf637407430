// Matcher::build: the index (matcher_index.h) over records' patterns,
// classes, files and words, made once; Matcher::match (matcher.cc) then
// only reads it. Records of several revisions are linked in
// matcher_revisions.cc.
#include <re2/re2.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "analyze/category.h"
#include "match/excerpt.h"
#include "match/matcher.h"
#include "match/matcher_index.h"
#include "match/matcher_revisions.h"
#include "match/path_suffix.h"
#include "match/pattern_text.h"
#include "match/traceback.h"
#include "match/word_hash.h"
#include "match/word_table.h"
#include "model/throw_site.h"

namespace errdex::match {
namespace {

using detail::Entry;
using detail::Index;
using detail::k_fulltext_max_df;
using detail::Kind;
using detail::mask_bit;
using detail::class_words;
using detail::reads_as_class;
using detail::Simple;
using detail::SimpleItem;

// The name a record's class is known by: "errors.InvalidArgument" ->
// "InvalidArgument", "error[0]" -> "error", "self.error" -> "error".
std::string_view class_name(std::string_view written) {
  auto cut = written.find_first_of("[(");
  if (cut != std::string_view::npos) written = written.substr(0, cut);
  return last_component(written);
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

// A folder a package's build is written to, and the build's rank in
// Impl::build_rank (0 CommonJS or unknown, 1 ES, 2 browser or another
// runtime); -1 for any other folder. A build per runtime is written to a
// folder named after its `exports` condition (lru-cache's
// `dist/commonjs/node/`, `dist/commonjs/react-native/`, `dist/esm/browser/`).
int build_folder(std::string_view c) {
  static constexpr std::string_view k_common[] = {"dist", "lib", "cjs", "commonjs", "node", "build", "src", "out"};
  static constexpr std::string_view k_es[] = {"esm", "es", "es5", "es6", "es2015", "es2017", "es2020", "esnext", "module", "mjs",
                                              "esm5", "esm2015", "esm2020", "esm2022", "fesm2015", "fesm2020", "fesm2022"};
  static constexpr std::string_view k_browser[] = {"browser", "esm-browser", "cjs-browser", "umd", "amd", "system", "global",
                                                   "iife", "bundles", "react-native", "deno", "bun", "workerd", "edge-light"};
  for (std::string_view b : k_common)
    if (c == b) return 0;
  for (std::string_view b : k_es)
    if (c == b) return 1;
  for (std::string_view b : k_browser)
    if (c == b) return 2;
  // A build folder named with its format (@msgpack/msgpack's `dist.cjs/`,
  // `dist.esm/`, `dist.umd/`).
  if (auto dot = c.rfind('.'); dot != std::string_view::npos && dot > 0 && c.find('.') == dot) {
    const int base = build_folder(c.substr(0, dot)), tag = build_folder(c.substr(dot + 1));
    if (base >= 0 && tag >= 0) return std::max(base, tag);
  }
  return -1;
}

// A module's default export, as compiled code names an imported class
// (Babel: `_exception2['default']`, `_errors.default`).
bool imported_default(std::string_view cls) { return cls.ends_with("['default']") || cls.ends_with(".default"); }


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
      // A build named in the file's name: `index.esm.js`, `ky.umd.min.js`.
      for (bool tagged = true; tagged;) {
        tagged = false;
        for (auto [tag, tag_rank] : {std::pair<std::string_view, int>{".esm", 1}, {".es", 1}, {".module", 1}, {".mjs", 1},
                                     {".cjs", 0}, {".node", 0}, {".umd", 2}, {".browser", 2}, {".min", 2}})
          if (c.size() > tag.size() && c.ends_with(tag)) {
            c.remove_suffix(tag.size());
            r = std::max(r, tag_rank);
            tagged = true;
          }
      }
    }
    key.append(c);
    key += '/';
  }
  rank = static_cast<std::uint8_t>(r);
  return key;
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

// A first line of a message (first_line_of): its pattern and template,
// and which of its record's messages it is the start of (-1 its own, else
// the variant's index).
struct FirstLine {
  std::string pattern, message;
  std::int32_t shows = -1;
};

// A message of several lines, cut at its first: what a user pasting one
// line of it (`Error: Invalid TOML document: invalid value` of smol-toml's
// `Invalid TOML document: {message}\n\n{codeblock}`, the line a log or a
// summary keeps) can be matched against. Only for a simple pattern whose
// fixed text breaks the line outside any group, when the first line says
// something of its own (a whole word, 8 fixed characters or more) and
// holds as many interpolations as groups; else none.
std::optional<FirstLine> first_line_of(const std::string& written, const std::string& whole) {
  const std::string pattern = detail::edge_trimmed(written);
  const std::string message = whole.substr(std::min(whole.size(), whole.find_first_not_of(" \t\n")));
  std::vector<SimpleRun> items;
  std::uint32_t trailing = 0;
  bool trailing_int = false;
  if (!read_simple(pattern, items, trailing, trailing_int)) return std::nullopt;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < pattern.size() && cut == std::string::npos; ++i) {
    if (pattern.compare(i, 5, "(.+?)") == 0) i += 4;
    else if (pattern.compare(i, 7, "(-?\\d+)") == 0) i += 6;
    else if (pattern[i] == '\n' || (pattern[i] == '\\' && i + 1 < pattern.size() && pattern[i + 1] == 'n')) cut = i;
    else if (pattern[i] == '\\') ++i;
  }
  const std::size_t line_end = message.find('\n');
  if (cut == std::string::npos || line_end == std::string::npos) return std::nullopt;
  FirstLine f{pattern.substr(0, cut), message.substr(0, line_end), -1};
  PatternText pt = read_pattern(f.pattern);
  if (pt.unreliable || pt.words.empty() || pt.constant_chars < 8) return std::nullopt;
  items.clear();
  if (!read_simple(f.pattern, items, trailing, trailing_int)) return std::nullopt;
  std::size_t groups = trailing;
  for (const SimpleRun& item : items) groups += item.groups;
  if (interpolation_names(f.message).size() != groups) return std::nullopt;
  return f;
}

// The key twin builds share of a record: its dataset and pattern.
std::string twin_message(const model::ErrorRecord& rec) {
  std::string message;
  for (const std::string* f : {&rec.repo, &rec.analyzed_sha, &rec.message_pattern}) {
    message += *f;
    message += '\0';
  }
  return message;
}

// Bundles by their content: files of `order` (sorted by file) made of
// other files' statements (smol-toml's `dist/index.cjs`, built from
// `dist/stringify.js`, `dist/error.js`, … beside it, whose name says
// nothing): of its records with fixed text (4 or more), at least 90 %
// raise a pattern that files of two or more other build-free paths raise
// too, each of those files with fewer such records than it; and its other
// builds. A module whose statements a bundle holds is none (the bundle
// holds more), nor are two modules sharing a check.
std::unordered_set<std::uint32_t> bundles_by_content(const Index& m, const std::vector<model::ErrorRecord>& records,
                                                     const std::vector<std::uint32_t>& order) {
  constexpr std::uint32_t k_min_constant_chars = 8;  // `{message}` and `Invalid {x}` are no one file's
  struct Place {
    std::uint32_t file;
    std::string path;
  };
  std::unordered_map<std::string, std::vector<Place>> places;  // by twin_message
  std::unordered_map<std::uint32_t, std::size_t> count;        // by file: its records with fixed text
  std::vector<std::string> path_of(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (m.entries[order[k]].constant_chars < k_min_constant_chars) continue;
    std::uint8_t rank = 0;
    const std::uint32_t file = m.entries[order[k]].file_id;
    path_of[k] = build_free_path(m.file_parts[file], rank);
    places[twin_message(records[order[k]])].push_back({file, path_of[k]});
    ++count[file];
  }
  std::unordered_set<std::uint32_t> bundles;
  std::unordered_set<std::string> paths;
  for (std::size_t k = 0, end; k < order.size(); k = end) {
    const std::uint32_t file = m.entries[order[k]].file_id;
    const std::size_t total = count.count(file) ? count[file] : 0;
    std::size_t covered = 0;
    bool smaller = true;  // every file it shares a statement with holds fewer
    paths.clear();
    for (end = k; end < order.size() && m.entries[order[end]].file_id == file; ++end) {
      if (m.entries[order[end]].constant_chars < k_min_constant_chars) continue;
      bool found = false;
      for (const Place& p : places[twin_message(records[order[end]])])
        if (p.file != file && p.path != path_of[end]) {
          found = true;
          paths.insert(p.path);
          smaller = smaller && count[p.file] < total;
        }
      covered += found;
    }
    if (total >= 4 && covered * 10 >= total * 9 && paths.size() >= 2 && smaller) bundles.insert(file);
  }
  // A bundle's other builds in its dataset are bundles (json5's
  // `dist/index.js`, whose UMD wrapper throws its own too, beside
  // `dist/index.mjs`).
  std::unordered_set<std::string> bundle_paths;  // dataset and build-free path
  auto dataset_path = [&](std::size_t k) {
    const model::ErrorRecord& rec = records[order[k]];
    return rec.repo + '\0' + rec.analyzed_sha + '\0' + path_of[k];
  };
  for (std::size_t k = 0; k < order.size(); ++k)
    if (!path_of[k].empty() && bundles.count(m.entries[order[k]].file_id)) bundle_paths.insert(dataset_path(k));
  for (std::size_t k = 0; k < order.size(); ++k)
    if (!path_of[k].empty() && bundle_paths.count(dataset_path(k))) bundles.insert(m.entries[order[k]].file_id);
  return bundles;
}

// Twin builds: records of one dataset (repository and commit) raising
// the same pattern from the same build-free path in different files
// (a compiled build may write the class otherwise: Babel's
// `_exception2['default']` for `Exception`); within a file, the n-th such
// statement is the n-th's twin in each other build. A bundle (`dist/qs.js`
// of npm/qs, `handlebars.runtime.amd.js`, a file under `umd/`; in a
// repository, a file named after it: axios/axios commits
// `dist/axios.js`, `dist/esm/axios.js`, `dist/node/axios.cjs` beside
// `lib/`; a file made of other files' statements, bundles_by_content)
// holds every module: its record is the twin of the one group
// raising the same class and pattern elsewhere, when there is one, one
// record of each bundle file per group.
void find_twins(Index& m, const std::vector<model::ErrorRecord>& records) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t r = 0; r < records.size(); ++r) {
    const auto& parts = m.file_parts[m.entries[r].file_id];
    if (!parts.empty() && detail::js_file(parts.back()) && !m.is_shadow(r)) order.push_back(r);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return m.entries[a].file_id != m.entries[b].file_id ? m.entries[a].file_id < m.entries[b].file_id
                                                        : m.entries[a].line < m.entries[b].line;
  });
  const std::unordered_set<std::uint32_t> content_bundles = bundles_by_content(m, records, order);
  std::unordered_map<std::string, std::uint32_t> groups, in_file, by_message;  // by_message: 1 + group, 0 when several
  std::vector<std::uint32_t> group_of(records.size(), 0), size;
  std::vector<std::uint8_t> rank(records.size(), 0);
  std::vector<std::uint32_t> bundled;
  std::string key, message;
  for (std::uint32_t r : order) {
    const auto& parts = m.file_parts[m.entries[r].file_id];
    const auto& rec = records[r];
    message = twin_message(rec);
    std::string path = build_free_path(parts, rank[r]);
    // The package's name: npm/<name>'s, or a repository's own name; a
    // scoped package's (npm/@scope__name) without its scope, as its
    // bundles are named (@msgpack/msgpack's `dist.umd/msgpack.js`).
    std::string_view package = std::string_view(rec.repo).substr(rec.repo.find('/') + 1);
    if (package.starts_with('@') && package.find("__") != std::string_view::npos) package.remove_prefix(package.find("__") + 2);
    // A bundle is named after its package (`handlebars.js`,
    // `handlebars.runtime.amd.js`) or sits in a bundle folder.
    const std::string_view file_stem = stem(parts.back());
    const bool in_bundle_folder = std::any_of(parts.begin(), parts.end() - 1, [](std::string_view c) {
      return c == "umd" || c == "bundles";
    });
    if (in_bundle_folder || content_bundles.count(m.entries[r].file_id) ||
        (!package.empty() && file_stem.starts_with(package) &&
         (file_stem.size() == package.size() || file_stem[package.size()] == '.'))) {
      // After every module's own file; among bundles, by their folder's
      // build (`build/node/` before `build/amd/`).
      rank[r] = static_cast<std::uint8_t>(3 + rank[r]);
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
  std::unordered_set<std::uint64_t> joined;  // (group, bundle file) pairs
  for (std::uint32_t r : bundled) {
    message = twin_message(records[r]);
    if (auto it = by_message.find(message); it != by_message.end() && it->second != 0) {
      // One record of a bundle file per group: a second is another statement.
      if (!joined.insert((std::uint64_t{it->second} << 32) | m.entries[r].file_id).second) continue;
      group_of[r] = it->second;
      ++size[it->second - 1];
      continue;
    }
    // A message several modules raise: the bundles of one package (luxon's
    // `build/node/luxon.js`, `build/amd/luxon.js`, …) hold its modules in
    // one order, so the n-th such statement of each bundle is one site.
    std::string bundle_key = message + "\0bundle\0";
    bundle_key += std::to_string(in_file[bundle_key + std::to_string(m.entries[r].file_id)]++);
    auto [it, added] = groups.emplace(bundle_key, static_cast<std::uint32_t>(size.size()) + 1);
    if (added) size.push_back(0);
    group_of[r] = it->second;
    ++size[it->second - 1];
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

// An estimate of the index's size in memory (BuildStats::memory_bytes).
std::size_t memory_bytes(const Index& m) {
  const std::size_t n = m.entries.size();
  std::size_t mem = sizeof(Index) + n * sizeof(Entry) + m.patterns.size() * (sizeof(std::string) + sizeof(std::atomic<RE2*>));
  for (const auto& p : m.patterns) mem += p.capacity() > 15 ? p.capacity() : 0;
  for (const auto& id : m.ids) mem += sizeof(std::string) + (id.capacity() > 15 ? id.capacity() : 0);
  mem += m.name_blob.capacity();
  mem += m.keyed.memory_bytes() + m.all_words.memory_bytes() + m.class_ids.memory_bytes() + m.keyed_bits.capacity() * sizeof(std::uint64_t);
  mem += m.simple.capacity() * sizeof(Simple) + m.simple_items.capacity() * sizeof(SimpleItem) + m.simple_lits.capacity();
  mem += m.lits.capacity() + (m.lit_run_end.capacity() + m.lit_end.capacity()) * sizeof(std::uint32_t);
  mem += n * 4 * 2;  // basename and class lists
  mem += m.idf_by_df.capacity() * sizeof(double) + m.wrappers.capacity() * sizeof(m.wrappers[0]) + m.wrapped.capacity();
  mem += m.required.capacity() * sizeof(std::uint64_t) + m.keyed_required.capacity() * sizeof(Index::Required);
  mem += m.posting_weight.capacity() * sizeof(float);
  mem += m.file_names.capacity() * sizeof(std::uint64_t) + m.file_names_at.capacity() * sizeof(std::uint32_t);
  mem += m.module_mask.capacity() * sizeof(std::uint64_t) + m.variants_at.capacity() * sizeof(std::uint32_t);
  mem += m.wordless.capacity();
  return mem;
}

}  // namespace

namespace detail {

re2::RE2* compile_pattern(std::string_view pattern) { return new RE2(relax(pattern), re2_options()); }

std::string edge_trimmed(std::string_view p) {
  std::string_view t = p;
  while (!t.empty()) {
    if (t.front() == ' ' || t.front() == '\t') t.remove_prefix(1);
    else if (t.size() > 1 && t[0] == '\\' && (t[1] == 'n' || t[1] == 't' || t[1] == 'r' || t[1] == ' ')) t.remove_prefix(2);
    else break;
  }
  while (!t.empty()) {
    // The backslashes before the last character: an odd run escapes it.
    std::size_t slashes = 0;
    while (slashes + 1 < t.size() && t[t.size() - 2 - slashes] == '\\') ++slashes;
    const char c = t.back();
    if (slashes % 2 == 1 && (c == 'n' || c == 't' || c == 'r' || c == ' ')) t.remove_suffix(2);
    else if (slashes % 2 == 0 && (c == ' ' || c == '\t')) t.remove_suffix(1);
    else break;
  }
  return std::string(t.empty() ? p : t);
}

Index::~Index() {
  if (compiled)
    for (std::size_t i = 0; i < patterns.size(); ++i) delete compiled[i].load(std::memory_order_relaxed);
}

}  // namespace detail

Matcher::Matcher(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Matcher::Matcher(Matcher&&) noexcept = default;
Matcher& Matcher::operator=(Matcher&&) noexcept = default;
Matcher::~Matcher() = default;

const BuildStats& Matcher::stats() const { return m_impl->stats; }
std::size_t Matcher::size() const { return m_impl->stats.records; }

Matcher Matcher::build(const std::vector<model::ErrorRecord>& records, const ImportRoots& roots,
                       std::span<const std::uint32_t> preference, std::span<const std::string> refs) {
  auto impl = std::make_unique<Impl>();
  Impl& m = *impl;
  detail::find_sites(m, records, preference, refs);
  // The record's own pattern first, then its variants, then the first
  // lines of those messages that run over lines: entry i < records is
  // record i; variant v of record r past its message_variants is
  // first_lines[first_lines_at[r] + v - message_variants.size()].
  std::vector<FirstLine> first_lines;
  std::vector<std::uint32_t> first_lines_at;
  first_lines_at.reserve(records.size() + 1);
  m.variants_at.reserve(records.size() + 1);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> variant_of;  // entry - records -> (record, variant)
  for (std::size_t r = 0; r < records.size(); ++r) {
    const model::ErrorRecord& rec = records[r];
    m.variants_at.push_back(static_cast<std::uint32_t>(variant_of.size()));
    first_lines_at.push_back(static_cast<std::uint32_t>(first_lines.size()));
    if (auto f = first_line_of(rec.message_pattern, rec.error_message)) first_lines.push_back(std::move(*f));
    for (std::size_t v = 0; v < rec.message_variants.size(); ++v) {
      m.variant_shown.push_back(static_cast<std::int32_t>(v));
      if (auto f = first_line_of(rec.message_variants[v].message_pattern, rec.message_variants[v].error_message)) {
        f->shows = static_cast<std::int32_t>(v);
        first_lines.push_back(std::move(*f));
      }
    }
    for (std::size_t k = first_lines_at.back(); k < first_lines.size(); ++k)
      m.variant_shown.push_back(Impl::k_first_line | (first_lines[k].shows < 0 ? Impl::k_own_message : first_lines[k].shows));
    const std::size_t count = rec.message_variants.size() + first_lines.size() - first_lines_at.back();
    for (std::size_t v = 0; v < count; ++v) variant_of.emplace_back(static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(v));
  }
  first_lines_at.push_back(static_cast<std::uint32_t>(first_lines.size()));
  m.variants_at.push_back(static_cast<std::uint32_t>(variant_of.size()));
  const std::size_t n = records.size() + variant_of.size();
  m.entries.resize(n);
  m.has_variants = !variant_of.empty();
  if (!m.has_variants) std::vector<std::uint32_t>().swap(m.variants_at);
  m.ids.reserve(records.size());
  for (const auto& r : records) m.ids.push_back(r.id);
  m.stats.records = records.size();
  m.statement.reserve(records.size());
  m.function.reserve(records.size());
  for (const auto& r : records) {
    m.statement.push_back(excerpt_line_hash(r.source_code, r.source_code_start, r.line_number));
    m.function.push_back(excerpt_function_hash(r.source_code, r.source_code_start, r.line_number));
    std::uint32_t made = 0;
    if (int above = excerpt_made_above(r.source_code, r.source_code_start, r.line_number, made); above > 0)
      m.made_above.push_back({static_cast<std::uint32_t>(m.statement.size() - 1), above, made});
  }
  auto record_of = [&](std::size_t i) { return i < records.size() ? i : variant_of[i - records.size()].first; };
  // A variant's or a first line's pattern and template.
  auto variant = [&](std::size_t i) -> std::pair<const std::string*, const std::string*> {
    const auto& [r, v] = variant_of[i - records.size()];
    const auto& real = records[r].message_variants;
    if (v < real.size()) return {&real[v].message_pattern, &real[v].error_message};
    const FirstLine& f = first_lines[first_lines_at[r] + v - real.size()];
    return {&f.pattern, &f.message};
  };
  // Read at the edges as messages are: trimmed (detail::edge_trimmed).
  auto pattern_of = [&](std::size_t i) {
    return detail::edge_trimmed(i < records.size() ? records[i].message_pattern : *variant(i).first);
  };
  auto template_of = [&](std::size_t i) -> const std::string& {
    return i < records.size() ? records[i].error_message : *variant(i).second;
  };
  // What is read off a pattern, once per distinct pattern.
  struct Read {
    Kind kind = Kind::keyed;
    std::uint32_t constant_chars = 0;
    bool match_all = false;
    std::uint8_t wordless = 0;
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
    // An attribute or a call in lower case (`self._undefined_exception`,
    // `rewrite_traceback_stack(...)`) that no assignment above explains; a
    // bare name of three letters or fewer is a caught exception raised
    // again (`raise e`, `raise exc`), not one.
    if (const std::size_t letter = last.find_first_not_of('_');
        built.line == 0 && letter != std::string_view::npos && std::islower(static_cast<unsigned char>(last[letter])) &&
        !reads_as_class(last) && (last.size() != r.error_class.size() || letter > 0 || last.size() > 3))
    {
      m.expression_class_entries.push_back(static_cast<std::uint32_t>(i));
      class_words(r.error_class, m.expression_words);
      m.expression_words_at.push_back(static_cast<std::uint32_t>(m.expression_words.size()));
    }
    if (!last.empty()) {
      auto [it, added] = class_ids.emplace(word_hash(detail::canonical_class(r.error_class, last)),
                                           static_cast<std::uint32_t>(m.weak_by_class.size()));
      if (added) m.weak_by_class.emplace_back();
      e.class_id = it->second;
    }
    e.js_own_class = detail::js_file(r.file_path) &&
                     (last.empty() || (std::isupper(static_cast<unsigned char>(last[0])) && !model::javascript_builtin_error(last)) ||
                      imported_default(r.error_class));
    // By repository and path: the repositories' import roots differ.
    auto [fit, fadded] = file_ids.emplace(r.repo + '\n' + r.file_path, static_cast<std::uint32_t>(m.files.size()));
    if (fadded) {
      m.files.push_back(r.file_path);
      file_repo.push_back(&r.repo);
    }
    e.file_id = fit->second;

    const std::string pat = pattern_of(i);
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
          // Fixed text of blanks and punctuation only (moto's `{message}
          // {" ".join(...)}`, `{self._state}: {self!r}`) fits any message of
          // two parts; of blanks only it says no more than placeholders, and
          // ranks so.
          auto says_something = [](const std::string& run) {
            return std::any_of(run.begin(), run.end(), [](char c) { return is_word_char(static_cast<unsigned char>(c)); });
          };
          auto blanks = [](const std::string& run) {
            return std::all_of(run.begin(), run.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n'; });
          };
          if (!pt.unreliable && std::none_of(pt.runs.begin(), pt.runs.end(), says_something))
            rd.wordless = std::all_of(pt.runs.begin(), pt.runs.end(), blanks) ? Index::k_blanks_only : Index::k_punctuation_only;
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
      m.wordless.push_back(rd.wordless);
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
  // Records that raise again, as their own class, the exception their
  // handler caught, message and all: by the caught class's id. A class no
  // site raises by name has no pattern to have matched, so none.
  for (std::size_t r = 0; r < records.size(); ++r) {
    const model::ErrorRecord& rec = records[r];
    for (std::string_view caught : caught_classes(rec.error_message, rec.source_code, rec.source_code_start, rec.line_number)) {
      auto it = class_ids.find(word_hash(detail::canonical_class(caught, caught)));
      if (it != class_ids.end() && it->second != m.entries[r].class_id)
        m.wrappers.emplace_back(it->second, static_cast<std::uint32_t>(r));
    }
  }
  std::sort(m.wrappers.begin(), m.wrappers.end());
  m.wrappers.erase(std::unique(m.wrappers.begin(), m.wrappers.end()), m.wrappers.end());
  m.wrapped.assign(m.weak_by_class.size(), 0);
  for (const auto& [caught, record] : m.wrappers) m.wrapped[caught] = 1;
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
    m.compiled[p].store(eager ? detail::compile_pattern(m.patterns[p]) : nullptr, std::memory_order_relaxed);
  }
  reads.clear();
  pattern_ids.clear();

  // Records of one site across revisions: the shadows (the same as a more
  // preferred one) and kin (the same but for the line) it links are kept
  // out of the tables below.
  if (m.revisions) detail::link_revisions(m, records, built_at, variant_of);
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
    if (std::string_view repo = *file_repo[f]; repo.starts_with("npm/")) {
      m.file_package[f] = word_hash(repo.substr(4));
      m.packages.push_back(m.file_package[f]);
    }
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
  std::sort(m.packages.begin(), m.packages.end());
  m.packages.erase(std::unique(m.packages.begin(), m.packages.end()), m.packages.end());
  for (std::size_t i = 0; i < n; ++i) {
    const auto& parts = m.file_parts[m.entries[i].file_id];
    if (!parts.empty() && !shadow_entry(i)) m.by_basename[std::string(parts.back())].push_back(static_cast<std::uint32_t>(i));
  }
  find_twins(m, records);

  m.stats.memory_bytes = memory_bytes(m);
  return Matcher(std::move(impl));
}

}  // namespace errdex::match
