#!/usr/bin/env bash
# bench/h48/random10.sh [THREADS] [SOLVER] — issue 11's workload: ten random
# cube states (five at 17 moves, five at 18; random10.tsv: the state, its
# optimal length, the `pzc solve --random 1 --seed S` it was drawn by),
# solved optimally by puzzles/cube3.pz in one process (one table load).
# Prints length, nodes, seconds and nodes/s per state, then the means per
# length and over all ten; exits 1 if a length differs from the file's.
# THREADS defaults to 2 (the issue's row for <= 240 MiB of tables); SOLVER
# to the default optimal solver (h48h3, 226 MiB).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
threads=${1:-2}
solver=${2:-}
pzc=${PZC:-$root/build/compiler/driver/pzc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$here/random10.tsv" | cut -f1 > "$tmp/states"
grep -v '^#' "$here/random10.tsv" | cut -f2 > "$tmp/want"
"$pzc" solve "$root/puzzles/cube3.pz" --scrambles "$tmp/states" --threads "$threads" --json ${solver:+--solver "$solver"} > "$tmp/out"
sed -n 's/.*"length": \([0-9]*\).*"nodes": \([0-9]*\), "seconds": \([0-9.e-]*\).*/\1 \2 \3/p' "$tmp/out" > "$tmp/got"
paste "$tmp/want" "$tmp/got" | awk -v threads="$threads" '
    { want = $1; len = $2; nodes = $3; secs = $4
      printf "state %2d: %2d moves %13.0f nodes %9.2f s %6.1f M nodes/s\n", NR, len, nodes, secs, nodes / secs / 1e6
      if (len != want) { printf "  expected %d moves\n", want; bad = 1 }
      sum[len] += secs; n[len]++; all += secs; count++ }
    END { for (l in sum) printf "mean at %d moves: %.2f s (%d states)\n", l, sum[l] / n[l], n[l]
          printf "mean over %d states: %.2f s on %d threads\n", count, all / count, threads
          if (count != 10) { print "expected 10 results"; bad = 1 }
          exit bad }'
