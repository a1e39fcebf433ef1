#!/usr/bin/env bash
# library_table.sh [N] — the puzzle-library table: for each puzzle in
# puzzles/ (not the grid puzzle), its state count (distinct states when it
# has identical pieces), the solver, and over N uniform random states
# (seed 1) the mean solution length and the mean search time per solve (the
# solver's "seconds"; table building and compilation excluded: run it twice
# for cached tables), and the bytes of the solver's own pruning tables
# (`pzc check`'s "tables N bytes" on its solver line).
# Every declared solver gets a row. A solver that does not solve the
# random states within LIMIT seconds (default 60; tables built on first use
# count) is reported as such (those puzzles are tested on scrambles:
# tests/library).
set -uo pipefail
cd "$(dirname "$0")/.."
n=${1:-10}
limit=${LIMIT:-60}
pzc=${PZC:-build/compiler/driver/pzc}
echo "| puzzle | states | solver | mean length | search time per solve | table size |"
echo "|---|---|---|---|---|---|"
for f in puzzles/*.pz; do
    grep -qE '^(grid|blocks) ' "$f" && continue
    name=$(basename "$f" .pz)
    check=$("$pzc" check "$f")
    states=$(echo "$check" | sed -n 's/^distinct states: \([0-9]*\) .*/\1/p')
    [ -n "$states" ] || states=$(echo "$check" | sed -n 's/^group order: //p')
    echo "$check" | sed -n '/^solvers:/,$p' | sed -n 's/^  \([A-Za-z0-9_]*\): \([a-z]*\).*/\1 \2/p' | while read -r solver kind; do
        # Phased solvers' tables are not in check's pattern list; a sift
        # solver's table is built in memory by pzc solve, never cached.
        case $kind in
            optimal) size=$(echo "$check" | sed -n "s/^  $solver: optimal, .*tables \([0-9]*\) bytes.*/\1/p") ;;
            sift) size="(sift table, in memory)" ;;
            *) size="(phase tables)" ;;
        esac
        out=$(timeout "$limit" "$pzc" solve "$f" --solver "$solver" --random "$n" --seed 1 --json 2>/dev/null)
        if [ $? -ne 0 ] || [ "$(echo "$out" | grep -c '"length"')" != "$n" ]; then
            echo "| $name | $states | $solver ($kind) | - | random states not solved within $limit s | $size |"
            continue
        fi
        stats=$(echo "$out" | sed -n 's/.*"length": \([0-9]*\).*"seconds": \([0-9.e-]*\).*/\1 \2/p' |
            awk '{l += $1; t += $2} END {printf "%.2f|%.3f ms", l / NR, 1000 * t / NR}')
        optimal=$(echo "$out" | grep -c '"optimal": true')
        label=$([ "$optimal" = "$n" ] && echo "all optimal" || echo "not labelled optimal")
        echo "| $name | $states | $solver ($kind, $label) | ${stats%%|*} | ${stats##*|} | $size |"
    done
done
