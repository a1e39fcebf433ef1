#!/usr/bin/env bash
# Korf & Taylor's ten 24-puzzle instances through pzc: the generated
# twentyfour.pz solver korf (6-6-6-6 databases + the reflected lookup),
# each instance given at most MAX_NODES nodes. A finished instance's length
# is compared with the published optimal one (every answer is replayed by
# pzc); an unfinished one reports the lower bound its search proved. Prints
# nodes, time and nodes/s per instance, and the whole command's wall time
# (the first run also builds the 243 MiB of databases: minutes on 2 cores).
#   bench/twentyfour/run.sh [PZC] [FIRST_N] [MAX_NODES]
#   e.g. bench/twentyfour/run.sh build/compiler/driver/pzc 10 1000000000
set -euo pipefail
cd "$(dirname "$0")/../.."
pzc=${1:-build/compiler/driver/pzc}
n=${2:-10}
budget=${3:-1000000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' bench/twentyfour/korf_taylor10.txt | head -"$n" > "$tmp/instances"
cut -d' ' -f3- "$tmp/instances" > "$tmp/states"
start=$(date +%s.%N)
# Exit 1 when an instance is given up: its line says so.
"$pzc" solve puzzles/twentyfour.pz --solver korf --states "$tmp/states" --max-nodes "$budget" --json > "$tmp/out" 2> "$tmp/err" || true
end=$(date +%s.%N)
if [ "$(wc -l < "$tmp/out")" -ne "$(wc -l < "$tmp/instances")" ]; then cat "$tmp/err" >&2; exit 1; fi
echo "budget: $budget nodes per instance; $(grep -c . "$tmp/states") instances"
paste -d' ' <(cut -d' ' -f1,2 "$tmp/instances") <(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(r.get("length", -1), r.get("lower-bound", -1), r["nodes"], r["seconds"])' "$tmp/out") |
awk -v wall="$(echo "$end - $start" | bc)" '
    { id = $1; pub = $2; len = $3; lb = $4; nodes = $5; t = $6
      if (len >= 0) { status = (len == pub) ? "optimal " len : "WRONG " len " (published " pub ")"; if (len != pub) bad = 1; solved++ }
      else { status = "stopped: no solution under " lb " moves (published " pub ")"; if (lb > pub) bad = 1 }
      printf "#%-2d %-48s %15d nodes %9.1f s %6.1f M nodes/s\n", id, status, nodes, t, nodes / (t > 0 ? t : 1) / 1e6
      sumn += nodes; sumt += t; n++ }
    END { printf "%d of %d finished within the budget; %d nodes in %.1f s of search (%.1f M nodes/s); whole command %.1f s wall\n", solved, n, sumn, sumt, sumn / (sumt > 0 ? sumt : 1) / 1e6, wall
          exit bad }'
