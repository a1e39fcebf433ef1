#!/usr/bin/env bash
# bench/optimal_set.sh PUZZLE INPUT WANT COUNT THREADS [SOLVER] — the
# optimal-solve report of bench/h48/random10.sh and bench/rotate4o/
# random20.sh: solves INPUT (one scramble or state a line, '#' comments)
# with PUZZLE in one process (one table load), then prints length, nodes,
# seconds and nodes/s per line, the means per length and over all. Exits 1
# when a length differs from WANT's line (one length a line; WANT '-' skips
# the check) or when there are not COUNT results.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
puzzle=$1 input=$2 want=$3 count=$4 threads=$5 solver=${6:-}
pzc=${PZC:-$root/build/compiler/driver/pzc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$pzc" solve "$puzzle" --scrambles "$input" --threads "$threads" --json ${solver:+--solver "$solver"} > "$tmp/out"
sed -n 's/.*"length": \([0-9]*\).*"nodes": \([0-9]*\), "seconds": \([0-9.e-]*\).*/\1 \2 \3/p' "$tmp/out" > "$tmp/got"
if [ "$want" = - ]; then sed 's/.*/-/' "$tmp/got" > "$tmp/want"; else cp "$want" "$tmp/want"; fi
paste "$tmp/want" "$tmp/got" | awk -v threads="$threads" -v expected="$count" '
    { want = $1; len = $2; nodes = $3; secs = $4
      printf "state %2d: %2d moves %14.0f nodes %9.2f s %6.1f M nodes/s\n", NR, len, nodes, secs, nodes / secs / 1e6
      if (want != "-" && len != want) { printf "  expected %d moves\n", want; bad = 1 }
      sum[len] += secs; n[len]++; all += secs; count++ }
    END { for (l in sum) printf "mean at %d moves: %.2f s (%d states)\n", l, sum[l] / n[l], n[l]
          printf "mean over %d states: %.2f s on %d threads\n", count, all / count, threads
          if (count != expected) { printf "expected %d results\n", expected; bad = 1 }
          exit bad }'
