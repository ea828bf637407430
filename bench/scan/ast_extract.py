"""The peer: the same extraction as `errdex scan`, written with Python's ast.

For every .py file under ROOT: each raise statement (class, message
template from string literals, f-strings, %-format and .format, line), each
warnings.warn call and each assert with a message; written as JSON Lines to
OUT. Uses one process per core, like errdex uses one thread per core.
"""
import ast
import json
import os
import sys
from multiprocessing import Pool


class Source:
    """Source segments from cached UTF-8 lines: ast.get_source_segment
    re-splits the whole file on every call, which would make the peer
    slower than it needs to be."""

    def __init__(self, text):
        self.lines = text.encode("utf-8").splitlines(keepends=True)

    def segment(self, node):
        first, last = node.lineno - 1, node.end_lineno - 1
        if first == last:
            return self.lines[first][node.col_offset:node.end_col_offset].decode("utf-8", "replace")
        parts = [self.lines[first][node.col_offset:]] + self.lines[first + 1:last] + \
                [self.lines[last][:node.end_col_offset]]
        return b"".join(parts).decode("utf-8", "replace")


def template(node, src):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(v.value)
            else:
                out.append("{" + src.segment(v.value) + "}")
        return "".join(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        left = template(node.left, src)
        return left if left is not None else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return template(node.func.value, src)
    return None


def extract(path):
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
        tree = ast.parse(text)
        src = Source(text)
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            exc, msg = node.exc, None
            cls = None
            if isinstance(exc, ast.Call):
                cls = src.segment(exc.func)
                if exc.args:
                    msg = template(exc.args[0], src)
            elif exc is not None:
                cls = src.segment(exc)
            out.append({"path": path, "line": node.lineno, "kind": "raise", "cls": cls, "message": msg})
        elif isinstance(node, ast.Assert) and node.msg is not None:
            out.append({"path": path, "line": node.lineno, "kind": "assert", "cls": "AssertionError",
                        "message": template(node.msg, src)})
        elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name))
              and getattr(node.func, "attr", getattr(node.func, "id", None)) == "warn" and node.args):
            out.append({"path": path, "line": node.lineno, "kind": "warn", "cls": "UserWarning",
                        "message": template(node.args[0], src)})
    return out


def main():
    root, out_path = sys.argv[1], sys.argv[2]
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if x not in ("__pycache__", "site-packages", ".git", "node_modules")]
        files += [os.path.join(d, n) for n in names if n.endswith(".py")]
    with Pool(os.cpu_count()) as pool, open(out_path, "w") as out:
        n = 0
        for sites in pool.imap_unordered(extract, files, chunksize=16):
            for s in sites:
                out.write(json.dumps(s) + "\n")
                n += 1
    print(f"{n} sites", file=sys.stderr)


if __name__ == "__main__":
    main()
