#!/usr/bin/env bash
# Korf's 100 instances through pzc itself: the generated fifteen.pz solver
# (solver korf: 7-8 + reflection), every answer replayed by pzc, each length
# compared with the published one. Prints nodes and search time per instance
# (the solver's own "seconds"), their mean and max, and the whole command's
# wall time (compile and table load included; the first run also builds the
# 275 MiB of tables).
#   bench/fifteen/pzc_korf100.sh [PZC] [FIRST_N]
set -euo pipefail
cd "$(dirname "$0")/../.."
pzc=${1:-build/compiler/driver/pzc}
n=${2:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' bench/fifteen/korf100.txt | head -"$n" > "$tmp/korf"
cut -d' ' -f4- "$tmp/korf" > "$tmp/states"
start=$(date +%s.%N)
"$pzc" solve puzzles/fifteen.pz --solver korf --states "$tmp/states" --json > "$tmp/out"
end=$(date +%s.%N)
paste -d' ' <(cut -d' ' -f1,2 "$tmp/korf") <(sed 's/.*"length": \([0-9]*\).*"nodes": \([0-9]*\), "seconds": \([0-9.]*\).*/\1 \2 \3/' "$tmp/out") |
awk -v wall="$(echo "$end - $start" | bc)" '
    { if ($2 != $3) { print "instance " $1 ": length " $3 ", published " $2; bad = 1 }
      nodes += $4; t += $5; if ($5 > max) { max = $5; at = $1 } n++ }
    END { printf "%d instances, all optimal lengths %s\n", n, bad ? "NO" : "yes"
          printf "nodes: mean %.0f   search time: mean %.2f ms, max %.1f ms (#%d)   nodes/s %.1f M\n", nodes / n, 1000 * t / n, 1000 * max, at, nodes / t / 1e6
          printf "whole command: %.2f s wall (pzc start, solver start, table load, %d searches, replays)\n", wall, n
          exit bad }'
