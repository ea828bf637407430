#!/usr/bin/env bash
# Whether profile-guided optimisation would pay for the matcher: its
# sources built by clang with the project's flags (side a) against the same
# sources built by clang with a profile (side b), in one process
# (ab_side.cc, ab_main.cc, as compilers.sh does for gcc against clang).
# The profile comes from a run of side b built instrumented
# (-fprofile-instr-generate) over the pasted lines of even index and every
# traceback; the timed passes are over every pasted line, so half of them
# were never seen in training. The driver first checks that both sides give
# the same answers. Appends a section to bench/RESULTS.md.
# usage: bench/match/pgo.sh [BUILD_DIR] [ROUNDS]   (default build, 400)
set -euo pipefail
cd "$(dirname "$0")/../.."
name=pgo.sh
. bench/match/ab.sh "$@"
command -v clang++ >/dev/null || { echo "$name: clang++ is needed (scripts/deps.sh installs it)" >&2; exit 2; }
profdata=$(command -v llvm-profdata || command -v llvm-profdata-14 || true)
[ -n "$profdata" ] || { echo "$name: llvm-profdata is needed (scripts/deps.sh installs llvm)" >&2; exit 2; }
ab_prepare
ab_compile clang++ a "$work/ab/a"
# Side b instrumented, run over the training lines; then built with its profile.
ab_compile clang++ b "$work/ab/gen" -fprofile-instr-generate
clang++ -std=gnu++20 -O2 -fprofile-instr-generate bench/match/ab_main.cc "$work"/ab/a/*.o "$work"/ab/gen/*.o \
  -o "$work/ab/train" $ab_libs
LLVM_PROFILE_FILE="$work/ab/train.profraw" "$work/ab/train" --train "sqlite:$work/stdlib.db" "$work/cases.jsonl" 20
"$profdata" merge -o "$work/ab/matcher.profdata" "$work/ab/train.profraw"
ab_compile clang++ b "$work/ab/b" "-fprofile-instr-use=$work/ab/matcher.profdata"
ab_run "$work/ab/a" "$work/ab/b" clang clang+profile
ab_record "clang with a profile against clang" "$(clang++ --version | head -1); both $flags, the same sources, in
one process; the profile from 20 passes of an instrumented build over the even pasted lines and every
traceback"
exit $status
