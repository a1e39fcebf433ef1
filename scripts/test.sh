#!/usr/bin/env bash
# The whole test suite: install dependencies, build, run every test.
# This is the command the README gives and .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
# One folder of precompiled runtime headers for every case's cache (note
# [precompiled runtime] in compiler/driver/native_build.cpp): each kind of
# solver precompiles them once for the whole suite, not once per case.
export PZC_PCH_DIR=${PZC_PCH_DIR:-$PWD/build/pch}
# A build folder reused across changes would keep every earlier runtime's
# precompiled headers (~3 GiB a runtime) and every earlier pzc's solvers in
# the cases' caches: prune what no current key names (`pzc cache prune`).
for cache in build/tests/*/cache; do
    if [ -d "$cache" ]; then PZC_CACHE_DIR=$cache build/compiler/driver/pzc cache prune > /dev/null; fi
done
ctest --test-dir build --output-on-failure -j"$(nproc)"
