#!/usr/bin/env bash
# bench/scan/python_env.sh: `errdex scan --python` (an interpreter's standard
# library and every installed distribution, each at its version) against
# scanning the same folders one by one as a user would without it (one
# `errdex scan` per top-level package folder or module of each
# distribution, and the standard library), into empty stores, in the same
# run. Prints both, and what each indexed.
#
#   bench/scan/python_env.sh [INTERPRETER]   (default python3)
set -euo pipefail
cd "$(dirname "$0")/../.."
python=${1:-python3}
errdex=${ERRDEX:-build/errdex}
[ -x "$errdex" ] || { echo "build errdex first (make build)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { python3 -c 'import time; print(time.monotonic())'; }
t0=$(now)
"$errdex" scan --python "$python" -q --json --db "sqlite:$work/env.db" >"$work/env.json"
t1=$(now)

# The same folders, one scan each: the standard library, then each
# distribution's top-level folders and modules (from its RECORD).
"$python" -I - >"$work/folders.txt" <<'PY'
import importlib.metadata as md, os, sys, sysconfig
print("%s\tpython/cpython\tLib\tv%d.%d.%d" % ((sysconfig.get_paths()["stdlib"],) + sys.version_info[:3]))
for d in md.distributions():
    root = str(d.locate_file(""))
    tops = sorted({str(f).split("/")[0] for f in (d.files or []) if str(f).endswith(".py") and not str(f).startswith("..")})
    name = d.metadata["Name"].lower().replace("_", "-").replace(".", "-")
    for top in tops:
        path = os.path.join(root, top)
        if os.path.isdir(path):
            print("%s\tpypi/%s\t%s\t%s" % (path, name, top, d.version))
PY
t2=$(now)
n=0
while IFS=$'\t' read -r path repo prefix ref; do
  "$errdex" scan "$path" --repo "$repo" --prefix "$prefix" --ref "$ref" -q --db "sqlite:$work/one.db" >/dev/null || true
  n=$((n + 1))
done <"$work/folders.txt"
t3=$(now)
python3 - "$work/env.json" "$t0" "$t1" "$t2" "$t3" "$n" <<'PY'
import json, sys
env = json.load(open(sys.argv[1]))
t0, t1, t2, t3 = map(float, sys.argv[2:6])
print("| how | scans | seconds |")
print("|---|---:|---:|")
print("| errdex scan --python: the standard library and %d distributions, %d files, %d records | 1 | %.2f |"
      % (env["distributions"], env["files"], env["records"], t1 - t0))
print("| one errdex scan per folder | %s | %.2f |" % (sys.argv[6], t3 - t2))
print("ratio: %.2fx" % ((t3 - t2) / (t1 - t0)))
PY
