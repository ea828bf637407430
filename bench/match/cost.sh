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
# One round: every engine sees each line twice (measure()'s untimed and
# timed passes); the loop of RE2 sees each once, with every pattern.
valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --LL=2097152,16,64 \
  --callgrind-out-file="$work/cg.out" "$build/match_bench" --db "sqlite:$work/stdlib.db" --cases "$work/cases.jsonl" \
  --synthetic 0 --tracebacks 0 --rounds 1 --re2-set "$re2_set" >/dev/null 2>&1
callgrind_annotate --inclusive=yes --threshold=100 --show=Ir,Bcm,Bim,D1mr,D1mw,DLmr,DLmw "$work/cg.out" >"$work/inclusive.txt"
python3 - "$work/inclusive.txt" "$messages" "$re2_set" <<'PY'
import re, sys
n = int(sys.argv[2])
# The seven counts (a count, or "." for none, each maybe followed by its
# share in parentheses), then "file:function [object]".
line_re = re.compile(r"^\s*((?:(?:[\d,]+|\.)(?:\s+\([^)]*\))?\s+){7})(\S.*)$")
rows = []
for line in open(sys.argv[1]):
    m = line_re.match(line)
    if not m:
        continue
    nums = [0 if x == "." else int(x.replace(",", "")) for x in re.findall(r"(?:^|\s)([\d,]+|\.)(?=\s|$)", m.group(1))]
    rows.append((nums[:7], m.group(2)))
# engine, the function whose inclusive cost is one message's, its calls per message
engines = [
    ("errdex Matcher (parse, candidates, confirm, rank, captures)", r":errdex::match::Matcher::match\(", 2),
    ("Hyperscan (which patterns match)", r":(avx2_|avx512_|corei7_|core2_)?hs_scan\b", 2),
    ("loop of RE2 (every pattern in turn)", r":re2::RE2::PartialMatchN\(", 1),
]
if sys.argv[3] == "1":
    engines.insert(1, ("RE2::Set (which patterns match)", r":re2::RE2::Set::Match\(", 2))
print("| engine | instructions | mispredicted branches | L1 misses | LL misses | est. cycles | × errdex's |")
print("|---|---:|---:|---:|---:|---:|---:|")
base = None
for label, pattern, per in engines:
    hits = [nums for nums, fn in rows if re.search(pattern, fn)]
    if not hits:
        print(f"| {label} | - | - | - | - | - | not in the profile |")
        continue
    ir, bcm, bim, d1r, d1w, llr, llw = (x / (n * per) for x in max(hits, key=lambda c: c[0]))
    est = ir / 3 + 15 * (bcm + bim) + 12 * (d1r + d1w) + 60 * (llr + llw)
    base = base or est
    print(f"| {label} | {ir:,.0f} | {bcm + bim:,.1f} | {d1r + d1w:,.1f} | {llr + llw:,.2f} | {est:,.0f} | {est / base:,.1f} |")
print(f"\nper message (one call of each engine's function, callees included), over {n} pasted lines")
PY
