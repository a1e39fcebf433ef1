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

# Solve a sample of each shipped puzzle with its generated solver. The first
# run builds the pruning tables (slide4 ~1-2 min, cube3 ~40 s on 2 cores) and
# caches them in $PZC_CACHE_DIR (default ~/.cache/pzc); later runs reuse them.
echo
echo "=== pzc solve puzzles/slide4.pz --random 5 --seed 1"
"$pzc" solve puzzles/slide4.pz --random 5 --seed 1
echo
echo "=== pzc solve puzzles/cube3.pz --scramble \"R U F D' L2 B R2 U'\""
"$pzc" solve puzzles/cube3.pz --scramble "R U F D' L2 B R2 U'"
echo
echo "=== pzc solve puzzles/rotate4o.pz --scramble \"UL C' DR2 U R D' L2 UR\""
"$pzc" solve puzzles/rotate4o.pz --scramble "UL C' DR2 U R D' L2 UR"
echo
echo "=== pzc solve puzzles/cube3.pz --solver two_phase --random 5 --seed 1 (random cubes, two-phase)"
"$pzc" solve puzzles/cube3.pz --solver two_phase --random 5 --seed 1
echo
echo "=== pzc solve puzzles/rotate4o.pz --solver via_square --random 3 --seed 1 (random states, phased)"
"$pzc" solve puzzles/rotate4o.pz --solver via_square --random 3 --seed 1
echo
echo "=== pzc solve puzzles/cube2.pz --random 3 --seed 1 (from the puzzle library)"
"$pzc" solve puzzles/cube2.pz --random 3 --seed 1
echo
echo "=== pzc solve puzzles/anima.pz (its 23 levels)"
"$pzc" solve puzzles/anima.pz
echo
echo "=== pzc solve puzzles/eight.pz --random 3 --seed 1 (8-puzzle: additive databases + reflection)"
"$pzc" solve puzzles/eight.pz --random 3 --seed 1
echo
echo "=== pzc solve puzzles/klotski.pz (the classic layout, a piece moves anywhere it can reach: 81 moves)"
"$pzc" solve puzzles/klotski.pz
echo
echo "=== pzc solve puzzles/rushhour.pz (database boards, each to its published length)"
"$pzc" solve puzzles/rushhour.pz
