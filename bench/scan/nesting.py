#!/usr/bin/env python3
"""bench/scan/nesting.py: write a tree of deeply nested and long-chained code.

    python3 bench/scan/nesting.py OUT [SCALE]     (SCALE 1 by default)
    BASELINE=… bench/scan/javascript.sh OUT       (errdex against ast-grep)

Generated code nests where people do not: an `else if` chain of hundreds,
callbacks in callbacks, a promise chain of hundreds of `.then`, a Python
`elif` chain of a thousand branches each raising, a message wrapped in
thousands of parentheses. tree-sitter parses each in linear time; a
scanner that looks up a node's parent (ts_node_parent walks down from the
root) or lists every earlier branch per site does not. The tree holds no
code of anyone's: every file is written here.
"""
import os
import sys


def write(out, name, text):
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write(text)


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) >= 2 else 2
    out = sys.argv[1]
    try:
        scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    except ValueError:
        print(f"nesting.py: SCALE must be a number, got {sys.argv[2]!r}", file=sys.stderr)
        return 2
    n = lambda k: max(1, int(k * scale))
    os.makedirs(out, exist_ok=True)
    write(out, "else_if.js", "function f(x) {\n  if (x === -1) {}\n" + "".join(
        f"  else if (x === {i}) {{ throw new Error(`v${{x}} {i}`); }}\n" for i in range(n(400))) + "}\n")
    write(out, "callbacks.js", "function f(x) {\n" + "".join(
        '  g(function (e) {\n    if (e) throw new Error("e" + e);\n' for _ in range(n(300))) +
        "".join("  });\n" for _ in range(n(300))) + "}\n")
    write(out, "then.js", "function f(p, x) {\n  return p\n" + "".join(
        f'    .then((v) => {{ if (v === {i}) throw new Error("step {i} failed: " + v); return v; }})\n'
        for i in range(n(400))) + ";\n}\n")
    write(out, "elif.py", "def f(x):\n    if x == -1:\n        pass\n" + "".join(
        f'    elif x == {i}:\n        raise ValueError(f"v{{x}} {i}")\n' for i in range(n(1000))))
    write(out, "parens.py", "def f():\n    raise ValueError(" + "(" * n(20000) + "1" + ")" * n(20000) + ")\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
