#!/usr/bin/env bash
# Byte-lane kernel benchmark (bench/lanes): 5x5 Loopover ns/move on the vector
# path of this machine, on AVX2 (pshufb) and on the portable loop. One command:
#   scripts/bench_lanes.sh [BUILD_DIR]      (default build/)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" --target bench_lanes bench_lanes_avx2 bench_lanes_portable >/dev/null
"$build/bench/lanes/bench_lanes"
"$build/bench/lanes/bench_lanes_avx2"
"$build/bench/lanes/bench_lanes_portable"
