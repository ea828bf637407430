#!/usr/bin/env bash
# The matcher of another revision (default main) against the working
# tree's, in one process: the matcher's sources of REV (`git archive`, so
# uncommitted changes never reach side a) and of the working tree are each
# compiled by clang with the flags of the project's build (read from
# BUILD_DIR's compile_commands.json, as compilers.sh does), with `errdex`
# renamed (ab_side.cc), and the driver (ab_main.cc) checks that both give
# the same answer to every line of the standard library's cases, then
# times whole passes over the pasted lines, the builds taking turns. For a
# change that must not move the matcher's speed (a file split, a rename):
# run it a few times in one session and read the "speed" ratio of each. It
# prints; it does not append to bench/RESULTS.md (write the runs there).
# Exit 1 when some answer differs.
# usage: bench/match/versus.sh [BUILD_DIR] [ROUNDS] [REV]   (default build, 400, main)
set -euo pipefail
cd "$(dirname "$0")/../.."
name=versus.sh
. bench/match/ab.sh "$@"
rev=${3:-main}
git rev-parse --verify -q "$rev^{commit}" >/dev/null || { echo "$name: $rev is not a revision of this repository" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "$name: clang++ is needed (scripts/deps.sh installs it)" >&2; exit 2; }
ab_prepare
mkdir -p "$work/rev"
git archive "$rev" src bench/match | tar -x -C "$work/rev"
(cd "$work/rev" && ab_compile clang++ a "$work/ab/a")
ab_compile clang++ b "$work/ab/b"
label=$(git rev-parse --short "$rev")
ab_run "$work/ab/a" "$work/ab/b" "$rev@$label" worktree
exit $status
