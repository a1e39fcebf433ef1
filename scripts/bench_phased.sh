#!/usr/bin/env bash
# bench_phased.sh [BUILD_DIR] — phased solvers on random states (not a test).
#
#   cube3 two_phase, <= 21 moves   (N21 states, default 1000)
#   cube3 two_phase, <= 20 moves   (N20 states, default 100)
#   rotate4o via_square, first solution       (NR states, default 1000)
#   rotate4o via_square, --budget-ms 100      (NB states, default 100)
# Random positions are drawn by pzc: the cube's uniformly (rejection sampling
# over all cubie arrangements, note [random positions] in cmd_solve.cpp),
# rotate4o's by a 4096-move random walk. Per-solve times are the solver's own
# (search only; tables are built once per process and reported separately).
set -euo pipefail
build=${1:-build}
pzc=$build/compiler/driver/pzc
export PZC_CACHE_DIR=${PZC_CACHE_DIR:-$PWD/.pzc-cache}
N21=${N21:-1000} N20=${N20:-100} NR=${NR:-1000} NB=${NB:-100}
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
    /usr/bin/time -f "  process: %e s wall, %M KiB max resident" "$bin" --tables 2>&1 | grep -v '^  table'
}

"$pzc" solve puzzles/cube3.pz --solver two_phase --random "$N21" --seed 1 --max-length 21 --json > "$tmp/c21"
summary "cube3 two_phase <= 21" < "$tmp/c21"
tables cube3 two_phase
"$pzc" solve puzzles/cube3.pz --solver two_phase --random "$N20" --seed 2 --max-length 20 --json > "$tmp/c20"
summary "cube3 two_phase <= 20" < "$tmp/c20"
"$pzc" solve puzzles/rotate4o.pz --solver via_square --random "$NR" --seed 3 --json > "$tmp/r"
summary "rotate4o via_square first solution" < "$tmp/r"
tables rotate4o via_square
"$pzc" solve puzzles/rotate4o.pz --solver via_square --random "$NB" --seed 4 --budget-ms 100 --max-length 0 --json > "$tmp/rb"
summary "rotate4o via_square --budget-ms 100" < "$tmp/rb"
