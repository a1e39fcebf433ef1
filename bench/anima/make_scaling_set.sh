#!/usr/bin/env bash
# Regenerates bench/anima/levels/: the scaling set (8x8 to 12x12, 5 to 10
# actors), solvable by construction (scripts/gen_levels.py). Each line is
# size, reds, blues, random-walk length, seed; chosen so that the generated
# solver needs from a fraction of a millisecond to a few hundred.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=bench/anima/levels
rm -rf "$out"
mkdir -p "$out"
while read -r size reds blues walk seed; do
  name="s${size}x${size}-${reds}r${blues}b-seed${seed}"
  scripts/gen_levels.py --width "$size" --height "$size" --reds "$reds" --blues "$blues" \
    --walk "$walk" --walls 0.2 --seed "$seed" --file "$out/$name.txt"
done <<'SET'
8 3 2 30 2
9 3 3 30 2
10 3 3 36 3
10 4 3 36 1
11 4 4 40 1
11 5 3 40 1
11 5 3 40 3
12 5 5 44 2
12 5 4 44 2
12 5 4 44 1
SET
ls "$out"
