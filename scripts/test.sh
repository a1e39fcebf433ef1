#!/usr/bin/env bash
# The whole test suite: install dependencies, build, run every test.
# This is the command the README gives and .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
# The cases' caches hold every earlier pzc's solvers when this build folder
# is reused across changes: prune what no current key names.
for cache in build/tests/*/cache; do
    if [ -d "$cache" ]; then PZC_CACHE_DIR=$cache build/compiler/driver/pzc cache prune > /dev/null; fi
done
# One folder of precompiled runtime headers for every case's cache (note
# [precompiled runtime] in compiler/driver/native_build.cpp): each kind of
# solver precompiles them once for the whole suite, not once per case. No
# cache command touches it, so it is emptied here when the runtime headers
# changed (~3 GiB a runtime otherwise piles up).
if [ -z "${PZC_PCH_DIR:-}" ]; then
    export PZC_PCH_DIR=$PWD/build/pch
    runtime_stamp=$(find runtime/include -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
    if [ "$(cat "$PZC_PCH_DIR/.runtime" 2>/dev/null)" != "$runtime_stamp" ]; then rm -rf "$PZC_PCH_DIR"; fi
    mkdir -p "$PZC_PCH_DIR"
    echo "$runtime_stamp" > "$PZC_PCH_DIR/.runtime"
fi
ctest --test-dir build --output-on-failure -j"$(nproc)"
