#!/usr/bin/env bash
# Matching with several revisions of one repository loaded (issue 28): this
# machine's Python standard libraries (python3's and up to three more from
# pyenv or /usr/bin, 3.10-3.13) scanned into one store as revisions of
# python/cpython, python3's real errors (tests/match/stdlib_cases.py) as the
# pasted lines. In one process, a matcher over the current revision only and
# one over every revision answer the same lines in turns (match_bench
# --all-revisions). Then the one-revision cost of the change: the matcher's
# sources at BASE (before revisions were matched) against the working
# tree's, in one process over python3's standard library (ab.sh, as
# compilers.sh compares compilers). Appends both to bench/RESULTS.md.
# usage: bench/match/revisions.sh [BUILD_DIR] [ROUNDS] [BASE]   (default build, 400, 4a8f3a5)
set -euo pipefail
cd "$(dirname "$0")/../.."
name=revisions.sh
base=${3:-4a8f3a5}
. bench/match/ab.sh "$@"
git rev-parse --verify -q "$base^{commit}" >/dev/null || { echo "$name: no commit $base here" >&2; exit 2; }
ab_prepare
py_lib() { "$1" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'; }
py_ver() { "$1" -c 'import platform; print(platform.python_version())'; }
pythons=()
for minor in 10 11 12 13; do
  for p in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.$minor.*/bin/python3 /usr/bin/python3.$minor; do
    [ -x "$p" ] && { pythons+=("$p"); break; }
  done
done
# python3's own too, unless one of those is the same version. Version
# order of the refs decides which revision is the current one.
pythons+=(python3)
refs=""
for p in "${pythons[@]}"; do
  ref="v$(py_ver "$p")"
  case " $refs " in *" $ref "*) continue ;; esac
  refs="$refs $ref"
  "$build/errdex" scan "$(py_lib "$p")" --repo python/cpython --prefix Lib --ref "$ref" -q \
    --db "sqlite:$work/revisions.db" >/dev/null
done
revs=$("$build/errdex" stats --db "sqlite:$work/revisions.db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["repos"][0]["ref"])')
table=$("$build/match_bench" --db "sqlite:$work/revisions.db" --cases "$work/cases.jsonl" --all-revisions 1 --rounds "$((rounds / 10 > 0 ? rounds / 10 : 1))")
echo "$table"
mkdir -p "$work/base"
# The base's sources with today's side (it reads the records as a dataset file).
git archive "$base" src | tar -x -C "$work/base"
mkdir -p "$work/base/bench/match" && cp bench/match/ab_side.cc "$work/base/bench/match/"
(cd "$work/base" && ab_compile clang++ a "$work/ab/a")
ab_compile clang++ b "$work/ab/b"
ab_run "$work/ab/a" "$work/ab/b" "$base" working-tree
cat >>bench/RESULTS.md <<EOT

### match, several revisions of the standard library, $(date -u '+%Y-%m-%d %H:%M') UTC

Command: \`bench/match/$name $build $rounds $base\` (revisions:$refs scanned
as python/cpython, current $revs; pasted lines: $(wc -l <"$work/cases.jsonl") real errors of python3; one thread; 2 shared cores)

$table

One revision, the matcher's sources at $base against this tree's, in one process, in turns:

\`\`\`
$out
\`\`\`
EOT
echo "bench/match/$name: appended to bench/RESULTS.md"
exit $status
