#!/usr/bin/env python3
"""Boilerplate and evidence in an errdex export (issue 29's measure).

Usage: prose.py EXPORT.jsonl [--json]

For each prose field (documentation, triggerScenarios, commonSituations,
solutions, preventionTips, exampleFix), the share of records whose every
sentence is shared with at least 1 % of the records ("boilerplate": the
record says nothing a reader could not guess); and the share of records that
name at least one test of the repository (evidence.tests).

Sentences: text split after '.', '!' or '?' followed by a space (list
fields: each item split so), stripped; a sentence counts once per record.
The names in a sentence do not make it specific: code spans (`...`),
quoted text and numbers are replaced by a placeholder before sentences are
compared, so "Passing a value out of range to `wrap`..." and the same
sentence naming `fill` are one sentence (the issue's measure).
exampleFix is code: it is compared line by line instead.
"""
import collections
import json
import re
import sys

FIELDS = ["documentation", "triggerScenarios", "commonSituations", "solutions", "preventionTips", "exampleFix"]
SPLIT = re.compile(r"(?<=[.!?])\s+")
NAMES = re.compile(r"`[^`]*`|'[^'\s][^']*'|\"[^\"]*\"|\b\d+\b")


def shape(sentence):
    return NAMES.sub("_", sentence.strip())


def units(field, value):
    if value is None:
        return set()
    items = value if isinstance(value, list) else [value]
    out = set()
    for item in items:
        if not isinstance(item, str):
            continue
        parts = item.splitlines() if field == "exampleFix" else SPLIT.split(item)
        out.update(shape(p) for p in parts if p.strip())
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    records = []
    with open(args[0], encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                records.append(json.loads(line)["record"])
    n = len(records)
    if n == 0:
        print("no records", file=sys.stderr)
        return 1
    threshold = max(1, -(-n // 100))  # >= 1 % of the records, at least one other
    result = {"records": n, "threshold": threshold, "fields": {}}
    for field in FIELDS:
        per_record = [units(field, r.get(field)) for r in records]
        counts = collections.Counter(u for s in per_record for u in s)
        filled = [s for s in per_record if s]
        boiler = sum(1 for s in filled if all(counts[u] >= threshold for u in s))
        result["fields"][field] = {"filled": len(filled), "boilerplate": boiler,
                                   "share": boiler / len(filled) if filled else 0.0}
    with_tests = sum(1 for r in records if (r.get("evidence") or {}).get("tests"))
    result["withTests"] = with_tests
    result["withTestsShare"] = with_tests / n
    if "--json" in sys.argv:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{n} records; a sentence is boilerplate when >= {threshold} records (1 %) hold it")
    print(f"{'field':<18} {'filled':>7} {'all boilerplate':>16} {'share':>7}")
    for field, v in result["fields"].items():
        print(f"{field:<18} {v['filled']:>7} {v['boilerplate']:>16} {100 * v['share']:>6.1f}%")
    print(f"records naming >= 1 test: {with_tests} ({100 * with_tests / n:.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
