"""What the real-error generators (stdlib_cases.py, dist_cases.py,
fresh_cases.py) share: their cases' layout, running one, and where its
exception was raised."""
import ast
import contextlib
import io
import os
import sys


def split_cases(text):
    """A case starts at each line that begins with `import `; the lines
    after it up to the next such line belong to it."""
    cases = []
    for line in text.strip("\n").split("\n"):
        if line.startswith("import ") or not cases:
            cases.append(line)
        else:
            cases[-1] += "\n" + line
    return cases


def raise_lines(path, cache={}):
    """The lines of `raise` and `assert` statements in the Python file at
    `path` (none when it does not parse)."""
    if path not in cache:
        lines = set()
        try:
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, (ast.Raise, ast.Assert)):
                    lines.add(node.lineno)
        except (SyntaxError, OSError, UnicodeDecodeError, ValueError):
            pass
        cache[path] = lines
    return cache[path]


def run_case(code, n, quiet_stderr=False):
    """Runs case `n`; the exception it raised (SystemExit and
    KeyboardInterrupt too: they are errors users paste), or None."""
    try:
        with contextlib.ExitStack() as quiet:
            quiet.enter_context(contextlib.redirect_stdout(io.StringIO()))  # some calls print
            if quiet_stderr:
                quiet.enter_context(contextlib.redirect_stderr(io.StringIO()))
            exec(compile(code, "<case %d>" % n, "exec"), {"__name__": "__case__"})
    except BaseException as e:
        return e
    return None


def innermost(err):
    """(real path, line, file as printed) of the frame that raised `err`. A
    module the interpreter runs frozen prints `<frozen os>`: its real path
    is the module's file."""
    tb = err.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    printed = tb.tb_frame.f_code.co_filename
    path = printed
    if printed.startswith("<frozen ") and tb.tb_frame.f_globals.get("__file__"):
        path = tb.tb_frame.f_globals["__file__"]
    return os.path.realpath(path), tb.tb_lineno, printed


class Counts:
    kept = 0
    left_out = 0


def raised(cases, where, what, counts, quiet_stderr=False):
    """Runs each of `cases` (codes, in order) and yields (number, code,
    exception, place, line) for those raised by a `raise` or `assert`
    statement of a file `where(real path)` places (None: not one of
    `what`); the others are reported on stderr. `counts` is kept up to
    date."""
    for n, code in enumerate(cases):
        err = run_case(code, n, quiet_stderr)
        if err is None:
            why = "raised nothing"
        else:
            path, line, printed = innermost(err)
            place = where(path)
            if place is None:
                why = "left out: raised outside %s (%s)" % (what, printed)
            elif line not in raise_lines(path):
                why = "left out: innermost line %s:%d is not a raise (raised in C)" % (path, line)
            else:
                why = None
        if why:
            print("case %d %s: %s" % (n, why, code.splitlines()[-1]), file=sys.stderr)
            counts.left_out += 1
            continue
        counts.kept += 1
        yield n, code, err, place, line
