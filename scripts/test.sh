#!/usr/bin/env bash
# Every test: unit and end-to-end tests through ctest, then a short smoke run
# of each fuzz target. Called by `make test` after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

ctest --test-dir "$build" --output-on-failure -j2 --timeout 1500
scripts/fuzz.sh smoke
