#!/usr/bin/env bash
# bench_phased.sh [BUILD_DIR] — phased solvers on random states (not a test).
#
#   cube3 two_phase, <= 21 moves   (N21 states, default 1000)
#   cube3 two_phase, <= 20 moves   (N20 states, default 1000)
#   rotate4o via_square, first solution       (NR states, default 1000)
#   rotate4o via_square, --budget-ms 100      (NB states, default 100)
# each with --threads 1 and 2 (THREADS="1 2"; note [phased threads]: the
# same solutions, so the lengths agree and only the times differ, except
# under --budget-ms, where the threads search more in the same time).
# Random positions are drawn by pzc uniformly over the group
# (note [random positions] in compiler/driver/perm/solve.cpp). Per-solve times are the
# solver's own wall clock (search only; tables are loaded once per process
# and reported separately); "cpu" is the user + system time of the whole
# pzc run (pzc, the solver process, table load, every solve) divided by the
# number of states, an upper bound on the CPU time of a solve that does not
# grow with the box's load (with 1 thread it is the figure to compare with a
# CPU target; with 2 threads the per-solve wall mean is the one to compare
# with a wall target, on a quiet box). The tables come from the cache (built on the
# first run: note [symmetry classes] in pz/search/phased.hpp).
set -euo pipefail
build=${1:-build}
pzc=$build/compiler/driver/pzc
export PZC_CACHE_DIR=${PZC_CACHE_DIR:-$PWD/.pzc-cache}
N21=${N21:-1000} N20=${N20:-1000} NR=${NR:-1000} NB=${NB:-100}
THREADS=${THREADS:-1 2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

summary() {  # summary LABEL < JSON lines
    awk -v label="$1" '
        { match($0, /"length": [0-9]+/); len = substr($0, RSTART + 10, RLENGTH - 10) + 0
          match($0, /"seconds": [0-9.]+/); sec = substr($0, RSTART + 11, RLENGTH - 11) + 0
          n++; total += len; time += sec; count[len]++; if (len > max) max = len; if (sec > worst) worst = sec }
        END { printf "%s: %d states, mean %.3f ms/solve (worst %.1f ms), mean length %.2f, max %d\n  lengths:", label, n, 1000 * time / n, 1000 * worst, total / n, max
              for (l = 0; l <= max; l++) if (count[l]) printf " %d:%d", l, count[l]; printf "\n" }'
}

tables() {  # tables PUZZLE SOLVER: the phased binary's table report
    local stem=$1 solver=$2
    local bin
    bin=$PZC_CACHE_DIR/bin/$(cd "$PZC_CACHE_DIR/bin" && ls -t ${stem}_${solver}-* | grep -v '\.' | head -1)
    /usr/bin/time -f "  process: %e s wall, %M KiB max resident" "$bin" --tables 2>&1 | grep -v '^  table\|every coordinate'
    ls -l "$PZC_CACHE_DIR"/tables/${stem}-${solver}-*.pzt | awk '{ printf "  table file: %d bytes\n", $5 }'
}

solve() {  # solve OUT N PZC-ARGS...: pzc solve with its CPU time in OUT.cpu
    local out=$1 n=$2
    shift 2
    /usr/bin/time -f "%U %S" -o "$out.cpu" "$pzc" solve "$@" --json > "$out"
    awk -v n="$n" '{ printf "  cpu: %.3f s for %d states, %.3f ms/state (user %.2f s, system %.2f s)\n", $1 + $2, n, 1000 * ($1 + $2) / n, $1, $2 }' "$out.cpu"
}

"$pzc" solve puzzles/cube3.pz --solver two_phase --scramble "R" > /dev/null  # compile, build or load the tables
for t in $THREADS; do
    echo "== --threads $t"
    solve "$tmp/c21" "$N21" puzzles/cube3.pz --solver two_phase --random "$N21" --seed 1 --max-length 21 --threads "$t"
    summary "cube3 two_phase <= 21, $t threads" < "$tmp/c21"
    solve "$tmp/c20" "$N20" puzzles/cube3.pz --solver two_phase --random "$N20" --seed 2 --max-length 20 --threads "$t"
    summary "cube3 two_phase <= 20, $t threads" < "$tmp/c20"
done
tables cube3 two_phase
"$pzc" solve puzzles/rotate4o.pz --solver via_square --random 1 > /dev/null
for t in $THREADS; do
    echo "== --threads $t"
    solve "$tmp/r" "$NR" puzzles/rotate4o.pz --solver via_square --random "$NR" --seed 3 --threads "$t"
    summary "rotate4o via_square first solution, $t threads" < "$tmp/r"
    solve "$tmp/rb" "$NB" puzzles/rotate4o.pz --solver via_square --random "$NB" --seed 4 --budget-ms 100 --max-length 0 --threads "$t"
    summary "rotate4o via_square --budget-ms 100, $t threads" < "$tmp/rb"
done
tables rotate4o via_square
