#!/usr/bin/env bash
# Korf's 100 15-puzzle instances with the 7-8 tables + reflection (and
# Manhattan only on the easy ones), on this machine; not a test.
#   bench/fifteen/run.sh [BUILD_DIR] [-- bench_fifteen options]
# The 275 MiB of tables (4 bits an entry) are built on the first run (minutes
# on 2 threads, ~1.3 GiB while building) and cached in the table directory (default
# $PZC_CACHE_DIR/tables or ~/.cache/pzc/tables); later runs load and verify them.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
[ "${1:-}" = "--" ] && shift
cmake --build "$build" --target bench_fifteen fifteen_solver
"$build/bench/fifteen/bench_fifteen" "$@"
