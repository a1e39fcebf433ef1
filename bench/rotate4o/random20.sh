#!/usr/bin/env bash
# bench/rotate4o/random20.sh [THREADS] [SOLVER] — issue 11's rotate4o row:
# twenty random states (random20.txt: 200 random moves each), solved
# optimally by puzzles/rotate4o.pz in one process (one table load). Prints
# length, nodes, seconds and nodes/s per state, the lengths' histogram and
# the mean time; exits 1 if a length differs from random20.lengths (when
# that file is there: the optimal lengths, one a line, as measured).
# THREADS defaults to 2; SOLVER to the default optimal solver.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
threads=${1:-2}
solver=${2:-}
pzc=${PZC:-$root/build/compiler/driver/pzc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$pzc" solve "$root/puzzles/rotate4o.pz" --scrambles "$here/random20.txt" --threads "$threads" --json \
    ${solver:+--solver "$solver"} > "$tmp/out"
sed -n 's/.*"length": \([0-9]*\).*"nodes": \([0-9]*\), "seconds": \([0-9.e-]*\).*/\1 \2 \3/p' "$tmp/out" > "$tmp/got"
if [ -f "$here/random20.lengths" ]; then cp "$here/random20.lengths" "$tmp/want"; else sed 's/.*/-/' "$tmp/got" > "$tmp/want"; fi
paste "$tmp/want" "$tmp/got" | awk -v threads="$threads" '
    { want = $1; len = $2; nodes = $3; secs = $4
      printf "state %2d: %2d moves %14.0f nodes %9.2f s %6.1f M nodes/s\n", NR, len, nodes, secs, nodes / secs / 1e6
      if (want != "-" && len != want) { printf "  expected %d moves\n", want; bad = 1 }
      sum[len] += secs; n[len]++; all += secs; count++ }
    END { for (l in sum) printf "mean at %d moves: %.2f s (%d states)\n", l, sum[l] / n[l], n[l]
          printf "mean over %d states: %.2f s on %d threads\n", count, all / count, threads
          if (count != 20) { print "expected 20 results"; bad = 1 }
          exit bad }'
