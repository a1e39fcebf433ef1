#!/usr/bin/env bash
# The library API beside the command line, on this machine (issue 47's
# figures; not a test). Builds the libraries with pzc generate and
# bench_library.cpp with the flags pzc uses for its own solvers, then:
#   1. per call: slide4 optimal and cube3 two_phase, N states one call at a
#      time on one thread: search time vs call time (the API's overhead);
#   2. the same slide4 states through the API and through the CLI solver
#      (pzc solve --scrambles, one thread): node counts and nodes/s;
#   3. a batch of M slide4 states on 2 threads: solveAll vs pzc solve --scrambles.
# Tables come from pzc's cache (built on first use: slide4's 247 MiB table
# takes about a minute).
#   bench/library/run.sh [BUILD_DIR] [N] [M]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build} n=${2:-300} m=${3:-10000}
pzc=$build/compiler/driver/pzc
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$pzc" generate puzzles/slide4.pz -o "$work" --name slide
"$pzc" generate puzzles/cube3.pz -o "$work" --name cube --solver two_phase
g++ -std=c++20 -O3 -march=native -DNDEBUG -pthread -Iruntime/include -I"$work" \
    bench/library/bench_library.cpp "$work/slide.cpp" "$work/cube.cpp" runtime/capi/pz_c.cpp -o "$work/bench_library"
compare() {  # compare API.json CLI.json: equal answers and nodes, and the rates
python3 - "$1" "$2" <<'PY'
import json, sys
def load(f):
    rows = [json.loads(l) for l in open(f) if l.startswith("{")]
    return [r["nodes"] for r in rows], sum(r["seconds"] for r in rows), [r["length"] for r in rows]
an, asec, al = load(sys.argv[1]); cn, csec, cl = load(sys.argv[2])
print("lengths equal: %s; node counts equal: %s (%d nodes)" % (al == cl, an == cn, sum(an)))
print("API %.2f M nodes/s (%.3f s), CLI %.2f M nodes/s (%.3f s): API/CLI rate %.3f"
      % (sum(an) / asec / 1e6, asec, sum(cn) / csec / 1e6, csec, (sum(an) / asec) / (sum(cn) / csec)))
PY
}

echo "== 1. per call (one thread)"
"$work/bench_library" calls "$n"

echo "== 2. the same $n slide4 states, one thread: API vs CLI solver"
"$work/bench_library" states "$n" 7 "$work/states.txt"
"$work/bench_library" each "$work/states.txt" > "$work/api.json"
"$pzc" solve puzzles/slide4.pz --scrambles "$work/states.txt" --threads 1 > "$work/cli.json"
compare "$work/api.json" "$work/cli.json"

echo "== 2b. the same for cube3 two_phase: API vs CLI solver, one thread"
"$work/bench_library" cube-states "$n" 7 "$work/cube-states.txt"
"$work/bench_library" cube-each "$work/cube-states.txt" > "$work/cube-api.json"
"$pzc" solve puzzles/cube3.pz --solver two_phase --scrambles "$work/cube-states.txt" --threads 1 > "$work/cube-cli.json"
compare "$work/cube-api.json" "$work/cube-cli.json"

echo "== 3. $m slide4 states on 2 threads: API solveAll vs pzc solve --scrambles"
"$work/bench_library" states "$m" 11 "$work/batch.txt"
"$work/bench_library" batch "$work/batch.txt" 2
start=$(date +%s.%N)
"$pzc" solve puzzles/slide4.pz --scrambles "$work/batch.txt" --threads 2 > /dev/null
end=$(date +%s.%N)
python3 -c "print('cli batch: %d states on 2 threads: %.3f s (whole command)' % ($m, $end - $start))"
