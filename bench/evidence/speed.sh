#!/usr/bin/env bash
# bench/evidence/speed.sh: issue 29 item 8, the whole scan with evidence
# (test files read and linked, the call graph's entry points) against the
# same scan without (--no-evidence), alternating runs in the same session so
# the machine's load falls on both alike. No cache (--no-cache), a fresh
# store each run. Wall time and CPU time (user + sys, less sensitive to
# the other users of a shared machine) are both reported.
#
#   bench/evidence/speed.sh [TREE [PREFIX]]   (default: python3's standard
#                                             library, prefix Lib; RUNS=5)
#   REV=rel_2_0_52 bench/evidence/speed.sh /work/.mirror/sqlalchemy+sqlalchemy/repo ''
#                                             (a git revision of a repository,
#                                             bare or not, read through libgit2)
set -euo pipefail
cd "$(dirname "$0")/../.."
errdex=${ERRDEX:-build/errdex}
[ -x "$errdex" ] || { echo "build errdex first (make build)"; exit 2; }
tree=${1:-$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')}
prefix=${2-Lib}
rev=${REV:-}
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

one() {  # one scan; prints its wall seconds and its CPU seconds (user + sys)
  rm -f "$work"/s.db*
  /usr/bin/time -f '%e %U %S' -o "$work/time" \
    "$errdex" scan "$tree" ${rev:+--rev "$rev"} --repo bench/tree ${prefix:+--prefix "$prefix"} -q --no-cache \
    --db "sqlite:$work/s.db" "$@" > /dev/null
  awk '{printf "%s %.2f\n", $1, $2 + $3}' "$work/time"
}

with=() without=() with_cpu=() without_cpu=()
for i in $(seq "$runs"); do
  read -r w c < <(one --no-evidence)
  without+=("$w") without_cpu+=("$c")
  read -r w c < <(one)
  with+=("$w") with_cpu+=("$c")
  printf 'run %d: without %.2f s (cpu %.2f s), with %.2f s (cpu %.2f s)\n' "$i" "${without[-1]}" "${without_cpu[-1]}" \
    "${with[-1]}" "${with_cpu[-1]}"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
mw=$(median "${with[@]}") mo=$(median "${without[@]}")
cw=$(median "${with_cpu[@]}") co=$(median "${without_cpu[@]}")
printf 'median wall: without %.2f s, with %.2f s: %.2fx\n' "$mo" "$mw" "$(echo "$mw / $mo" | bc -l)"
printf 'median cpu:  without %.2f s, with %.2f s: %.2fx\n' "$co" "$cw" "$(echo "$cw / $co" | bc -l)"
