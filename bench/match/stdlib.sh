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
