# Sourced by the match benchmarks (run.sh, cost.sh), from the repository's
# root with $build set: builds errdex and match_bench there, scans this
# machine's python3 standard library into $work/stdlib.db and makes its real
# errors into $work/cases.jsonl (tests/match/stdlib_cases.py). Sets $work, a
# temporary directory removed on exit.
cmake --build "$build" -j2 --target errdex match_bench >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
"$build/errdex" scan "$stdlib" --repo python/cpython --ref "v$(python3 -c 'import platform; print(platform.python_version())')" \
  -q --db "sqlite:$work/stdlib.db" >/dev/null
python3 tests/match/stdlib_cases.py "$stdlib" "$work/cases" >"$work/cases.jsonl" 2>/dev/null </dev/null

# The flags $build compiles the matcher with (its compile_commands.json),
# without the compiler, includes, output and source: what the in-process
# comparisons (compilers.sh, pgo.sh) compile both sides with.
matcher_flags() {
  python3 - "$build/compile_commands.json" <<'PY'
import json, shlex, sys
for c in json.load(open(sys.argv[1])):
    if c["file"].endswith("src/match/matcher.cc"):
        args = c.get("arguments") or shlex.split(c["command"])
        out, skip = [], False
        for a in args[1:]:
            if skip:
                skip = False
            elif a in ("-o", "-c", "-I"):
                skip = True
            elif not (a.startswith("-I") or a.startswith("-std=") or a == c["file"]):
                out.append(a)
        print(" ".join(out))
        break
PY
}
