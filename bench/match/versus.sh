#!/usr/bin/env bash
# The matcher of another revision (default main) against the working
# tree's, in one process: the matcher's sources of REV (`git archive`, so
# uncommitted changes never reach side a) and of the working tree are each
# compiled by clang with the flags of the project's build (read from
# BUILD_DIR's compile_commands.json, as compilers.sh does), with `errdex`
# renamed (ab_side.cc), and the driver (ab_main.cc) checks that both give
# the same answer to every line of the standard library's cases, then
# times whole passes over the pasted lines, the builds taking turns. For a
# change that must not move the matcher's speed (a file split, a rename).
# RUNS (default 1) runs the driver that many times on the one build, each
# a comparison of its own: on a busy machine a round's ratio moves by a
# third, so many rounds (thousands) and the median round say more than
# the ratio over all rounds. It prints; it does not append to
# bench/RESULTS.md (write the runs there). Exit 1 when some answer differs.
# usage: [RUNS=N] bench/match/versus.sh [BUILD_DIR] [ROUNDS] [REV]   (default build, 400, main)
set -euo pipefail
cd "$(dirname "$0")/../.."
name=versus.sh
. bench/match/ab.sh "$@"
rev=${3:-main}
runs=${RUNS:-1}
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "$name: RUNS is a positive number" >&2; exit 2; }
git rev-parse --verify -q "$rev^{commit}" >/dev/null || { echo "$name: $rev is not a revision of this repository" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "$name: clang++ is needed (scripts/deps.sh installs it)" >&2; exit 2; }
ab_prepare
mkdir -p "$work/rev"
git archive "$rev" src bench/match | tar -x -C "$work/rev"
(cd "$work/rev" && ab_compile clang++ a "$work/ab/a")
ab_compile clang++ b "$work/ab/b"
short=$(git rev-parse --short "$rev")
label=$([[ "$short" == "$rev"* || "$rev" == "$short"* ]] && echo "$short" || echo "$rev@$short")
worst=0
for ((k = 1; k <= runs; ++k)); do
  echo "run $k of $runs, $(date -u '+%H:%M:%S') UTC:"
  ab_run "$work/ab/a" "$work/ab/b" "$label" worktree
  worst=$((status > worst ? status : worst))
done
exit $worst
