"""Checks errdex's entry points (evidence.entryPoints) of a scanned tree
against Python itself.

usage: check_entry_points.py EXPORT.jsonl TREE PREFIX REPORT.json

Static check, every record with entry points: each step of each chain is a
function or class defined in the named module (read with Python's ast, not
errdex's parser), and each step's body holds a call of the next step's name
(a class step's body is its __init__/__new__).

Dynamic check, for the cases below: the call with bad input is run, the
frame that raised names a record, and that record must list the call's
function as an entry point whose chain the traceback passes through in
order.
"""

import ast
import json
import os
import sys
import traceback

CASES = [
    ("json.loads", "import json; json.loads('[1,]')"),
    ("json.loads", "import json; json.loads('')"),
    ("textwrap.wrap", "import textwrap; textwrap.wrap('some text', width=0)"),
    ("base64.b32decode", "import base64; base64.b32decode(b'A')"),
    ("ipaddress.ip_address", "import ipaddress; ipaddress.ip_address('1.2.3')"),
    ("ipaddress.IPv4Address", "import ipaddress; ipaddress.IPv4Address('1.2.3.999')"),
    ("fractions.Fraction", "import fractions; fractions.Fraction(1, 0)"),
    ("fractions.Fraction", "import fractions; fractions.Fraction('abc')"),
    ("ipaddress.ip_network", "import ipaddress; ipaddress.ip_network('1.2.3.4/33')"),
    ("shlex.split", "import shlex; shlex.split('a \"b')"),
    ("configparser.RawConfigParser.read_string",
     "import configparser; configparser.RawConfigParser().read_string('no header')"),
    ("configparser.RawConfigParser.get", "import configparser; configparser.RawConfigParser().get('s', 'o')"),
]


def module_file(tree, prefix, parts):
    """The longest run of `parts` naming a module file, and the rest."""
    for k in range(len(parts), 0, -1):
        base = os.path.join(tree, *parts[:k])
        for f in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(f):
                return f, parts[k:]
    return None, None


_parsed = {}


def parse(path):
    if path not in _parsed:
        try:
            with open(path, "rb") as f:
                _parsed[path] = ast.parse(f.read())
        except (SyntaxError, ValueError):
            _parsed[path] = None
    return _parsed[path]


def defs_in(body):
    """The functions and classes a block defines, through if/try/with."""
    for child in body:
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield child
        elif isinstance(child, (ast.If, ast.Try, ast.With)):
            for part in ("body", "orelse", "finalbody"):
                yield from defs_in(getattr(child, part, []))
            for h in getattr(child, "handlers", []):
                yield from defs_in(h.body)


def find_def(module, qual):
    """The FunctionDef/ClassDef at dotted `qual` in a module."""
    node = module
    for name in qual:
        node = next((c for c in defs_in(node.body) if c.name == name), None)
        if node is None:
            return None
    return node


def bodies(node):
    """What runs when a step is called: a class runs its constructors."""
    if isinstance(node, ast.ClassDef):
        return [c for c in node.body
                if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef))
                and c.name in ("__init__", "__new__", "__post_init__")]
    return [node]


def called_names(node):
    names = set()
    for b in bodies(node):
        for n in ast.walk(b):
            if isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Attribute):
                    names.add(f.attr)
                elif isinstance(f, ast.Name):
                    names.add(f.id)
    return names


def step_names(node):
    if isinstance(node, ast.ClassDef):
        return {node.name, "__init__", "__new__", "__post_init__"}
    return {node.name}


def static_check(records, tree, prefix):
    steps_ok = steps = chains_ok = chains = 0
    bad = []
    for r in records:
        for ep in r.get("evidence", {}).get("entryPoints", []):
            chains += 1
            nodes = []
            for step in ep["chain"]:
                steps += 1
                path, rest = module_file(tree, prefix, step.split("."))
                node = None
                if path and rest:
                    mod = parse(path)
                    node = find_def(mod, rest) if mod else None
                nodes.append(node)
                steps_ok += node is not None
            linked = all(n is not None for n in nodes) and all(
                step_names(b) & called_names(a) for a, b in zip(nodes, nodes[1:]))
            chains_ok += linked
            if not linked and len(bad) < 20:
                bad.append(ep["chain"])
    return {"chains": chains, "chainsLinked": chains_ok, "steps": steps, "stepsFound": steps_ok, "badChains": bad}


def dynamic_check(records, tree, prefix):
    by_site = {(r["filePath"], r["lineNumber"]): r for r in records}
    results = []
    for entry, code in CASES:
        res = {"entry": entry, "code": code, "ok": False}
        try:
            exec(code, {})
            res["why"] = "raised nothing"
        except Exception:
            frames = traceback.extract_tb(sys.exc_info()[2])
            # The frame that raised: the last one in the tree.
            inside = [f for f in frames if os.path.realpath(f.filename).startswith(os.path.realpath(tree) + os.sep)]
            if not inside:
                res["why"] = "raised outside the tree"
                results.append(res)
                continue
            last = inside[-1]
            rel = os.path.relpath(os.path.realpath(last.filename), os.path.realpath(tree))
            key = ((prefix + "/" if prefix else "") + rel, last.lineno)
            res["site"] = "%s:%d" % key
            r = by_site.get(key)
            if r is None:
                res["why"] = "no record at the raising line"
            else:
                eps = {e["name"]: e["chain"] for e in r.get("evidence", {}).get("entryPoints", [])}
                res["entryPoints"] = list(eps)
                if entry not in eps:
                    res["why"] = "entry point not listed"
                else:
                    # The chain's functions in the traceback, in order.
                    names = [f.name for f in inside]
                    at = 0
                    for step in eps[entry]:
                        last_name = step.rsplit(".", 1)[-1]
                        want = {last_name, "__init__", "__new__", "__post_init__"} if last_name[:1].isupper() \
                            else {last_name}
                        while at < len(names) and names[at] not in want:
                            at += 1
                        if at == len(names):
                            break
                        at += 1
                    else:
                        res["ok"] = True
                    if not res["ok"]:
                        res["why"] = "traceback %s does not pass through %s" % (names, eps[entry])
        results.append(res)
    return results


def main():
    export, tree, prefix, report = sys.argv[1:5]
    records = []
    with open(export) as f:
        for line in f:
            records.append(json.loads(line)["record"])
    out = static_check(records, tree, prefix)
    out["cases"] = dynamic_check(records, tree, prefix)
    out["casesOk"] = sum(c["ok"] for c in out["cases"])
    with open(report, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
