#!/usr/bin/env python3
"""Issue 29's measure as a test: scans the machine's python3 standard
library with errdex into a fresh store, exports it, runs
bench/evidence/prose.py and fails when a prose field's boilerplate share
(records whose every sentence ≥ 1 % of the records share) is above its
ceiling, or when a field is left empty in any record.

Usage: prose_boilerplate.py ERRDEX FIELD=CEILING...   (e.g. triggerScenarios=0.22)
"""
import json
import os
import subprocess
import sys
import sysconfig
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROSE = os.path.join(HERE, "..", "..", "bench", "evidence", "prose.py")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    errdex = sys.argv[1]
    ceilings = dict((k, float(v)) for k, v in (a.split("=", 1) for a in sys.argv[2:]))
    stdlib = sysconfig.get_paths()["stdlib"]
    with tempfile.TemporaryDirectory() as tmp:
        db = "sqlite:" + os.path.join(tmp, "x.db")
        subprocess.run([errdex, "scan", stdlib, "--repo", "python/cpython", "--prefix", "Lib", "-q", "--db", db],
                       check=True, stdout=subprocess.DEVNULL)
        export = os.path.join(tmp, "x.jsonl")
        with open(export, "w") as f:
            subprocess.run([errdex, "export", "--db", db], check=True, stdout=f)
        out = subprocess.run([sys.executable, PROSE, export, "--json"], check=True, capture_output=True, text=True)
    result = json.loads(out.stdout)
    failed = False
    for field, ceiling in ceilings.items():
        v = result["fields"][field]
        print(f"{field}: {100 * v['share']:.1f} % boilerplate ({v['boilerplate']} of {v['filled']}), "
              f"ceiling {100 * ceiling:.1f} %")
        if v["share"] > ceiling:
            print(f"FAIL: {field} is above its ceiling", file=sys.stderr)
            failed = True
        if v["filled"] != result["records"]:
            print(f"FAIL: {field} is empty in {result['records'] - v['filled']} records", file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
