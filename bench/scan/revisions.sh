#!/usr/bin/env bash
# bench/scan/revisions.sh: many revisions of one repository into one store
# (issue 28: "twenty revisions cost little more than one scan plus the
# files that changed"), against one full scan of the newest of them and
# against the same revisions scanned with every file parsed (--no-cache, as
# before the facts cache), in the same run, whose exports it compares with
# the cached run's, revision by revision. Each store starts empty.
#
#   bench/scan/revisions.sh GIT_DIR TAG_PATTERN [N]
#   bench/scan/revisions.sh GIT_DIR --branch BRANCH DAYS [N]
#
# GIT_DIR is a git repository (a bare mirror will do; nothing is checked
# out). The revisions are the N newest tags (in version order) matching
# TAG_PATTERN, an extended regex over tag names; or, with --branch, N
# commits of BRANCH's first-parent line at least DAYS days apart (by commit
# date), the newest being the branch's tip, scanned oldest first. N
# defaults to 20. PLAIN=0 skips the --no-cache run. Examples:
#   bench/scan/revisions.sh /work/.mirror/sqlalchemy+sqlalchemy/repo '^rel_2_0_[0-9]+$' 20
#   bench/scan/revisions.sh /work/.mirror/sympy+sympy/repo --branch master 21 20
set -euo pipefail
cd "$(dirname "$0")/../.."
usage() { sed -n 2,19p "$0"; exit 2; }
[ $# -ge 2 ] || usage
git_dir=$1
errdex=${ERRDEX:-build/errdex}
[ -x "$errdex" ] || { echo "build errdex first (make build)"; exit 2; }
if [ "$2" = --branch ]; then
  [ $# -ge 4 ] || usage
  branch=$3 days=$4 n=${5:-20}
  # First-parent commits, newest first, as "sha epoch"; keep one whenever it
  # is DAYS older than the last kept.
  mapfile -t revs_sha < <(git --git-dir="$git_dir" log --first-parent --format='%H %ct' "$branch" |
    awk -v gap=$((days * 86400)) -v n="$n" '
      NR == 1 || last - $2 >= gap { kept[k++] = $1; last = $2; if (k == n) exit }
      END { for (i = k - 1; i >= 0; i--) print kept[i] }')
  tags=("${revs_sha[@]}")
  what="${#tags[@]} commits of $branch, $days+ days apart"
else
  pattern=$2 n=${3:-20}
  mapfile -t tags < <(git --git-dir="$git_dir" tag --sort=version:refname | grep -E "$pattern" | tail -n "$n")
  what="${#tags[@]} tags"
fi
[ "${#tags[@]}" -gt 1 ] || { echo "fewer than two revisions found"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
revs=()
for t in "${tags[@]}"; do revs+=(--rev "$t"); done

# Seconds of one command, wall and CPU (user + system): "WALL CPU". The
# machine is shared, so the CPU seconds say more than the wall clock.
seconds() {
  /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >/dev/null
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$work/time"
}

date_of() { git --git-dir="$git_dir" log -1 --format=%cs "$1"; }
echo "repository $git_dir: $what, ${tags[0]:0:12} ($(date_of "${tags[0]}")) .. ${tags[-1]:0:12} ($(date_of "${tags[-1]}"))"
read -r one one_cpu < <(seconds "$errdex" scan "$git_dir" --rev "${tags[-1]}" --repo bench/revs -q --no-cache --db "sqlite:$work/one.db")
read -r many many_cpu < <(seconds "$errdex" scan "$git_dir" "${revs[@]}" --repo bench/revs -q --db "sqlite:$work/many.db")
if [ "${PLAIN:-1}" != 0 ]; then
  read -r plain plain_cpu < <(seconds "$errdex" scan "$git_dir" "${revs[@]}" --repo bench/revs -q --no-cache --db "sqlite:$work/plain.db")
fi
# How much of the newest revision's tree the cache held: files parsed once
# in all the revisions against files read.
files=$("$errdex" scan "$git_dir" --rev "${tags[-1]}" --repo bench/revs -q --json --db "sqlite:$work/one.db" |
        python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["parsed"])')
count() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$@"; }
distinct=$(count "$work/many.db" "SELECT count(*) FROM file_facts WHERE key NOT LIKE 'records:%' AND key NOT LIKE 'blob:%'")
one_distinct=$(count "$work/one.db" "SELECT count(*) FROM file_facts WHERE key NOT LIKE 'records:%' AND key NOT LIKE 'blob:%'")
analyzed=$(count "$work/many.db" "SELECT count(*) FROM file_facts WHERE key LIKE 'records:%'")
one_analyzed=$(count "$work/one.db" "SELECT count(*) FROM file_facts WHERE key LIKE 'records:%'")
revisions=$(count "$work/many.db" 'SELECT count(*) FROM datasets')
records=$(count "$work/many.db" 'SELECT count(*) FROM records')
ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }
printf '| what | seconds | × one scan | CPU seconds | × one scan |\n|---|---:|---:|---:|---:|\n'
printf '| one full scan of %s | %.2f | 1.00 | %.2f | 1.00 |\n' "${tags[-1]:0:12}" "$one" "$one_cpu"
printf '| %d revisions, facts and records cache | %.2f | %s | %.2f | %s |\n' "${#tags[@]}" "$many" "$(ratio "$many" "$one")" \
  "$many_cpu" "$(ratio "$many_cpu" "$one_cpu")"
if [ "${PLAIN:-1}" != 0 ]; then
  printf '| %d revisions, every file parsed (--no-cache) | %.2f | %s | %.2f | %s |\n' "${#tags[@]}" "$plain" \
    "$(ratio "$plain" "$one")" "$plain_cpu" "$(ratio "$plain_cpu" "$one_cpu")"
fi
if [ "${PLAIN:-1}" != 0 ]; then
  # The caches change no answer: each revision exports the same lines from
  # both stores, but for the times of analysis.
  differ=0
  for t in "${tags[@]}"; do
    for db in many plain; do
      "$errdex" export --repo bench/revs --ref "$t" --db "sqlite:$work/$db.db" |
        sed -E 's/"(analyzedAt|at|datasetVersion)":"[^"]*"//g' > "$work/$db.jsonl"
    done
    cmp -s "$work/many.jsonl" "$work/plain.jsonl" || { differ=$((differ + 1)); echo "export of $t differs"; }
  done
  echo "exports of the ${#tags[@]} revisions, cached against --no-cache (times removed): $differ differ"
fi
echo "revisions stored: $revisions, $records records in all; files parsed in one revision (test files read as evidence not counted): $files;"
echo "file contents parsed (test files included): $one_distinct in one revision, $distinct distinct over all ($(ratio "$distinct" "$one_distinct")×);"
echo "files analyzed (distinct file, content and class resolutions): $one_analyzed in one revision, $analyzed over all ($(ratio "$analyzed" "$one_analyzed")×)"
