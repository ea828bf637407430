#!/usr/bin/env bash
# Where a pasted line's time goes inside errdex's matcher, phase by phase
# (parse, word hashes, keyed lookup, confirmation, ranking, captures, the
# result, the reset), on the standard library's index and real messages:
# each phase timed cycled (every line in turn, as match_bench's (a) row)
# and repeated (each line many times in a row, its caches and branch
# history its own), so the table says which phases do work and which wait
# on what other messages displaced. A diagnostic, not a benchmark: it
# compares errdex with itself, and the counter's own reads (12 a line,
# 29 ticks each on the machine of bench/RESULTS.md) are in its figures.
#
# The shipped matcher is not touched: a copy of src/match/matcher.cc gets a
# read of the time stamp counter where each phase starts (at the comments
# and statements named below; a missing one stops the script, naming it),
# and is linked with bench/match/phases.cc in a temporary directory.
#
# usage: bench/match/phases.sh [BUILD_DIR] [ROUNDS]   (default build, 400)
set -euo pipefail
cd "$(dirname "$0")/../.."
name=phases.sh
. bench/match/ab.sh "$@"  # --help, $build and $rounds; ab_prepare: $work and the matcher's $flags
ab_prepare
cmake --build "$build" -j2 --target errdex_match errdex_store errdex_model errdex_util errdex_analyze >/dev/null
python3 - src/match/matcher.cc "$work/matcher_phases.cc" <<'PY'
import sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
names = ["parse", "scratch, message forms", "frames", "word hashes", "keyed lookup", "confirm",
         "class sites, full text", "rank", "captures", "result block", "reset"]
prelude = r'''
#include <chrono>
#include <cstdint>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif
std::uint64_t errdex_phase_ticks[16];
std::uint64_t errdex_phase_calls;
extern const char* const errdex_phase_names[] = {%s};
extern const int errdex_phase_count = %d;
std::uint64_t errdex_phase_clock() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}
namespace {
thread_local std::uint64_t errdex_phase_last;
void errdex_phase_mark(int k) {
  const std::uint64_t t = errdex_phase_clock();
  errdex_phase_ticks[k] += t - errdex_phase_last;
  errdex_phase_last = t;
}
// Declared before the scratch's Reset, so destroyed after it: the reset's phase.
struct ErrdexPhaseEnd {
  ~ErrdexPhaseEnd() { errdex_phase_mark(%d); }
};
}  // namespace
''' % (", ".join('"%s"' % n for n in names), len(names), len(names) - 1)
def put(anchor, text):  # text goes just before anchor, which must occur once
    global s
    if s.count(anchor) != 1:
        sys.exit("phases.sh: %s in %s: %r" % ("not found" if anchor not in s else "found more than once", src, anchor))
    s = s.replace(anchor, text + anchor)
put("namespace errdex::match {\nnamespace {", prelude)
# Matcher::match calls its steps in turn (Search's methods, inlined into
# it); the word hashes and the keyed lookup are two parts of by_words.
put("  detail::read_paste(m, text, paste);", "  errdex_phase_last = errdex_phase_clock();\n  ++errdex_phase_calls;\n")
ends = ["  thread_local Scratch scratch;",
        "  search.by_frames();",
        "  search.by_words();",
        "    std::size_t keying_count = 0;",
        "  search.confirm_candidates();",
        "  search.by_class_sites();",
        "  search.rank();",
        "  search.describe_shown(shown);",
        "  detail::fill_result(paste, scratch.shown, out);",
        "  return out;\n}\n\n}  // namespace errdex::match"]
for k, anchor in enumerate(ends):
    put(anchor, "  errdex_phase_mark(%d);\n" % k)
put("  Reset reset{scratch};", "  ErrdexPhaseEnd errdex_phase_end;\n")
open(out, "w").write(s)
PY
# The copy is compiled as the original is (the build's flags, clang as the
# Makefile builds), its headers still found through src/.
clang++ -std=gnu++20 $flags -Isrc -c "$work/matcher_phases.cc" -o "$work/matcher_phases.o"
clang++ -std=gnu++20 $flags -Isrc -c bench/match/phases.cc -o "$work/phases.o"
# The copy's object comes first: the library's matcher.cc is then never
# linked (its other files, matcher_build.cc, matcher_paste.cc's parse,
# matcher_result.cc's result block and the rest, are). The
# matcher asks analyze/category which classes are built-ins.
clang++ "$work/phases.o" "$work/matcher_phases.o" "$build"/liberrdex_{match,store,model,util,analyze}.a \
  $ab_libs -o "$work/phases"
echo "Command: bench/match/phases.sh $build $rounds ($(date -u +%Y-%m-%dT%H:%MZ))"
"$work/phases" --db "sqlite:$work/stdlib.db" --cases "$work/cases.jsonl" --rounds "$rounds"
