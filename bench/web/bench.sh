#!/usr/bin/env bash
# WebAssembly in Chromium against native: the same random states (seeds
# 1..N of the library's randomState) solved one at a time by the page's
# worker and by `pzc solve --threads 1` (each state three times, its fastest
# search kept); cube3 two-phase and slide4
# optimal; plus page load to first drawing and `pzc draw` of a cube3 state.
#   bench/web/bench.sh [SOLVES]        (default 20; needs scripts/build-web.sh cube3 slide4 first)
set -euo pipefail
cd "$(dirname "$0")/../.."
PZC=${PZC:-build/compiler/driver/pzc}
N=${1:-20}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
[ -f web/puzzles/cube3/puzzle.json ] && [ -f web/puzzles/slide4/puzzle.json ] || scripts/build-web.sh cube3 slide4 anima
PZ_BENCH_OUT=$out PZ_BENCH_SOLVES=$N PZ_BENCH_REPS=3 node tests/web/browser.mjs --pzc "$PZC" --root web \
  --check "$PWD/bench/web/page_bench.mjs" --screenshot "$out/bench.png" --timeout 600000 2>&1 | grep -v '^\[serve\]\|^\[browser\] ok'
for id in cube3 slide4; do
  def=puzzles/$id.pz
  opts=(); [ "$id" = cube3 ] && opts=(--solver two_phase)
  # One solve per state, as the page does: the states from the page, --state lines.
  python3 -c 'import json,sys; [print(r["state"]) for r in json.load(open(sys.argv[1]))["runs"]]' "$out/$id.json" > "$out/$id.states"
  # Three native runs; each state's fastest search counts, as in the page.
  for k in 1 2 3; do
    "$PZC" solve "$def" "${opts[@]}" --scrambles "$out/$id.states" --threads 1 > "$out/$id.native$k" 2>/dev/null
  done
  python3 - "$out/$id.json" "$out/$id.native" "$id" <<'PY'
import json, sys, statistics
web = json.load(open(sys.argv[1]))["runs"]
runs = [[json.loads(l) for l in open(sys.argv[2] + str(k))] for k in (1, 2, 3)]
native = [min(rs, key=lambda r: r["seconds"]) for rs in zip(*runs)]
assert len(web) == len(native), (len(web), len(native))
same_nodes = sum(w["nodes"] == n["nodes"] for w, n in zip(web, native))
same_len = sum(w["length"] == n["length"] for w, n in zip(web, native))
ws = [w["search"] for w in web]; ns = [n["seconds"] for n in native]
print(f"{sys.argv[3]}: {len(web)} states; search per solve: wasm median {statistics.median(ws)*1e3:.2f} ms "
      f"(mean {statistics.mean(ws)*1e3:.2f}), native median {statistics.median(ns)*1e3:.2f} ms (mean {statistics.mean(ns)*1e3:.2f}); "
      f"ratio of means {statistics.mean(ws)/statistics.mean(ns):.2f}x; same node counts {same_nodes}/{len(web)}, same lengths {same_len}/{len(web)}")
PY
done
# pzc draw of a cube3 state (whole process, median of 11).
python3 - "$PZC" <<'PY'
import subprocess, sys, time, statistics
t = []
for _ in range(11):
    s = time.perf_counter()
    subprocess.run([sys.argv[1], "draw", "puzzles/cube3.pz", "--scramble", "R U F' L2 D B R' U2 F"], check=True, stdout=subprocess.DEVNULL)
    t.append(time.perf_counter() - s)
print(f"pzc draw puzzles/cube3.pz --scramble (9 moves): median {statistics.median(t)*1e3:.1f} ms over 11 runs (whole process)")
PY
