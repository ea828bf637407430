"""Reference extraction with Python's own ast module.

Prints one JSON object per raise statement of every .py file under ROOT:
{"path", "line", "cls", "template"} where template is the brace-form message
for messages built from string literals (plain strings and f-strings) and
null otherwise. Files that ast cannot read are reported as {"path",
"unparsable": reason}. Walks the tree with the same skip rules as errdex
(dependency folders, symlink loops, non-regular files).
"""
import ast
import json
import os
import sys

SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "site-packages", "dist-packages", "__pycache__",
             ".venv", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".eggs", ".direnv"}


class Source:
    """ast.get_source_segment without re-splitting the file on every call
    (offsets are UTF-8 byte columns, as ast gives them)."""

    def __init__(self, text):
        self.lines = text.encode("utf-8").splitlines(keepends=True)

    def segment(self, node):
        if getattr(node, "end_lineno", None) is None:
            return None
        first, last = node.lineno - 1, node.end_lineno - 1
        if first == last:
            return self.lines[first][node.col_offset:node.end_col_offset].decode("utf-8")
        parts = [self.lines[first][node.col_offset:]] + self.lines[first + 1:last] + \
                [self.lines[last][:node.end_col_offset]]
        return b"".join(parts).decode("utf-8")


def fstring_template(node, src):
    out = []
    for v in node.values:
        if isinstance(v, ast.Constant):
            out.append(v.value)
        elif isinstance(v, ast.FormattedValue):
            text = src.segment(v.value)
            if text is None:
                return None
            if v.conversion != -1:
                text += "!" + chr(v.conversion)
            if v.format_spec is not None:
                spec = fstring_template(v.format_spec, src)
                if spec is None:
                    return None
                text += ":" + spec
            out.append("{" + text + "}")
        else:
            return None
    return "".join(out)


def literal_template(node, src):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return fstring_template(node, src)
    return None


def sites(path, rel):
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
        tree = ast.parse(text, filename=rel)
        src = Source(text)
    except (SyntaxError, UnicodeDecodeError, ValueError) as e:
        print(json.dumps({"path": rel, "unparsable": type(e).__name__}))
        return
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise):
            continue
        cls, template = None, None
        exc = node.exc
        if isinstance(exc, ast.Call):
            cls = src.segment(exc.func)
            if exc.args:
                template = literal_template(exc.args[0], src)
                # Lone surrogates ("\udcff") have no UTF-8 form to compare.
                try:
                    template is None or template.encode("utf-8")
                except UnicodeEncodeError:
                    template = None
        elif exc is not None:
            cls = src.segment(exc)
        print(json.dumps({"path": rel, "line": node.lineno, "cls": cls, "template": template}))


def main():
    root = sys.argv[1]
    seen = set()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        st = os.stat(dirpath)
        if (st.st_dev, st.st_ino) in seen:
            dirnames[:] = []
            continue
        seen.add((st.st_dev, st.st_ino))
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS
                             and not os.path.exists(os.path.join(dirpath, d, "pyvenv.cfg")))
        for name in sorted(filenames):
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            if not os.path.isfile(path) or os.path.getsize(path) > 8 * 1024 * 1024:
                continue
            sites(path, os.path.relpath(path, root).replace(os.sep, "/"))


if __name__ == "__main__":
    main()
