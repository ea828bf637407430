#!/usr/bin/env bash
# bench/scan: whole-process time of `errdex scan` (parse, extract, store)
# against a Python ast script doing the same extraction and against ast-grep
# searching `raise $E($$$)`, on the same tree in the same run.
#
#   bench/scan/run.sh [stdlib|transformers|all]   (default all)
#
# transformers needs a git repository holding commit a597f974 (the GitHub
# fork zucchini-nlp/transformers has it): set TRANSFORMERS_GIT to its git
# directory. Its src/ is extracted under bench/work/ (never committed).
set -euo pipefail
cd "$(dirname "$0")/../.."
which=${1:-all}
errdex=${ERRDEX:-build/errdex}
astgrep=node_modules/@ast-grep/cli-linux-x64-gnu/ast-grep
runs=${RUNS:-5}
work=bench/work
mkdir -p "$work" bench/out
[ -x "$errdex" ] || { echo "build errdex first (make build)"; exit 2; }
[ -x "$astgrep" ] || { echo "ast-grep missing: run scripts/deps.sh"; exit 2; }

trees=()
if [ "$which" = stdlib ] || [ "$which" = all ]; then
  trees+=("stdlib:$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')")
fi
if [ "$which" = transformers ] || [ "$which" = all ]; then
  git_dir=${TRANSFORMERS_GIT:-/work/.mirror/zucchini-nlp+transformers/repo}
  sha=a597f974857b3d92939971296bc0deb93d33d780
  if git --git-dir="$git_dir" cat-file -e "$sha^{commit}" 2>/dev/null; then
    if [ ! -d "$work/transformers/src" ]; then
      mkdir -p "$work/transformers"
      git --git-dir="$git_dir" archive "$sha" src | tar -x -C "$work/transformers"
    fi
    trees+=("transformers:$work/transformers/src")
  else
    echo "bench/scan: no transformers repository with $sha (set TRANSFORMERS_GIT); skipping it"
  fi
fi

for spec in "${trees[@]}"; do
  name=${spec%%:*}
  dir=${spec#*:}
  files=$(find "$dir" -name '*.py' -not -path '*/site-packages/*' | wc -l)
  bytes=$(find "$dir" -name '*.py' -not -path '*/site-packages/*' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
  echo "== $name: $dir ($files .py files, $bytes bytes)"
  db=$work/bench-$name.db
  hyperfine -N --warmup 1 --runs "$runs" --export-json "bench/out/scan-$name.json" \
    -n errdex "$errdex scan $dir --db sqlite:$db --quiet" \
    -n python-ast "python3 bench/scan/ast_extract.py $dir $work/ast-$name.jsonl" \
    -n ast-grep "$astgrep run --pattern 'raise \$E(\$\$\$)' --lang python --globs '!**/site-packages/**' --json=stream $dir" \
    --output=null
  # What each extracted (counts), outside the timed runs.
  n_errdex=$("$errdex" stats --db "sqlite:$db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["records"])')
  n_ast=$(wc -l < "$work/ast-$name.jsonl")
  n_raise_ast=$(grep -c '"kind": "raise"' "$work/ast-$name.jsonl" || true)
  n_grep=$("$astgrep" run --pattern 'raise $E($$$)' --lang python --globs '!**/site-packages/**' --json=stream "$dir" | wc -l)
  python3 bench/scan/report.py "$name" "$dir" "$files" "$bytes" "bench/out/scan-$name.json" \
    "$n_errdex" "$n_ast" "$n_raise_ast" "$n_grep"
done
