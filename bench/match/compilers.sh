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
case "${1:-}" in -h|--help) sed -n '2,/^# usage/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
build=${1:-build}
rounds=${2:-400}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "compilers.sh: ROUNDS is a positive number" >&2; exit 2; }
for tool in gcc g++ clang clang++; do
  command -v $tool >/dev/null || { echo "compilers.sh: $tool is needed (scripts/deps.sh installs it)" >&2; exit 2; }
done
. bench/match/stdlib.sh  # builds $build's errdex and match_bench, makes $work
flags=$(matcher_flags)
[ -n "$flags" ] || { echo "compilers.sh: no compile command for the matcher in $build/compile_commands.json" >&2; exit 2; }

mkdir -p "$work/ab/a" "$work/ab/b"
sources=(src/match/*.cc src/model/*.cc src/store/*.cc src/util/*.cc bench/match/ab_side.cc)
for side in a b; do  # a: gcc, b: clang
  cxx=$([ $side = a ] && echo g++ || echo clang++)
  for f in "${sources[@]}"; do
    echo "$cxx -std=gnu++20 $flags -Derrdex=errdex_$side -DSIDE=$side -Isrc -c $f -o $work/ab/$side/$(basename "$f" .cc).o"
  done
done | xargs -P2 -I{} sh -c '{}'
clang++ -std=gnu++20 -O2 bench/match/ab_main.cc "$work"/ab/a/*.o "$work"/ab/b/*.o -o "$work/ab/ab_main" \
  $(pkg-config --libs re2 sqlite3) -pthread
status=0
out=$("$work/ab/ab_main" "sqlite:$work/stdlib.db" "$work/cases.jsonl" "$rounds" gcc clang) || status=$?
echo "$out"
[ $status -le 1 ] || { echo "compilers.sh: the driver failed" >&2; exit 2; }
section=$(cat <<EOF

### match, clang against gcc, stdlib (a), $(date -u '+%Y-%m-%d %H:%M') UTC

Command: \`bench/match/compilers.sh $build $rounds\` ($(clang++ --version | head -1); $(g++ --version | head -1); both
$flags, the same sources, in one process; $rounds rounds, each a pass over the $(wc -l <"$work/cases.jsonl") pasted lines
by each build in turn; one thread; 2 shared cores)

\`\`\`
$out
\`\`\`
EOF
)
echo "$section" >>bench/RESULTS.md
echo "bench/match/compilers.sh: appended to bench/RESULTS.md"
exit $status
