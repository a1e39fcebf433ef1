#!/usr/bin/env bash
# coset.sh CASE PZC CACHEDIR PHASE_BFS — coset patterns (note [coset patterns]
# in compiler/analysis/coset_coordinates.hpp) end to end.
set -uo pipefail
case_name=$1 pzc=$2 cache=$3 oracle=$4
export PZC_CACHE_DIR=$cache
mkdir -p "$cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
lengths() { sed -n 's/.*"length": \([0-9]*\).*/\1/p' "$1"; }

case $case_name in
tetrads-table)
    # The 2x2x2 corners' tetrad coset by the 48 symmetries: 3393 classes;
    # every coordinate value, looked up from a state as the search does, has
    # the distance a breadth-first search over group elements keyed by
    # cosets gives (phase_bfs: no coordinates, move tables or classes).
    puzzle=tests/puzzles/cube2_tetrads.pz
    "$pzc" check $puzzle > "$tmp/check" || fail "check"
    grep -q "tetrad_coset: coset coordinate of tetrads, 153090 values, .* by 48 symmetries: 3393 classes; 3393 entries" "$tmp/check" ||
        fail "check: $(grep tetrad_coset "$tmp/check")"
    "$pzc" check $puzzle --json | grep -q '"classes": 3393' || fail "check --json classes"
    "$oracle" $puzzle tetrad_coset | sed 's/^phase 1://' > "$tmp/want" || fail "oracle"
    "$pzc" build $puzzle -o "$tmp/solver" > /dev/null || fail "build"
    "$tmp/solver" --tables --table-dir "$tmp/tables" > "$tmp/tables.txt" || fail "--tables"
    grep -q "3393 classes, 3393 entries" "$tmp/tables.txt" || fail "classes: $(cat "$tmp/tables.txt")"
    sed -n 's/.*looked up from states)://p' "$tmp/tables.txt" > "$tmp/got"
    diff "$tmp/want" "$tmp/got" || fail "coset table differs from the coset BFS"
    cat "$tmp/tables.txt"
    # Cached: the second run loads the table.
    "$tmp/solver" --tables --table-dir "$tmp/tables" | grep -q "table loaded" || fail "table not loaded from the cache"
    ;;
tetrads-optimal)
    # With the coset pattern the lengths equal those of the plain pattern
    # alone (both optimal), and threads do not change the answer.
    puzzle=tests/puzzles/cube2_tetrads.pz
    sed 's/optimal tetrad_coset, top;/optimal top;/' $puzzle > "$tmp/plain.pz"
    grep -q "optimal top;" "$tmp/plain.pz" || fail "plain variant"
    "$pzc" solve $puzzle --random 40 --seed 5 --json --threads 1 > "$tmp/coset1" || fail "solve coset"
    "$pzc" solve "$tmp/plain.pz" --random 40 --seed 5 --json --threads 1 > "$tmp/plain" || fail "solve plain"
    [ "$(lengths "$tmp/coset1" | wc -l)" = 40 ] || fail "expected 40 results"
    diff <(lengths "$tmp/plain") <(lengths "$tmp/coset1") || fail "lengths differ from the plain pattern's"
    PZ_PARALLEL_FROM_NODES=0 "$pzc" solve $puzzle --random 40 --seed 5 --json --threads 2 > "$tmp/coset2" || fail "solve 2 threads"
    strip() { sed 's/"seconds": [0-9.e-]*//; s/"cpu-seconds": [0-9.e-]*//; s/"nodes": [0-9]*//' "$1"; }
    diff <(strip "$tmp/coset1") <(strip "$tmp/coset2") || fail "1 and 2 threads differ"
    # The coset pattern prunes: fewer nodes than the plain pattern alone.
    sum() { sed -n 's/.*"nodes": \([0-9]*\).*/\1/p' "$1" | awk '{ s += $1 } END { print s }'; }
    echo "nodes: plain $(sum "$tmp/plain"), with the coset pattern $(sum "$tmp/coset1")"
    [ "$(sum "$tmp/coset1")" -lt "$(sum "$tmp/plain")" ] || fail "the coset pattern did not prune"
    ;;
axes-optimal)
    # A coset pattern whose subgroup only 16 of the 48 symmetries keep is
    # read at one conjugate per axis (note [coset pattern lookups]): alone,
    # it must give the plain pattern's optimal lengths (an over-estimating
    # lookup would lengthen or lose some), on 1 and 2 threads.
    puzzle=tests/puzzles/cube2_tetrads.pz
    sed 's/optimal tetrad_coset, top;/optimal layers_coset;/' $puzzle > "$tmp/axes.pz"
    sed 's/optimal tetrad_coset, top;/optimal top;/' $puzzle > "$tmp/plain.pz"
    grep -q "optimal layers_coset;" "$tmp/axes.pz" || fail "axes variant"
    "$pzc" inspect "$tmp/axes.pz" > "$tmp/inspect" || fail "inspect"
    grep -q "layers_coset: coset coordinate of layers, 6 lookups per node (read at the conjugates by identity, S_URF, S_URF S_URF)" "$tmp/inspect" ||
        fail "inspect: $(grep layers_coset "$tmp/inspect")"
    # The moves kept in the layers subgroup, per axis (note [moves in the subgroup]).
    grep -qx "    moves skipped after a tight inverse read (at identity): U U2 U' D D2 D'" "$tmp/inspect" ||
        fail "inspect: $(grep skipped "$tmp/inspect")"
    "$pzc" solve "$tmp/axes.pz" --random 60 --seed 11 --json --threads 1 > "$tmp/axes1" || fail "solve axes"
    "$pzc" solve "$tmp/plain.pz" --random 60 --seed 11 --json --threads 1 > "$tmp/plain" || fail "solve plain"
    [ "$(lengths "$tmp/axes1" | wc -l)" = 60 ] || fail "expected 60 results"
    diff <(lengths "$tmp/plain") <(lengths "$tmp/axes1") || fail "lengths differ from the plain pattern's"
    PZ_PARALLEL_FROM_NODES=0 "$pzc" solve "$tmp/axes.pz" --random 60 --seed 11 --json --threads 2 > "$tmp/axes2" || fail "solve 2 threads"
    diff <(lengths "$tmp/axes1") <(lengths "$tmp/axes2") || fail "1 and 2 threads differ"
    ;;
yaml)
    # The YAML twin and the .pz print agree (coset patterns round-trip).
    puzzle=tests/puzzles/cube2_tetrads.pz
    "$pzc" convert $puzzle --to yaml -o "$tmp/t.yaml" || fail "to yaml"
    grep -q "coset: tetrads" "$tmp/t.yaml" || fail "yaml: $(cat "$tmp/t.yaml")"
    "$pzc" convert "$tmp/t.yaml" --to pz -o "$tmp/t.pz" || fail "to pz"
    grep -q "pattern tetrad_coset { coset tetrads; }" "$tmp/t.pz" || fail "pz: $(cat "$tmp/t.pz")"
    diff <("$pzc" check $puzzle | sed 1d) <("$pzc" check "$tmp/t.yaml" | sed 1d) || fail "check differs for the YAML twin"
    ;;
cube3-depths)
    # Opt-in (PZ_CUBE_OPTIMAL_TEST): cube3's solver (h48 + corners) finds
    # exactly the lengths an independent solver (no coset pattern) proved,
    # states of 13 to 15 moves (cube3_optimal.txt). Builds the corner and
    # H48 tables once (about 70 s on 2 cores).
    grep -v '^#' tests/e2e/cube3_optimal.txt | cut -f1 > "$tmp/scrambles"
    grep -v '^#' tests/e2e/cube3_optimal.txt | cut -f2 > "$tmp/want"
    "$pzc" solve puzzles/cube3.pz --scrambles "$tmp/scrambles" --json > "$tmp/out" || fail "solve"
    cat "$tmp/out"
    diff "$tmp/want" <(lengths "$tmp/out") || fail "lengths differ from the proved ones"
    grep -c '"optimal": true' "$tmp/out" | grep -qx "$(wc -l < "$tmp/want")" || fail "not every result is optimal"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "PASS $case_name"
