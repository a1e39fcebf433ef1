#!/usr/bin/env bash
# The search's per-node kernels on the checked-in generated traits
# (bench/kernels): this machine's build (-march=native) and x86-64-v2.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake --build "$build" --target bench_kernels bench_kernels_portable >/dev/null
echo "== -march=native"
"$build/bench/kernels/bench_kernels"
echo "== -march=x86-64-v2"
"$build/bench/kernels/bench_kernels_portable"
