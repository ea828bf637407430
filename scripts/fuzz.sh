#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ and
# runs each: `fuzz.sh smoke` for a short run (make test), `fuzz.sh SECONDS`
# for a longer one.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-60}
secs=$([ "$mode" = smoke ] && echo 20 || echo "$mode")
# The smoke run in `make test` starts from a fixed seed, so that CI repeats
# the exploration that passed here instead of gambling on a new one; longer
# runs (`make fuzz`) explore from a random seed.
seed=$([ "$mode" = smoke ] && echo "-seed=1" || echo "")

CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DERRDEX_FUZZ=ON -DERRDEX_TESTS=OFF -DERRDEX_BENCH=OFF \
  -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address,undefined" \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined" >/dev/null
targets=$(cd fuzz && ls *_fuzz.cc 2>/dev/null | sed 's/\.cc$//')
[ -n "$targets" ] || { echo "fuzz: no targets"; exit 0; }
cmake --build build-fuzz -j2 --target $targets
for t in $targets; do
  corpus=fuzz/corpus/${t%_fuzz}
  work=build-fuzz/corpus-$t
  mkdir -p "$work"
  echo "fuzz: $t for ${secs}s"
  build-fuzz/$t $seed -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$work" $( [ -d "$corpus" ] && echo "$corpus" ) 2>&1 | tail -n 12
done
