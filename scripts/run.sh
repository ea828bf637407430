#!/usr/bin/env bash
# `make run`: index the standard library of the python3 on PATH (as
# python/cpython at the matching tag, prefix Lib), show what came out, then
# serve the site and the API on 127.0.0.1:8080 (LISTEN overrides) until
# Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
errdex=${1:-build/errdex}
db=${2:-data/errdex.db}
listen=${LISTEN:-127.0.0.1:8080}
stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
version=$(python3 -c 'import platform; print(platform.python_version())')
echo "errdex: indexing the Python $version standard library at $stdlib"
"$errdex" scan "$stdlib" --repo python/cpython --prefix Lib --ref "v$version" --db "sqlite:$db"
"$errdex" stats --db "sqlite:$db"
echo
echo "A few records:"
"$errdex" search "must be" --limit 5 --db "sqlite:$db" || true
echo
# The server prints the URL once it listens; Ctrl-C stops it gracefully.
exec "$errdex" serve --db "sqlite:$db" --listen "$listen"
