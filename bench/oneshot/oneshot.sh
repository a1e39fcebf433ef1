#!/usr/bin/env bash
# bench/oneshot/oneshot.sh [PZC] [RUNS] — what a one-shot `pzc solve` costs
# beyond its search (issue 51): the whole process's wall time minus the
# search's own seconds (the solver's "seconds"), for a short and a long
# slide4 position, the median of RUNS runs each (default 11), with the
# stages of note [timeline] (PZC_TIMINGS=1) of the median run. The solver
# and its table are built first (into $PZC_CACHE_DIR, as pzc does), so the
# figures are those of a warm cache. Quote them with the machine's load:
# on a busy 2-core machine every figure doubles.
set -euo pipefail
cd "$(dirname "$0")/../.."
pzc=${1:-build/compiler/driver/pzc}
runs=${2:-11}
short="R1 C2 R3 C4"  # 4 moves: about 1 ms of search
# A 13-move random state (the hardest of `--random 40 --seed 11`): 164,517
# nodes, 0.1-0.3 s of search.
long="6 13 8 14 11 0 4 9 5 7 3 2 15 12 10 1"
"$pzc" solve puzzles/slide4.pz --scramble "$short" > /dev/null  # builds what is missing
printf '%-7s %10s %10s %10s   %s\n' position "whole ms" "search ms" "over ms" "stages of the median run (ms since start)"
for which in short long; do
    rows=()
    for ((i = 0; i < runs; i++)); do
        if [ $which = short ]; then args=(--scramble "$short"); else args=(--state "$long"); fi
        start=$(date +%s%N)
        out=$(PZC_TIMINGS=1 "$pzc" solve puzzles/slide4.pz "${args[@]}" --json 2> /tmp/oneshot.$$)
        end=$(date +%s%N)
        whole=$(( (end - start) / 1000 ))
        search=$(sed -n 's/.*"seconds": \([0-9.]*\).*/\1/p' <<< "$out")
        stages=$(sed -n 's/^pzc: timings (ms since the process started): //p' /tmp/oneshot.$$)
        rows+=("$(python3 -c "import sys; w=int(sys.argv[1])/1000; s=float(sys.argv[2])*1000; print(f'{w:.1f} {s:.1f} {w-s:.1f}')" "$whole" "$search")|$stages")
    done
    rm -f /tmp/oneshot.$$
    median=$(printf '%s\n' "${rows[@]}" | sort -t' ' -k3 -g | sed -n "$(( (runs + 1) / 2 ))p")
    read -r w s o <<< "${median%%|*}"
    printf '%-7s %10s %10s %10s   %s\n' "$which" "$w" "$s" "$o" "${median#*|}"
done
