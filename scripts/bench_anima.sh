#!/usr/bin/env bash
# Anima benchmark, one command: scripts/bench_anima.sh [--quick]
#   1. the 23 original levels with the generated solver (one cached binary for
#      the folder; fastest of 5 runs per level): optimal length, states
#      expanded, time, states/s;
#   2. the scaling set bench/anima/levels (8x8 .. 12x12, 5 .. 10 actors, made by
#      scripts/gen_levels.py, see bench/anima/make_scaling_set.sh): generated
#      solver vs the interpreter-based search (same A*, same heuristic), side
#      by side (each: fastest of 3 runs in each of 3 processes), with the
#      speed-up and the closed set's bytes per stored state;
#   3. what a folder costs to compile: a cold compile of the 23 levels' solver
#      against a run with the binary cached.
# Needs a built pzc (scripts/build.sh). --quick skips the interpreter on the
# two largest scaling levels (the interpreter needs seconds there).
set -euo pipefail
cd "$(dirname "$0")/.."
PZC=${PZC:-build/compiler/driver/pzc}
QUICK=${1:-}
[ -x "$PZC" ] || { echo "bench_anima: build pzc first (scripts/build.sh)" >&2; exit 2; }

echo "== 1. the 23 original levels (generated kernels, A*, fastest of 5)"
"$PZC" solve-dir puzzles/anima.pz puzzles/anima/levels --repeat 5

echo
echo "== 2. scaling set: generated vs interpreter (A*, same heuristic)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
interp_levels=(bench/anima/levels/*.txt)
if [ "$QUICK" = "--quick" ]; then
  interp_levels=($(ls bench/anima/levels/*.txt | grep -v 's12x12-5r4b'))
fi
# Each side runs in 3 processes, fastest of 3 runs in each: on this machine
# some processes of the same binary run every search ~30% slower (physical
# memory placement; it persists for the process's life), so one process per
# side made the ratio swing with the luck of two launches.
for p in 1 2 3; do
  "$PZC" solve-dir puzzles/anima.pz bench/anima/levels --json --repeat 3 > "$tmp/generated.$p.json"
  "$PZC" solve-dir puzzles/anima.pz "${interp_levels[@]}" --interp --json --repeat 3 > "$tmp/interp.$p.json"
done
python3 - "$tmp" <<'PY'
import glob, json, sys
def fastest(pattern):
    best = {}
    for path in sorted(glob.glob(pattern)):
        for r in json.load(open(path)):
            if r["level"] not in best or r["seconds"] < best[r["level"]]["seconds"]:
                best[r["level"]] = r
    return best
gen = fastest(sys.argv[1] + "/generated.*.json")
interp = fastest(sys.argv[1] + "/interp.*.json")
def size(name):
    return tuple(int(x) for x in name[1:].split("-")[0].split("x"))
print(f"{'level':22} {'len':>4} {'expanded':>10} {'gen ms':>9} {'gen st/s':>11} {'interp ms':>10} {'int st/s':>10} {'speedup':>8} {'B/state':>8}")
speedups = []
for name in sorted(gen, key=lambda n: (size(n), n)):
    g = gen[name]
    i = interp.get(name)
    bps = g["bytes"] / g["stored"] if g["stored"] else 0
    gsps = g["expanded"] / g["seconds"] if g["seconds"] else 0
    line = f"{name:22} {g['length']:>4} {g['expanded']:>10} {g['seconds']*1e3:>9.3f} {gsps:>11.0f}"
    if i:
        if i["length"] != g["length"]:
            line += "  LENGTH MISMATCH"
        isps = i["expanded"] / i["seconds"] if i["seconds"] else 0
        sp = i["seconds"] / g["seconds"] if g["seconds"] else 0
        speedups.append((sp, i["seconds"]))
        line += f" {i['seconds']*1e3:>10.1f} {isps:>10.0f} {sp:>7.1f}x"
    else:
        line += f" {'-':>10} {'-':>10} {'-':>8}"
    line += f" {bps:>8.1f}"
    print(line)
if speedups:
    # Levels the baseline solves in under 5 ms are left out of the mean: their
    # generated times are tens of microseconds, mostly timer and cache noise.
    # The filter is on the baseline's time, so it does not move as the
    # generated solver gets faster.
    big = [s for s, t in speedups if t > 5e-3]
    geo = 1.0
    for s in big or [s for s, _ in speedups]:
        geo *= s
    n = len(big or speedups)
    print(f"speed-up, geometric mean over levels the interpreter needs > 5 ms for: {geo ** (1 / n):.1f}x ({n} levels)")
print("B/state = closed-set bytes (node chunks + index) / stored states; small searches are dominated by the")
print("initial 16K-slot index (64 KB), so read it on the levels with >100k states.")
PY

echo
echo "== 3. compile cost of a folder (one translation unit for all 23 levels)"
cold=$(mktemp -d)
start=$(date +%s.%N)
PZC_CACHE_DIR=$cold "$PZC" solve-dir puzzles/anima.pz puzzles/anima/levels > /dev/null
mid=$(date +%s.%N)
PZC_CACHE_DIR=$cold "$PZC" solve-dir puzzles/anima.pz puzzles/anima/levels > /dev/null
end=$(date +%s.%N)
rm -rf "$cold"
python3 -c "import sys; c, w = float(sys.argv[2]) - float(sys.argv[1]), float(sys.argv[3]) - float(sys.argv[2]); print(f'cold (compile + solve + replay): {c:.2f} s; cached binary: {w*1e3:.0f} ms end to end')" "$start" "$mid" "$end"
