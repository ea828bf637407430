"""Runs a project's tests and writes down, for each error a test expects and
gets (unittest's assertRaises and assertRaisesRegex, as call or `with`;
pytest.raises), where it was raised and by which test, one JSON line each:

    python3 -m errdex.observe -o observed.jsonl -- -m pytest tests/
    python3 -m errdex.observe -o observed.jsonl -- -m test -j2 test_json

Everything after `--` is given to the same interpreter. Child interpreters
(a test runner's workers) are observed too: they inherit the output file
through ERRDEX_OBSERVE and load this module through the small
sitecustomize next to it. `errdex scan PATH --observed observed.jsonl` then
links each raise to its record (evidence.tests): a test seen raising the
error, not one guessed from the code.

Standard library only. An observation that cannot be written is dropped;
the tests run as they would without it.
"""

import json
import linecache
import os
import sys
import threading
import tokenize

__all__ = ["install", "main"]

_ENV = "ERRDEX_OBSERVE"
_MAX_FRAMES = 12   # frames kept below the test's, innermost first
_MAX_CODE_LINES = 6
_installed = False
_output = None
_running = threading.local()
_seen = set()


def _frames_of(tb):
    """(file, line) of each frame of `tb`, innermost first."""
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    frames.reverse()
    return frames


def _statement_lines(path, line):
    """The statement at `line` of `path` (with its continuation lines) and,
    when it opens a block (a `with`), the block under it: at most
    _MAX_CODE_LINES lines, dedented."""
    first = linecache.getline(path, line)
    if not first.strip():
        return ""
    lines = [first]
    # The statement ends at the tokenizer's first NEWLINE (brackets and
    # strings spanning lines are read as Python reads them).
    try:
        n = line
        def readline():
            nonlocal n
            if n == line:
                n += 1
                return first.lstrip()
            if n - line >= _MAX_CODE_LINES:
                raise StopIteration
            text = linecache.getline(path, n)
            n += 1
            if text:
                lines.append(text)
            return text
        for token in tokenize.generate_tokens(readline):
            if token.type == tokenize.NEWLINE:
                break
    except (tokenize.TokenError, SyntaxError, StopIteration):
        pass
    lines = [l.rstrip() for l in lines]
    indent = len(lines[0]) - len(lines[0].lstrip())
    if lines[-1].endswith(":"):
        n = line + len(lines)
        while len(lines) < _MAX_CODE_LINES:
            text = linecache.getline(path, n)
            if not text:
                break
            n += 1
            if not text.strip():
                continue
            if len(text) - len(text.lstrip()) <= indent:
                break
            lines.append(text.rstrip())
    return "\n".join(l[indent:] if not l[:indent].strip() else l.lstrip() for l in lines)


def _place_of_test(skip_files):
    """(file, line) of the nearest frame above the caller that is not the
    test framework's own: where the test expects the error. Read from the
    code and line only: a frame's f_locals would keep its values alive."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename not in skip_files:
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return None


def _test_of(skip_files):
    """(file, line, name) of the test that is running: the place its code
    expects the error, and its name: the TestCase's class and method, or
    pytest's node id."""
    place = _place_of_test(skip_files)
    if place is None:
        return None
    running = getattr(_running, "tests", None)
    if running:
        return place + (running[-1],)
    current = os.environ.get("PYTEST_CURRENT_TEST", "")
    if current:
        # "tests/test_x.py::TestA::test_b (call)": the name after the file.
        node = current.rsplit(" (", 1)[0]
        return place + (".".join(node.split("::")[1:]) or node,)
    return None


def _wrap_call(cls):
    """TestCase.__call__, which suites and runners call, keeps the running
    test's name for _test_of, per thread. Not TestCase.run: a warning
    unittest issues from under it names run's caller (stacklevel), which
    must stay the caller's."""
    original = cls.__dict__.get("__call__")
    if original is None or getattr(original, "_errdex", False):
        return

    def __call__(self, *args, **kwargs):
        tests = getattr(_running, "tests", None)
        if tests is None:
            tests = _running.tests = []
        try:
            name = "%s.%s" % (type(self).__qualname__, self._testMethodName)
        except Exception:
            name = type(self).__qualname__
        tests.append(name)
        try:
            return original(self, *args, **kwargs)
        finally:
            tests.pop()

    __call__._errdex = True
    cls.__call__ = __call__


# Taken when the observer loads: a test that mocks os.open (tempfile's
# tests do) must not decide where an observation goes.
_open, _write_fd, _close = os.open, os.write, os.close
_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT


def _write(path, line):
    try:
        fd = _open(path, _FLAGS, 0o644)
        try:
            _write_fd(fd, line.encode("utf-8", "replace"))
        finally:
            _close(fd)
    except OSError:
        pass


def _observe(exc_type, exc_value, tb, skip_files):
    path = _output
    if not path or tb is None or exc_type is None:
        return
    frames = _frames_of(tb)
    test = _test_of(skip_files)
    if test is None:
        return
    test_file = test[0]
    # The frames below the test's own: where the error came from.
    below = []
    for f in frames:
        if f[0] == test_file:
            break
        below.append(f)
        if len(below) == _MAX_FRAMES:
            break
    if not below:
        return
    key = (below[0], test[0], test[1])
    if key in _seen:
        return
    _seen.add(key)
    try:
        message = str(exc_value)
    except Exception:
        message = ""
    classes = [c.__qualname__ for c in getattr(exc_type, "__mro__", ())
               if c not in (object, BaseException)]
    record = {
        "raised": [[f, n] for f, n in below],
        "class": classes[0] if classes else "",
        "bases": classes[1:],
        "message": message[:500],
        "test": {"file": test[0], "line": test[1], "name": test[2],
                 "code": _statement_lines(test[0], test[1])},
    }
    _write(path, json.dumps(record, ensure_ascii=False) + "\n")


def _wrap_exit(cls, skip_files):
    original = cls.__dict__.get("__exit__")
    if original is None or getattr(original, "_errdex", False):
        return

    def __exit__(self, exc_type, exc_value, tb):
        swallowed = original(self, exc_type, exc_value, tb)
        if swallowed:
            try:
                _observe(exc_type, exc_value, tb, skip_files)
            except Exception:
                pass
        return swallowed

    __exit__._errdex = True
    cls.__exit__ = __exit__


def _wrap_pytest():
    """pytest.raises' context, once pytest is imported (its class moved
    between versions)."""
    for module_name, class_names in (("_pytest.python_api", ("RaisesContext",)),
                                     ("_pytest.raises", ("RaisesExc", "RaisesContext"))):
        module = sys.modules.get(module_name)
        if module is None:
            continue
        skip = {module.__file__, __file__}
        for name in class_names:
            cls = getattr(module, name, None)
            if isinstance(cls, type):
                _wrap_exit(cls, skip)


class _PytestFinder:
    """Wraps pytest.raises when pytest's module is first imported."""

    def find_spec(self, name, path=None, target=None):
        if name in ("_pytest.python_api", "_pytest.raises"):
            import importlib.util
            sys.meta_path.remove(self)
            try:
                spec = importlib.util.find_spec(name)
            finally:
                sys.meta_path.insert(0, self)
            if spec is not None and spec.loader is not None:
                loader = spec.loader
                exec_module = loader.exec_module

                def exec_then_wrap(module):
                    exec_module(module)
                    _wrap_pytest()
                spec.loader.exec_module = exec_then_wrap
            return spec
        return None


def install():
    """Observes this interpreter's expected errors (ERRDEX_OBSERVE names the
    file). Idempotent; does nothing without ERRDEX_OBSERVE."""
    global _installed, _output
    if _installed or not os.environ.get(_ENV):
        return
    _installed = True
    # Kept: tests clear and set os.environ (test.support's
    # EnvironmentVarGuard), and the output must not follow them.
    _output = os.environ[_ENV]
    import unittest.case
    skip = {unittest.case.__file__, __file__}
    _wrap_exit(unittest.case._AssertRaisesContext, skip)
    _wrap_call(unittest.case.TestCase)
    _wrap_pytest()
    sys.meta_path.insert(0, _PytestFinder())


_USAGE = """usage: python3 -m errdex.observe -o FILE -- ARGS...

Runs this interpreter with ARGS (e.g. -m pytest tests/) and appends to FILE
one JSON line per error a test expected and got: the frames it was raised
from, its class and message, and the test (file, line, name, code).
Child interpreters started by the tests are observed too. Then:
errdex scan PATH --observed FILE."""


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(_USAGE)
        return 0 if argv else 2
    out = None
    while argv and argv[0] != "--":
        arg = argv.pop(0)
        if arg in ("-o", "--output") and argv:
            out = argv.pop(0)
        elif arg.startswith("--output="):
            out = arg.split("=", 1)[1]
        else:
            print("errdex.observe: unknown option %r\n\n%s" % (arg, _USAGE), file=sys.stderr)
            return 2
    if out is None or not argv or argv[0] != "--" or len(argv) < 2:
        print("errdex.observe: give -o FILE and the interpreter's arguments after --\n\n" + _USAGE,
              file=sys.stderr)
        return 2
    out = os.path.abspath(out)
    try:
        open(out, "a").close()
    except OSError as e:
        print("errdex.observe: cannot write %s: %s" % (out, e.strerror), file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ)
    env[_ENV] = out
    # The boot folder's sitecustomize installs the observer in every
    # interpreter started with this environment; the package's parent
    # makes `errdex` importable there.
    paths = [os.path.join(here, "_boot"), os.path.dirname(here)]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    command = [sys.executable] + argv[1:]
    import subprocess
    try:
        return subprocess.call(command, env=env)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
