#!/usr/bin/env bash
# bench/mpi/enumerate.sh [PZC] [RUNS] [PUZZLE PATTERN SOLVER SCRAMBLE] — a
# distributed pattern-table build against the single-process one
# (docs/distributed.md, issue 50's target). By default slide4's top_rows
# table (518,918,400 values, 247 MiB, solver optimal, scramble R1); e.g.
# `bench/mpi/enumerate.sh build/compiler/driver/pzc 3 puzzles/cube3.pz h48
# optimal_h0 R` takes the cube's h48 coset pattern table (117,567,450
# entries by symmetry class). The table is built
#   A: by `mpirun -np 2 pzc enumerate ... --table --mpi --threads 1`
#      (2 ranks x 1 thread, 4-bit slices gathered and written by rank 0), and
#   B: by the generated solver itself (one process, 2 threads),
# each into an empty table folder, RUNS times each alternating (default 3),
# then checks the two files are the same bytes and prints each side's median
# wall time, the ratio B/A, and the enumerator's states per second per rank
# and bytes exchanged per state. The solver and the enumerator are compiled
# first, so no compile is timed. Quote it with the load (printed first and
# last): two ranks need two idle cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
pzc=${1:-build/compiler/driver/pzc}
runs=${2:-3}
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
puzzle=${3:-puzzles/slide4.pz} pattern=${4:-top_rows} solver=${5:-optimal} scramble=${6:-R1}
"$pzc" build $puzzle --solver "$solver" -o "$tmp/solver" > /dev/null
# Compiles the MPI enumerator (a first build, not timed).
mpirun --oversubscribe -np 2 "$pzc" enumerate $puzzle --pattern "$pattern" --table --table-dir "$tmp/a" --mpi > /dev/null
distributed=(mpirun --oversubscribe -np 2 "$pzc" enumerate $puzzle --pattern "$pattern" --table --table-dir "$tmp/a" --mpi --threads 1)
single=("$tmp/solver" --scramble "$scramble" --threads 2 --table-dir "$tmp/b")
. bench/mpi/timing.sh  # timed, median
echo "load: $(uptime)"
ta=() tb=()
for ((i = 0; i < runs; i++)); do
    rm -rf "$tmp/a" "$tmp/b"
    ta+=("$(timed "${distributed[@]}")")
    cp "$tmp/out" "$tmp/enumerate.out"
    tb+=("$(timed "${single[@]}")")
    cmp "$tmp"/a/*.pzt "$tmp"/b/*.pzt || { echo "the tables differ"; exit 1; }
done
ma=$(printf '%s\n' "${ta[@]}" | median)
mb=$(printf '%s\n' "${tb[@]}" | median)
echo "A 2 ranks x 1 thread (pzc enumerate --table --mpi): ${ta[*]} s; median $ma s"
echo "B 1 process x 2 threads (the solver's build):      ${tb[*]} s; median $mb s"
printf "B/A: %.2fx (above 1: the distributed build is faster)\n" "$(echo "scale=4; $mb / $ma" | bc)"
grep -E "^(time|states):" "$tmp/enumerate.out"
echo "load: $(uptime)"
