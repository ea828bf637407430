#!/usr/bin/env bash
# Installs everything errdex needs on a fresh Debian 12 machine. Idempotent:
# when every package is present it only checks, which takes about a second.
# Called by `make build` and `make run` with no argument: only what building
# and running need. `make test` calls it with `test`: the test-only tools too.
set -euo pipefail
cd "$(dirname "$0")/.."

# Build and run: compilers, libraries (see docs in architecture.md).
apt_build=(build-essential cmake ninja-build ccache pkg-config git
           libgit2-dev libre2-dev libsqlite3-dev libpq-dev nlohmann-json3-dev
           libcli11-dev libboost-dev libkainjow-mustache-dev libgtest-dev libbenchmark-dev
           zlib1g-dev python3 clang libclang-rt-14-dev libjemalloc-dev)
# Tests and benchmarks only: peers (Hyperscan, ast-grep, nginx, wrk), a
# real browser, valgrind (bench/match/cost.sh counts instead of timing),
# llvm-profdata (bench/match/pgo.sh), IPython and nbformat, rich, Django, pytest,
# structlog, python-json-logger, loguru and sentry-sdk (their tracebacks
# and logs, on Debian's python3, for the match accuracy test), and
# PostgreSQL 15, which the store's tests start as a server of their own.
apt_test=(postgresql-15 hyperfine libhyperscan-dev wrk nginx chromium valgrind llvm ipython3 python3-nbformat python3-rich python3-django
          python3-pytest python3-structlog python3-pythonjsonlogger python3-loguru python3-sentry-sdk)

missing=()
wanted=("${apt_build[@]}")
case "${1:-}" in
  "") ;;
  test) wanted+=("${apt_test[@]}") ;;
  *) echo "usage: scripts/deps.sh [test]" >&2; exit 2 ;;
esac
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# The machine may carry its own Node.js; Debian's is only the fallback.
command -v npm >/dev/null || missing+=(nodejs npm)
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# tree-sitter runtime and grammar C sources (package.json's dependencies),
# pinned by package-lock.json; the tests' npm packages and benchmark peers
# are its devDependencies, installed only for `test`.
# --ignore-scripts: we compile the C sources ourselves; no native node build.
# The stamp holds the lock file and what was installed: a full install serves
# both modes, a build-only one is replaced by a full one for `test`.
stamp=node_modules/.errdex-lock
kind=all; npm_flags=()
[ "${1:-}" = test ] || { kind=build; npm_flags=(--omit=dev); }
installed=$(sed -n 1p node_modules/.errdex-kind 2>/dev/null || true)
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp" ||
   { [ "$kind" = all ] && [ "$installed" != all ]; }; then
  echo "deps: npm ci ${npm_flags[*]}"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error "${npm_flags[@]}"
  cp package-lock.json "$stamp"
  echo "$kind" > node_modules/.errdex-kind
fi
