#!/usr/bin/env bash
# bench/h48/random10.sh [THREADS] [SOLVER] — issue 11's workload: ten random
# cube states (five at 17 moves, five at 18; random10.tsv: the state, its
# optimal length, the `pzc solve --random 1 --seed S` it was drawn by),
# solved optimally by puzzles/cube3.pz in one process (one table load).
# Prints length, nodes, seconds and nodes/s per state, then the means per
# length and over all ten (bench/optimal_set.sh); exits 1 if a length
# differs from the file's.
# THREADS defaults to 2 (the issue's row for <= 240 MiB of tables); SOLVER
# to the default optimal solver (h48h3, 231 MiB).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
threads=${1:-2}
solver=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$here/random10.tsv" | cut -f1 > "$tmp/states"
grep -v '^#' "$here/random10.tsv" | cut -f2 > "$tmp/want"
"$here/../optimal_set.sh" "$root/puzzles/cube3.pz" "$tmp/states" "$tmp/want" 10 "$threads" "$solver"
