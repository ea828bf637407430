#!/usr/bin/env bash
# bench/scan/javascript.sh: whole-process time of `errdex scan` (parse,
# extract, store) on a large JavaScript and TypeScript tree against ast-grep
# searching `throw $E` (JavaScript, TypeScript and TSX rules in one run) on
# the same files, in the same run.
#
#   bench/scan/javascript.sh [TREE]   (default: node_modules, the pinned npm
#                                      packages: 300+ packages, typescript's
#                                      compiler and rxjs's TypeScript sources)
#   RUNS=5                             runs of each command, after a warm-up
#   BASELINE=path/to/errdex            also time another errdex build (before
#                                      and after a change, in the same run)
#
# The commands run in turn (errdex, ast-grep, errdex, …) so that a burst of
# load on the shared machine falls on each of them alike; the medians of
# wall and CPU time (user + system, all threads) are reported. errdex's
# time is the whole scan (read, parse, extract, analyze, write the records
# into SQLite); ast-grep's is its search printing each match as JSON.
#
# Both read the same files: errdex skips nested node_modules folders,
# `.d.ts`, `.min.js` and files over 8 MiB (typescript/lib/typescript.js),
# so ast-grep is told to skip them too. errdex runs with --include-tests and
# --no-cache so that no file's facts come from a cache: it reads every
# file and parses each one its keyword check lets through (ast-grep parses
# them all).
set -euo pipefail
cd "$(dirname "$0")/../.."
tree=${1:-node_modules}
errdex=${ERRDEX:-build/errdex}
astgrep=node_modules/@ast-grep/cli-linux-x64-gnu/ast-grep
runs=${RUNS:-5}
baseline=${BASELINE:-}
work=bench/work
mkdir -p "$work" bench/out
[ -x "$errdex" ] || { echo "build errdex first (make build)"; exit 2; }
[ -x "$astgrep" ] || { echo "ast-grep missing: run scripts/deps.sh"; exit 2; }
[ -z "$baseline" ] || [ -x "$baseline" ] || { echo "BASELINE=$baseline is not an executable"; exit 2; }

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
base_db=$work/bench-javascript-baseline.db
python3 - "$runs" "$tree" "$files" "$bytes" "$errdex" "$db" "$baseline" "$base_db" "${astgrep_cmd[@]}" <<'EOF'
import datetime, json, os, statistics, subprocess, sys, time
runs, tree, files, size, errdex, db, baseline, base_db = sys.argv[1:9]
astgrep = sys.argv[9:]
runs = int(runs)


def errdex_cmd(binary, store):
    return [binary, "scan", tree, "--db", f"sqlite:{store}", "--quiet", "--include-tests", "--no-cache"]


commands = [("errdex", errdex_cmd(errdex, db), db)]
if baseline:
    commands.append(("errdex (baseline)", errdex_cmd(baseline, base_db), base_db))
commands.append(("ast-grep", astgrep, None))


def timed(cmd, store):
    """Wall and CPU (user + system of the process and its threads) of one run."""
    if store and os.path.exists(store):
        os.remove(store)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if status != 0:
        sys.exit(f"{cmd[0]} failed (wait status {status})")
    return wall, ru.ru_utime + ru.ru_stime


times = {name: [] for name, _, _ in commands}
for run in range(runs + 1):  # round 0 warms the page cache and is not counted
    for name, cmd, store in commands:
        wall, cpu = timed(cmd, store)
        if run:
            times[name].append((wall, cpu))


def count_records(store):
    out = subprocess.run([errdex, "stats", "--db", f"sqlite:{store}", "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["records"]


n_grep = subprocess.run(astgrep, capture_output=True, text=True, check=True).stdout.count("\n")
what = {
    "errdex": f"{count_records(db):,} records (throw, reject, callback, emit, assert; Python too), stored in SQLite",
    "ast-grep": f"{n_grep:,} matches of `throw $E` (JavaScript, TypeScript, TSX), printed as JSON",
}
if baseline:
    what["errdex (baseline)"] = f"{count_records(base_db):,} records (`{baseline}`)"
med = {n: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for n, t in times.items()}
ew, ec = med["errdex"]
lines = [
    f"### scan, JavaScript and TypeScript: {tree} ({int(files):,} files, {int(size) / 1e6:.1f} MB), "
    f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
    "",
    f"Command: `{'BASELINE=' + baseline + ' ' if baseline else ''}RUNS={runs} bench/scan/javascript.sh` "
    f"(the commands in turn, {runs} runs each after a warm-up round; medians; CPU is user + system of all "
    f"threads; 2 cores; load average {os.getloadavg()[0]:.1f} at the end)",
    "",
    "| tool | wall s | CPU s | errdex is N× faster (wall) | (CPU) | what it extracts |",
    "|---|---:|---:|---:|---:|---|",
]
for name, _, _ in commands:
    w, c = med[name]
    lines.append(f"| {name} | {w:.3f} | {c:.3f} | {w / ew:.2f} | {c / ec:.2f} | {what[name]} |")
lines += ["", "Runs (wall s / CPU s): " + "; ".join(
    f"{name} " + ", ".join(f"{w:.2f}/{c:.2f}" for w, c in times[name]) for name, _, _ in commands)]
text = "\n".join(lines) + "\n"
print(text)
os.makedirs("bench/out", exist_ok=True)
with open("bench/out/scan-javascript.json", "w") as f:
    json.dump({"tree": tree, "files": int(files), "bytes": int(size), "runs": times}, f, indent=1)
with open("bench/RESULTS.md", "a") as f:
    f.write("\n" + text)
EOF
