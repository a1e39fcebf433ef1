#!/usr/bin/env bash
# bench/mpi/batch.sh [PZC] [RUNS] [COUNT] — batch solving across MPI ranks
# (docs/distributed.md): COUNT (default 200) random slide4 states
# (`--random COUNT --seed 1`) solved by one process with --threads 1, by
# `mpirun -np 1 ... --mpi --threads 1` (one rank: the same run started
# through Open MPI), and by `mpirun -np 2 ... --mpi --threads 1` (rank 0
# and one worker, each running one solver), RUNS times each (default 5,
# alternating); prints each configuration's median wall time and the
# ratios of 2 ranks to each. The solver and its tables
# are built first (into $PZC_CACHE_DIR, as pzc does), so neither is timed.
# The outputs are checked to match bar timings. Quote the figures with the
# machine's load (printed first and last): two solving ranks need two idle
# cores. MPIRUN_FLAGS adds mpirun options (e.g. "--mca pml ob1 --mca btl
# self,vader": Open MPI's start without probing network transports). As
# root, Open MPI needs OMPI_ALLOW_RUN_AS_ROOT=1
# OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (set here when unset).
set -euo pipefail
cd "$(dirname "$0")/../.."
pzc=${1:-build/compiler/driver/pzc}
runs=${2:-5}
count=${3:-200}
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
puzzle=puzzles/slide4.pz
"$pzc" solve $puzzle --random "$count" --seed 1 --json > "$tmp/random"
sed -E 's/.*"state": "([0-9 ]*)".*/\1/' "$tmp/random" > "$tmp/batch"
"$pzc" solve $puzzle --state "$(head -1 "$tmp/batch")" --threads 1 > /dev/null  # builds what is missing
one=(solve $puzzle --scrambles "$tmp/batch" --threads 1)
read -ra flags <<< "${MPIRUN_FLAGS:-}"
rank=(mpirun --oversubscribe -np 1 "${flags[@]}" "$pzc" "${one[@]}" --mpi)
two=(mpirun --oversubscribe -np 2 "${flags[@]}" "$pzc" "${one[@]}" --mpi)
. bench/mpi/timing.sh  # timed, median
strip() { sed -E 's/, "nodes": [0-9]+, "seconds": [0-9.e+-]+//' "$1"; }
echo "load: $(uptime)"
echo "$count random slide4 states, $runs runs each"
t1=() tr=() t2=()
for ((i = 0; i < runs; i++)); do
    t1+=("$(timed "$pzc" "${one[@]}")")
    strip "$tmp/out" > "$tmp/one"
    tr+=("$(timed "${rank[@]}")")
    cmp -s "$tmp/one" <(strip "$tmp/out") || { echo "outputs differ (1 rank)"; exit 1; }
    t2+=("$(timed "${two[@]}")")
    cmp -s "$tmp/one" <(strip "$tmp/out") || { echo "outputs differ (2 ranks)"; exit 1; }
done
m1=$(printf '%s\n' "${t1[@]}" | median)
mr=$(printf '%s\n' "${tr[@]}" | median)
m2=$(printf '%s\n' "${t2[@]}" | median)
echo "1 process, --threads 1:      ${t1[*]} s; median $m1 s"
echo "mpirun -np 1 ${MPIRUN_FLAGS:-}, --threads 1:   ${tr[*]} s; median $mr s"
echo "mpirun -np 2 ${MPIRUN_FLAGS:-}, --threads 1:   ${t2[*]} s; median $m2 s"
printf "2 ranks against 1 process: %.2fx; against 1 rank: %.2fx\n" "$(echo "scale=4; $m1 / $m2" | bc)" \
    "$(echo "scale=4; $mr / $m2" | bc)"
echo "load: $(uptime)"
