"""Prints the comparison of one bench/scan run and appends it to bench/RESULTS.md."""
import datetime
import json
import sys

name, tree, files, size, result, n_errdex, n_ast, n_raise_ast, n_grep = sys.argv[1:]
runs = {r["command"]: r for r in json.load(open(result))["results"]}
e = runs["errdex"]
lines = [
    f"### scan, {name} ({int(files):,} files, {int(size) / 1e6:.1f} MB), "
    f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
    "",
    f"Command: `bench/scan/run.sh {name}` (hyperfine, {len(e['times'])} runs after a warm-up; 2 cores)",
    "",
    "| tool | mean s | ± s | errdex is N× faster | what it extracts |",
    "|---|---:|---:|---:|---|",
]
what = {
    "errdex": f"{int(n_errdex):,} records (raise, warn, assert), stored in SQLite",
    "python-ast": f"{int(n_ast):,} sites ({int(n_raise_ast):,} raise) to JSONL",
    "ast-grep": f"{int(n_grep):,} matches of `raise $E($$$)` (misses `raise X`)",
}
for cmd in ("errdex", "python-ast", "ast-grep"):
    r = runs[cmd]
    ratio = r["mean"] / e["mean"]
    lines.append(f"| {cmd} | {r['mean']:.3f} | {r['stddev']:.3f} | {ratio:.2f} | {what[cmd]} |")
text = "\n".join(lines) + "\n"
print(text)
with open("bench/RESULTS.md", "a") as f:
    f.write("\n" + text)
