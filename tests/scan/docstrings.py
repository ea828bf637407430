#!/usr/bin/env python3
"""Docstrings of Python files as the ast module reads them.

Usage: docstrings.py FILE...   (or the files' paths on stdin, one a line)

One JSON line per file: {"path": FILE, "docstrings": [[kind, name, line,
text], ...]} where kind is "module", "class" or "function", name is dotted
within the file ("A.f", "" for the module), line is where the string
starts, and text is inspect.cleandoc's (each line's trailing blanks
stripped). Files Python cannot parse give {"path": FILE, "error": ...}.
"""
import ast
import json
import sys


def docstrings(tree):
    out = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                doc = ast.get_docstring(child, clean=True)
                if doc is not None:
                    kind = "class" if isinstance(child, ast.ClassDef) else "function"
                    out.append([kind, name, child.body[0].lineno, doc])
                visit(child, name + ".")
            else:
                visit(child, prefix)

    doc = ast.get_docstring(tree, clean=True)
    if doc is not None:
        out.append(["module", "", tree.body[0].lineno, doc])
    visit(tree, "")
    for d in out:
        d[3] = "\n".join(line.rstrip() for line in d[3].split("\n")).strip("\n")
    return sorted(out, key=lambda d: (d[2], d[1]))


def main():
    paths = sys.argv[1:] or [line.rstrip("\n") for line in sys.stdin if line.strip()]
    for path in paths:
        try:
            with open(path, "rb") as f:
                tree = ast.parse(f.read(), path)
            print(json.dumps({"path": path, "docstrings": docstrings(tree)}))
        except (SyntaxError, ValueError, UnicodeDecodeError) as e:
            print(json.dumps({"path": path, "error": str(e)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
