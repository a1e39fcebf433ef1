#!/usr/bin/env bash
# bench/h48/optimal.sh [SCRAMBLES] [THREADS] — optimal cube solves with the
# H48 coset patterns (puzzles/cube3.pz's default solver: h48h3) side by side
# with variants of the same definition, one line per scramble and variant:
# length, nodes, seconds, nodes/s. Variants (VARIANTS, space-separated,
# default "h48h3 h48h2 h48_corners"):
#   h48h3        the shipped solver: H11's coordinate keeping three edge orientations (231 MiB)
#   h48h2        keeping two (116 MiB)
#   h48_corners  h48 (H48's coordinate, 66 MiB) and corners_all (42 MiB)
#   h48          h48 alone
#   h48_all      h48, corners_all, edges_first6, edges_last6
#   plain        corners_all, edges_first6, edges_last6 (before coset patterns; slow past 14 moves)
# Each variant builds its own tables (the cache key covers the whole
# generated solver): h48h2 about 100 s, h48h3 about 145 s on 2 cores.
# Tables are built once into $PZC_CACHE_DIR (default ~/.cache/pzc).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scrambles=${1:-$here/cube_scrambles.txt}
threads=${2:-1}
pzc=${PZC:-$root/build/compiler/driver/pzc}
variants=${VARIANTS:-"h48h3 h48h2 h48_corners"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
line='  solver optimal { optimal h48h3; }'
grep -qF "$line" "$root/puzzles/cube3.pz" || { echo "puzzles/cube3.pz's optimal solver changed; update this script" >&2; exit 1; }
printf '%-12s %4s %6s %12s %10s %12s\n' variant line length nodes seconds nodes/s
for v in $variants; do
    case $v in
    h48h2) set_to='optimal h48h2;' ;;
    h48h3) set_to='optimal h48h3;' ;;
    h48_corners) set_to='optimal h48, corners_all;' ;;
    h48) set_to='optimal h48;' ;;
    h48_all) set_to='optimal h48, corners_all, edges_first6, edges_last6;' ;;
    plain) set_to='optimal corners_all, edges_first6, edges_last6;' ;;
    *) echo "unknown variant $v" >&2; exit 2 ;;
    esac
    sed "s/optimal h48h3;/$set_to/" "$root/puzzles/cube3.pz" > "$tmp/cube3.pz"
    "$pzc" solve "$tmp/cube3.pz" --scrambles "$scrambles" --threads "$threads" --json 2> "$tmp/err" |
        sed -n 's/.*"line": \([0-9]*\).*"length": \([0-9]*\).*"nodes": \([0-9]*\), "seconds": \([0-9.e-]*\).*/\1 \2 \3 \4/p' |
        while read -r n len nodes secs; do
            printf '%-12s %4s %6s %12s %10.3f %12.0f\n' "$v" "$n" "$len" "$nodes" "$secs" "$(echo "$nodes / $secs" | bc -l)"
        done
done
