#!/usr/bin/env bash
# Cost of evidence.introduced (blame through libgit2) and of the evidence
# passes as a whole, on a git revision: alternating runs of
#   A: errdex scan --rev REV --no-evidence      (no tests, docs or history read)
#   B: errdex scan --rev REV                    (tests and docs)
#   C: errdex scan --rev REV --blame            (tests, docs and blame, nothing cached)
#   D: C again into the store C filled          (facts, records and blame from its caches)
# each into a fresh store (D into C's), so A-C reuse nothing. Prints the
# median wall time of each and the ratios to A, and the share of records with docs and with
# `introduced`.
# Usage: bench/evidence/blame.sh REPO REV [ROUNDS] [ERRDEX]
# e.g.   bench/evidence/blame.sh /work/.mirror/sqlalchemy+sqlalchemy/repo rel_2_0_52 3
set -euo pipefail
repo=${1:?repository}; rev=${2:?revision}; rounds=${3:-3}
errdex=${4:-$(dirname "$0")/../../build/errdex}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
declare -a A B C D
for ((i = 0; i < rounds; i++)); do
  rm -f "$tmp"/*.db*
  A+=("$(secs "$errdex" scan "$repo" --rev "$rev" --repo o/n -q --no-evidence --db "sqlite:$tmp/a.db")")
  B+=("$(secs "$errdex" scan "$repo" --rev "$rev" --repo o/n -q --db "sqlite:$tmp/b.db")")
  C+=("$(secs "$errdex" scan "$repo" --rev "$rev" --repo o/n -q --blame --db "sqlite:$tmp/c.db")")
  D+=("$(secs "$errdex" scan "$repo" --rev "$rev" --repo o/n -q --blame --db "sqlite:$tmp/c.db")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
a=$(median "${A[@]}"); b=$(median "${B[@]}"); c=$(median "${C[@]}"); d=$(median "${D[@]}")
printf 'A no evidence            %6.2f s  (runs: %s)\n' "$a" "${A[*]}"
printf 'B tests + docs           %6.2f s  %.2fx  (runs: %s)\n' "$b" "$(echo "$b / $a" | bc -l)" "${B[*]}"
printf 'C + blame                %6.2f s  %.2fx  (runs: %s)\n' "$c" "$(echo "$c / $a" | bc -l)" "${C[*]}"
printf 'D + blame, cached        %6.2f s  %.2fx  (runs: %s)\n' "$d" "$(echo "$d / $a" | bc -l)" "${D[*]}"
"$errdex" export --db "sqlite:$tmp/c.db" | python3 -c '
import json, sys
n = docs = intro = tests = 0
for line in sys.stdin:
    r = json.loads(line)["record"]; e = r.get("evidence") or {}
    n += 1; docs += bool(e.get("docs")); intro += bool(e.get("introduced")); tests += bool(e.get("tests"))
print(f"records {n}: with docs {docs} ({100*docs/max(n,1):.1f} %), with introduced {intro} ({100*intro/max(n,1):.1f} %), with tests {tests} ({100*tests/max(n,1):.1f} %)")'
