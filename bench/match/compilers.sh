#!/usr/bin/env bash
# The same matcher built by clang (the project's compiler, see the Makefile)
# and by gcc, in one process: the matcher's sources are compiled once by
# each compiler with the flags of the project's build (read from its
# compile_commands.json, so they cannot drift from CMakeLists.txt), with
# `errdex` renamed so both builds link together (ab_side.cc), and a driver
# (ab_main.cc) checks they give the same answers and then times whole
# passes over the standard library's pasted lines (a), the builds taking
# turns. Two processes run one after the other would not do: on the shared
# machines the same binary's rate moves by half from one second to the
# next. Appends a section to bench/RESULTS.md.
# usage: bench/match/compilers.sh [BUILD_DIR] [ROUNDS]   (default build, 400)
set -euo pipefail
cd "$(dirname "$0")/../.."
name=compilers.sh
. bench/match/ab.sh "$@"
for tool in gcc g++ clang clang++; do
  command -v $tool >/dev/null || { echo "$name: $tool is needed (scripts/deps.sh installs it)" >&2; exit 2; }
done
ab_prepare
ab_compile g++ a "$work/ab/a"
ab_compile clang++ b "$work/ab/b"
ab_run "$work/ab/a" "$work/ab/b" gcc clang
ab_record "clang against gcc" "$(clang++ --version | head -1); $(g++ --version | head -1); both
$flags, the same sources, in one process"
exit $status
