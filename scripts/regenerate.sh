#!/usr/bin/env bash
# Regenerates generated/ from puzzles/ (deterministically): for each
# seed permutation puzzle and each sliding-block engine, the traits header
# the solver is compiled from and the `pzc inspect` report.
#   scripts/regenerate.sh [OUTDIR]      (default: generated/; PZC=path/to/pzc)
set -euo pipefail
cd "$(dirname "$0")/.."
pzc=${PZC:-build/compiler/driver/pzc}
out=${1:-generated}
if [ ! -x "$pzc" ]; then
    echo "regenerate.sh: $pzc not found; build first (scripts/build.sh) or set PZC" >&2
    exit 1
fi
for name in slide4 cube3 rotate4o fifteen rushhour; do
    mkdir -p "$out/$name"
    "$pzc" inspect "puzzles/$name.pz" --header > "$out/$name/$name.hpp"
    "$pzc" inspect "puzzles/$name.pz" > "$out/$name/inspect.txt"
done
