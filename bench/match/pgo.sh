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
case "${1:-}" in -h|--help) sed -n '2,/^# usage/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
build=${1:-build}
rounds=${2:-400}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "pgo.sh: ROUNDS is a positive number" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "pgo.sh: clang++ is needed (scripts/deps.sh installs it)" >&2; exit 2; }
profdata=$(command -v llvm-profdata || command -v llvm-profdata-14 || true)
[ -n "$profdata" ] || { echo "pgo.sh: llvm-profdata is needed (scripts/deps.sh installs llvm)" >&2; exit 2; }
. bench/match/stdlib.sh  # builds $build's errdex and match_bench, makes $work
flags=$(matcher_flags)
[ -n "$flags" ] || { echo "pgo.sh: no compile command for the matcher in $build/compile_commands.json" >&2; exit 2; }
libs="$(pkg-config --libs re2 sqlite3) -pthread"
sources=(src/match/*.cc src/model/*.cc src/store/*.cc src/util/*.cc bench/match/ab_side.cc)
compile() {  # compile SIDE DIR EXTRA_FLAGS: the sources as SIDE into DIR
  mkdir -p "$2"
  for f in "${sources[@]}"; do
    echo "clang++ -std=gnu++20 $flags $3 -Derrdex=errdex_$1 -DSIDE=$1 -Isrc -c $f -o $2/$(basename "$f" .cc).o"
  done | xargs -P2 -I{} sh -c '{}'
}
compile a "$work/ab/a" ""
compile b "$work/ab/gen" "-fprofile-instr-generate"
clang++ -std=gnu++20 -O2 -fprofile-instr-generate bench/match/ab_main.cc "$work"/ab/a/*.o "$work"/ab/gen/*.o \
  -o "$work/ab/train" $libs
LLVM_PROFILE_FILE="$work/ab/train.profraw" "$work/ab/train" --train "sqlite:$work/stdlib.db" "$work/cases.jsonl" 20
"$profdata" merge -o "$work/ab/matcher.profdata" "$work/ab/train.profraw"
compile b "$work/ab/b" "-fprofile-instr-use=$work/ab/matcher.profdata"
clang++ -std=gnu++20 -O2 bench/match/ab_main.cc "$work"/ab/a/*.o "$work"/ab/b/*.o -o "$work/ab/ab_main" $libs
status=0
out=$("$work/ab/ab_main" "sqlite:$work/stdlib.db" "$work/cases.jsonl" "$rounds" clang clang+profile) || status=$?
echo "$out"
[ $status -le 1 ] || { echo "pgo.sh: the driver failed" >&2; exit 2; }
section=$(cat <<EOT

### match, clang with a profile against clang, stdlib (a), $(date -u '+%Y-%m-%d %H:%M') UTC

Command: \`bench/match/pgo.sh $build $rounds\` ($(clang++ --version | head -1); both $flags, the same sources, in
one process; the profile from 20 passes of an instrumented build over the even pasted lines and every
traceback; $rounds rounds, each a pass over all $(wc -l <"$work/cases.jsonl") pasted lines by each build in turn; one thread;
2 shared cores)

\`\`\`
$out
\`\`\`
EOT
)
echo "$section" >>bench/RESULTS.md
echo "bench/match/pgo.sh: appended to bench/RESULTS.md"
exit $status
