"""Loaded by every interpreter `python3 -m errdex.observe` starts (this
folder leads PYTHONPATH): installs the observer, then runs the
sitecustomize this one hides, if the interpreter has one."""

import importlib.util
import os
import sys

try:
    import errdex.observe
    errdex.observe.install()
except Exception:
    pass

_here = os.path.dirname(os.path.abspath(__file__))
for _folder in sys.path:
    if not _folder or os.path.abspath(_folder) == _here:
        continue
    _path = os.path.join(_folder, "sitecustomize.py")
    if os.path.isfile(_path):
        _spec = importlib.util.spec_from_file_location("_errdex_hidden_sitecustomize", _path)
        try:
            _spec.loader.exec_module(importlib.util.module_from_spec(_spec))
        except Exception:
            pass
        break
