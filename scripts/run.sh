#!/usr/bin/env bash
# `make run`: index the python3 on PATH (its standard library and installed
# distributions, each at its version), show what came out, then serve the
# site and the API on 127.0.0.1:8080 (LISTEN overrides) until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
errdex=${1:-build/errdex}
db=${2:-data/errdex.db}
listen=${LISTEN:-127.0.0.1:8080}
# The environment of the python3 on PATH, as a traceback printed by it
# comes from: its standard library as python/cpython at v<version> (prefix
# Lib) and every installed distribution as pypi/<name> at its version. A
# rerun scans only what is not in the store yet.
echo "errdex: indexing the environment of $(command -v python3): its standard library and installed distributions"
"$errdex" scan --python python3 --db "sqlite:$db"
"$errdex" stats --db "sqlite:$db"
echo
echo "A few records:"
"$errdex" search "must be" --limit 5 --db "sqlite:$db" || true
echo
# The server prints the URL once it listens; Ctrl-C stops it gracefully.
exec "$errdex" serve --db "sqlite:$db" --listen "$listen"
