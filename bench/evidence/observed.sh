#!/usr/bin/env bash
# bench/evidence/observed.sh: tests seen raising errors (issue 29, item 2).
# Runs the standard library's own test suite under the observer
# (python3 -m errdex.observe, clients/python), scans the standard library
# as `make run` indexes it (--prefix Lib) with and without what it wrote,
# and prints the share of records naming a test (bench/evidence/prose.py).
# Then the observer's cost, against the same tests run without it
# (the peer: the test runner alone), on a subset of test modules,
# alternating runs, CPU time of the whole process tree.
#
#   bench/evidence/observed.sh               (the whole suite, -j2; RUNS=3)
#   TESTS='test_json test_csv' bench/evidence/observed.sh
#   OBSERVED=/tmp/observed.jsonl bench/evidence/observed.sh   (reuse a run)
set -euo pipefail
cd "$(dirname "$0")/../.."
errdex=${ERRDEX:-build/errdex}
[ -x "$errdex" ] || { echo "build errdex first (make build)"; exit 2; }
python=${PYTHON:-python3}
stdlib=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
client=$PWD/clients/python
runs=${RUNS:-3}
subset=${SUBSET:-test_json test_ipaddress test_argparse test_csv test_configparser test_fractions test_email test_tempfile}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

observed=${OBSERVED:-}
if [ -z "$observed" ]; then
  observed=$work/observed.jsonl
  echo "running the standard library's tests under the observer (${TESTS:-the whole suite}) ..."
  start=$(date +%s)
  # A failing test is no failure here: what ran is observed.
  PYTHONPATH=$client "$python" -m errdex.observe -o "$observed" -- -m test -j2 --timeout 900 -q ${TESTS:-} \
    > "$work/tests.log" 2>&1 || true
  echo "  $(( $(date +%s) - start )) s, $(wc -l < "$observed") observations; $(tail -1 "$work/tests.log")"
fi

for kind in code observed; do
  extra=()
  [ "$kind" = observed ] && extra=(--observed "$observed")
  "$errdex" scan "$stdlib" --repo python/cpython --prefix Lib -q --no-cache --db "sqlite:$work/$kind.db" \
    "${extra[@]}" --json > "$work/$kind.json"
  "$errdex" export --db "sqlite:$work/$kind.db" > "$work/$kind.jsonl"
  printf '%-9s ' "$kind:"
  python3 bench/evidence/prose.py "$work/$kind.jsonl" | grep 'naming >= 1 test'
done
python3 -c 'import json, sys; o = json.load(open(sys.argv[1]))["observed"]; print("observed:", o)' "$work/observed.json"

echo "the observer's cost on $subset ($runs alternating runs, CPU s of the process tree):"
cpu() {  # CPU seconds (user + sys) of one run of the subset, children included
  /usr/bin/time -f '%U %S' -o "$work/time" "$@" -m test -q $subset > /dev/null 2>&1 || true
  awk '{printf "%.2f\n", $1 + $2}' "$work/time"
}
plain=() with=()
for i in $(seq "$runs"); do
  plain+=("$(cpu "$python")")
  rm -f "$work/cost.jsonl"
  with+=("$(PYTHONPATH=$client cpu "$python" -m errdex.observe -o "$work/cost.jsonl" --)")
  echo "  run $i: tests alone ${plain[-1]} s, observed ${with[-1]} s"
done
python3 - "${plain[*]}" "${with[*]}" <<'PY'
import statistics, sys
plain = [float(x) for x in sys.argv[1].split()]
with_ = [float(x) for x in sys.argv[2].split()]
print("median: tests alone %.2f s, observed %.2f s: %.3fx" % (
    statistics.median(plain), statistics.median(with_), statistics.median(with_) / statistics.median(plain)))
PY
