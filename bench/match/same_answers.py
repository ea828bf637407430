#!/usr/bin/env python3
"""Whether two errdex binaries give the same JSON answer to every case of
the real-error corpora (tests/match/stdlib_cases.py, dist_cases.py,
fresh_cases.py output: JSON lines with "traceback" and "last").

Each case's traceback and its last line (the message alone) are asked of
both binaries: of `errdex serve`'s /api/match (one server per binary over
the same store, so the index is built once) for every case, and of
`errdex match --json` (a process per question) for every SAMPLE-th one.
The JSON documents are compared whole. Prints the counts and the first
differences; exit 0 when every answer is the same, 1 when some differ,
2 on a usage or run error.

usage: same_answers.py ERRDEX_A ERRDEX_B DB CASES.jsonl... [--sample N]
       (DB a store URL, e.g. sqlite:/tmp/env.db; N default 25, 0: none)
"""
import json
import re
import subprocess
import sys
import urllib.request


def serve(binary, db):
    """Starts `binary serve` on a free port; (process, base URL)."""
    p = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--access-log", "off", "--threads", "1",
                          "--db", db], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in p.stdout:
        m = re.search(r"serving (http://\S+/)", line)
        if m:
            return p, m.group(1)
    sys.exit("same_answers.py: %s serve did not start" % binary)


def ask_api(base, text):
    req = urllib.request.Request(base + "api/match", data=json.dumps({"text": text}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")


def ask_cli(binary, db, text):
    r = subprocess.run([binary, "match", "--json", "--db", db], input=text.encode(), capture_output=True, timeout=600)
    return r.returncode, r.stdout.decode(errors="replace")


def main(argv):
    sample = 25
    if "--sample" in argv:
        i = argv.index("--sample")
        sample = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) < 4 or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    a, b, db, files = argv[0], argv[1], argv[2], argv[3:]
    texts = []
    for f in files:
        with open(f) as fh:
            for line in fh:
                c = json.loads(line)
                for key in ("traceback", "last"):
                    if c.get(key):
                        texts.append((f, key, c[key]))
    servers = [serve(a, db), serve(b, db)]
    counts = {"API": [0, 0], "CLI": [0, 0]}  # same, differ
    shown = []

    def compare(how, f, key, text, ra, rb):
        counts[how][ra != rb] += 1
        if ra != rb and len(shown) < 5:
            shown.append(how)
            print("%s differs (%s, %s):\n%s\n--- a: %s\n--- b: %s" % (how, f, key, text[-300:], ra, rb))

    try:
        for k, (f, key, text) in enumerate(texts):
            compare("API", f, key, text, ask_api(servers[0][1], text), ask_api(servers[1][1], text))
            if sample and k % sample == 0:
                compare("CLI", f, key, text, ask_cli(a, db, text), ask_cli(b, db, text))
    finally:
        for p, _ in servers:
            p.terminate()
            p.wait()
    (api_same, api_differ), (cli_same, cli_differ) = counts["API"], counts["CLI"]
    print("texts %d; /api/match: %d same, %d differ; errdex match --json (every %s): %d same, %d differ" %
          (len(texts), api_same, api_differ, sample or "none", cli_same, cli_differ))
    return 0 if api_differ == 0 and cli_differ == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
