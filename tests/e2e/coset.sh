#!/usr/bin/env bash
# coset.sh CASE PZC CACHEDIR PHASE_BFS — coset patterns (note [coset patterns]
# in compiler/analysis/perm/coset_coordinates.hpp) end to end.
set -uo pipefail
case_name=$1 pzc=$2 cache=$3 oracle=$4
export PZC_CACHE_DIR=$cache
mkdir -p "$cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
lengths() { sed -n 's/.*"length": \([0-9]*\).*/\1/p' "$1"; }

# The table-bytes `pzc check --json` gives pattern $2 of definition $1.
table_bytes() {
    "$pzc" check "$1" --json | python3 -c 'import json, sys; print(next(p["table-bytes"] for p in json.load(sys.stdin)["patterns"] if p["name"] == sys.argv[1]))' "$2"
}

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
    # The size check reports is the size the solver holds (pz/tables/table_layout.hpp).
    bytes=$(table_bytes $puzzle tetrad_coset) || fail "check --json table-bytes"
    grep -q "^coset pattern tetrad_coset: table built in .* s, $bytes bytes" "$tmp/tables.txt" ||
        fail "check says $bytes bytes: $(grep '^coset pattern' "$tmp/tables.txt")"
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
    PZ_PARALLEL_FROM_NODES=0 "$pzc" solve $puzzle --random 40 --seed 5 --json --threads 1 > "$tmp/coset1" || fail "solve coset"
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
    # 400 states: a wrong skip after switching sides lengthened 3 of 1000.
    "$pzc" solve "$tmp/axes.pz" --random 400 --seed 11 --json --threads 1 > "$tmp/axes1" || fail "solve axes"
    "$pzc" solve "$tmp/plain.pz" --random 400 --seed 11 --json --threads 1 > "$tmp/plain" || fail "solve plain"
    [ "$(lengths "$tmp/axes1" | wc -l)" = 400 ] || fail "expected 400 results"
    diff <(lengths "$tmp/plain") <(lengths "$tmp/axes1") || fail "lengths differ from the plain pattern's"
    # Switching sides (note [switching sides] in pz/search/search.hpp) changes the
    # tree searched (the node counts) but never a length.
    PZ_SWITCH_SIDES=0 "$pzc" solve "$tmp/axes.pz" --random 400 --seed 11 --json --threads 1 > "$tmp/one_side" || fail "solve one side"
    diff <(lengths "$tmp/one_side") <(lengths "$tmp/axes1") || fail "lengths differ without switching sides"
    nodes() { sed -n 's/.*"nodes": \([0-9]*\).*/\1/p' "$1" | awk '{ s += $1 } END { print s }'; }
    echo "nodes: switching sides $(nodes "$tmp/axes1"), one side $(nodes "$tmp/one_side")"
    [ "$(nodes "$tmp/axes1")" != "$(nodes "$tmp/one_side")" ] || fail "switching sides changed nothing"
    PZ_PARALLEL_FROM_NODES=0 "$pzc" solve "$tmp/axes.pz" --random 60 --seed 11 --json --threads 2 > "$tmp/axes2" || fail "solve 2 threads"
    diff <(lengths "$tmp/axes1" | head -60) <(lengths "$tmp/axes2") || fail "1 and 2 threads differ"
    ;;
symmetric-states)
    # States fixed by a symmetry (note [symmetric states] in pz/search/search.hpp):
    # blocks that the half turn about the F axis (S_F2: U <-> D, R <-> L)
    # maps onto themselves. With the filter the search tries one move per
    # class at such nodes: the lengths must stay the plain pattern's, on 1
    # and 2 threads, with fewer nodes than without the filter.
    puzzle=tests/puzzles/cube2_tetrads.pz
    sed 's/optimal tetrad_coset, top;/optimal top;/' $puzzle > "$tmp/plain.pz"
    blocks=("U D" "U2 D2" "U' D'" "R L" "R2 L2" "R' L'" "F" "F2" "F'" "B" "B2" "B'")
    RANDOM=7
    for i in $(seq 60); do
        s=""
        for j in $(seq $((3 + i % 5))); do s="$s ${blocks[$((RANDOM % 12))]}"; done
        echo "$s"
    done > "$tmp/scrambles"
    "$pzc" solve "$tmp/plain.pz" --scrambles "$tmp/scrambles" --threads 1 > "$tmp/plain" || fail "solve plain"
    "$pzc" solve $puzzle --scrambles "$tmp/scrambles" --threads 1 > "$tmp/on" || fail "solve"
    PZ_SYMMETRIC_STATES=0 "$pzc" solve $puzzle --scrambles "$tmp/scrambles" --threads 1 > "$tmp/off" || fail "solve without the filter"
    PZ_PARALLEL_FROM_NODES=0 "$pzc" solve $puzzle --scrambles "$tmp/scrambles" --threads 2 > "$tmp/two" || fail "solve on 2 threads"
    [ "$(lengths "$tmp/plain" | wc -l)" = 60 ] || fail "expected 60 results"
    for run in on off two; do
        diff <(lengths "$tmp/plain") <(lengths "$tmp/$run") || fail "$run: lengths differ from the plain pattern's"
    done
    nodes() { sed -n 's/.*"nodes": \([0-9]*\).*/\1/p' "$1" | awk '{ s += $1 } END { print s }'; }
    echo "nodes: filter $(nodes "$tmp/on"), no filter $(nodes "$tmp/off")"
    [ "$(nodes "$tmp/on")" -lt "$(nodes "$tmp/off")" ] || fail "the filter did not save nodes"
    ;;
sibling-batches)
    # Expanding a node's survivors as a batch (note [sibling batches] in
    # pz/search/search.hpp) reorders work, not the search: every answer and node
    # count must be those of the node-by-node search, with a coset pattern
    # (inverse lookups, switching sides), a projected one and plain tables,
    # serial and split into subtrees (one thread: deterministic counts).
    puzzle=tests/puzzles/cube2_tetrads.pz
    sed 's/optimal tetrad_coset, top;/optimal tetrad_proj;/' $puzzle > "$tmp/proj.pz"
    sed 's/optimal tetrad_coset, top;/optimal top;/' $puzzle > "$tmp/plain.pz"
    grep -q "optimal tetrad_proj;" "$tmp/proj.pz" || fail "projected variant"
    grep -q "optimal top;" "$tmp/plain.pz" || fail "plain variant"
    answers() { sed 's/, "seconds": [0-9.e+-]*//; s/, "cpu-seconds": [0-9.e+-]*//' "$1"; }
    for p in $puzzle "$tmp/proj.pz" "$tmp/plain.pz"; do
        for split in 65536 0; do
            PZ_PARALLEL_FROM_NODES=$split "$pzc" solve $p --random 20 --seed 9 --json --threads 1 > "$tmp/on" || fail "solve $p"
            PZ_PARALLEL_FROM_NODES=$split PZ_SIBLING_BATCHES=0 "$pzc" solve $p --random 20 --seed 9 --json --threads 1 > "$tmp/off" ||
                fail "solve $p without batches"
            [ "$(grep -c '"nodes"' "$tmp/on")" = 20 ] || fail "expected 20 results"
            grep -q '"seconds"' "$tmp/on" || fail "no seconds to strip"
            diff <(answers "$tmp/on") <(answers "$tmp/off") || fail "$p (split from $split nodes): batches changed an answer or a node count"
        done
        echo "$p: $(sed -n 's/.*"nodes": \([0-9]*\).*/\1/p' "$tmp/on" | awk '{ s += $1 } END { print s }') nodes either way"
    done
    PZ_SIBLING_BATCHES=2 "$pzc" solve $puzzle --random 1 --seed 9 > "$tmp/bad" 2>&1 && fail "PZ_SIBLING_BATCHES=2 accepted"
    grep -q "PZ_SIBLING_BATCHES is 0 or 1" "$tmp/bad" || fail "PZ_SIBLING_BATCHES=2: $(cat "$tmp/bad")"
    ;;
projected)
    # A projected coset pattern (note [projected coset patterns]): the tetrad
    # coset keeping three corners' orientations. Every entry (membership
    # class, orientations kept) holds the least distance of the cosets that
    # have them (phase_bfs, which conjugates elements); the same when the
    # build's breadth-first step stops early and the depth-first one fills
    # the rest; a depth-first step cut short gives lower bounds that still
    # find optimal lengths; 1 and 2 threads agree.
    puzzle=tests/puzzles/cube2_tetrads.pz
    sed 's/optimal tetrad_coset, top;/optimal tetrad_proj;/' $puzzle > "$tmp/proj.pz"
    sed 's/optimal tetrad_coset, top;/optimal top;/' $puzzle > "$tmp/plain.pz"
    grep -q "optimal tetrad_proj;" "$tmp/proj.pz" || fail "projected variant"
    "$pzc" check "$tmp/proj.pz" > "$tmp/check" || fail "check"
    grep -q "tetrad_proj: coset coordinate of tetrads, 153090 values, membership of corners in 2 sets (4+4) (70 values) by 48 symmetries: .* x orientation of corners mod 3 at {UFR UFL UBL} (27 values), projected" "$tmp/check" ||
        fail "check: $(grep tetrad_proj "$tmp/check")"
    "$oracle" "$tmp/proj.pz" tetrad_proj | sed 's/^phase 1://' > "$tmp/want" || fail "oracle"
    "$pzc" build "$tmp/proj.pz" -o "$tmp/solver" > /dev/null || fail "build"
    "$tmp/solver" --tables --table-dir "$tmp/t1" > "$tmp/tables.txt" || fail "--tables"
    cat "$tmp/tables.txt"
    bytes=$(table_bytes "$tmp/proj.pz" tetrad_proj) || fail "check --json table-bytes"
    grep -q "^coset pattern tetrad_proj: table built in .* s, $bytes bytes" "$tmp/tables.txt" ||
        fail "check says $bytes bytes: $(grep '^coset pattern' "$tmp/tables.txt")"
    # The generated ranks (note [fixed ranks] in pz/search/phased.hpp) are the plan's.
    grep -q "generated ranks: the plan's on 10000 random states" "$tmp/tables.txt" || fail "generated ranks not checked"
    sed -n 's/^  [0-9]* classes, [0-9]* entries://p' "$tmp/tables.txt" > "$tmp/got"
    diff "$tmp/want" "$tmp/got" || fail "projected table differs from the projected coset BFS"
    # note [entries below the base]: every entry reads back its own distance
    # (the lines' 2-bit reads above the base, up to its deepest, 5 = base + 3;
    # the set below it; the base itself where nothing in the set matches).
    grep -q "^  entries below 2 read exactly" "$tmp/tables.txt" || fail "no set of entries below the base"
    sed -n 's/^  every entry read back://p' "$tmp/tables.txt" > "$tmp/reads"
    diff "$tmp/want" "$tmp/reads" || fail "the entries read back differ from the projected coset BFS"
    # The deepest entry is 5: a depth-first step to 5 or more fills every entry exactly.
    PZ_PROJECTED_BFS_CANDIDATES=60 PZ_PROJECTED_DFS_NODES=1000000 "$tmp/solver" --tables --table-dir "$tmp/t2" > "$tmp/tables2.txt" ||
        fail "--tables (depth first)"
    cat "$tmp/tables2.txt"
    grep -q "exact up to \([5-9]\|1[0-4]\)," "$tmp/tables2.txt" || fail "the depth-first step did not run to depth 5"
    sed -n 's/.* entries (exact up to [0-9]*, farther ones read [0-9]*)://p' "$tmp/tables2.txt" > "$tmp/got2"
    diff "$tmp/want" "$tmp/got2" || fail "the depth-first fill differs from the projected coset BFS"
    "$tmp/solver" --tables --table-dir "$tmp/t1" | grep -q "table loaded" || fail "table not loaded from the cache"
    # A damaged file is refused, rebuilt and replaced (the cache protocol of pz/tables/table_blob.hpp).
    file=$(ls "$tmp"/t1/*.pzt)
    printf '\x5a' | dd of="$file" bs=1 seek=4200 conv=notrunc status=none
    "$tmp/solver" --verify-tables --tables --table-dir "$tmp/t1" > "$tmp/tables4.txt" 2> "$tmp/err" || fail "damaged: $(cat "$tmp/err")"
    grep -q "unusable (checksum mismatch" "$tmp/err" || fail "damage not reported: $(cat "$tmp/err")"
    grep -q "table built" "$tmp/tables4.txt" || fail "damaged table not rebuilt"
    "$tmp/solver" --tables --table-dir "$tmp/t1" | grep -q "table loaded" || fail "rebuilt table not cached"
    # Cut short: exact to a few moves only, still admissible.
    PZ_PROJECTED_BFS_CANDIDATES=20 PZ_PROJECTED_DFS_NODES=100 "$tmp/solver" --tables --table-dir "$tmp/t3" > "$tmp/tables3.txt" || fail "--tables (cut)"
    cut=$(sed -n 's/.*exact up to \([0-9]*\),.*/\1/p' "$tmp/tables3.txt")
    [ -n "$cut" ] && [ "$cut" -lt 5 ] || fail "cut: $(cat "$tmp/tables3.txt")"
    # Exactly the BFS's entries with every depth above the cut read as cut + 1.
    capped=$(tr ' ' '\n' < "$tmp/want" | awk -F: -v c="$cut" 'NF == 2 { d = ($1 > c) ? c + 1 : $1; n[d] += $2 } END { for (d = 0; d <= c + 1; ++d) if (n[d]) printf " %d:%d", d, n[d]; print "" }')
    got3=$(sed -n 's/.* entries (exact up to [0-9]*, farther ones read [0-9]*)://p' "$tmp/tables3.txt")
    [ "$capped" = "$got3" ] || fail "cut table: got$got3, want$capped"
    # A declared exact depth (note [declared exact depth]) overrides the
    # node budget that cut the table above: exact up to 5, every entry the BFS's.
    sed 's/coset tetrads; corners {UFR UFL UBL}/coset tetrads exact 5; corners {UFR UFL UBL}/' "$tmp/proj.pz" > "$tmp/exact.pz"
    grep -q "coset tetrads exact 5;" "$tmp/exact.pz" || fail "exact variant"
    "$pzc" check "$tmp/exact.pz" | grep -q "tetrad_proj: .*, exact up to at least 5 (declared)" || fail "check: declared depth not shown"
    "$pzc" build "$tmp/exact.pz" -o "$tmp/exact_solver" > /dev/null || fail "build (exact)"
    PZ_PROJECTED_BFS_CANDIDATES=20 PZ_PROJECTED_DFS_NODES=100 "$tmp/exact_solver" --tables --table-dir "$tmp/t3" > "$tmp/tables5.txt" ||
        fail "--tables (exact 5)"
    grep -q "exact up to 5," "$tmp/tables5.txt" || fail "declared depth not built: $(cat "$tmp/tables5.txt")"
    grep -q "table built" "$tmp/tables5.txt" || fail "the declared depth reused the cut table's file"
    sed -n 's/.* entries (exact up to [0-9]*, farther ones read [0-9]*)://p' "$tmp/tables5.txt" > "$tmp/got5"
    diff "$tmp/want" "$tmp/got5" || fail "the declared depth's table differs from the projected coset BFS"
    "$pzc" solve "$tmp/plain.pz" --random 60 --seed 13 --json --threads 1 > "$tmp/plain" || fail "solve plain"
    "$pzc" solve "$tmp/proj.pz" --random 60 --seed 13 --json --threads 1 > "$tmp/proj1" || fail "solve projected"
    [ "$(lengths "$tmp/proj1" | wc -l)" = 60 ] || fail "expected 60 results"
    diff <(lengths "$tmp/plain") <(lengths "$tmp/proj1") || fail "lengths differ from the plain pattern's"
    PZ_PARALLEL_FROM_NODES=0 "$pzc" solve "$tmp/proj.pz" --random 60 --seed 13 --json --threads 2 > "$tmp/proj2" || fail "solve 2 threads"
    diff <(lengths "$tmp/proj1") <(lengths "$tmp/proj2") || fail "1 and 2 threads differ"
    "$tmp/solver" --table-dir "$tmp/t3" --random 30 --seed 13 --json > "$tmp/cut" || fail "solve with the cut table"
    "$tmp/solver" --table-dir "$tmp/t1" --random 30 --seed 13 --json > "$tmp/full" || fail "solve with the full table"
    [ "$(lengths "$tmp/cut" | wc -l)" = 30 ] || fail "expected 30 results with the cut table"
    diff <(lengths "$tmp/full") <(lengths "$tmp/cut") || fail "the cut table changed optimal lengths"
    ;;
yaml)
    # The YAML twin and the .pz print agree (coset patterns round-trip).
    puzzle=tests/puzzles/cube2_tetrads.pz
    "$pzc" convert $puzzle --to yaml -o "$tmp/t.yaml" || fail "to yaml"
    grep -q "coset: tetrads" "$tmp/t.yaml" || fail "yaml: $(cat "$tmp/t.yaml")"
    "$pzc" convert "$tmp/t.yaml" --to pz -o "$tmp/t.pz" || fail "to pz"
    grep -q "pattern tetrad_coset { coset tetrads; }" "$tmp/t.pz" || fail "pz: $(cat "$tmp/t.pz")"
    # A declared exact depth round-trips too.
    sed 's/coset tetrads; corners {UFR UFL UBL}/coset tetrads exact 5; corners {UFR UFL UBL}/' $puzzle > "$tmp/e.pz"
    "$pzc" convert "$tmp/e.pz" --to yaml -o "$tmp/e.yaml" || fail "to yaml (exact)"
    grep -q "exact: 5" "$tmp/e.yaml" || fail "yaml exact: $(cat "$tmp/e.yaml")"
    "$pzc" convert "$tmp/e.yaml" --to pz -o "$tmp/e2.pz" || fail "to pz (exact)"
    grep -q "coset tetrads exact 5;" "$tmp/e2.pz" || fail "pz exact: $(cat "$tmp/e2.pz")"
    diff <("$pzc" check "$tmp/e.pz" | sed 1d) <("$pzc" check "$tmp/e.yaml" | sed 1d) || fail "check differs for the exact YAML twin"
    diff <("$pzc" check $puzzle | sed 1d) <("$pzc" check "$tmp/t.yaml" | sed 1d) || fail "check differs for the YAML twin"
    ;;
cube3-depths)
    # cube3's optimal_h2 (the smallest projected coset table) finds exactly
    # the lengths an independent solver (no coset pattern) proved, states
    # of 12 to 15 moves (cube3_optimal.txt), on 1 and 2 threads.
    grep -v '^#' tests/e2e/cube3_optimal.txt | cut -f1 > "$tmp/scrambles"
    grep -v '^#' tests/e2e/cube3_optimal.txt | cut -f2 > "$tmp/want"
    "$pzc" solve puzzles/cube3.pz --solver optimal_h2 --scrambles "$tmp/scrambles" --threads 2 --json > "$tmp/out" ||
        fail "solve"
    cat "$tmp/out"
    diff "$tmp/want" <(lengths "$tmp/out") || fail "lengths differ from the proved ones"
    grep -c '"optimal": true' "$tmp/out" | grep -qx "$(wc -l < "$tmp/want")" || fail "not every result is optimal"
    "$pzc" solve puzzles/cube3.pz --solver optimal_h2 --scrambles "$tmp/scrambles" --threads 1 --json > "$tmp/out1" ||
        fail "solve, 1 thread"
    diff "$tmp/want" <(lengths "$tmp/out1") || fail "lengths on 1 thread differ from the proved ones"
    # note [known solutions] on a coset-pattern solver: the first 12-mover's
    # optimal solution given as known is proved (depths below 12 exhausted);
    # padded by U U U U it is bettered; --max-length 11 proves there is none.
    first=$(head -1 "$tmp/scrambles") sol=$(head -1 "$tmp/out" | sed 's/.*"solution": "\([^"]*\)".*/\1/')
    out=$("$pzc" solve puzzles/cube3.pz --solver optimal_h2 --scramble "$first" --known-solution "$sol" --json) || fail "known"
    echo "$out"
    grep -q "\"length\": 12, \"optimal\": true, \"known-solution\": true" <<< "$out" || fail "known solution not proved: $out"
    out=$("$pzc" solve puzzles/cube3.pz --solver optimal_h2 --scramble "$first" --known-solution "$sol U U U U" --json) ||
        fail "known, padded"
    grep -q "\"length\": 12, \"optimal\": true, \"solver\"" <<< "$out" || fail "padded known solution not bettered: $out"
    "$pzc" solve puzzles/cube3.pz --solver optimal_h2 --scramble "$first" --max-length 11 > /dev/null 2> "$tmp/err" &&
        fail "a solution of 11 moves"
    grep -q "no solution of 11 moves or fewer" "$tmp/err" || fail "message: $(cat "$tmp/err")"
    ;;
cube3-superflip)
    # Opt-in (PZ_SUPERFLIP_TEST): the superflip needs exactly 20 moves
    # (Michael Reid, 1995). cube3.pz's 20-move macro `superflip` also solves
    # it (the superflip is its own inverse); given as --known-solution, pzc
    # replays it and optimal_h6 (its 1.8 GiB table built once: about 7.5
    # minutes and 5.6 GiB on 2 cores) exhausts every depth up to 19 (about
    # 40-60 minutes on 2 threads), which proves 20 (note [known solutions]).
    # Without the known solution the search also runs the depth-20
    # iteration until it finds one: hours here.
    known=$(sed -n 's/.*macro superflip = \(.*\);.*/\1/p' puzzles/cube3.pz)
    [ "$(wc -w <<< "$known")" = 20 ] || fail "cube3.pz's superflip macro: '$known'"
    "$pzc" solve puzzles/cube3.pz --solver optimal_h6 --scramble superflip --known-solution "$known" --progress --json \
        > "$tmp/out" || fail "solve"
    cat "$tmp/out"
    grep -q '"length": 20, "optimal": true, "known-solution": true' "$tmp/out" || fail "superflip not proved 20: $(cat "$tmp/out")"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "PASS $case_name"
