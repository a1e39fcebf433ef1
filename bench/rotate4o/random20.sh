#!/usr/bin/env bash
# bench/rotate4o/random20.sh [THREADS] [SOLVER] — issue 11's rotate4o row:
# twenty random states (random20.txt: 200 random moves each), solved
# optimally by puzzles/rotate4o.pz in one process (one table load). Prints
# length, nodes, seconds and nodes/s per state and the means
# (bench/optimal_set.sh); exits 1 if a length differs from random20.lengths
# (the optimal lengths, one a line, as measured). THREADS defaults to 2;
# SOLVER to the default optimal solver (410 MiB; optimal_big has 3.5 GiB).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../optimal_set.sh" "$here/../../puzzles/rotate4o.pz" "$here/random20.txt" "$here/random20.lengths" 20 \
    "${1:-2}" "${2:-}"
