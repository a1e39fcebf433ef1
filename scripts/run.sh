#!/usr/bin/env bash
# The main job on the embedded default: install dependencies, build pzc, then
# check every shipped puzzle (printing its analysis) and solve a sample of each.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
pzc=build/compiler/driver/pzc

for def in puzzles/*.pz; do
  echo "=== pzc check $def"
  "$pzc" check "$def"
  echo
done

echo "=== pzc run puzzles/cube3.pz \"R U R' U'\" (reference interpreter)"
"$pzc" run puzzles/cube3.pz "R U R' U'"
