#!/usr/bin/env bash
# The whole test suite: install dependencies, build, run every test.
# This is the command the README gives and .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
# The solvers the tests compile are built at -O1 (docs/language.md,
# PZC_OPT_LEVEL): two thirds of -O3's compile time, and the suite's time is
# mostly compiling solvers. Unset, ctest compiles them as users get them.
export PZC_OPT_LEVEL=${PZC_OPT_LEVEL:-1}
ctest --test-dir build --output-on-failure -j"$(nproc)"
