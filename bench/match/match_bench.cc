// errdex match against its peers, in the same run, over the same patterns:
// RE2::Set, Hyperscan, and a loop of RE2 matches. Index build time and
// memory, messages per second on one thread, latency p50/p99.
//
//   (a) the standard library's index (a store scanned by `errdex scan`) and
//       the real messages of tests/match/stdlib_cases.py;
//   (b) a synthetic index of N templates (default 1,000,000) made from the
//       standard library's templates with varied words, and messages filled
//       in from randomly chosen ones. Peers that cannot build over all N in
//       reasonable time are measured on subsets, said so in the output.
//
// usage: match_bench --db sqlite:PATH --cases CASES.jsonl [--synthetic N]
//        [--peer-sizes 10000,100000] [--hs-max 50000] [--peers 0|1] [--rounds N]
//        [--tracebacks 0|1] [--re2-set 0|1] [--cycles 1,32,100,300,603] [--kinds 0|1]
//        [--all-revisions 0|1]
// (--peers 0 gives errdex's rows only, on the stdlib and --synthetic N,
// for profiling and for comparing two builds of errdex;
// --rounds sets the passes over the stdlib's single lines, for errdex and
// for RE2::Set and Hyperscan, 50 by default; --tracebacks 0 leaves out the
// traceback row, so every match() call is a single line; --re2-set 0
// leaves out RE2::Set on the stdlib, the slowest peer under valgrind;
// --cycles K,... adds, for each K, the time per line when the stdlib's
// lines are matched in groups of K distinct lines cycled many times, over
// the time when each line of the group is repeated on its own: how much of
// a line's cost is the processor's state (caches, branch history) that
// other messages displace, rather than the work itself; and a table of
// the time of a line once its caches or its branch history are displaced
// (a walk over 1 to 32 MB, random branches). A table after
// (a) says how the time of its lines splits by the kind of answer;
// --kinds 0 leaves it out, so that (cost.sh) every match() call of the
// run is one of measure()'s.) After (b), a table of its slowest messages.
// Run by hand (bench/match/run.sh, bench/match/cost.sh), never by `make test`.
#include <hs/hs.h>
#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "match/matcher.h"
#include "match/traceback.h"
#include "store/store.h"

namespace {

using Clock = std::chrono::steady_clock;
using errdex::model::ErrorRecord;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

long rss_bytes() {
  std::ifstream f("/proc/self/statm");
  long pages = 0, resident = 0;
  f >> pages >> resident;
  return resident * 4096;
}

double mb(long bytes) { return static_cast<double>(bytes) / (1 << 20); }

struct Latency {
  double per_sec = 0, p50_us = 0, p99_us = 0;
  std::size_t found = 0, n = 0;  // messages with an answer, of all (first round)
};

// Runs `one(i)` over every message `rounds` times on this thread, twice:
// untimed calls back to back for the throughput (reading the clock around
// each call would add its own cost to every engine's), then each call
// timed on its own for the latencies. With `one_pass`, a single pass of
// timed calls gives both: for first calls (patterns compiling on first
// use), and for engines slow enough that the clock's cost is nothing.
Latency measure(std::size_t messages, int rounds, const std::function<bool(std::size_t)>& one, bool one_pass = false) {
  std::vector<double> us;
  us.reserve(messages * rounds);
  Latency l;
  auto timed = [&](bool count) {
    for (int r = 0; r < rounds; ++r)
      for (std::size_t i = 0; i < messages; ++i) {
        auto a = Clock::now();
        bool found = one(i);
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
        if (count && r == 0 && found) ++l.found;
      }
  };
  auto t0 = Clock::now();
  if (one_pass) {
    timed(true);
  } else {
    for (int r = 0; r < rounds; ++r)
      for (std::size_t i = 0; i < messages; ++i) l.found += one(i) && r == 0;
  }
  double total = seconds_since(t0);
  if (!one_pass) timed(false);
  std::sort(us.begin(), us.end());
  l.n = messages;
  l.per_sec = static_cast<double>(messages) * rounds / total;
  l.p50_us = us[us.size() / 2];
  l.p99_us = us[std::min(us.size() - 1, us.size() * 99 / 100)];
  return l;
}

// For each K of `sizes`: the lines in consecutive groups of K, each group
// matched as a cycle of its K lines (enough passes for ~20,000 calls), and
// then each of its lines repeated as often on its own; the two times over
// all groups, per line, and their ratio.
void cycle_table(const errdex::match::Matcher& m, const std::vector<std::string>& lines, const std::string& sizes) {
  std::printf("\n| lines cycled (K) | µs per line, cycled | µs per line, each repeated | cycled / repeated |\n|---:|---:|---:|---:|\n");
  std::size_t sink = 0;
  std::stringstream in(sizes);
  for (std::string item; std::getline(in, item, ',');) {
    const std::size_t k = std::min<std::size_t>(std::max(1, std::atoi(item.c_str())), lines.size());
    const std::size_t passes = 20000 / k + 1;
    double cycled = 0, repeated = 0;
    std::size_t calls = 0;
    for (std::size_t start = 0; start + k <= lines.size(); start += k) {
      auto t0 = Clock::now();
      for (std::size_t r = 0; r < passes; ++r)
        for (std::size_t i = start; i < start + k; ++i) sink += m.match(lines[i], 5).candidates.size();
      cycled += seconds_since(t0);
      t0 = Clock::now();
      for (std::size_t i = start; i < start + k; ++i)
        for (std::size_t r = 0; r < passes; ++r) sink += m.match(lines[i], 5).candidates.size();
      repeated += seconds_since(t0);
      calls += passes * k;
    }
    std::printf("| %zu | %.2f | %.2f | %.2f |\n", k, 1e6 * cycled / calls, 1e6 * repeated / calls, cycled / repeated);
  }
  if (sink == 0) std::printf("(no candidates at all)\n");
}

// What a line costs when what it left in the processor is displaced first:
// each line matched once untimed, then, after displacing nothing, the
// caches (a walk over `mb` megabytes, a read per 64-byte line), or the
// branch predictor's history (20,000 branches on random bits), once more,
// timed on its own; the mean over `passes` passes of every line.
void displaced_table(const errdex::match::Matcher& m, const std::vector<std::string>& lines) {
  std::vector<unsigned char> walk(std::size_t{32} << 20, 1);
  std::vector<std::uint32_t> bits(1 << 16);
  std::uint32_t x = 12345;
  for (auto& b : bits) b = (x = x * 1103515245u + 12345u) >> 8;
  volatile std::uint64_t sink = 0;
  auto displace_caches = [&](std::size_t mb) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < (mb << 20); i += 64) sum += walk[i];
    sink = sink + sum;
  };
  auto displace_branches = [&] {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < 20000; ++i) {
      const std::uint32_t v = bits[(i * 7) & 0xffff];
      // Each arm has a side effect of its own, so no arm becomes a select.
      if (v & 1) { sum += v; asm volatile(""); } else { sum ^= v; asm volatile(""); }
      if (v & 2) { sum += 3; asm volatile(""); }
      if (v & 4) { sum *= 5; asm volatile(""); }
    }
    sink = sink + sum;
  };
  struct Row { const char* what; std::function<void()> displace; };
  const Row rows[] = {
      {"nothing (the line repeated)", [] {}},
      {"caches: 1 MB walked", [&] { displace_caches(1); }},
      {"caches: 2 MB walked", [&] { displace_caches(2); }},
      {"caches: 4 MB walked", [&] { displace_caches(4); }},
      {"caches: 32 MB walked", [&] { displace_caches(32); }},
      {"branch history: 20,000 random branches", displace_branches},
  };
  const int passes = 5;
  std::printf("\n| displaced before each line | µs per line |\n|---|---:|\n");
  for (const Row& row : rows) {
    double total = 0;
    for (int p = 0; p < passes; ++p)
      for (const std::string& line : lines) {
        sink = sink + m.match(line, 5).candidates.size();
        row.displace();
        auto t0 = Clock::now();
        sink = sink + m.match(line, 5).candidates.size();
        total += seconds_since(t0);
      }
    std::printf("| %s | %.2f |\n", row.what, 1e6 * total / (passes * lines.size()));
  }
}

// Where the time of (a) goes: each line's time (its median over `rounds`
// cycled passes, each call timed on its own) summed by the kind of answer
// it got, and the share of the slowest tenth of the lines. Full-text
// ranking scores every record sharing a word with the message, so lines
// that need it cost the most. Then the slowest lines themselves.
// A pasted line as a Markdown table cell: its first 90 bytes, with the
// characters that would break the row made blanks.
std::string table_cell(const std::string& line) {
  std::string shown = line.substr(0, 90);
  for (char& c : shown)
    if (c == '\n' || c == '|' || c == '`') c = ' ';
  return shown;
}

// The indexes of the `count` largest of `times`, largest first.
std::vector<std::size_t> slowest(const std::vector<double>& times, std::size_t count) {
  std::vector<std::size_t> order(times.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  count = std::min(count, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(),
                    [&](std::size_t a, std::size_t b) { return times[a] > times[b]; });
  order.resize(count);
  return order;
}

void time_by_kind(const errdex::match::Matcher& m, const std::vector<std::string>& lines, int rounds) {
  std::vector<std::vector<double>> us(lines.size());
  std::vector<int> kind(lines.size(), 0);
  for (int r = 0; r < rounds; ++r)
    for (std::size_t i = 0; i < lines.size(); ++i) {
      auto a = Clock::now();
      auto result = m.match(lines[i], 5);
      us[i].push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
      if (r > 0) continue;  // the same answer every round
      bool fulltext = false;
      for (const auto& c : result.candidates) fulltext |= c.reasons.fulltext;
      kind[i] = result.fulltext_fallback ? 2 : fulltext ? 1 : 0;
    }
  std::vector<double> line_us(lines.size());
  double total = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::sort(us[i].begin(), us[i].end());
    total += line_us[i] = us[i][us[i].size() / 2];
  }
  if (total <= 0) return;
  const char* names[3] = {"pattern or class only", "full text among the answers", "full text the only evidence"};
  std::printf("\n| answer (stdlib lines, cycled, median of %d) | lines | share of lines | share of time | mean µs per line |\n"
              "|---|---:|---:|---:|---:|\n", rounds);
  for (int k = 0; k < 3; ++k) {
    std::size_t n = 0;
    double t = 0;
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (kind[i] == k) {
        ++n;
        t += line_us[i];
      }
    std::printf("| %s | %zu | %.1f %% | %.1f %% | %.2f |\n", names[k], n, 100.0 * n / lines.size(), 100.0 * t / total,
                n ? t / n : 0.0);
  }
  std::vector<double> sorted = line_us;
  std::sort(sorted.rbegin(), sorted.rend());
  const std::size_t tenth = sorted.size() / 10;
  double slow = 0;
  for (std::size_t i = 0; i < tenth; ++i) slow += sorted[i];
  std::printf("| the slowest tenth of the lines | %zu | 10.0 %% | %.1f %% | %.2f |\n", tenth, 100.0 * slow / total,
              tenth ? slow / static_cast<double>(tenth) : 0.0);
  // The slowest lines themselves: what the tail is made of.
  std::printf("\n| slowest lines (cycled, median of %d) | µs | answer |\n|---|---:|---|\n", rounds);
  for (std::size_t i : slowest(line_us, 8))
    std::printf("| `%s` | %.2f | %s |\n", table_cell(lines[i]).c_str(), line_us[i], names[kind[i]]);
}

// The tail of (b): each message's median time over `rounds` passes, and
// the slowest messages with what their answer held (candidates shown, the
// best score's tier, full text). What p99 is made of.
void slowest_messages(const errdex::match::Matcher& m, const std::vector<std::string>& lines, int rounds) {
  std::vector<std::vector<double>> us(lines.size());
  for (int r = 0; r < rounds; ++r)
    for (std::size_t i = 0; i < lines.size(); ++i) {
      auto a = Clock::now();
      m.match(lines[i], 5);
      us[i].push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
    }
  std::vector<double> median(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::sort(us[i].begin(), us[i].end());
    median[i] = us[i][us[i].size() / 2];
  }
  std::printf("\n| slowest messages of (b) (median of %d) | µs | shown | ambiguous | full text |\n|---|---:|---:|---|---|\n",
              rounds);
  for (std::size_t i : slowest(median, 10)) {
    auto result = m.match(lines[i], 5);
    std::printf("| `%s` | %.2f | %zu | %s | %s |\n", table_cell(lines[i]).c_str(), median[i], result.candidates.size(),
                result.ambiguous ? "yes" : "no", result.fulltext_fallback ? "the only evidence" : "no");
  }
  std::printf("\n");
}

void row(const char* index, const char* engine, std::size_t patterns, double build_s, double mem_mb, const Latency& l,
         const char* note = "") {
  std::printf("| %s | %s | %zu | %.2f | %.0f | %.0f | %.2f | %.2f | %zu/%zu | %s |\n", index, engine, patterns,
              build_s, mem_mb, l.per_sec, l.p50_us, l.p99_us, l.found, l.n, note);
  std::fflush(stdout);
}

// The message part of a pasted line, as the peers get it (they parse
// nothing): what follows "Class: " on the exception line.
std::string message_of(const std::string& text) {
  return errdex::match::parse_traceback(text).exceptions.back().message;
}

struct Peers {
  std::vector<std::string> patterns;
  std::vector<std::string> messages;
};

void run_re2_set(const char* index, const Peers& p, int rounds) {
  long m0 = rss_bytes();
  auto t0 = Clock::now();
  RE2::Options o;
  o.set_log_errors(false);
  o.set_dot_nl(true);
  o.set_max_mem(std::int64_t{4} << 30);
  RE2::Set set(o, RE2::UNANCHORED);
  std::size_t added = 0;
  for (const auto& s : p.patterns)
    if (set.Add(s, nullptr) >= 0) ++added;
  bool ok = set.Compile();
  double build = seconds_since(t0);
  double mem = mb(rss_bytes() - m0);
  if (!ok) {
    std::printf("| %s | RE2::Set | %zu | %.2f | %.0f | - | - | - | - | Compile() failed (out of memory budget) |\n", index,
                added, build, mem);
    return;
  }
  std::vector<int> hits;
  auto l = measure(p.messages.size(), rounds, [&](std::size_t i) {
    hits.clear();
    return set.Match(p.messages[i], &hits);
  });
  row(index, "RE2::Set", added, build, mem, l, "which patterns match; no ranking, captures or traceback");
}

int on_match(unsigned int, unsigned long long, unsigned long long, unsigned int, void* ctx) {
  ++*static_cast<std::size_t*>(ctx);
  return 0;
}

void run_hyperscan(const char* index, const Peers& p, int rounds) {
  long m0 = rss_bytes();
  auto t0 = Clock::now();
  std::vector<std::string> pats = p.patterns;
  std::vector<unsigned> ids(pats.size());
  for (unsigned i = 0; i < ids.size(); ++i) ids[i] = i;
  hs_database_t* db = nullptr;
  std::size_t dropped = 0;
  while (!pats.empty()) {
    std::vector<const char*> exprs;
    std::vector<unsigned> flags(pats.size(), HS_FLAG_DOTALL | HS_FLAG_SINGLEMATCH | HS_FLAG_ALLOWEMPTY);
    for (const auto& s : pats) exprs.push_back(s.c_str());
    hs_compile_error_t* err = nullptr;
    if (hs_compile_multi(exprs.data(), flags.data(), ids.data(), static_cast<unsigned>(pats.size()), HS_MODE_BLOCK,
                         nullptr, &db, &err) == HS_SUCCESS)
      break;
    int bad = err->expression;
    hs_free_compile_error(err);
    if (bad < 0) {
      std::printf("| %s | Hyperscan | %zu | %.2f | - | - | - | - | - | compile failed as a whole |\n", index, pats.size(),
                  seconds_since(t0));
      return;
    }
    pats.erase(pats.begin() + bad);  // a pattern Hyperscan does not support
    ids.erase(ids.begin() + bad);
    ++dropped;
  }
  double build = seconds_since(t0);
  hs_scratch_t* scratch = nullptr;
  hs_alloc_scratch(db, &scratch);
  std::size_t db_size = 0;
  hs_database_size(db, &db_size);
  double mem = mb(rss_bytes() - m0);
  auto l = measure(p.messages.size(), rounds, [&](std::size_t i) {
    std::size_t n = 0;
    hs_scan(db, p.messages[i].data(), static_cast<unsigned>(p.messages[i].size()), 0, scratch, on_match, &n);
    return n > 0;
  });
  char note[160];
  std::snprintf(note, sizeof note, "database %.0f MB; %zu unsupported patterns left out; no captures", mb(db_size),
                dropped);
  row(index, "Hyperscan", pats.size(), build, mem, l, note);
  hs_free_scratch(scratch);
  hs_free_database(db);
}

void run_re2_loop(const char* index, const Peers& p, std::size_t max_messages) {
  long m0 = rss_bytes();
  auto t0 = Clock::now();
  RE2::Options o;
  o.set_log_errors(false);
  o.set_dot_nl(true);
  std::vector<std::unique_ptr<RE2>> res;
  for (const auto& s : p.patterns) {
    auto re = std::make_unique<RE2>(s, o);
    if (re->ok()) res.push_back(std::move(re));
  }
  double build = seconds_since(t0);
  double mem = mb(rss_bytes() - m0);
  std::size_t n = std::min(max_messages, p.messages.size());
  auto l = measure(
      n, 1,
      [&](std::size_t i) {
        bool any = false;
        for (const auto& re : res) any |= RE2::PartialMatch(p.messages[i], *re);
        return any;
      },
      true);
  row(index, "loop of RE2", res.size(), build, mem, l, n < p.messages.size() ? "on the first messages only" : "");
}

// Varied words: one literal word of each template, and every other with
// probability 1/3, is replaced by a word of a made-up vocabulary, so the N
// templates are distinct but keep the shape (length, punctuation,
// interpolations) of real ones.
std::string vary(const std::string& pattern, std::mt19937_64& rng) {
  static const char* k_syllables[] = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "bu", "do", "fe", "gi", "ha", "po", "qu"};
  // Word starts outside groups.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0, depth = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (depth == 0 && std::isalpha(static_cast<unsigned char>(c)) &&
        (i == 0 || !std::isalnum(static_cast<unsigned char>(pattern[i - 1]))))
      starts.push_back(i);
  }
  std::size_t forced = starts.empty() ? SIZE_MAX : starts[rng() % starts.size()];
  std::string out;
  std::size_t i = 0;
  for (std::size_t st : starts) {
    out.append(pattern, i, st - i);
    std::size_t j = st;
    while (j < pattern.size() && std::isalnum(static_cast<unsigned char>(pattern[j]))) ++j;
    if (st == forced || rng() % 3 == 0) {
      int syl = 2 + static_cast<int>(rng() % 3);
      for (int k = 0; k < syl; ++k) out += k_syllables[rng() % 16];
    } else {
      out.append(pattern, st, j - st);
    }
    i = j;
  }
  out.append(pattern, i, std::string::npos);
  return out;
}

// A message the template produces: each group filled with a value it takes.
std::string fill(const std::string& pattern) {
  std::string out;
  std::size_t i = 0;
  while (i < pattern.size()) {
    char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      char e = pattern[i + 1];
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
      i += 2;
      continue;
    }
    if (c == '(') {
      int depth = 0;
      std::size_t j = i;
      for (; j < pattern.size(); ++j) {
        if (pattern[j] == '\\') {
          ++j;
          continue;
        }
        if (pattern[j] == '(') ++depth;
        if (pattern[j] == ')' && --depth == 0) break;
      }
      std::string group = pattern.substr(i, j - i + 1);
      out += group.find("\\d") != std::string::npos ? "42" : "'value_7'";
      i = j + 1;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

}  // namespace

// --all-revisions 1 (bench/match/revisions.sh): the store holds several
// revisions of the standard library. One matcher over the current
// revision's records (what matching read before revisions were matched)
// and one over every revision's, telling them apart (Matcher::build's
// preference), answer the same pasted lines in turns, `rounds` passes each,
// alternating which goes first. Prints both rates and their ratio, and how
// many answers name one site with other consistent revisions.
int revisions_table(errdex::store::Store& st, const std::vector<std::string>& pasted, const std::vector<std::string>& tracebacks,
                    int rounds) {
  auto fields = errdex::store::match_fields_all(st, std::nullopt);
  auto repos = st.repos();
  if (!fields || !repos) {
    std::fprintf(stderr, "match_bench: %s\n", !fields ? fields.error().c_str() : repos.error().c_str());
    return 2;
  }
  auto roots = errdex::store::import_roots(*repos);
  std::vector<ErrorRecord> current(fields->records.begin(), fields->records.begin() + static_cast<std::ptrdiff_t>(fields->current));
  auto t0 = Clock::now();
  auto one = errdex::match::Matcher::build(current, roots);
  double build_one = seconds_since(t0);
  t0 = Clock::now();
  std::vector<std::string> refs;
  for (std::uint32_t k : fields->revision_of) refs.push_back(fields->revisions[k].ref);
  auto all = errdex::match::Matcher::build(fields->records, roots, fields->preference, refs);
  double build_all = seconds_since(t0);
  double secs[2] = {0, 0};
  std::uint64_t sink = 0;
  for (int r = 0; r < rounds; ++r)
    for (int turn = 0; turn < 2; ++turn) {
      const int side = (r + turn) % 2;
      const auto& m = side == 0 ? one : all;
      auto a = Clock::now();
      for (const auto& line : pasted) sink += m.match(line, 5).candidates.size();
      secs[side] += seconds_since(a);
    }
  std::size_t listed = 0, tb_listed = 0;
  for (const auto& line : pasted) {
    auto res = all.match(line, 5);
    listed += !res.candidates.empty() && !res.candidates.front().revisions.empty();
  }
  for (const auto& tb : tracebacks) {
    auto res = all.match(tb, 5);
    tb_listed += !res.candidates.empty() && !res.candidates.front().revisions.empty();
  }
  const double n = static_cast<double>(pasted.size()) * rounds;
  std::printf("| index | records | revisions | build s | pasted lines/s (1 thread) |\n|---|---:|---:|---:|---:|\n");
  std::printf("| current revision only | %zu | 1 | %.2f | %.0f |\n", current.size(), build_one, n / secs[0]);
  std::printf("| every revision | %zu | %zu | %.2f | %.0f |\n", fields->records.size(), fields->revisions.size(), build_all,
              n / secs[1]);
  std::printf("\nevery revision / current only: %.2f of the rate (%d rounds of %zu lines each, in turns)\n", secs[0] / secs[1],
              rounds, pasted.size());
  std::printf("answers naming one site with other consistent revisions: %zu of %zu pasted lines\n", listed, pasted.size());
  std::printf("the same with the traceback: %zu of %zu [%llu]\n", tb_listed, tracebacks.size(),
              static_cast<unsigned long long>(sink % 7));
  return 0;
}

int main(int argc, char** argv) {
  std::string db, cases_path, peer_sizes = "10000,100000";
  std::size_t synthetic = 1000000, hs_max = 50000;
  bool peers = true;  // --peers 0: errdex rows only (for profiling)
  int rounds = 50;    // --rounds N: passes over the stdlib's single lines
  bool with_tracebacks = true;  // --tracebacks 0: single lines only
  bool with_re2_set = true;     // --re2-set 0: no RE2::Set on the stdlib
  std::string cycles;           // --cycles K,...: cycled groups of K lines vs each line repeated
  bool with_kinds = true;       // --kinds 0: no table of (a)'s time by kind of answer
  bool all_revisions = false;   // --all-revisions 1: revisions_table only
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--db") db = v;
    else if (k == "--cases") cases_path = v;
    else if (k == "--synthetic") synthetic = std::stoul(v);
    else if (k == "--peer-sizes") peer_sizes = v;
    else if (k == "--hs-max") hs_max = std::stoul(v);
    else if (k == "--peers") peers = v != "0";
    else if (k == "--rounds") rounds = std::max(1, std::atoi(v.c_str()));
    else if (k == "--tracebacks") with_tracebacks = v != "0";
    else if (k == "--re2-set") with_re2_set = v != "0";
    else if (k == "--cycles") cycles = v;
    else if (k == "--kinds") with_kinds = v != "0";
    else if (k == "--all-revisions") all_revisions = v != "0";
    else {
      std::fprintf(stderr, "match_bench: unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (db.empty() || cases_path.empty()) {
    std::fprintf(stderr, "usage: match_bench --db sqlite:PATH --cases CASES.jsonl [--synthetic N] "
                         "[--peer-sizes 10000,100000] [--hs-max 50000] [--peers 0|1] [--rounds N] [--tracebacks 0|1] [--re2-set 0|1] [--cycles K,...] [--kinds 0|1] [--all-revisions 0|1]\n");
    return 2;
  }

  auto st = errdex::store::open_store(db);
  if (!st) {
    std::fprintf(stderr, "match_bench: %s\n", st.error().c_str());
    return 2;
  }
  auto lines = (*st)->list(std::nullopt);
  if (!lines) {
    std::fprintf(stderr, "match_bench: %s\n", lines.error().c_str());
    return 2;
  }
  std::vector<ErrorRecord> stdlib;
  for (auto& l : *lines) stdlib.push_back(std::move(l.record));
  std::vector<std::string> pasted;  // exception-only text, as users paste it
  std::vector<std::string> tracebacks;
  {
    std::ifstream in(cases_path);
    for (std::string line; std::getline(in, line);) {
      auto j = nlohmann::json::parse(line);
      pasted.push_back(j["last"]);
      tracebacks.push_back(j["traceback"]);
    }
  }

  if (all_revisions) return revisions_table(**st, pasted, tracebacks, rounds);

  std::printf("| index | engine | patterns | build s | memory MB | msgs/s (1 thread) | p50 µs | p99 µs | answered | notes |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");

  // (a) the standard library.
  {
    long m0 = rss_bytes();
    auto t0 = Clock::now();
    auto m = errdex::match::Matcher::build(stdlib);
    double build = seconds_since(t0);
    double mem = mb(rss_bytes() - m0);
    auto l = measure(pasted.size(), rounds, [&](std::size_t i) { return !m.match(pasted[i], 5).candidates.empty(); });
    row("(a) stdlib", "errdex Matcher, last line", stdlib.size(), build, mem, l, "parse, candidates, RE2, rank, captures");
    if (with_tracebacks) {
      auto t = measure(tracebacks.size(), 20, [&](std::size_t i) { return !m.match(tracebacks[i], 5).candidates.empty(); });
      row("(a) stdlib", "errdex Matcher, traceback", stdlib.size(), build, mem, t, "same, with frames");
    }
    if (!cycles.empty()) {
      cycle_table(m, pasted, cycles);
      displaced_table(m, pasted);
    }
    if (with_kinds) time_by_kind(m, pasted, 30);
    if (peers) {
    Peers p;
    for (const auto& r : stdlib) p.patterns.push_back(r.message_pattern);
    for (const auto& s : pasted) p.messages.push_back(message_of(s));
    if (with_re2_set) run_re2_set("(a) stdlib", p, rounds);
    run_hyperscan("(a) stdlib", p, rounds);
    run_re2_loop("(a) stdlib", p, pasted.size());
    }
  }

  if (synthetic == 0) return 0;  // --synthetic 0: (a) only

  // (b) synthetic: N templates from the stdlib's templates with varied words.
  std::vector<std::size_t> bases;
  for (std::size_t i = 0; i < stdlib.size(); ++i)
    if (!stdlib[i].message_pattern.empty() && stdlib[i].message_pattern != "(.+?)") bases.push_back(i);
  std::mt19937_64 rng(42);
  std::vector<ErrorRecord> synth;
  synth.reserve(synthetic);
  for (std::size_t i = 0; i < synthetic; ++i) {
    const ErrorRecord& b = stdlib[bases[i % bases.size()]];
    ErrorRecord r;
    r.id = std::to_string(i);
    r.error_class = b.error_class;
    r.message_pattern = i < bases.size() ? b.message_pattern : vary(b.message_pattern, rng);
    r.error_message = b.error_message;
    r.file_path = "pkg" + std::to_string(i % 5000) + "/" + b.file_path;
    r.line_number = b.line_number;
    synth.push_back(std::move(r));
  }
  // Messages from 20,000 random templates (the same for every engine).
  std::vector<std::size_t> picks;
  for (int k = 0; k < 20000; ++k) picks.push_back(rng() % synth.size());
  std::vector<std::string> synth_pasted, synth_messages;
  for (std::size_t k : picks) {
    synth_messages.push_back(fill(synth[k].message_pattern));
    synth_pasted.push_back(std::string(errdex::match::last_component(synth[k].error_class)) + ": " + synth_messages.back());
  }
  char label[64];
  std::snprintf(label, sizeof label, "(b) synthetic %zu", synthetic);
  {
    long m0 = rss_bytes();
    auto t0 = Clock::now();
    auto m = errdex::match::Matcher::build(synth);
    double build = seconds_since(t0);
    double mem = mb(rss_bytes() - m0);
    std::size_t right = 0;
    auto cold = measure(
        synth_pasted.size(), 1,
        [&](std::size_t i) {
          auto r = m.match(synth_pasted[i], 5);
          for (const auto& c : r.candidates)
            if (c.score == r.candidates[0].score && c.index == picks[i]) ++right;
          return !r.candidates.empty();
        },
        true);
    row(label, "errdex Matcher, first pass", synth.size(), build, mem, cold,
        "patterns compile on first use: this pass pays for it");
    auto warm = measure(synth_pasted.size(), 5, [&](std::size_t i) { return !m.match(synth_pasted[i], 5).candidates.empty(); });
    row(label, "errdex Matcher, warm", synth.size(), build, mb(rss_bytes() - m0), warm, "");
    std::printf("\n(b) the template a message was made from is among the best-scored candidates for %zu/%zu messages\n",
                right, synth_pasted.size());
    slowest_messages(m, synth_pasted, 3);
  }

  // Peers on subsets of (b): the first n templates, with messages from them.
  std::stringstream sizes(peers ? peer_sizes : std::string());
  for (std::string tok; std::getline(sizes, tok, ',');) {
    std::size_t n = std::min<std::size_t>(std::stoul(tok), synth.size());
    Peers p;
    for (std::size_t i = 0; i < n; ++i) p.patterns.push_back(synth[i].message_pattern);
    std::vector<std::string> sub_pasted;
    for (int k = 0; k < 5000; ++k) {
      std::size_t i = rng() % n;
      p.messages.push_back(fill(synth[i].message_pattern));
      sub_pasted.push_back(std::string(errdex::match::last_component(synth[i].error_class)) + ": " + p.messages.back());
    }
    std::vector<ErrorRecord> sub(synth.begin(), synth.begin() + n);
    std::snprintf(label, sizeof label, "(b) subset %zu", n);
    long m0 = rss_bytes();
    auto t0 = Clock::now();
    auto m = errdex::match::Matcher::build(sub);
    double build = seconds_since(t0);
    double mem = mb(rss_bytes() - m0);
    measure(sub_pasted.size(), 1, [&](std::size_t i) { return !m.match(sub_pasted[i], 5).candidates.empty(); });
    auto l = measure(sub_pasted.size(), 5, [&](std::size_t i) { return !m.match(sub_pasted[i], 5).candidates.empty(); });
    row(label, "errdex Matcher, warm", n, build, mem, l, "");
    run_re2_set(label, p, 5);
    if (n <= hs_max) run_hyperscan(label, p, 5);
    else std::printf("| %s | Hyperscan | %zu | - | - | - | - | - | - | not built: above --hs-max |\n", label, n);
    run_re2_loop(label, p, n >= 100000 ? 50 : 500);
  }
  return 0;
}
