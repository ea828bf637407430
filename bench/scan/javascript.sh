#!/usr/bin/env bash
# bench/scan/javascript.sh: whole-process time of `errdex scan` (parse,
# extract, store) on a large JavaScript and TypeScript tree against ast-grep
# searching `throw $E` (JavaScript, TypeScript and TSX rules in one run) on
# the same files, in the same run.
#
#   bench/scan/javascript.sh [TREE]   (default: node_modules, the pinned npm
#                                      packages: 300+ packages, typescript's
#                                      compiler and rxjs's TypeScript sources)
#
# Both read the same files: errdex skips nested node_modules folders,
# `.d.ts`, `.min.js` and files over 8 MiB (typescript/lib/typescript.js),
# so ast-grep is told to skip them too. errdex runs with --include-tests and
# --no-cache so that it parses every file, as ast-grep does.
set -euo pipefail
cd "$(dirname "$0")/../.."
tree=${1:-node_modules}
errdex=${ERRDEX:-build/errdex}
astgrep=node_modules/@ast-grep/cli-linux-x64-gnu/ast-grep
runs=${RUNS:-5}
work=bench/work
mkdir -p "$work" bench/out
[ -x "$errdex" ] || { echo "build errdex first (make build)"; exit 2; }
[ -x "$astgrep" ] || { echo "ast-grep missing: run scripts/deps.sh"; exit 2; }

rules=$work/throw-rules.yml
cat > "$rules" <<'YAML'
id: throw-js
language: JavaScript
rule: { pattern: throw $E }
---
id: throw-ts
language: TypeScript
rule: { pattern: throw $E }
---
id: throw-tsx
language: Tsx
rule: { pattern: throw $E }
YAML
# What errdex leaves out. ast-grep matches globs against the path with the
# tree's name in front: `*/**/node_modules/**` is a node_modules inside it.
skip=(--globs '!*/**/node_modules/**' --globs '!**/*.min.js' --globs '!**/*.d.ts' --globs '!**/*.d.mts' --globs '!**/*.d.cts')
while IFS= read -r big; do skip+=(--globs "!**/${big#"$tree"/}"); done < <(find "$tree" -type f -size +8M)
# The tree is read whole: a .gitignore naming it (this repository's names
# node_modules/) must not hide it from ast-grep.
astgrep_cmd=("$astgrep" scan --no-ignore vcs --no-ignore hidden --rule "$rules" "${skip[@]}" --json=stream "$tree")

find_js() {
  find "$tree" -mindepth 1 \( -name node_modules -prune \) -o -type f \
    \( -name '*.js' -o -name '*.mjs' -o -name '*.cjs' -o -name '*.jsx' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.tsx' \) \
    -not -name '*.min.js' -not -name '*.d.ts' -not -name '*.d.mts' -not -name '*.d.cts' -size -8M -print0
}
files=$(find_js | tr -cd '\0' | wc -c)
bytes=$(find_js | du -cb --files0-from=- | tail -1 | cut -f1)
echo "== javascript: $tree ($files JS/TS files, $bytes bytes)"
db=$work/bench-javascript.db
rm -f "$db"
hyperfine -N --warmup 1 --runs "$runs" --export-json bench/out/scan-javascript.json \
  -n errdex "$errdex scan $tree --db sqlite:$db --quiet --include-tests --no-cache" \
  -n ast-grep "${astgrep_cmd[*]}" \
  --output=null
n_errdex=$("$errdex" stats --db "sqlite:$db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["records"])')
n_grep=$("${astgrep_cmd[@]}" | wc -l)
python3 - "$tree" "$files" "$bytes" bench/out/scan-javascript.json "$n_errdex" "$n_grep" <<'EOF'
import datetime, json, sys
tree, files, size, result, n_errdex, n_grep = sys.argv[1:]
runs = {r["command"]: r for r in json.load(open(result))["results"]}
e = runs["errdex"]
lines = [
    f"### scan, JavaScript and TypeScript: {tree} ({int(files):,} files, {int(size) / 1e6:.1f} MB), "
    f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
    "",
    f"Command: `bench/scan/javascript.sh` (hyperfine, {len(e['times'])} runs after a warm-up; 2 cores)",
    "",
    "| tool | mean s | ± s | errdex is N× faster | what it extracts |",
    "|---|---:|---:|---:|---|",
]
what = {
    "errdex": f"{int(n_errdex):,} records (throw, reject, callback, emit, assert; Python too), stored in SQLite",
    "ast-grep": f"{int(n_grep):,} matches of `throw $E` (JavaScript, TypeScript, TSX)",
}
for cmd in ("errdex", "ast-grep"):
    r = runs[cmd]
    lines.append(f"| {cmd} | {r['mean']:.3f} | {r['stddev']:.3f} | {r['mean'] / e['mean']:.2f} | {what[cmd]} |")
text = "\n".join(lines) + "\n"
print(text)
with open("bench/RESULTS.md", "a") as f:
    f.write("\n" + text)
EOF
