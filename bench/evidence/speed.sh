#!/usr/bin/env bash
# bench/evidence/speed.sh: issue 29 item 8, the whole scan with evidence
# (test files read and linked, the call graph's entry points) against the
# same scan without (--no-evidence), alternating runs in the same session so
# the machine's load falls on both alike. No cache (--no-cache), a fresh
# store each run.
#
#   bench/evidence/speed.sh [TREE [PREFIX]]   (default: python3's standard
#                                             library, prefix Lib; RUNS=5)
set -euo pipefail
cd "$(dirname "$0")/../.."
errdex=${ERRDEX:-build/errdex}
[ -x "$errdex" ] || { echo "build errdex first (make build)"; exit 2; }
tree=${1:-$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')}
prefix=${2:-Lib}
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

one() {  # one scan; prints its seconds
  rm -f "$work"/s.db*
  local t0 t1
  t0=$(date +%s.%N)
  "$errdex" scan "$tree" --repo bench/tree --prefix "$prefix" -q --no-cache --db "sqlite:$work/s.db" "$@" > /dev/null
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

with=() without=()
for i in $(seq "$runs"); do
  without+=("$(one --no-evidence)")
  with+=("$(one)")
  printf 'run %d: without %.2f s, with %.2f s\n' "$i" "${without[-1]}" "${with[-1]}"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
mw=$(median "${with[@]}")
mo=$(median "${without[@]}")
printf 'median: without %.2f s, with %.2f s: %.2fx\n' "$mo" "$mw" "$(echo "$mw / $mo" | bc -l)"
