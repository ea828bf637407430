#!/usr/bin/env python3
"""A small OpenAI-compatible /v1/chat/completions server for errdex's LLM
analyst tests. It answers from the facts errdex sends, and behaves by the
name of the function that raises:

  slow_*        sleeps --slow seconds, then answers well
  malformed_*   answers with content that is not JSON
  badcode_*     a good documentation, a validationCode that does not parse
  unknown_*     a tryCatchPattern calling a name the source does not have
  busy_*        429 (Retry-After: 0) on the first request for it, then well
  pause_*       sleeps 0.2 s, then answers well (to see requests overlap)
  anything else answers well: documentation "Rewritten: " + the draft's

GET /count returns {"chat": N, "maxInFlight": M}: chat completion requests
received, and the most that were being answered at one time.
Usage: llm_server.py PORT_FILE [--slow SECONDS]; binds 127.0.0.1 on a free
port and writes the port to PORT_FILE once it listens.
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
COUNT = {"chat": 0, "maxInFlight": 0}
IN_FLIGHT = [0]
SEEN_BUSY = set()
SLOW = 3.0


def answer(facts, draft):
    fn = facts.get("function", "")
    if fn.startswith("malformed"):
        return "Sure! Here is the JSON you asked for: {documentation: oops"
    out = {
        "documentation": "Rewritten: " + draft["documentation"],
        "triggerScenarios": "Rewritten trigger: " + draft["triggerScenarios"],
        "solutions": ["Rewritten: " + s for s in draft["solutions"]],
        "handlingStrategy": draft["handlingStrategy"],
        "exampleFix": draft["exampleFix"],
        "tags": draft["tags"] + ["llm"],
    }
    if draft.get("validationCode"):
        out["validationCode"] = draft["validationCode"]
    if fn.startswith("badcode"):
        out["validationCode"] = "if x ==:\n    pass"
    if fn.startswith("unknown"):
        out["tryCatchPattern"] = "try:\n    frobnicate_everything()\nexcept ValueError:\n    pass"
    return "```json\n" + json.dumps(out) + "\n```"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/count":
            with LOCK:
                self.send(200, dict(COUNT))
        else:
            self.send(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        if self.path != "/v1/chat/completions":
            self.send(404, {"error": "not found"})
            return
        with LOCK:
            COUNT["chat"] += 1
            IN_FLIGHT[0] += 1
            COUNT["maxInFlight"] = max(COUNT["maxInFlight"], IN_FLIGHT[0])
        try:
            self.chat(raw)
        finally:
            with LOCK:
                IN_FLIGHT[0] -= 1

    def chat(self, raw):
        req = json.loads(raw)
        user = [m for m in req["messages"] if m["role"] == "user"][0]["content"]
        msg = json.loads(user)
        facts, draft = msg["facts"], msg["draft"]
        fn = facts.get("function", "")
        key = facts["file"] + ":" + str(facts["line"])
        if fn.startswith("busy"):
            with LOCK:
                first = key not in SEEN_BUSY
                SEEN_BUSY.add(key)
            if first:
                self.send(429, {"error": {"message": "rate limited"}}, [("Retry-After", "0")])
                return
        if fn.startswith("slow"):
            time.sleep(SLOW)
        if fn.startswith("pause"):
            time.sleep(0.2)
        content = answer(facts, draft)
        self.send(200, {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "model": req.get("model", ""),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
        })


def main():
    global SLOW
    port_file = sys.argv[1]
    if "--slow" in sys.argv:
        SLOW = float(sys.argv[sys.argv.index("--slow") + 1])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
