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
printf '%-7s %10s %10s %10s   %s\n' position "whole ms" "search ms" "over ms" "stages of the median run (ms since pzc's main)"
for which in short long; do
    rows=()
    for ((i = 0; i < runs; i++)); do
        if [ $which = short ]; then args=(--scramble "$short"); else args=(--state "$long"); fi
        # Timed from a Python parent (fork, exec, wait), not from the shell.
        rows+=("$(PZC_TIMINGS=1 python3 - "$pzc" "${args[@]}" <<'PY'
import json, re, subprocess, sys, tempfile, time
# Until pzc exits, as a shell waits (output to files, not pipes a child
# that outlives pzc could hold open).
with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
    start = time.perf_counter()
    subprocess.Popen([sys.argv[1], "solve", "puzzles/slide4.pz", *sys.argv[2:], "--json"], stdout=out, stderr=err).wait()
    whole = (time.perf_counter() - start) * 1000
    out.seek(0), err.seek(0)
    stdout, stderr = out.read(), err.read()
search = json.loads(stdout.splitlines()[0])["seconds"] * 1000
stages = re.search(r"timings \(ms since main\): (.*)", stderr)
print(f"{whole:.1f} {search:.1f} {whole - search:.1f}|{stages.group(1) if stages else ''}")
PY
)")
    done
    median=$(printf '%s\n' "${rows[@]}" | sort -t' ' -k3 -g | sed -n "$(( (runs + 1) / 2 ))p")
    read -r w s o <<< "${median%%|*}"
    printf '%-7s %10s %10s %10s   %s\n' "$which" "$w" "$s" "$o" "${median#*|}"
done
