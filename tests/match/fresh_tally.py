"""Tally how errdex answers the fresh corpus (fresh_cases.py's JSON lines)
as a user meets it: each case's whole traceback, its exception-only text
(all lines Python prints without the traceback) and its message line alone
(the first of those lines that is not indented: `Class: first line`)
through errdex's match (the JSON API of `errdex serve`, the same answer as
`errdex match --json`, one matcher build for all cases; or `--cli`: one
`errdex match --json` process per input), and all tracebacks as one stream
through `errdex explain`.

Per input: top-1 (the first answer is the raise site and not tied), tie
(the site is among equal first answers), top-3 (the site among the first
three), wrong (answers, the site not among the first three), none (no
answer), crash (an error or a timeout). Prints the tallies and each miss.

usage: python3 fresh_tally.py ERRDEX DB_URL CASES.jsonl [--cli] [--json]
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

ERRDEX, DB, CASES = sys.argv[1:4]
CLI = "--cli" in sys.argv[4:]
AS_JSON = "--json" in sys.argv[4:]
cases = [json.loads(line) for line in open(CASES, encoding="utf-8")]


def is_site(cand, c):
    return cand["repo"] == c["repo"] and cand["filePath"] == c["file"] and cand["lineNumber"] == c["line"]


def verdict(result, c):
    if result is None:
        return "crash"
    cands = result.get("candidates", [])
    if not cands:
        return "none"
    if is_site(cands[0], c):
        if not result.get("ambiguous"):
            return "top1"
        return "tie"
    if result.get("ambiguous") and any(is_site(k, c) and k["score"] == cands[0]["score"] for k in cands):
        return "tie"
    return "top3" if any(is_site(k, c) for k in cands[:3]) else "wrong"


def message_line(last):
    """The first line of an exception-only text that is not indented (a
    SyntaxError's location lines are)."""
    lines = last.splitlines()
    return next((line for line in lines if line and not line[0].isspace()), lines[0] if lines else "") + "\n"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def via_api(texts):
    port = free_port()
    server = subprocess.Popen([ERRDEX, "serve", "--listen", "127.0.0.1:%d" % port, "--threads", "2", "--access-log", "off",
                               "--db", DB], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        url = "http://127.0.0.1:%d/api/match?top=5" % port
        for _ in range(600):
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/api/repos" % port, timeout=5).read()
                break
            except OSError:
                time.sleep(0.1)
        out = []
        for text in texts:
            try:
                req = urllib.request.Request(url, data=text.encode(), headers={"Content-Type": "text/plain"})
                out.append(json.loads(urllib.request.urlopen(req, timeout=30).read()))
            except Exception as e:  # an error or a timeout is a crash of that input
                print("crash: %s" % e, file=sys.stderr)
                out.append(None)
        return out
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def via_cli(texts):
    out = []
    for text in texts:
        try:
            run = subprocess.run([ERRDEX, "match", "--json", "--top", "5", "--db", DB], input=text, capture_output=True,
                                 text=True, timeout=60)
            out.append(json.loads(run.stdout) if run.returncode in (0, 1) and run.stdout.strip() else None)
        except (subprocess.TimeoutExpired, ValueError):
            out.append(None)
    return out


def explain_all():
    """{case: (repo, file, line) or None} from one `errdex explain` over all
    tracebacks, each after a marker line."""
    stream = "".join("=== errdex fresh case %d ===\n%s\n" % (c["case"], c["traceback"]) for c in cases)
    run = subprocess.run([ERRDEX, "explain", "--db", DB], input=stream, capture_output=True, text=True, timeout=1200)
    said = {}
    current = None
    for line in run.stdout.splitlines():
        m = re.match(r"^=== errdex fresh case (\d+) ===$", line)
        if m:
            current = int(m.group(1))
            said[current] = None
            continue
        # `(pypi/x 1.2)`, or `(python/cpython)` for a store with no version
        m = re.match(r"^errdex: .* raised at (\S+):(\d+) \(([^ )]+)[ )]", line)
        if m and current is not None and said[current] is None:
            said[current] = (m.group(3), m.group(1), int(m.group(2)))
    return run.returncode, said


match = via_cli if CLI else via_api
tallies = {}
verdicts = {}  # kind -> {case: verdict}, for comparing two runs case by case (--json)
misses = []
for kind in ("traceback", "last", "line"):
    results = match([message_line(c["last"]) if kind == "line" else c[kind] for c in cases])
    t = tallies.setdefault(kind, {k: 0 for k in ("top1", "tie", "top3", "wrong", "none", "crash")})
    for c, r in zip(cases, results):
        v = verdict(r, c)
        t[v] += 1
        verdicts.setdefault(kind, {})[c["case"]] = v
        if v not in ("top1", "tie"):
            first = r["candidates"][0] if r and r.get("candidates") else None
            got = "%s %s:%d%s" % (first["repo"], first["filePath"], first["lineNumber"], " (tie)" if r.get("ambiguous") else "") \
                if first else "nothing"
            misses.append("%s %s case %d want %s %s:%d got %s | %s" % (kind, v, c["case"], c["repo"], c["file"], c["line"], got,
                                                                       c["last"].strip().splitlines()[-1][:100]))
code, said = explain_all()
t = tallies["explain"] = {"right": 0, "other": 0, "silent": 0, "exit": code}
for c in cases:
    s = said.get(c["case"])
    if s is None:
        t["silent"] += 1
        misses.append("explain silent case %d want %s %s:%d" % (c["case"], c["repo"], c["file"], c["line"]))
    elif s == (c["repo"], c["file"], c["line"]):
        t["right"] += 1
    else:
        t["other"] += 1
        misses.append("explain other case %d want %s %s:%d got %s %s:%d" % ((c["case"], c["repo"], c["file"], c["line"]) + s))
if AS_JSON:
    print(json.dumps({"cases": len(cases), "tallies": tallies, "misses": misses, "verdicts": verdicts}))
else:
    n = len(cases)
    for kind in ("traceback", "last", "line"):
        t = tallies[kind]
        print("%-9s of %d: top-1 %d (%.1f%%), tie %d, top-3 %d, wrong %d, none %d, crash %d" % (
            kind, n, t["top1"], 100.0 * t["top1"] / n, t["tie"], t["top3"], t["wrong"], t["none"], t["crash"]))
    t = tallies["explain"]
    print("explain   of %d: names the site %d (%.1f%%), another %d, no site %d (exit %d)" % (
        n, t["right"], 100.0 * t["right"] / n, t["other"], t["silent"], t["exit"]))
    for m in misses:
        print("  " + m)
