"""The site each case of another Python version corresponds to in the indexed
standard library, for the match accuracy test across versions.

Usage: version_sites.py OTHER_STDLIB INDEXED_STDLIB < cases.jsonl

Reads the JSON lines stdlib_cases.py printed with another interpreter (each
with "file", relative to its standard library, and "line") and prints each
with "want": the line of the corresponding statement in the indexed
standard library, or null when that version has none. Corresponding: the
same file, the same enclosing function or class (qualified name), and the
same text on the statement's first line; among several such in one
function, the same ordinal. Read with Python's own ast, so nothing errdex
computes decides what is right.
"""
import ast
import json
import os
import sys
from functools import lru_cache

OTHER, INDEXED = sys.argv[1], sys.argv[2]


@lru_cache(maxsize=None)
def statements(path):
    """line -> (qualified name, first line's text) of each raise and assert."""
    try:
        with open(path, encoding="utf-8") as f:
            src = f.read()
        tree = ast.parse(src)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None
    lines = src.splitlines()
    out = {}

    def walk(node, qual):
        for child in ast.iter_child_nodes(node):
            q = qual
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                q = qual + "." + child.name if qual else child.name
            if isinstance(child, (ast.Raise, ast.Assert)):
                out[child.lineno] = (q, lines[child.lineno - 1].strip())
            walk(child, q)

    walk(tree, "")
    return out


for raw in sys.stdin:
    case = json.loads(raw)
    mine = statements(os.path.join(OTHER, case["file"]))
    theirs = statements(os.path.join(INDEXED, case["file"]))
    want = None
    if mine and theirs and case["line"] in mine:
        key = mine[case["line"]]
        same_here = sorted(l for l, k in mine.items() if k == key)
        same_there = sorted(l for l, k in theirs.items() if k == key)
        if same_there:
            want = same_there[min(same_here.index(case["line"]), len(same_there) - 1)]
    case["want"] = want
    print(json.dumps(case))
