"""errdex's Python client: the answer of a running errdex serve, printed
under the traceback where an error is printed (a program's uncaught
exception, a thread's, IPython and Jupyter, a pytest failure).

Standard library only. Nothing here raises, waits longer than the timeout
(ERRDEX_TIMEOUT, default 0.3 s) in all, or prints anything when the server
(ERRDEX_URL, default http://127.0.0.1:8080) is down or has no answer.
"""

import json
import os
import sys
import threading
import traceback
import urllib.request

__all__ = ["explain", "explain_exception", "install", "load_ipython_extension", "unload_ipython_extension"]

DEFAULT_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = 0.3


def _settings(url, timeout):
    base = (url or os.environ.get("ERRDEX_URL") or DEFAULT_URL).rstrip("/")
    if timeout is None:
        try:
            timeout = float(os.environ.get("ERRDEX_TIMEOUT", DEFAULT_TIMEOUT))
        except ValueError:
            timeout = DEFAULT_TIMEOUT
    return base, max(0.01, timeout)


def _ask(base, text, timeout):
    """The answer's lines for `text`, or None. May raise; may be slow."""
    request = urllib.request.Request(
        base + "/api/match?top=1", data=text.encode("utf-8", "replace"),
        headers={"Content-Type": "text/plain"}, method="POST")
    with urllib.request.urlopen(request, timeout=timeout) as response:
        answer = json.loads(response.read(1 << 20).decode("utf-8", "replace"))
    lead = ""
    candidates = answer.get("candidates") or []
    # Full text, or only the class (or a message of placeholders only), ties
    # the site to the error: no answer, as `errdex explain` gives none. The
    # chain's cause an indexed raise explains is answered then, when there
    # is one (the program's own `raise ConfigError(...) from e`).
    if not candidates or answer.get("fulltextFallback") or answer.get("weak"):
        cause = answer.get("cause")
        if not isinstance(cause, dict) or not cause.get("candidates"):
            return None
        lead = "its cause, " if cause.get("relation") == "direct" else "it was raised while handling "
        candidates = cause["candidates"]
    best = candidates[0]
    revision = best.get("ref") or ""
    lines = ["errdex: %s%s raised at %s:%s (%s%s)" % (
        lead, best["errorClass"], best["filePath"], best["lineNumber"], best["repo"], " " + revision if revision else "")]
    for capture in best.get("captures") or []:
        lines.append("errdex:   %s = %s" % (capture["name"], capture["value"]))
    try:
        with urllib.request.urlopen(base + "/api/errors/" + best["id"], timeout=timeout) as response:
            record = json.loads(response.read(1 << 20).decode("utf-8", "replace"))["record"]
        if record.get("solutions"):
            lines.append("errdex:   fix: " + record["solutions"][0])
    except Exception:
        pass
    if best.get("url"):
        lines.append("errdex:   " + base + best["url"])
    return "\n".join(lines) + "\n"


def explain(text, url=None, timeout=None):
    """The answer to a formatted traceback (or an error line) as lines to
    print, or None. Never raises; returns within `timeout` seconds: the
    request runs in a daemon thread that is left behind when it is late."""
    try:
        base, timeout = _settings(url, timeout)
        result = []

        def work():
            try:
                result.append(_ask(base, text, timeout))
            except Exception:
                result.append(None)

        worker = threading.Thread(target=work, name="errdex-explain", daemon=True)
        worker.start()
        worker.join(timeout)
        return result[0] if result else None
    except BaseException:
        return None


def explain_exception(exc_type, exc_value, exc_traceback, url=None, timeout=None, file=None):
    """Prints the answer for an exception (to stderr, or `file`). Never raises."""
    try:
        if exc_type is None or issubclass(exc_type, (KeyboardInterrupt, SystemExit)):
            return
        text = "".join(traceback.format_exception(exc_type, exc_value, exc_traceback))
        answer = explain(text, url, timeout)
        if answer:
            out = file or sys.stderr
            out.write(answer)
            out.flush()
    except BaseException:
        pass


def install(url=None, timeout=None):
    """Hooks sys.excepthook and threading.excepthook: the usual traceback,
    then the answer under it."""
    previous = sys.excepthook

    def hook(exc_type, exc_value, exc_traceback):
        previous(exc_type, exc_value, exc_traceback)
        explain_exception(exc_type, exc_value, exc_traceback, url, timeout)

    sys.excepthook = hook
    previous_thread = threading.excepthook

    def thread_hook(args):
        previous_thread(args)
        explain_exception(args.exc_type, args.exc_value, args.exc_traceback, url, timeout)

    threading.excepthook = thread_hook


def load_ipython_extension(ipython):
    """%load_ext errdex: IPython's traceback, then the answer under it.

    Every traceback IPython shows goes through its showtraceback: a cell's
    error, and also a script's under %run and a magic's, which IPython
    catches itself (a custom exception handler sees only the cell's)."""
    unload_ipython_extension(ipython)
    original = ipython.showtraceback

    def showtraceback(exc_tuple=None, filename=None, tb_offset=None, exception_only=False, **kwargs):
        original(exc_tuple, filename, tb_offset, exception_only, **kwargs)
        if exception_only:
            return
        # IPython keeps what it showed in sys.last_* (exc_tuple may be None).
        exc_type, exc_value, exc_traceback = exc_tuple or (
            getattr(sys, "last_type", None), getattr(sys, "last_value", None), getattr(sys, "last_traceback", None))
        if exc_type is not None and issubclass(exc_type, Exception):
            explain_exception(exc_type, exc_value, exc_traceback)

    showtraceback.errdex_original = original
    ipython.showtraceback = showtraceback


def unload_ipython_extension(ipython):
    original = getattr(ipython.showtraceback, "errdex_original", None)
    if original is not None:
        ipython.showtraceback = original
