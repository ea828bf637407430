# Sourced by the in-process comparisons of two builds of the matcher
# (compilers.sh, pgo.sh) from the repository's root, with $name set to the
# script's name and the script's arguments: answers --help from the
# script's header, reads [BUILD_DIR] [ROUNDS] into $build and $rounds, and
# defines the steps the scripts share. ab_prepare builds $build and makes
# the stdlib's index and cases (stdlib.sh); ab_compile compiles the
# matcher's sources as one side (ab_side.cc); ab_run links both sides with
# the driver (ab_main.cc), checks their answers and times them; ab_record
# appends the result to bench/RESULTS.md.
case "${1:-}" in -h|--help) sed -n '2,/^# usage/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
build=${1:-build}
rounds=${2:-400}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "$name: ROUNDS is a positive number" >&2; exit 2; }
ab_libs="$(pkg-config --libs re2 sqlite3 libpq) -pthread"

# The flags $build compiles the matcher with (its compile_commands.json),
# without the compiler, includes, output and source: what the in-process
# comparisons compile both sides with.
matcher_flags() {
  python3 - "$build/compile_commands.json" <<'PY'
import json, shlex, sys
for c in json.load(open(sys.argv[1])):
    if c["file"].endswith("src/match/matcher.cc"):
        args = c.get("arguments") or shlex.split(c["command"])
        out, skip = [], False
        for a in args[1:]:
            if skip:
                skip = False
            elif a in ("-o", "-c", "-I"):
                skip = True
            elif not (a.startswith("-I") or a.startswith("-std=") or a == c["file"]):
                out.append(a)
        print(" ".join(out))
        break
PY
}

# Sets $work (stdlib.sh) and $flags, the flags $build compiles the matcher with.
ab_prepare() {
  . bench/match/stdlib.sh  # builds $build's errdex and match_bench, makes $work
  flags=$(matcher_flags)
  [ -n "$flags" ] || { echo "$name: no compile command for the matcher in $build/compile_commands.json" >&2; exit 2; }
}

# ab_compile CXX SIDE DIR [EXTRA_FLAGS]: the matcher's sources as side SIDE
# (a or b) into DIR, two at a time.
ab_compile() {
  local cxx=$1 side=$2 dir=$3 extra=${4:-}
  mkdir -p "$dir"
  for f in src/match/*.cc src/model/*.cc src/store/*.cc src/util/*.cc src/analyze/category.cc bench/match/ab_side.cc; do
    echo "$cxx -std=gnu++20 $flags $extra -Derrdex=errdex_$side -DSIDE=$side -Isrc -c $f -o $dir/$(basename "$f" .cc).o"
  done | xargs -P2 -I{} sh -c '{}'
}

# ab_run DIR_A DIR_B LABEL_A LABEL_B: sets $out (the driver's report) and
# $status (0 same answers, 1 some differ). Both sides read the index's records
# as a dataset file, which a side built from an older commit reads as well
# (a store's schema moves on).
ab_run() {
  clang++ -std=gnu++20 -O2 bench/match/ab_main.cc "$1"/*.o "$2"/*.o -o "$work/ab/ab_main" $ab_libs
  "$build/errdex" export --db "sqlite:$work/stdlib.db" >"$work/stdlib.jsonl"
  status=0
  out=$("$work/ab/ab_main" "$work/stdlib.jsonl" "$work/cases.jsonl" "$rounds" "$3" "$4") || status=$?
  echo "$out"
  [ $status -le 1 ] || { echo "$name: the driver failed" >&2; exit 2; }
}

# ab_record TITLE HOW: a section of bench/RESULTS.md with the command, HOW
# the builds were made, and $out.
ab_record() {
  cat >>bench/RESULTS.md <<EOT

### match, $1, stdlib (a), $(date -u '+%Y-%m-%d %H:%M') UTC

Command: \`bench/match/$name $build $rounds\` ($2; $rounds rounds, each a pass over the
$(wc -l <"$work/cases.jsonl") pasted lines by each build in turn; one thread; 2 shared cores)

\`\`\`
$out
\`\`\`
EOT
  echo "bench/match/$name: appended to bench/RESULTS.md"
}
