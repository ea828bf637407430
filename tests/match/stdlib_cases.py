"""Real errors from the standard library, for the match accuracy test.

Runs each call below with a bad input in this interpreter and prints one
JSON line per case whose exception was raised by a `raise` or `assert`
statement in the standard library's Python source (not in C): the formatted
traceback, the exception-only text (what a user pastes when they keep the
last line), its repr() (what logs often print), and the innermost frame's
file (relative to the stdlib root) and line. Cases raised elsewhere are reported on stderr and left out.

With --ipython, each case also carries its traceback as IPython prints it
in a terminal or a Jupyter notebook (IPython's own formatter, in the
interpreter running this script): "ipython" plain, and for every tenth
case "ipython_color" in IPython's Linux colours (25 ms each: its
highlighting is slow) and "notebook": a Jupyter notebook holding the error
as a cell's output, written by nbformat (IPython's lines in colour, as a
kernel sends them).

With --rich, every tenth case also carries "rich": its traceback as the
rich library prints it (typer, pip and many command-line tools), 100
columns wide, without colour (60 ms each).

With --django, every tenth case also carries "django": the error report
Django's debug page offers to copy and its error e-mails hold (Django's
ExceptionReporter, without a request).

With --pytest, every tenth case also carries "pytest_long",
"pytest_short", "pytest_native" and "pytest_line": its failure as pytest
reports it with that --tb style (the case run as a test by pytest itself, in
a subprocess; one failure's section of the report, or its line). The last
of them also carries "pytest_whole_<style>": pytest's whole output.

With --logs, every tenth case also carries "logs": {layout: text}, its
error as structured logs and error trackers keep it, each made by the tool
itself: Python's logging with exc_info and stack_info, python-json-logger's
JSON line, structlog's JSON, key=value (repr)
and logfmt lines with the formatted traceback, structlog's
dict_tracebacks, loguru's text (variables under each line) and JSON, AWS
Lambda's error result and its log lines (as its runtime builds them), a Sentry event (sentry-sdk, its transport a function),
the JSON line and Python's own traceback as Docker's json-file driver
keeps them (a JSON object per line), logging's report of an error raised
while it formats a message (`--- Logging error ---`, the traceback, `Call
stack:`), and a JSON line whose message is the exception as Python prints
it without its traceback.

With --remote, every tenth case also carries "remote": {pool: text}, its
error as a process pool hands it back: the case run in a worker of
multiprocessing.Pool and of concurrent.futures.ProcessPoolExecutor, and the
exception the parent gets printed by Python (the worker's traceback is its
cause, between lines of triple quotes), and with --ipython as IPython
prints it too. Only errors that cross over whole (same class and message)
are kept.

With --sessions, every tenth case also carries "sessions": {where: text},
its error as it is copied with what stands around it: typed into Python's
REPL (this interpreter run with -i on a terminal, a pseudo-terminal here,
each line echoed after its prompt and the prompt after the traceback), and
its traceback between a shell's prompts, in a GitHub issue (prose and a
Markdown fence around it) or in a GitHub Actions step's raw log (a time on
each line, the runner's `##[error]` line last).

usage: python3 stdlib_cases.py STDLIB_ROOT WORKDIR [--ipython] [--rich] [--django] [--pytest] [--logs] [--remote]
       [--sessions]
"""
import contextlib
import io
import json
import os
import sys
import traceback
import warnings

from case_tools import Counts, innermost, raised, split_cases

ROOT = os.path.realpath(sys.argv[1])
WORK = sys.argv[2]
IPYTHON = "--ipython" in sys.argv[3:]
RICH = "--rich" in sys.argv[3:]
if RICH:
    from rich.console import Console
    from rich.traceback import Traceback as RichTraceback

    RICH_CONSOLE = Console(width=100, color_system=None, force_terminal=False)


DJANGO = "--django" in sys.argv[3:]
if DJANGO:
    import django
    from django.conf import settings as django_settings

    django_settings.configure(DEBUG=True, SECRET_KEY="errdex-test")
    django.setup()
    from django.views.debug import ExceptionReporter


def run_in_worker(code, n):
    """A case run in a pool's worker process (by reference: a function of
    this script, which the forked worker has)."""
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "<case %d>" % n, "exec"), {"__name__": "__case__"})


def remote_reports(code, n, err):
    """{pool: text} for a case whose error `err` is an Exception: run in a
    fresh worker of each pool, the error the parent gets, as Python prints
    it, when it is `err` again (a class and message that survive pickling)."""
    import concurrent.futures
    import multiprocessing

    fork = multiprocessing.get_context("fork")
    out = {}
    if not isinstance(err, Exception):
        return out  # a worker dies of SystemExit and the like: no result comes back
    for pool in ("multiprocessing.Pool", "concurrent.futures.ProcessPoolExecutor"):
        try:
            if pool == "multiprocessing.Pool":
                with fork.Pool(1) as workers:
                    workers.apply_async(run_in_worker, (code, n)).get(timeout=20)
            else:
                with concurrent.futures.ProcessPoolExecutor(1, mp_context=fork) as workers:
                    workers.submit(run_in_worker, code, n).result(timeout=20)
        except BaseException as e:
            if type(e) is type(err) and str(e) == str(err):
                out[pool] = "".join(traceback.format_exception(e))
                if IPYTHON:
                    out[pool + ", IPython"] = FORMATTERS["ipython"].text(type(e), e, e.__traceback__)
        for child in multiprocessing.active_children():
            child.kill()
    return out


def repl_session(code, timeout=20):
    """What a terminal shows when `code` is typed into this interpreter's
    REPL line by line, each after its prompt, up to the first error."""
    import pty
    import select
    import subprocess
    import time

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-i", "-q"], stdin=slave, stdout=slave, stderr=slave, close_fds=True,
                            cwd=WORK, env=dict(os.environ, TERM="dumb", PYTHONSTARTUP=""))
    os.close(slave)
    shown = b""
    deadline = time.monotonic() + timeout

    def prompt():
        nonlocal shown
        while time.monotonic() < deadline:
            if not select.select([master], [], [], 0.5)[0]:
                if proc.poll() is not None:
                    return False
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the interpreter exited (SystemExit)
                return False
            if not chunk:
                return False
            shown += chunk
            if shown.endswith(b">>> ") or shown.endswith(b"... "):
                return True
        return False

    alive = prompt()
    for line in code.split("\n") + [""]:
        if not alive or b"Traceback (most recent call last)" in shown:
            break
        os.write(master, line.encode() + b"\n")
        alive = prompt()
    if alive and shown.endswith(b"... "):
        os.write(master, b"\n")
        prompt()
    proc.kill()
    proc.wait()
    os.close(master)
    return shown.decode("utf-8", "replace").replace("\r\n", "\n")


def sessions(code, formatted, last_line):
    """{where: text}: the error as copied with what stands around it."""
    out = {}
    repl = repl_session(code)
    if repl.count("Traceback (most recent call last)") == 1 and last_line.strip() in repl:
        out["Python REPL"] = repl
    out["shell session"] = "user@host:~/proj$ python3 app.py\n" + formatted + "user@host:~/proj$ \n"
    out["GitHub issue"] = ("Hi, running the app I get this error:\n\n```\n" + formatted +
                           "```\n\nNote: it worked yesterday. Any idea?\n")
    # A GitHub Actions step's raw log: a time on each line, the runner's
    # line on the step's failure last.
    lines = ["Run python3 app.py"] + formatted.splitlines() + ["##[error]Process completed with exit code 1."]
    out["GitHub Actions log"] = "".join("2026-12-03T10:%02d:%02d.%07dZ %s\n" % (k // 60 % 60, k % 60, 1234567 + k, line)
                                        for k, line in enumerate(lines))
    return out


SESSIONS = "--sessions" in sys.argv[3:]
REMOTE = "--remote" in sys.argv[3:]
LOGS = "--logs" in sys.argv[3:]
if LOGS:
    import logging

    import sentry_sdk
    import structlog
    from loguru import logger as LOGURU
    from pythonjsonlogger import jsonlogger

    LOG_BUFFER = io.StringIO()
    _handler = logging.StreamHandler(LOG_BUFFER)
    _handler.setFormatter(jsonlogger.JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    JSON_LOGGER = logging.getLogger("errdex.cases")
    JSON_LOGGER.addHandler(_handler)
    JSON_LOGGER.propagate = False
    SENTRY_EVENTS = []
    sentry_sdk.init(dsn="https://key@o0.ingest.sentry.io/1", transport=SENTRY_EVENTS.append,
                    default_integrations=False)
    STRUCTLOG_RENDERERS = {
        "structlog JSONRenderer": [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()],
        "structlog KeyValueRenderer": [structlog.processors.format_exc_info, structlog.processors.KeyValueRenderer()],
        "structlog LogfmtRenderer": [structlog.processors.format_exc_info, structlog.processors.LogfmtRenderer()],
        "structlog dict_tracebacks": [structlog.processors.dict_tracebacks, structlog.processors.JSONRenderer()],
    }


def logged(err, last_line):
    """{layout: text} for `err` as the logging tools print it."""
    out = {}

    def json_line(*args, **kwargs):
        LOG_BUFFER.seek(0)
        LOG_BUFFER.truncate()
        JSON_LOGGER.error(*args, **kwargs)
        return LOG_BUFFER.getvalue()

    out["python-json-logger"] = json_line("request failed", exc_info=err)
    # Python's own logging, asked for the stack too (printed after the error).
    record = logging.LogRecord("app", logging.ERROR, __file__, 1, "request failed", None, (type(err), err, err.__traceback__),
                               sinfo="Stack (most recent call last):\n" + "".join(traceback.format_stack()).rstrip("\n"))
    out["logging, exc_info and stack_info"] = logging.Formatter("%(levelname)s:%(name)s:%(message)s").format(record)
    for name, renderer in STRUCTLOG_RENDERERS.items():
        buf = io.StringIO()
        log = structlog.wrap_logger(structlog.PrintLogger(buf),
                                    processors=[structlog.processors.add_log_level] + renderer)
        log.error("request failed", exc_info=err)
        out[name] = buf.getvalue()
    # loguru, as it prints (variables under each line) and as JSON.
    LOGURU.remove()
    for name, options in (("loguru", {}), ("loguru serialize", {"serialize": True})):
        buf = io.StringIO()
        sink = LOGURU.add(buf, backtrace=True, diagnose=True, colorize=False, **options)
        LOGURU.opt(exception=err).error("request failed")
        LOGURU.remove(sink)
        out[name] = buf.getvalue()
    SENTRY_EVENTS.clear()
    sentry_sdk.capture_exception(err)
    sentry_sdk.flush()
    if SENTRY_EVENTS:
        out["Sentry event"] = json.dumps(SENTRY_EVENTS[-1], default=str, indent=2)
    # Docker's json-file driver: a JSON object per line the container wrote,
    # '<', '>' and '&' escaped as Go's encoder escapes them.
    def docker(lines):
        return "".join(json.dumps({"log": line, "stream": "stderr", "time": "2026-12-03T14:00:00.000000000Z"})
                       .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") + "\n"
                       for line in lines)

    out["Docker json-file, a JSON log's line"] = docker([out["python-json-logger"]])
    out["Docker json-file, stderr lines"] = docker("".join(traceback.format_exception(err)).splitlines(True))
    # AWS Lambda's Python runtime (awslambdaric, not packaged for Debian):
    # the error result its make_error() returns, and the lines its
    # log_error() writes to CloudWatch, built as it builds them.
    stack = traceback.format_list(traceback.extract_tb(err.__traceback__))
    result = {"errorMessage": str(err), "errorType": type(err).__name__, "requestId": "3f2a", "stackTrace": stack}
    out["AWS Lambda error result"] = json.dumps(result)
    lambda_log = ["[ERROR] %s: %s" % (result["errorType"], result["errorMessage"]), "Traceback (most recent call last):"]
    for element in stack:
        lambda_log += element.splitlines() or [""]
    out["AWS Lambda log"] = "\n".join(lambda_log) + "\n"
    out["JSON line, exception only"] = json_line(last_line.rstrip("\n"))
    # The error raised while logging formats a message (its str() raises):
    # logging's handleError prints `--- Logging error ---`, the traceback,
    # then `Call stack:` with the frames of the call and the message and
    # arguments. Last: raising `err` again adds the logging frames to its
    # traceback, which is put back after.
    class Unprintable:
        def __str__(self):
            raise err

    original = err.__traceback__
    handler = logging.StreamHandler(io.StringIO())
    with contextlib.redirect_stderr(io.StringIO()) as printed:
        handler.emit(logging.LogRecord("app", logging.ERROR, __file__, 1, Unprintable(), None, None))
    err.with_traceback(original)
    out["logging, an error while logging"] = printed.getvalue()
    return out


def rich_text(err):
    with RICH_CONSOLE.capture() as captured:
        RICH_CONSOLE.print(RichTraceback.from_exception(type(err), err, err.__traceback__, width=100))
    return captured.get()


if IPYTHON:
    import nbformat
    from IPython.core.ultratb import AutoFormattedTB

    FORMATTERS = {
        "ipython": AutoFormattedTB(mode="Context", color_scheme="NoColor"),
        "ipython_color": AutoFormattedTB(mode="Context", color_scheme="Linux"),
    }
os.makedirs(WORK, exist_ok=True)
os.chdir(WORK)
warnings.simplefilter("ignore")

CASES = r"""
import json; json.loads('')
import json; json.loads('   ')
import json; json.loads('[1] x')
import json; json.loads('{} {}')
import json; json.dumps(object())
import json; json.dumps({1: {2}})
import json; json.JSONDecoder().raw_decode('')
import ipaddress; ipaddress.ip_address('x')
import ipaddress; ipaddress.ip_address('1.2.3')
import ipaddress; ipaddress.ip_network('1.2.3.4/33')
import ipaddress; ipaddress.ip_network('10.0.0.1/24')
import ipaddress; ipaddress.IPv4Address('256.1.1.1')
import ipaddress; ipaddress.IPv4Address('1.2.3.04')
import ipaddress; ipaddress.IPv4Address('1.2.3')
import ipaddress; ipaddress.IPv4Address('1..2.3')
import ipaddress; ipaddress.IPv4Address('1.2.3.a')
import ipaddress; ipaddress.IPv6Address('::g')
import ipaddress; ipaddress.IPv6Address('1:2:3:4:5:6:7:8:9')
import ipaddress; ipaddress.IPv6Address('1::2::3')
import ipaddress; ipaddress.IPv6Address(':1:2')
import ipaddress; ipaddress.IPv6Address('12345::')
import ipaddress; ipaddress.IPv6Address('')
import ipaddress; ipaddress.ip_interface('x')
import ipaddress; ipaddress.IPv4Network('1.2.3.0/xx')
import ipaddress; ipaddress.IPv4Network('1.2.3.0/255.0.255.0')
import ipaddress; ipaddress.IPv4Address(-1)
import ipaddress; ipaddress.IPv4Address(2**32)
import ipaddress; ipaddress.IPv6Address(2**128)
import ipaddress; ipaddress.IPv4Address(b'12345')
import ipaddress; ipaddress.IPv6Address(b'123')
import ipaddress; list(ipaddress.summarize_address_range(ipaddress.IPv4Address('1.1.1.1'), ipaddress.IPv4Address('1.1.1.0')))
import ipaddress; list(ipaddress.summarize_address_range(ipaddress.IPv4Address('1.1.1.1'), ipaddress.IPv6Address('::1')))
import ipaddress; list(ipaddress.collapse_addresses([ipaddress.ip_address('1.1.1.1'), ipaddress.ip_address('::1')]))
import ipaddress; list(ipaddress.IPv4Network('1.2.3.0/24').subnets(new_prefix=8))
import ipaddress; list(ipaddress.IPv4Network('1.2.3.0/24').subnets(prefixlen_diff=1, new_prefix=25))
import ipaddress; ipaddress.IPv4Network('1.2.3.0/24').supernet(new_prefix=30)
import ipaddress; ipaddress.IPv4Network('1.2.3.0/24').supernet(prefixlen_diff=30)
import ipaddress; list(ipaddress.IPv4Network('1.2.3.0/24').address_exclude(ipaddress.IPv4Network('9.9.9.0/24')))
import ipaddress; ipaddress.IPv4Network('1.2.3.0/24').subnet_of(ipaddress.IPv6Network('::/0'))
import ipaddress; ipaddress.v4_int_to_packed(-1)
import ipaddress; ipaddress.v6_int_to_packed(-1)
import ipaddress; ipaddress.IPv6Address('::1%')
import ipaddress; ipaddress.IPv4Interface('1.2.3.4/40')
import urllib.parse; urllib.parse.urlsplit('http://a:b/').port
import urllib.parse; urllib.parse.urlsplit('http://a:99999/').port
import urllib.parse; urllib.parse.urlsplit('http://[::1/')
import urllib.parse; urllib.parse.urlsplit('http://a]/')
import urllib.parse; urllib.parse.parse_qs('a', strict_parsing=True)
import urllib.parse; urllib.parse.parse_qsl('a=1&b=2', max_num_fields=1)
import urllib.parse; urllib.parse.parse_qsl('a=1', separator='')
import urllib.parse; urllib.parse.urlencode(5)
import urllib.parse; urllib.parse.quote(5)
import urllib.parse; urllib.parse.quote_from_bytes('x')
import urllib.parse; urllib.parse.urljoin('http://a', b'b')
import urllib.request; urllib.request.Request('x')
import urllib.request; urllib.request.urlopen('nope://x')
import fractions; fractions.Fraction('x')
import fractions; fractions.Fraction(1, 0)
import fractions; fractions.Fraction(1.5, 2)
import fractions; fractions.Fraction(object())
import fractions; fractions.Fraction(1).limit_denominator(0)
import fractions; fractions.Fraction.from_float('x')
import fractions; fractions.Fraction.from_decimal('x')
import statistics; statistics.mean([])
import statistics; statistics.fmean([])
import statistics; statistics.median([])
import statistics; statistics.median_low([])
import statistics; statistics.median_high([])
import statistics; statistics.median_grouped([])
import statistics; statistics.mode([])
import statistics; statistics.stdev([1])
import statistics; statistics.variance([1])
import statistics; statistics.pstdev([])
import statistics; statistics.pvariance([])
import statistics; statistics.harmonic_mean([-1])
import statistics; statistics.harmonic_mean([])
import statistics; statistics.geometric_mean([])
import statistics; statistics.quantiles([1, 2], n=0)
import statistics; statistics.quantiles([1])
import statistics; statistics.quantiles([1, 2], method='x')
import statistics; statistics.correlation([1], [1, 2])
import statistics; statistics.correlation([1], [1])
import statistics; statistics.correlation([1, 1], [1, 2])
import statistics; statistics.covariance([1], [2])
import statistics; statistics.covariance([1, 2], [2])
import statistics; statistics.linear_regression([1], [2])
import statistics; statistics.linear_regression([1, 1], [2, 3])
import statistics; statistics.NormalDist(0, -1)
import statistics; statistics.NormalDist().inv_cdf(2)
import statistics; statistics.NormalDist(0, 0).cdf(1)
import statistics; statistics.NormalDist(0, 0).pdf(1)
import statistics; statistics.NormalDist.from_samples([1])
import statistics; statistics.NormalDist().overlap(1)
import statistics; statistics.NormalDist(0, 0).overlap(statistics.NormalDist())
import statistics; statistics.NormalDist().quantiles(0)
import statistics; statistics.NormalDist(0, 0).zscore(1)
import statistics; statistics.mean(['a'])
import statistics; statistics.fmean([1], weights=[1, 2])
import random; random.randrange(0)
import random; random.randrange(1, 1)
import random; random.randrange(1, 10, 0)
import random; random.randrange(1.5)
import random; random.randrange(1, 2.5)
import random; random.randrange(1, 5, 1.5)
import random; random.choice([])
import random; random.sample([1], 2)
import random; random.sample({1, 2}, 1)
import random; random.sample([1, 2], 1, counts=[1])
import random; random.sample([1, 2], 1, counts=[0, 0])
import random; random.randint(2, 1)
import random; random.choices([1], [1, 2])
import random; random.choices([1], [1], cum_weights=[1])
import random; random.choices([1], [0])
import random; random.Random().seed(object())
import random; random.Random().setstate((9, (), None))
import string; string.Template('$').substitute()
import string; string.Template('a $').safe_substitute(x=1) or string.Template('$ a').substitute()
import string; string.Template('${x').substitute(x=1)
import string; string.Template('$x').substitute({}, {}, x=1)
import string; string.Formatter().format('{0!q}', 1)
import string; string.Formatter().check_unused_args({'a'}, (), {'b': 1}) or string.Formatter().vformat('{0:{1:{2}}}', (1, 2, 3), {})
import textwrap; textwrap.TextWrapper(width=0).wrap('abc')
import textwrap; textwrap.TextWrapper(width=3, placeholder='......', max_lines=1).wrap('abcdef ghi')
import textwrap; textwrap.shorten('abc def', width=1)
import shlex; shlex.split('"')
import shlex; shlex.split("'")
import shlex; shlex.split('a\\')
import base64; base64.b32decode('a')
import base64; base64.b32decode('AAAAAAA=')
import base64; base64.b32decode('00000000')
import base64; base64.b16decode('0')
import base64; base64.b16decode('zz')
import base64; base64.b64decode(1)
import base64; base64.b64decode('\u00e9')
import base64; base64.b85decode('~~~~~')
import base64; base64.a85decode('z~>', adobe=True)
import base64; base64.a85decode('<~abc')
import base64; base64.a85decode('yy', foldspaces=True)
import base64; base64.b32hexdecode('W')
import uuid; uuid.UUID('x')
import uuid; uuid.UUID()
import uuid; uuid.UUID(bytes=b'1')
import uuid; uuid.UUID(bytes_le=b'1')
import uuid; uuid.UUID(int=-1)
import uuid; uuid.UUID(fields=(1,))
import uuid; uuid.UUID(fields=(2**32, 0, 0, 0, 0, 0))
import uuid; uuid.UUID(fields=(0, 2**16, 0, 0, 0, 0))
import uuid; uuid.UUID(fields=(0, 0, 2**16, 0, 0, 0))
import uuid; uuid.UUID(fields=(0, 0, 0, 256, 0, 0))
import uuid; uuid.UUID(fields=(0, 0, 0, 0, 256, 0))
import uuid; uuid.UUID(fields=(0, 0, 0, 0, 0, 2**48))
import uuid; uuid.UUID('12345678123456781234567812345678', version=9)
import uuid; uuid.UUID('12345678123456781234567812345678', int=1)
import calendar; calendar.monthrange(2020, 13)
import calendar; calendar.setfirstweekday(9)
import calendar; calendar.Calendar().itermonthdates(2020, 0).__next__()
import calendar; calendar.TextCalendar().formatmonthname(2020, 13, 10)
import zoneinfo; zoneinfo.ZoneInfo('/abs')
import zoneinfo; zoneinfo.ZoneInfo('Nope/Zone')
import zoneinfo; zoneinfo.ZoneInfo('../x')
import gettext; gettext.translation('nope_domain_xyz')
import gettext; gettext.c2py('n ==')
import gettext; gettext.c2py('n +* 1')
import os; os.environ['NOPE_ERRDEX_VAR']
import os; os.path.join(1)
import os; os.path.join('a', 1)
import os; os.path.commonpath([])
import os; os.path.commonpath(['/a', 'b'])
import os; os.path.relpath('')
import os; os.path.commonprefix(1)
import os; os.makedirs('', exist_ok=True)
import os; os.fwalk(1).__next__() if False else os.get_exec_path({'PATH': 'a', b'PATH': b'b'})
import ntpath; ntpath.commonpath([])
import ntpath; ntpath.commonpath(['c:\\a', 'd:\\b'])
import ntpath; ntpath.relpath('')
import ntpath; ntpath.relpath('c:\\a', 'd:\\b')
import pathlib; pathlib.PurePath('a').with_suffix('b')
import pathlib; pathlib.PurePath('').with_name('x')
import pathlib; pathlib.PurePath('a').relative_to('b')
import pathlib; pathlib.PurePath('a').with_name('')
import pathlib; pathlib.PurePath(1)
import pathlib; pathlib.PurePath('a').with_suffix('.b/c')
import pathlib; pathlib.PurePath('a').joinpath(1)
import pathlib; pathlib.PurePosixPath('a').as_uri()
import pathlib; pathlib.PurePath('a').match('')
import pathlib; pathlib.Path('~nopeuserxyz').expanduser()
import pathlib; list(pathlib.Path('.').glob(''))
import pathlib; list(pathlib.Path('.').glob('/abs'))
import pathlib; pathlib.PurePath('/').with_stem('x')
import shutil; shutil.make_archive('x', 'nope')
import shutil; shutil.unpack_archive('x.nope')
import shutil; shutil.unpack_archive('x.zip', format='nope')
import shutil; shutil.register_archive_format('x', 1)
import shutil; shutil.register_unpack_format('x', [], 1)
import shutil; shutil.copyfile('/tmp', '/tmp')
import shutil; shutil.chown('/tmp')
import shutil; shutil.unregister_archive_format('nope') or shutil.get_terminal_size((1,))
import zipfile, io; zipfile.ZipFile(io.BytesIO(b'x'))
import zipfile, io; zipfile.ZipFile(io.BytesIO(), 'q')
import zipfile, io; zipfile.ZipFile(io.BytesIO(), 'w', compression=99)
import zipfile, io; zipfile.ZipFile(io.BytesIO(), 'w').open('x', 'q')
import zipfile, io; zipfile.ZipFile(io.BytesIO(), 'w').read('nope')
import zipfile, io; zipfile.ZipFile(io.BytesIO(), 'w').getinfo('nope')
import zipfile, io; zipfile.ZipFile(io.BytesIO(), 'w', compresslevel=99, compression=zipfile.ZIP_DEFLATED).writestr('a', 'b')
import zipfile, io; z = zipfile.ZipFile(io.BytesIO(), 'w'); z.close(); z.writestr('a', 'b')
import zipfile; zipfile.ZipInfo('a', (1970, 1, 1, 0, 0, 0))
import zipfile, io; z = zipfile.ZipFile(io.BytesIO(), 'w'); z.writestr('a', 'b'); z.setpassword('x')
import zipfile, io; z = zipfile.ZipFile(io.BytesIO(), 'w'); z.comment = 'x'
import tarfile, io; tarfile.open(fileobj=io.BytesIO(b'x'))
import tarfile, io; tarfile.open(fileobj=io.BytesIO(), mode='r:xx')
import tarfile, io; tarfile.open(fileobj=io.BytesIO(), mode='q')
import tarfile, io; tarfile.open(fileobj=io.BytesIO(b'x' * 1024), mode='r:')
import tarfile, io; tarfile.TarFile(fileobj=io.BytesIO(), mode='q')
import tarfile, io; tarfile.open(fileobj=io.BytesIO(), mode='w').getmember('nope')
import tarfile, io; tarfile.open(fileobj=io.BytesIO(), mode='w|q')
import tarfile; tarfile.TarInfo.frombuf(b'x', 'utf-8', 'strict')
import tarfile; tarfile.TarInfo.frombuf(b'\0' * 512, 'utf-8', 'strict')
import tarfile; tarfile.TarInfo.frombuf(b'x' * 512, 'utf-8', 'strict')
import gzip; gzip.decompress(b'xx')
import gzip, io; gzip.GzipFile(fileobj=io.BytesIO(), mode='q')
import gzip; gzip.open('x', 'rbt')
import gzip, io; gzip.open(io.BytesIO(), 'rb', encoding='u')
import gzip; gzip.open(1.5)
import gzip; gzip.decompress(b'\x1f\x8b\x09')
import bz2; bz2.open('x', 'q')
import bz2; bz2.BZ2File(1.5)
import bz2; bz2.BZ2File('x', 'w', compresslevel=10)
import bz2, io; bz2.open(io.BytesIO(), 'rb', encoding='u')
import bz2; bz2.BZ2File('x', 'q')
import lzma; lzma.LZMAFile('x', 'q')
import lzma, io; lzma.open(io.BytesIO(), 'rb', encoding='u')
import lzma, io; lzma.LZMAFile(io.BytesIO(), 'r', preset=1)
import lzma; lzma.LZMAFile(1.5)
import lzma; lzma.open('x', 'q')
import plistlib; plistlib.loads(b'x')
import plistlib; plistlib.dumps(object())
import plistlib; plistlib.dumps({1: 2})
import plistlib; plistlib.loads(b'x', fmt='nope')
import plistlib; plistlib.dumps({}, fmt='nope')
import plistlib; plistlib.dumps(2**70, fmt=plistlib.FMT_BINARY)
import tomllib; tomllib.loads('a =')
import tomllib; tomllib.loads('a = 1\na = 2')
import tomllib; tomllib.loads('[a')
import tomllib; tomllib.loads('a = "x')
import tomllib; tomllib.loads('x')
import tomllib; tomllib.loads(1)
import tomllib; tomllib.loads('a = [1,')
import tomllib; tomllib.loads('a = {b = 1,}')
import tomllib; tomllib.loads('a = 1 b')
import tomllib; tomllib.loads("a = '''x")
import tomllib; tomllib.loads('a = "\\q"')
import tomllib; tomllib.loads('[[a]]\n[a]')
import tomllib; tomllib.loads('a = 1\n[a]')
import tomllib, io; tomllib.load(io.StringIO('a = 1'))
import configparser; configparser.ConfigParser().read_string('x')
import configparser; configparser.ConfigParser().read_string('[a]\n[a]')
import configparser; configparser.ConfigParser().get('a', 'b')
import configparser; c = configparser.ConfigParser(); c.read_string('[a]'); c.get('a', 'b')
import configparser; configparser.ConfigParser().add_section('DEFAULT')
import configparser; configparser.ConfigParser().set('nope', 'a', 'b')
import configparser; configparser.ConfigParser()['x']
import configparser; c = configparser.ConfigParser(); c.read_string('[a]\nx=%(y)s'); c.get('a', 'x')
import configparser; c = configparser.ConfigParser(); c.read_string('[a]\nx=%z'); c.get('a', 'x')
import configparser; c = configparser.ConfigParser(); c.read_string('[a]\nx=maybe'); c.getboolean('a', 'x')
import configparser; configparser.ConfigParser().read_string('[a]\nb=1\nb=2')
import configparser; configparser.ConfigParser().add_section(1)
import configparser; configparser.ConfigParser().read_string('[a]\n  b')
import configparser; c = configparser.ConfigParser(); c.read_string('[a]\nx=%(x)s'); c.get('a', 'x')
import configparser; c = configparser.ConfigParser(interpolation=configparser.ExtendedInterpolation()); c.read_string('[a]\nx=${nope:y}'); c.get('a', 'x')
import configparser; c = configparser.ConfigParser(); c.read_string('[a]'); c.remove_option('b', 'x')
import configparser; configparser.ConfigParser().read(1)
import configparser; configparser.ConfigParser(default_section='x').add_section('x')
import argparse; argparse.ArgumentParser().add_argument('x', nargs=0)
import argparse; argparse.ArgumentParser().add_argument('-x', action='nope')
import argparse; p = argparse.ArgumentParser(); p.add_argument('--a'); p.add_argument('--a')
import argparse; argparse.ArgumentParser().add_argument('x', dest='y')
import argparse; argparse.ArgumentParser().add_argument('x', required=True)
import argparse; argparse.ArgumentParser().add_argument('-x', type=5)
import argparse; p = argparse.ArgumentParser(exit_on_error=False); p.add_argument('--n', type=int); p.parse_args(['--n', 'x'])
import argparse; p = argparse.ArgumentParser(exit_on_error=False); p.add_argument('--n', choices=['a']); p.parse_args(['--n', 'x'])
import argparse; argparse.ArgumentParser().add_argument('x', 'y')
import argparse; argparse.ArgumentParser().add_argument('-x', nargs='q')
import argparse; argparse.ArgumentParser(conflict_handler='nope').add_argument('-x')
import argparse; argparse.ArgumentParser().add_argument('x', metavar=('a', 'b'), nargs=3)
import argparse; argparse.ArgumentParser().add_argument('--x', action='store_const')
import argparse; argparse.ArgumentParser(prefix_chars='+').add_argument('-x')
import argparse; argparse.ArgumentParser().add_mutually_exclusive_group().add_argument('x')
import argparse; argparse.FileType('q')('-')
import inspect; inspect.signature(1)
import inspect; inspect.getsource(len)
import inspect; inspect.getfile(1)
import inspect; inspect.Parameter('x', 99)
import inspect; inspect.Parameter('1x', inspect.Parameter.POSITIONAL_ONLY)
import inspect; inspect.Parameter('x', inspect.Parameter.VAR_POSITIONAL, default=1)
import inspect; inspect.Signature([inspect.Parameter('a', 1), inspect.Parameter('a', 1)])
import inspect; inspect.Signature([inspect.Parameter('a', 1, default=1), inspect.Parameter('b', 1)])
import inspect; inspect.signature(lambda a: 0).bind()
import inspect; inspect.signature(lambda a: 0).bind(1, 2)
import inspect; inspect.signature(lambda a: 0).bind(1, b=2)
import inspect; inspect.getcallargs(lambda a: 0)
import inspect; inspect.getmodulename(1)
import inspect; inspect.cleandoc(1)
import inspect; inspect.unwrap(type('W', (), {'__wrapped__': property(lambda s: s)})())
import enum; enum.Enum('E', 'a b')(5)
import enum; enum.Enum('E', 'a a')
import enum; enum.Flag('F', 'a b')(8)
import enum; enum.Enum('E', 'a')['nope']
import enum; enum.Enum('E', 'mro')
import enum; enum.Enum('E', '_sunder_')
import enum; E = enum.Enum('E', 'a'); enum.Enum('F', 'b', type=E)
import enum; enum.unique(enum.Enum('E', [('a', 1), ('b', 1)]))
import enum; E = enum.Enum('E', 'a'); E.a = 2
import enum; E = enum.Enum('E', 'a'); del E.a
import enum; enum.verify(enum.CONTINUOUS)(enum.IntFlag('F', [('a', 1), ('b', 4)]))
import dataclasses; dataclasses.fields(1)
import dataclasses; dataclasses.asdict(1)
import dataclasses; dataclasses.astuple(1)
import dataclasses; dataclasses.replace(1)
import dataclasses; dataclasses.field(default=1, default_factory=list)
import dataclasses; dataclasses.make_dataclass('X', [('a', int, dataclasses.field(default=[]))])
import dataclasses; dataclasses.make_dataclass('X', [('a', int, 1), ('b', int)])
import dataclasses; dataclasses.make_dataclass('X', [('a', int), ('a', int)])
import dataclasses; dataclasses.make_dataclass('X', [1])
import dataclasses; dataclasses.make_dataclass('X', ['def'])
import dataclasses; dataclasses.make_dataclass('X', [], order=True, eq=False)
import dataclasses; dataclasses.make_dataclass('X', [('a', int)], frozen=True)(1).__setattr__('a', 2)
import dataclasses; X = dataclasses.make_dataclass('X', [('a', int, dataclasses.field(init=False))]); dataclasses.replace(X(), a=1)
import dataclasses; dataclasses.make_dataclass('X', [], slots=True, weakref_slot=True).__init__ if False else dataclasses.make_dataclass('X', [], weakref_slot=True)
import functools; functools.total_ordering(type('X', (), {}))
import functools; functools.singledispatch(lambda a: 0).register(1)
import functools; functools.singledispatch(lambda a: 0)()
import functools; functools.lru_cache(maxsize='x')
import functools; functools.singledispatchmethod(1)
import collections; collections.namedtuple('X', 'a a')
import collections; collections.namedtuple('X', '1a')
import collections; collections.namedtuple('X', '_a')
import collections; collections.namedtuple('X', 'def')
import collections; collections.namedtuple('X', 'a', defaults=[1, 2])
import collections; collections.namedtuple('X', 'a')._make([1, 2])
import collections; collections.namedtuple('X', 'a')(1)._replace(b=2)
import collections; collections.Counter.fromkeys('a')
import collections; collections.ChainMap().pop('x')
import collections; collections.ChainMap().popitem()
import collections; del collections.ChainMap({'a': 1}, {})['b']
import collections; collections.Counter().update(1, 2)
import collections; collections.UserDict(1, 2)
import http.client; http.client.HTTPConnection('x:y')
import http.client; http.client.HTTPConnection('x', timeout=1).request('GET ', '/')
import http.client; http.client.HTTPConnection('x').putheader('a\n', 'b')
import http.client; c = http.client.HTTPConnection('x'); c.putheader('A', 'b')
import http.client; http.client.HTTPConnection('x').request('GET', '/ x')
import http; http.HTTPStatus(999)
import http.cookies; http.cookies.SimpleCookie()['a b'] = 'x'
import http.cookies; http.cookies.Morsel().set('expires', 'a', 'a')
import http.cookies; http.cookies.Morsel()['nope'] = 1
import http.cookies; http.cookies.Morsel().setdefault('nope', 1)
import http.cookies; m = http.cookies.Morsel(); m.update({'nope': 1})
import email.utils; email.utils.parsedate_to_datetime('x')
import email.utils; email.utils.format_datetime(__import__('datetime').datetime.now(), usegmt=True)
import email.message; email.message.EmailMessage().set_content(1)
import email.message; m = email.message.EmailMessage(); m['To'] = 'a'; m['To'] = 'b'
import email.headerregistry; email.headerregistry.Address('a', 'b@c', addr_spec='d@e')
import email.headerregistry; email.headerregistry.Address(addr_spec='a@b@c')
import email.message; email.message.Message().set_param('a', 'b', header='Content-Type', requote=False) or email.message.Message().get_content_charset(failobj=1) or email.message.Message().set_boundary('x')
import email.charset; email.charset.Charset('utf-8').header_encode_lines('x', [0])
import contextlib
@contextlib.contextmanager
def g():
    if False:
        yield
with g(): pass
import contextlib
@contextlib.contextmanager
def g():
    yield
    yield
with g(): pass
import contextlib; contextlib.ExitStack().enter_context(1)
import contextlib; contextlib.ExitStack().callback()
import threading; threading.Semaphore(-1)
import threading; threading.Barrier(0)
import threading; threading.Condition().notify()
import threading; threading.Condition().wait()
import threading; threading.Thread().join()
import threading; t = threading.Thread(target=int); t.start(); t.start()
import threading; threading.current_thread().join()
import threading; threading.BoundedSemaphore(1).release()
import threading; threading.Semaphore(1).release(0)
import threading; threading.Thread(daemon=True).__setattr__('daemon', True) or threading.current_thread().__setattr__('daemon', True)
import threading; threading.Thread().setName(1) or threading.Thread()._set_tstate_lock()
import threading; threading.Barrier(2, timeout=0.001).wait()
import queue; queue.Queue().get_nowait()
import queue; q = queue.Queue(1); q.put(1); q.put_nowait(2)
import queue; queue.Queue().task_done()
import queue; queue.Queue().get(timeout=-1)
import queue; queue.Queue(1).put(1, timeout=-1)
import queue; queue.Queue().get(timeout=0.001)
import asyncio; asyncio.run(1)
import asyncio; asyncio.run(asyncio.wait([]))
import asyncio; asyncio.Semaphore(-1)
import asyncio; asyncio.Lock().release()
import asyncio; asyncio.Queue().get_nowait()
import asyncio; q = asyncio.Queue(1); q.put_nowait(1); q.put_nowait(2)
import asyncio; asyncio.Queue().task_done()
import asyncio; asyncio.run(asyncio.wait_for(asyncio.sleep(1), 0.001))
import asyncio; asyncio.run(asyncio.wait([1]))
import asyncio; asyncio.run(asyncio.wait([asyncio.sleep(0)], return_when='x'))
import asyncio; asyncio.BoundedSemaphore(1).release()
import asyncio; asyncio.Condition().notify()
import asyncio; asyncio.Barrier(0) if hasattr(asyncio, 'Barrier') else asyncio.Barrier
import asyncio; asyncio.run(asyncio.sleep(0), debug=1) or asyncio.run(asyncio.open_connection('127.0.0.1', 1))
import asyncio
async def main():
    async with asyncio.timeout(0.001):
        await asyncio.sleep(1)
asyncio.run(main())
import asyncio
async def bad():
    raise ValueError('x')
async def main():
    async with asyncio.TaskGroup() as tg:
        tg.create_task(bad())
        tg.create_task(asyncio.sleep(0))
asyncio.run(main()) if False else asyncio.Queue(maxsize=1).get_nowait()
import concurrent.futures; concurrent.futures.ThreadPoolExecutor(max_workers=0)
import concurrent.futures; concurrent.futures.ProcessPoolExecutor(max_workers=0)
import concurrent.futures; e = concurrent.futures.ThreadPoolExecutor(); e.shutdown(); e.submit(int)
import concurrent.futures; concurrent.futures.Future().result(timeout=0)
import concurrent.futures; concurrent.futures.Future().exception(timeout=0)
import concurrent.futures; f = concurrent.futures.Future(); f.set_result(1); f.set_result(2)
import concurrent.futures; list(concurrent.futures.as_completed([concurrent.futures.Future()], timeout=0))
import concurrent.futures; concurrent.futures.ThreadPoolExecutor(initializer=1)
import subprocess; subprocess.run('x', capture_output=True, stdout=1)
import subprocess; subprocess.run(['false'], check=True)
import subprocess; subprocess.run(['sleep', '1'], timeout=0.01)
import subprocess; subprocess.check_output('x', input='a', stdin=1)
import subprocess; subprocess.Popen(['/nonexistent/errdex-nope'])
import subprocess; subprocess.Popen(['true'], cwd='/nonexistent/errdex-nope')
import subprocess; subprocess.check_call(['false'])
import subprocess; subprocess.Popen(['true'], bufsize=1, text=False, universal_newlines=True)
import subprocess; subprocess.Popen(['true'], text=True, universal_newlines=False)
import subprocess; subprocess.Popen(['true'], pass_fds=[-1])
import pickletools; pickletools.dis(b'x')
import pickletools; pickletools.dis(b'')
import pickletools; pickletools.dis(b'I1\n')
import tokenize, io; list(tokenize.generate_tokens(io.StringIO("'''").readline))
import tokenize, io; list(tokenize.generate_tokens(io.StringIO('(').readline))
import tokenize, io; list(tokenize.generate_tokens(io.StringIO('if 1:\n  a\n b\n').readline))
import tokenize, io; tokenize.detect_encoding(io.BytesIO(b'# coding: nope\n').readline)
import tokenize, io; tokenize.detect_encoding(io.BytesIO(b'\xef\xbb\xbf# coding: latin-1\n').readline)
import tokenize, io; tokenize.detect_encoding(io.BytesIO(b'\xff\n').readline)
import difflib; difflib.get_close_matches('a', [], n=0)
import difflib; difflib.get_close_matches('a', [], cutoff=2)
import difflib; list(difflib.restore([], 3))
import difflib; list(difflib.unified_diff([b'a'], ['b']))
import difflib; difflib.SequenceMatcher(None, 'a', 'b').find_longest_match() or difflib.HtmlDiff(tabsize=-1) or list(difflib.diff_bytes(difflib.unified_diff, ['a'], ['b']))
import hashlib; hashlib.new('nope')
import hashlib; hashlib.file_digest(__import__('io').StringIO('x'), 'sha256')
import hmac; hmac.new(b'k')
import hmac; hmac.new('str', digestmod='sha256')
import hmac; hmac.digest(b'k', b'm', None)
import uu, io; uu.decode(io.BytesIO(b'x'), io.BytesIO())
import uu, io; uu.decode(io.BytesIO(b'begin 644 x\n'), io.BytesIO())
import wave, io; wave.open(io.BytesIO(b'x' * 12))
import wave, io; wave.open(io.BytesIO(), 'q')
import wave, io; w = wave.open(io.BytesIO(), 'wb'); w.setnchannels(0)
import wave, io; w = wave.open(io.BytesIO(), 'wb'); w.setsampwidth(9)
import wave, io; w = wave.open(io.BytesIO(), 'wb'); w.setframerate(0)
import wave, io; w = wave.open(io.BytesIO(), 'wb'); w.setcomptype('x', 'y')
import wave, io; w = wave.open(io.BytesIO(), 'wb'); w.writeframes(b'')
import csv; csv.Sniffer().sniff('')
import csv, io; csv.DictWriter(io.StringIO(), ['a']).writerow({'b': 1})
import csv, io; csv.DictWriter(io.StringIO(), ['a'], extrasaction='x')
import csv; csv.Sniffer().has_header('')
import xml.sax, xml.sax.handler; xml.sax.parseString(b'<a>', xml.sax.handler.ContentHandler())
import xml.sax, xml.sax.handler; xml.sax.parseString(b'<a></b>', xml.sax.handler.ContentHandler())
import xml.sax; xml.sax.make_parser(['nope_parser_xyz'])
import xml.dom.minidom; xml.dom.minidom.Document().appendChild(xml.dom.minidom.Document().createTextNode('x'))
import xml.dom.minidom; d = xml.dom.minidom.Document(); d.appendChild(d.createElement('a')); d.appendChild(d.createElement('b'))
import xml.dom.minidom; xml.dom.minidom.Document().createElement('a').removeChild(xml.dom.minidom.Document().createElement('b'))
import xml.dom.minidom; xml.dom.minidom.Document().createElement('a').getAttributeNode('x').value
import xml.dom.minidom; d = xml.dom.minidom.Document(); e = d.createElement('a'); e.setAttributeNode(d.createAttribute('x')); d.createElement('b').setAttributeNode(e.getAttributeNode('x'))
import xml.etree.ElementTree as ET; ET.Element('a').remove(ET.Element('b'))
import xml.etree.ElementTree as ET; ET.ElementTree().write('x')
import xml.etree.ElementTree as ET; ET.tostring(ET.Element('a'), method='nope')
import xml.etree.ElementTree as ET; ET.Element('a').find('/x')
import xml.etree.ElementTree as ET; ET.Element('a').find('.//')
import xml.etree.ElementTree as ET; ET.Element('a').find('[')
import xml.etree.ElementTree as ET; ET.Element('a').find('x:y')
import xml.etree.ElementTree as ET; ET.register_namespace('ns0', 'x')
import xml.etree.ElementTree as ET; ET.XMLPullParser(events=['nope'])
import webbrowser; webbrowser.get('nope_browser_xyz')
import getopt; getopt.getopt(['-x'], '')
import getopt; getopt.getopt(['--nope'], '', [])
import getopt; getopt.getopt(['-a'], 'a:')
import getopt; getopt.getopt(['--a=1'], '', ['a'])
import getopt; getopt.getopt(['--ab'], '', ['abc', 'abd'])
import getopt; getopt.getopt(['--a'], '', ['a='])
import optparse; optparse.OptionParser().add_option('x')
import optparse; optparse.OptionParser().add_option('-x', action='nope')
import optparse; optparse.OptionParser().add_option('-x', type='nope')
import optparse; p = optparse.OptionParser(); p.add_option('-x'); p.add_option('-x')
import optparse; optparse.OptionParser().add_option('-x', callback=1)
import optparse; optparse.OptionParser().add_option('-x', nargs=2, action='count')
import optparse; optparse.OptionParser().add_option('--x', dest=1, action='store_const', const=1, type='int')
import optparse; optparse.OptionParser().add_option('-xy')
import optparse; optparse.OptionParser().add_option('--')
import optparse; optparse.OptionParser().add_option('-x', choices=[1], type='int')
import optparse; optparse.OptionParser().add_option('-x', type='choice')
import optparse; optparse.OptionParser().add_option(1)
import optparse; optparse.OptionParser(conflict_handler='nope')
import timeit; timeit.timeit(1)
import timeit; timeit.Timer('x', setup=1)
import timeit; timeit.Timer('return')
import warnings; warnings.simplefilter('q')
import warnings; warnings.filterwarnings('error', message=1)
import warnings; warnings.filterwarnings('error', category=1)
import warnings; warnings.simplefilter('error', lineno=-1)
import warnings; warnings.warn('x', category=1)
import logging; logging.Formatter(style='x')
import logging; logging.basicConfig(nope=1)
import logging; logging.basicConfig(filename='x', handlers=[1])
import logging; logging.basicConfig(stream=1, filename='x')
import logging; logging.Formatter('{', style='{')
import logging; logging.Formatter('%(x', style='%')
import logging; logging.Formatter('x', style='$')
import logging; logging.getLogger().setLevel('NOPE')
import logging; logging.getLogger().setLevel([])
import logging.config; logging.config.dictConfig({})
import logging.config; logging.config.dictConfig({'version': 2})
import logging.config; logging.config.dictConfig({'version': 1, 'handlers': {'h': {'class': 'nope.Nope'}}})
import logging.config; logging.config.dictConfig({'version': 1, 'formatters': {'f': {'format': '%(x', 'style': '{'}}})
import logging.config; logging.config.dictConfig({'version': 1, 'loggers': {'a': {'level': 'NOPE'}}})
import logging.config; logging.config.valid_ident('1x')
import logging.handlers; logging.handlers.TimedRotatingFileHandler('x', when='nope')
import logging.handlers; logging.handlers.TimedRotatingFileHandler('x', when='W9')
import logging.handlers; logging.handlers.TimedRotatingFileHandler('x', when='W')
import selectors; selectors.DefaultSelector().unregister(99)
import selectors; selectors.DefaultSelector().register(1, 0)
import selectors; selectors.DefaultSelector().get_key(99)
import selectors; selectors.DefaultSelector().register('x', selectors.EVENT_READ)
import selectors; selectors.DefaultSelector().register(-1, selectors.EVENT_READ)
import pkgutil; pkgutil.resolve_name('x:y:z')
import pkgutil; pkgutil.resolve_name('1bad')
import importlib; importlib.import_module('..x')
import importlib.util; importlib.util.resolve_name('..x', None)
import importlib.util; importlib.util.resolve_name('...x', 'a')
import importlib; importlib.reload(1)
import importlib.metadata; importlib.metadata.version('nope_pkg_errdex')
import importlib.metadata; importlib.metadata.distribution('nope_pkg_errdex')
import runpy; runpy.run_module('nope_mod_errdex')
import runpy; runpy.run_module('.x')
import runpy; runpy.run_path('/nonexistent/errdex')
import dbm; dbm.open('/nonexistent/errdex-db')
import dbm.dumb; dbm.dumb.open('x', 'q')
import fileinput; fileinput.input(mode='q')
import fileinput; fileinput.FileInput(inplace=True, openhook=open)
import fileinput; fileinput.filename()
import fileinput; fileinput.input(files=1)
import netrc
open('n', 'w').write('machine')
netrc.netrc('n')
import netrc
open('n2', 'w').write('machine a login b password c bogus')
netrc.netrc('n2')
import ast; ast.literal_eval('x')
import ast; ast.literal_eval('1 + x')
import ast; ast.literal_eval('-x')
import ast; ast.literal_eval('{1: 2, 3}') if False else ast.literal_eval('f(1)')
import ast; ast.parse('x', mode='nope') if False else ast.literal_eval(ast.Module())
import ast; ast.get_source_segment('x', ast.Name('x')) or ast.increment_lineno(ast.Name('x'), 'x')
import typing; typing.Union[1]
import typing; typing.TypeVar('T', int)
import typing; typing.Generic[int]
import typing; typing.get_type_hints(1)
import typing; typing.Optional[1, 2]
import typing; typing.NewType('X', int)('a') if False else typing.NamedTuple('X', [('_a', int)])
import typing; typing.TypeVar('T', covariant=True, contravariant=True)
import typing; typing.Callable[1, int]
import typing; typing.Callable[[1], int]
import typing; typing.Literal[1]()
import typing; typing.ClassVar[int, int]
import typing; typing.Final[int, int]
import typing; typing.Tuple[int, ...][int]
import typing; typing.Generic[typing.TypeVar('T'), typing.TypeVar('T')] if False else typing.Protocol[int]
import typing; T = typing.TypeVar('T'); typing.Generic[T, T]
import typing; typing.assert_never(1)
import typing; isinstance(1, typing.Union)
import typing; issubclass(int, typing.List[int])
import typing; typing.Any()
import typing; typing.TypedDict('X', {'a': 1})
import dis; dis.Bytecode(1)
import dis; dis.dis(1)
import dis; dis.code_info(1)
import copyreg; copyreg.pickle(int, 1)
import copyreg; copyreg.add_extension('m', 'n', 0)
import copyreg; copyreg.remove_extension('m', 'n', 1)
import weakref; weakref.WeakValueDictionary().popitem()
import weakref; weakref.WeakKeyDictionary().popitem()
import weakref; weakref.WeakValueDictionary({}, {}).update(1, 2)
import weakref; weakref.WeakMethod(int.__add__)
import weakref; weakref.finalize(1, int)
import operator; operator.index if False else operator.length_hint(1, 'x')
import struct, codecs; codecs.getincrementalencoder('rot13')().encode(1) if False else codecs.open('x', 'rbq')
import numbers, decimal; decimal.Decimal('x') if False else __import__('_pydecimal').Decimal('x')
import _pydecimal as d; d.Decimal(1) / d.Decimal(0)
import _pydecimal as d; d.Decimal('1.5').to_integral_exact(rounding='nope')
import _pydecimal as d; d.Context(prec=0)
import _pydecimal as d; d.Decimal(-1).sqrt()
import _pydecimal as d; d.Decimal(1).quantize(d.Decimal('1e-1000'))
import _pydecimal as d; d.Decimal([1])
import _pydecimal as d; d.Decimal((1, 2))
import _pydecimal as d; d.Decimal(object())
import _pydecimal as d; d.Context(rounding='nope')
import _pydecimal as d; d.Decimal(1).ln() if False else d.Decimal(0).ln().log10() or d.Decimal(-1).log10()
import _pydecimal as d; d.Decimal('inf') - d.Decimal('inf')
import _pydecimal as d; d.Decimal(0) / d.Decimal(0)
import _pydecimal as d; int(d.Decimal('nan'))
import _pydecimal as d; int(d.Decimal('inf'))
import _pydecimal as d; d.Decimal(1).__round__('x')
import _pydatetime as dt; dt.date(2020, 13, 1) if False else None
import _strptime; _strptime._strptime('x', '%Y')
import _strptime; _strptime._strptime('2020', '%Y %Q')
import _strptime; _strptime._strptime('2020 x', '%Y')
import _strptime; _strptime._strptime('2020', '%')
import time; time.strptime('x', '%Y')
import datetime; datetime.datetime.strptime('2020 99', '%Y %j') if False else datetime.datetime.strptime('x', '%Y')
import _pyio; _pyio.open('x', 'q')
import _pyio; _pyio.open('x', 'rw')
import _pyio; _pyio.open('x', 'rb', encoding='u')
import _pyio; _pyio.open('x', 'rb', buffering=1, errors='x')
import _pyio; _pyio.open(1.5)
import _pyio; _pyio.open('x', 'r', buffering=-2) if False else _pyio.open('x', 'rb', newline='')
import _pyio; _pyio.BytesIO().seek(-1)
import _pyio; _pyio.BytesIO().seek(0, 9)
import _pyio; b = _pyio.BytesIO(); b.close(); b.read()
import _pyio; _pyio.StringIO(1)
import _pyio; _pyio.StringIO(newline='q')
import _pyio; _pyio.BytesIO().truncate(-1)
import _pyio; _pyio.TextIOWrapper(_pyio.BytesIO(), encoding=1)
import _pyio; _pyio.TextIOWrapper(_pyio.BytesIO(), errors=1)
import _pyio; _pyio.TextIOWrapper(_pyio.BytesIO(), newline='q')
import _pyio; _pyio.BufferedReader(_pyio.BytesIO(), buffer_size=0)
import _pyio; _pyio.BufferedReader(_pyio.BytesIO()).read(-2)
import _pyio; _pyio.FileIO('x', 'q')
import _pyio; _pyio.FileIO(1.5)
import _pyio; _pyio.FileIO(-1)
import _pyio; _pyio.FileIO('x', 'rw')
import _pyio; _pyio.StringIO().seek(-1)
import _pyio; _pyio.StringIO().seek(1, 1)
import _pyio; _pyio.BufferedWriter(_pyio.BytesIO()).write('x')
import _pyio; _pyio.StringIO().write(1)
import _pyio; _pyio.BufferedRWPair(_pyio.BytesIO(), _pyio.BytesIO(), 0)
import _pyio; _pyio.BytesIO().getbuffer().release() if False else _pyio.BytesIO(b'x').getbuffer() and _pyio.BytesIO().readinto(1)
import _compat_pickle, pickle; pickle._Unpickler(__import__('io').BytesIO(b'')).load()
import pickle; pickle._loads(b'x')
import pickle; pickle._loads(b'I1\n')
import pickle; pickle._dumps(1, protocol=99)
import pickle; pickle._dumps(lambda: 0)
import pickle; pickle._Pickler(__import__('io').BytesIO()).dump(1) or pickle._Pickler(1)
import pickle; pickle._loads(b'\x80\x05\x95')
import pickle; pickle._loads(b'c\n')
import pickle; pickle._loads(b'(')
import pickle; pickle._loads(b'0')
import pickle; pickle._loads(b'h\x00')
import pickle; pickle._loads(b'\x80\x99.')
import pickle; pickle._loads(b'cnope_errdex_mod\nx\n.')
import pickle; pickle._loads(b'cbuiltins\nnope_errdex\n.')
import pickle; pickle._Unpickler(__import__('io').BytesIO(b'x'), encoding=1)
import copy; copy.deepcopy(__import__('threading').Lock()) if False else copy.copy(type('X', (), {'__reduce_ex__': lambda s, p: 1})())
import copy; copy.deepcopy(type('X', (), {'__reduce_ex__': lambda s, p: (1,)})())
import sre_compile, re; re.compile('(')
import re; re.compile('[')
import re; re.compile('a**')
import re; re.compile('(?P<1>a)')
import re; re.compile('\\')
import re; re.compile('\\q')
import re; re.compile('(?P=x)')
import re; re.compile('a{2,1}')
import re; re.compile('(?<=a+)b')
import re; re.compile('[b-a]')
import re; re.compile('(?z)')
import re; re.compile('(?P<a>x)(?P<a>y)')
import re; re.sub('a', '\\9', 'a')
import re; re.compile(')')
import re; re.compile('*')
import re; re.compile('(?i')
import re; re.compile('(?#')
import re; re.compile('x', flags=re.LOCALE)
import re; re.compile(b'x', flags=re.UNICODE)
import re; re.compile('(?P<>a)')
import re; re.compile('(?P')
import re; re.compile('(a)\\2')
import re; re.compile('[\\z]')
import re; re.compile('(?P<a')
import re; re.compile('(?<a>x)')
import re; re.compile('a{1,2}{3}')
import re; re.compile('(?i-i:a)')
import re; re.compile('(?-u:a)')
import re; re.compile('(?a)(?u)')
import re; re.compile('\\N{NOPE}')
import re; re.compile('\\u12')
import re; re.compile('[\\U11111111]')
import re; re.compile('(?(1)a|b|c)')
import re; re.compile('(?(x)a)')
import re; re.sub('(a)', '\\g<x>', 'a')
import re; re.sub('(a)', '\\g<', 'a')
import re; re.sub('(a)', '\\g<1x>', 'a')
import re; re.sub('a', '\\q', 'a')
import re; re.compile('a', flags=re.DEBUG | re.TEMPLATE) if False else re.compile('(?L)a')
import re; re.compile(1)
import re; re.compile(re.compile('a'), re.I)
import re; re.compile('\\8')
import re; re.compile('a{99999999999}')
import re; re.compile('(?x)(?#x')
import re; re.compile('(?<')
import re; re.compile('(?<=a|bc)')
import re; re.compile('(?=a){2}') if False else re.compile('^*')
import os; os.environ['ERRDEX_NO_SUCH_VARIABLE']
import os; del os.environ['ERRDEX_NO_SUCH_VARIABLE']
import os; os.environ.pop('ERRDEX_NO_SUCH_VARIABLE')
import os; os.environ['ERRDEX_VARIABLE'] = 1
import os.path; os.path.join('a', 1)
import importlib; importlib.import_module('errdex_no_such_module')
"""


PYTEST = "--pytest" in sys.argv[3:]
PYTEST_STYLES = ("long", "short", "native", "line")


def pytest_reports(cases):
    """{case number: {style: report}} for `cases` [(number, code)], each run
    as a test function by pytest."""
    import re
    import subprocess

    with open("test_errdex_cases.py", "w", encoding="utf-8") as f:
        for n, code in cases:
            f.write("def test_case_%d():\n    exec(compile(%r, %r, 'exec'), {'__name__': '__case__'})\n\n"
                    % (n, code, "<case %d>" % n))
    reports = {n: {} for n, _ in cases}
    for style in PYTEST_STYLES:
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=" + style,
                              "test_errdex_cases.py"], capture_output=True, text=True, timeout=600)
        # The whole report too, with the last case: pasted whole, it is
        # that failure that is explained (warnings and summary come after).
        reports[cases[-1][0]]["whole_" + style] = run.stdout
        # The failures: from the line after `=== FAILURES ===` to the next
        # `=== ... ===` heading (warnings, the summary).
        body = run.stdout.split("= FAILURES =", 1)[-1]
        body = body.split("\n", 1)[1] if "\n" in body else ""
        body = re.split(r"^=+ .* =+$", body, maxsplit=1, flags=re.M)[0]
        if style == "line":
            # A failure per `path:N: ` line (a message may go on over more
            # lines), in the order the tests ran.
            failures = []
            for line in body.splitlines():
                if re.match(r"^(/[^ ]*|<frozen [^ >]+>|<[^ ]*):\d+: ", line):
                    failures.append(line + "\n")
                elif failures and line.strip():
                    failures[-1] += line + "\n"
            if len(failures) == len(cases):
                for (n, _), failure in zip(cases, failures):
                    reports[n][style] = failure
            continue
        parts = re.split(r"^_+ test_case_(\d+) _+$", body, flags=re.M)
        for k in range(1, len(parts) - 1, 2):
            reports[int(parts[k])][style] = parts[k + 1].strip("\n") + "\n"
    return reports


def in_stdlib(path):
    """`path` relative to the standard library's root, when it is there."""
    rel = os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else None
    return None if rel is None or rel.startswith("site-packages") else rel


counts = Counts()
records = []
for n, code, err, rel, line in raised(split_cases(CASES), in_stdlib, "the stdlib", counts):
    kept = counts.kept
    out = {
        "case": n,
        "code": code,
        "traceback": "".join(traceback.format_exception(err)),
        "last": "".join(traceback.format_exception_only(err)),
        "repr": repr(err),
        "file": rel,
        "line": line,
    }
    if IPYTHON:
        for key, formatter in FORMATTERS.items():
            if key == "ipython" or kept % 10 == 1:
                out[key] = formatter.text(type(err), err, err.__traceback__)
        if kept % 10 == 1:
            lines = FORMATTERS["ipython_color"].structured_traceback(type(err), err, err.__traceback__)
            output = nbformat.v4.new_output("error", ename=type(err).__name__, evalue=str(err), traceback=lines)
            notebook = nbformat.v4.new_notebook()
            notebook.cells.append(nbformat.v4.new_code_cell(code, execution_count=1, outputs=[output]))
            out["notebook"] = nbformat.writes(notebook)
    # rich prints no file or line for a frame whose file is not a path
    # (`<frozen os>`): only `in __getitem__`.
    if RICH and kept % 10 == 5 and not innermost(err)[2].startswith("<"):
        out["rich"] = rich_text(err)
    if LOGS and kept % 10 == 3:
        out["logs"] = logged(err, out["last"])
    if SESSIONS and kept % 10 == 4:
        out["sessions"] = sessions(code, out["traceback"], out["last"])
    if REMOTE and kept % 10 == 9:
        out["remote"] = remote_reports(code, n, err)
    if DJANGO and kept % 10 == 7:
        out["django"] = ExceptionReporter(None, type(err), err, err.__traceback__).get_traceback_text()
    records.append(out)
if PYTEST:
    chosen = [(r["case"], r["code"]) for k, r in enumerate(records) if k % 10 == 8]
    for n, styles in pytest_reports(chosen).items():
        record = next(r for r in records if r["case"] == n)
        for style, report in styles.items():
            record["pytest_" + style] = report
for out in records:
    print(json.dumps(out))
print("kept %d cases, left out %d" % (counts.kept, counts.left_out), file=sys.stderr)
sys.stdout.flush()
sys.stderr.flush()
os._exit(0)  # threads some cases started (executors, barriers) must not hold the exit
