#!/usr/bin/env bash
# `make run`: index the standard library of the python3 on PATH (as
# python/cpython at the matching tag, prefix Lib) and show what came out.
set -euo pipefail
cd "$(dirname "$0")/.."
errdex=${1:-build/errdex}
db=${2:-data/errdex.db}
stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
version=$(python3 -c 'import platform; print(platform.python_version())')
echo "errdex: indexing the Python $version standard library at $stdlib"
"$errdex" scan "$stdlib" --repo python/cpython --prefix Lib --ref "v$version" --db "sqlite:$db"
"$errdex" stats --db "sqlite:$db"
echo
echo "A few records:"
"$errdex" search "must be" --limit 5 --db "sqlite:$db" || true
