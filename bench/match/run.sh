#!/usr/bin/env bash
# errdex match against RE2::Set, Hyperscan and a loop of RE2, same run.
# Scans this machine's python3 standard library into a temporary store,
# makes its real errors with tests/match/stdlib_cases.py, then runs
# match_bench over (a) that index and (b) a synthetic one of N templates.
# usage: bench/match/run.sh [BUILD_DIR] [N]   (default build, 1000000)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
n=${2:-1000000}
. bench/match/stdlib.sh
echo "machine: $(nproc) cores, $(python3 --version), $(wc -l <"$work/cases.jsonl") real errors"
"$build/match_bench" --db "sqlite:$work/stdlib.db" --cases "$work/cases.jsonl" --synthetic "$n" \
  --peer-sizes 10000,30000 --hs-max 30000 --cycles 1,32,100,300,603
