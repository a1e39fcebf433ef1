#!/usr/bin/env bash
# Runs every benchmark that exists (not part of the test run). Builds them
# first. Benchmarks build their pruning tables fresh, in temporary caches.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
targets=$(ninja -C "$build" -t targets all | sed -n 's/^\(bench_[A-Za-z0-9_]*\): .*/\1/p' | sort -u)
[ -n "$targets" ] || { echo "no benchmarks"; exit 0; }
cmake --build "$build" -j2 --target $targets
for t in $targets; do
    bin=$(find "$build/bench" -type f -name "$t" -perm -u+x | head -1)
    echo "######## $t"
    "$bin" "$@"
done
