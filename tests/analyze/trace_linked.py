"""Runs tests that errdex linked to records, under a tracer, and says whether
each executes the record's raise line.

Usage: python3 trace_linked.py EXPORT.jsonl STDLIB PREFIX SAMPLE [OUT.json]

EXPORT is `errdex export` of a scan of STDLIB (the standard library folder)
recorded under PREFIX (`Lib`). Every linked test of every record is a case
(record file and line, test file and name); SAMPLE cases are taken evenly
across them (all when there are fewer), each run by its unittest id
(`test.test_textwrap.WrapTestCase.test_bad_width`) with sys.settrace and
threading.settrace watching only the record's file. Prints one JSON object:
{"cases", "ran", "executed", "notRun": [...], "skipped": [...], "missed": [...]}.
A test that cannot be imported here is listed as not run, and one that
skips itself here (a Windows-only test, a missing resource) as skipped:
neither says anything about the link. A module the interpreter runs frozen
(`os`, `posixpath`, importlib's bootstrap: `<frozen os>`) is watched under
that name too.
"""
import io
import json
import os
import sys
import threading
import unittest


def cases_from(export, stdlib, prefix):
    out = []
    with open(export, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)["record"]
            for t in (rec.get("evidence") or {}).get("tests", []):
                out.append((rec["filePath"], rec["lineNumber"], t["filePath"], t["name"]))
    out.sort()
    return out


def module_of(path, prefix):
    rel = path[len(prefix) + 1:] if prefix and path.startswith(prefix + "/") else path
    return rel[:-3].replace("/", ".") if rel.endswith(".py") else None


# The subclasses of a mixin tried for one linked test.
k_max_ids = 12


def test_ids(module, test_name):
    """The unittest ids to try for a linked test: the class itself when it is
    a TestCase, else (a mixin) the module's TestCase subclasses of it."""
    import importlib
    try:
        mod = importlib.import_module(module)
    except BaseException:
        return None
    cls_name, _, method = test_name.rpartition(".")
    if not cls_name:
        return [module + "." + test_name] if callable(getattr(mod, test_name, None)) else []
    cls = getattr(mod, cls_name, None)
    if not isinstance(cls, type):
        return []
    ids = []
    if issubclass(cls, unittest.TestCase):
        ids.append(f"{module}.{cls_name}.{method}")
    for name, obj in sorted(vars(mod).items()):
        if isinstance(obj, type) and obj is not cls and issubclass(obj, cls) and issubclass(obj, unittest.TestCase):
            ids.append(f"{module}.{name}.{method}")
    # A mixin runs under each implementation its module tests (asyncio's
    # CTask_CFuture_Tests ... PyTask_PyFuture_Tests, io's C and Py
    # classes); by name the C ones come first, and a raise in the Python
    # code runs only under the Py ones. Ids are tried until one runs the
    # line, so a bound of a dozen costs only the links that miss.
    return ids[:k_max_ids]


def run_one(test_id, target_file, target_line, frozen_name):
    """True when the line ran, False when not, None when every test the id
    names was skipped here."""
    hit = []

    def local(frame, event, arg):
        if event == "line" and frame.f_lineno == target_line:
            hit.append(True)
        return local

    def tracer(frame, event, arg):
        if frame.f_code.co_filename in (target_file, frozen_name):
            if frame.f_lineno == target_line:
                hit.append(True)
            return local
        return None

    try:
        suite = unittest.defaultTestLoader.loadTestsFromName(test_id)
    except BaseException:
        return False
    result = unittest.TestResult()
    old = sys.gettrace()
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    sys.settrace(tracer)
    threading.settrace(tracer)
    try:
        suite.run(result)
    except BaseException:
        pass
    finally:
        sys.settrace(old)
        threading.settrace(None)
        sys.stdout, sys.stderr = stdout, stderr
    if not hit and result.testsRun and len(result.skipped) == result.testsRun:
        return None
    return bool(hit)


def main():
    export, stdlib, prefix, sample = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    cases = cases_from(export, stdlib, prefix)
    if len(cases) > sample:
        step = len(cases) / sample
        cases = [cases[int(i * step)] for i in range(sample)]
    executed, missed, not_run, skipped = 0, [], [], []
    for rec_path, rec_line, test_path, test_name in cases:
        target = os.path.realpath(os.path.join(stdlib, rec_path[len(prefix) + 1:] if prefix else rec_path))
        module = module_of(test_path, prefix)
        ids = test_ids(module, test_name) if module else None
        if not ids:
            # Not importable here (a platform's or a resource's module) or
            # no runnable class: says nothing about the link.
            not_run.append(test_path + "::" + test_name)
            continue
        frozen = "<frozen " + module_of(rec_path, prefix).removesuffix(".__init__") + ">"
        outcomes = []
        for i in ids:
            outcomes.append(run_one(i, target, rec_line, frozen))
            if outcomes[-1]:
                break
        if any(outcomes):
            executed += 1
        elif all(o is None for o in outcomes):
            skipped.append(test_path + "::" + test_name)
        else:
            missed.append(f"{rec_path}:{rec_line} <- {test_path}::{test_name}")
    report = {"cases": len(cases), "ran": len(cases) - len(not_run) - len(skipped), "executed": executed,
              "notRun": not_run, "skipped": skipped, "missed": missed}
    text = json.dumps(report, indent=1)
    if len(sys.argv) > 5:
        with open(sys.argv[5], "w") as f:
            f.write(text)
    print(text)
    sys.stdout.flush()
    # Tests leave threads and handlers behind: leave without waiting on them.
    os._exit(0)


if __name__ == "__main__":
    main()
