#!/usr/bin/env bash
# What one pasted line costs errdex's matcher and its peers, counted rather
# than timed: match_bench runs under callgrind (simulated caches and branch
# predictor), and each engine's per-message call is read off inclusively:
# instructions, mispredicted branches, first-level and last-level cache
# misses. Counts do not move with the load of a shared machine, so two
# builds (or errdex and a peer) compare to the percent where timings on 2
# shared cores do not. Slow: about a quarter of an hour.
#
# Cycles are estimated as instructions/3 + 15 per mispredict + 12 per
# first-level miss + 60 per last-level miss (the simulated last level is a
# 2 MB core-private cache, as on the benchmark machines). A model, not a
# measurement: compare its ratios, and read the raw counts beside it.
#
# RE2::Set is left out unless asked for (--re2-set): under callgrind its
# DFA over 8,000 patterns alone takes some twenty minutes.
#
# usage: bench/match/cost.sh [BUILD_DIR] [--re2-set]   (default build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build
re2_set=0
for a in "$@"; do
  case "$a" in
    --re2-set) re2_set=1 ;;
    -h|--help) sed -n '2,/^# usage/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "cost.sh: unknown option $a" >&2; exit 2 ;;
    *) build=$a ;;
  esac
done
command -v valgrind >/dev/null || { echo "cost.sh: valgrind is needed (scripts/deps.sh installs it)" >&2; exit 2; }
. bench/match/stdlib.sh
messages=$(wc -l <"$work/cases.jsonl")
# Each engine is counted in a run of its own, collecting only while inside
# its per-message function (callees included): errdex's Matcher::match,
# Hyperscan's hs_scan, RE2::Set::Match, and RE2::PartialMatchN for the loop.
# callgrind turns collection over on entering and on leaving each function
# a --toggle-collect pattern names, nested ones too: a lambda inside
# Matcher::match is named "errdex::match::Matcher::match(...) const::$_N::...",
# so a pattern with a wildcard after "match(" would switch counting off
# inside it. errdex's is the function's whole name, matched exactly; its
# steps (Search's methods, read_paste, fill_result) are callees, counted.
# One round: every engine but the loop sees each line twice (measure()'s
# untimed and timed passes); the loop sees each once, with every pattern.
count() {  # count NAME FUNCTION MATCH_BENCH_ARGS...
  local name=$1 fn=$2
  shift 2
  valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --LL=2097152,16,64 --collect-atstart=no \
    --toggle-collect="$fn" --callgrind-out-file="$work/$name.out" "$build/match_bench" --db "sqlite:$work/stdlib.db" \
    --cases "$work/cases.jsonl" --synthetic 0 --tracebacks 0 --kinds 0 --rounds 1 "$@" >/dev/null 2>&1
  { grep '^events:' "$work/$name.out"; grep -m1 '^summary:\|^totals:' "$work/$name.out"; } >"$work/$name.counts"
}
count errdex 'errdex::match::Matcher::match(std::basic_string_view<char, std::char_traits<char> >, int) const' --peers 0
count hyperscan '*hs_scan' --re2-set 0  # the CPU's variant (avx2_hs_scan, ...)
count re2_loop 're2::RE2::PartialMatchN(*' --re2-set 0
[ "$re2_set" = 1 ] && count re2_set 're2::RE2::Set::Match(*' --re2-set 1
python3 - "$work" "$messages" "$re2_set" <<'PY'
import os, sys
work, n = sys.argv[1], int(sys.argv[2])
engines = [  # file, label, calls per message
    ("errdex", "errdex Matcher (parse, candidates, confirm, rank, captures)", 2),
    ("re2_set", "RE2::Set (which patterns match)", 2),
    ("hyperscan", "Hyperscan (which patterns match)", 2),
    ("re2_loop", "loop of RE2 (every pattern in turn)", 1),
]
print("| engine | instructions | mispredicted branches | L1 misses | LL misses | est. cycles | × errdex's |")
print("|---|---:|---:|---:|---:|---:|---:|")
base = None
for name, label, per in engines:
    path = os.path.join(work, name + ".counts")
    if not os.path.exists(path):
        continue
    lines = open(path).read().split("\n") + [""]
    c = dict(zip(lines[0].split()[1:], (int(x) for x in lines[1].split()[1:])))
    if c.get("Ir", 0) == 0:  # no profile, or the toggle named no function of this build
        print(f"| {label} | - | - | - | - | - | no counts: no profile, or its function was not found |")
        continue
    k = n * per
    ir, misp = c["Ir"] / k, (c.get("Bcm", 0) + c.get("Bim", 0)) / k
    l1, ll = (c.get("D1mr", 0) + c.get("D1mw", 0)) / k, (c.get("DLmr", 0) + c.get("DLmw", 0)) / k
    est = ir / 3 + 15 * misp + 12 * l1 + 60 * ll
    base = base or est
    print(f"| {label} | {ir:,.0f} | {misp:,.1f} | {l1:,.1f} | {ll:,.2f} | {est:,.0f} | {est / base:,.1f} |")
print(f"\nper message (one call of each engine's function, callees included), over {n} pasted lines")
PY
