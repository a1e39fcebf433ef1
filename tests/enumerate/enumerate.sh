#!/usr/bin/env bash
# enumerate.sh CASE PZC CACHEDIR MPIRUN PHASE_BFS — one case of pzc enumerate; see CMakeLists.txt.
set -uo pipefail
case_name=$1 pzc=$2 cache=$3 mpirun=$4 phase_bfs=$5
export PZC_CACHE_DIR=$cache
mkdir -p "$cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case_name): $*"; exit 1; }
# The MPI runs: skipped without mpirun or a pzc built with MPI.
need_mpi() {
    [ -n "$mpirun" ] && [ -x "$mpirun" ] || { echo "SKIP: no mpirun"; exit 77; }
    "$pzc" enumerate puzzles/cube2.pz --whole --mpi --max-depth 0 > /dev/null 2> "$tmp/probe"
    if grep -q "built without MPI" "$tmp/probe"; then echo "SKIP: pzc was built without MPI"; exit 77; fi
}
# ranks N ARGS...: N ranks of one thread each (unless ARGS say --threads).
ranks() {
    local n=$1; shift
    local threads=(--threads 1); [[ " $* " == *" --threads "* ]] && threads=()
    "$mpirun" --oversubscribe -np "$n" "$pzc" enumerate "$@" --mpi "${threads[@]}"
}
depths() { grep -E '^depth [0-9]+: ' "$1"; }
# The 2x2x2 with DBL fixed, half-turn metric (Wikipedia "Pocket Cube"; the issue's figures).
published_htm="1 9 54 321 1847 9992 50136 227536 870072 1887748 623800 2644"
counts_of() { depths "$1" | sed -E 's/.*: //' | tr '\n' ' ' | sed 's/ $//'; }
per_state() { sed -nE 's/^time: .*, ([0-9.]+) bytes per state$/\1/p' "$1"; }  # exchanged per state

case $case_name in
cube2)
    "$pzc" enumerate puzzles/cube2.pz --whole > "$tmp/out" 2> "$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
    [ "$(counts_of "$tmp/out")" = "$published_htm" ] || fail "distribution: $(counts_of "$tmp/out")"
    grep -qx "states: 3674160 (as the analysis predicts)" "$tmp/out" || fail "$(cat "$tmp/out")"
    grep -qx "maximum distance: 11 (2644 states)" "$tmp/out" || fail "$(cat "$tmp/out")"
    # Replicated by default where it fits (note [replicated spaces]); the
    # partitioned layout's one slice gives the same, and so do 3 threads
    # marking in bitmaps of their own (note [marks per thread]) and sharing
    # one (no room for theirs: 3 bitmaps of 10.5 MiB fit 40M, 5 do not).
    grep -qx "layout: replicated" "$tmp/out" || fail "$(tail -2 "$tmp/out")"
    for run in "--layout partitioned" "--threads 3" "--threads 3 --memory 40M"; do
        "$pzc" enumerate puzzles/cube2.pz --whole $run > "$tmp/other" || fail "$run: exit $?"
        [ "$(counts_of "$tmp/other")" = "$published_htm" ] || fail "$run: $(counts_of "$tmp/other")"
    done
    grep -qx "layout: partitioned" <("$pzc" enumerate puzzles/cube2.pz --whole --layout partitioned) || fail "not partitioned"
    # JSON, and threads do not change a count.
    "$pzc" enumerate puzzles/cube2.pz --whole --json --threads 1 > "$tmp/json" || fail "json: exit $?"
    python3 - "$tmp/json" "$published_htm" <<'PY' || fail "json: $(cat "$tmp/json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["depths"] == [int(x) for x in sys.argv[2].split()], r["depths"]
assert r["states"] == 3674160 and r["maximum"] == 11 and r["complete"] and r["ranks"] == 1 and r["threads"] == 1, r
assert r["layout"] == "replicated", r
PY
    ;;
cube2-ranks)
    need_mpi
    for n in 1 2 4; do
        ranks $n puzzles/cube2.pz --whole > "$tmp/out$n" 2> "$tmp/err$n" || fail "$n ranks: exit $?: $(cat "$tmp/err$n")"
        [ "$(counts_of "$tmp/out$n")" = "$published_htm" ] || fail "$n ranks: $(counts_of "$tmp/out$n")"
        grep -q "^cube2 whole puzzle: .* $n rank(s) x 1 thread(s)" "$tmp/out$n" || fail "$n ranks: $(head -1 "$tmp/out$n")"
        grep -qx "states: 3674160 (as the analysis predicts)" "$tmp/out$n" || fail "$n ranks: $(cat "$tmp/out$n")"
    done
    # Ranks exchange: some bytes with 2 and 4 ranks, none with 1. Several
    # ranks hold the space replicated by default (note [replicated spaces]
    # in pz/enumerate/replicated_bfs.hpp); partitioned, the same counts and
    # farthest states.
    grep -q "exchanged 0 bytes" "$tmp/out1" || fail "1 rank exchanged: $(tail -2 "$tmp/out1")"
    grep -q "exchanged [0-9.]* MiB" "$tmp/out4" || fail "4 ranks: $(tail -2 "$tmp/out4")"
    grep -qx "layout: replicated" "$tmp/out4" || fail "4 ranks, layout: $(tail -2 "$tmp/out4")"
    "$pzc" enumerate puzzles/cube2.pz --whole --farthest 4 > "$tmp/one" || fail "one process: exit $?"
    for n in 2 4; do
        for layout in partitioned replicated; do
            ranks $n puzzles/cube2.pz --whole --farthest 4 --layout $layout > "$tmp/$layout$n" 2> "$tmp/err" \
                || fail "$n ranks $layout: exit $?: $(cat "$tmp/err")"
            grep -qx "layout: $layout" "$tmp/$layout$n" || fail "$n ranks $layout: $(tail -2 "$tmp/$layout$n")"
            diff <(grep -E "^(depth|states|maximum|farthest)" "$tmp/one") \
                <(grep -E "^(depth|states|maximum|farthest)" "$tmp/$layout$n") || fail "$n ranks $layout differ from one process"
        done
        # Partitioned, children go plain on one machine (auto), packed when
        # asked (note [packed children]): the same answers in fewer bytes.
        grep -qx "exchange: plain" "$tmp/partitioned$n" || fail "$n ranks: $(tail -3 "$tmp/partitioned$n")"
        ranks $n puzzles/cube2.pz --whole --farthest 4 --layout partitioned --exchange packed > "$tmp/packed$n" 2> "$tmp/err" \
            || fail "$n ranks packed: exit $?: $(cat "$tmp/err")"
        grep -qx "exchange: packed" "$tmp/packed$n" || fail "$n ranks packed: $(tail -3 "$tmp/packed$n")"
        diff <(grep -E "^(depth|states|maximum|farthest)" "$tmp/one") \
            <(grep -E "^(depth|states|maximum|farthest)" "$tmp/packed$n") || fail "$n ranks packed differ from one process"
        awk -v packed="$(per_state "$tmp/packed$n")" -v plain="$(per_state "$tmp/partitioned$n")" \
            'BEGIN { exit !(packed > 0 && packed * 3 < plain) }' \
            || fail "$n ranks: packed $(per_state "$tmp/packed$n") bytes per state, plain $(per_state "$tmp/partitioned$n")"
    done
    ;;
cube2-qtm)
    "$pzc" enumerate puzzles/cube2_qtm.pz --whole > "$tmp/out" 2> "$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
    grep -qx "maximum distance: 14 (276 states)" "$tmp/out" || fail "$(cat "$tmp/out")"
    grep -qx "states: 3674160 (as the analysis predicts)" "$tmp/out" || fail "$(cat "$tmp/out")"
    ;;
pyraminx)
    # Pyraminx without tips: 933,120 states (half the coordinate's values: edge parity).
    "$pzc" enumerate puzzles/pyraminx.pz --whole > "$tmp/one" || fail "one process: exit $?"
    grep -q "^pyraminx whole puzzle: 1866240 values" "$tmp/one" || fail "$(head -1 "$tmp/one")"
    grep -qx "states: 933120 (as the analysis predicts)" "$tmp/one" || fail "$(cat "$tmp/one")"
    grep -qx "maximum distance: 11 (32 states)" "$tmp/one" || fail "$(cat "$tmp/one")"
    need_mpi
    ranks 3 puzzles/pyraminx.pz --pattern all > "$tmp/three" || fail "3 ranks: exit $?"
    [ "$(counts_of "$tmp/one")" = "$(counts_of "$tmp/three")" ] || fail "3 ranks: $(counts_of "$tmp/three")"
    ;;
eight)
    # The 8-puzzle (blank top left): 181,440 states, 31 moves at most, 2 such
    # states, each solved back in 31; 3 ranks agree with one process.
    "$pzc" enumerate puzzles/eight.pz --whole --farthest 5 > "$tmp/one" 2> "$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
    grep -qx "states: 181440 (as the analysis predicts)" "$tmp/one" || fail "$(cat "$tmp/one")"
    grep -qx "maximum distance: 31 (2 states)" "$tmp/one" || fail "$(cat "$tmp/one")"
    [ "$(grep -c '^farthest: ' "$tmp/one")" = 2 ] || fail "$(cat "$tmp/one")"
    grep '^farthest: ' "$tmp/one" | sed -E 's/^farthest: index [0-9]+: //' | while read -r state; do
        "$pzc" solve puzzles/eight.pz --state "$state" --json > "$tmp/sol" || fail "solve '$state': exit $?"
        grep -q '"length": 31' "$tmp/sol" || fail "state '$state' is not 31 moves away: $(cat "$tmp/sol")"
    done || exit 1
    expect_error_rc() { "$pzc" enumerate "$@" > /dev/null 2> "$tmp/err"; echo $?; }
    [ "$(expect_error_rc puzzles/eight.pz --pattern p)" = 2 ] || fail "--pattern on an n-puzzle accepted"
    grep -q "enumerate its whole board (--whole)" "$tmp/err" || fail "$(cat "$tmp/err")"
    [ "$(expect_error_rc puzzles/rushhour.pz --whole)" = 1 ] || fail "rush hour accepted"
    grep -q "counts n-puzzles" "$tmp/err" || fail "$(cat "$tmp/err")"
    need_mpi
    ranks 3 puzzles/eight.pz --whole > "$tmp/three" || fail "3 ranks: exit $?"
    [ "$(counts_of "$tmp/one")" = "$(counts_of "$tmp/three")" ] || fail "3 ranks: $(counts_of "$tmp/three")"
    ;;
coset)
    # A subgroup's cosets (note [coset spaces] in pz/enumerate/coset_space.hpp)
    # against phase_bfs, a breadth-first search over group elements keyed by
    # cosets (no coordinates, move tables or ranks): the 2x2x2 corners' tetrads,
    # by --coset and as a coset pattern's space (--pattern).
    puzzle=tests/puzzles/cube2_tetrads.pz
    "$pzc" enumerate $puzzle --coset tetrads --farthest 3 > "$tmp/tetrads" 2> "$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
    grep -q "^cube2_tetrads cosets of tetrads: 153090 values" "$tmp/tetrads" || fail "$(head -1 "$tmp/tetrads")"
    grep -qx "states: 153090 (as the analysis predicts)" "$tmp/tetrads" || fail "$(cat "$tmp/tetrads")"
    "$phase_bfs" $puzzle tetrad_coset | sed 's/^phase 1: //; s/[0-9]*://g' > "$tmp/want" || fail "phase_bfs"
    [ "$(counts_of "$tmp/tetrads")" = "$(cat "$tmp/want")" ] || fail "tetrads: $(counts_of "$tmp/tetrads"), want $(cat "$tmp/want")"
    "$pzc" enumerate $puzzle --pattern tetrad_coset > "$tmp/pattern" || fail "pattern: exit $?"
    [ "$(counts_of "$tmp/pattern")" = "$(cat "$tmp/want")" ] || fail "tetrad_coset: $(counts_of "$tmp/pattern")"
    # A state of each farthest coset (9 moves from the subgroup) is a state
    # pzc reads, at least 9 moves from solved.
    [ "$(grep -c '^farthest: ' "$tmp/tetrads")" = 3 ] || fail "$(cat "$tmp/tetrads")"
    grep '^farthest: ' "$tmp/tetrads" | sed -E 's/^farthest: index [0-9]+: //' > "$tmp/states"
    while read -r state; do
        "$pzc" solve $puzzle --state "$state" --json > "$tmp/sol" || fail "solve '$state': exit $?"
        length=$(sed -n 's/.*"length": \([0-9]*\).*/\1/p' "$tmp/sol")
        [ "${length:-0}" -ge 9 ] || fail "state '$state' of a farthest coset is $length moves from solved"
    done < "$tmp/states"
    # Kociemba's phase-1 coordinate two ways: the edges' domino cosets
    # (--coset) and the flip x slice pattern give the same counts.
    "$pzc" enumerate tests/puzzles/cube_edges.pz --coset domino > "$tmp/domino" || fail "domino: exit $?"
    "$pzc" enumerate tests/puzzles/cube_edges.pz --pattern flipslice > "$tmp/flipslice" || fail "flipslice: exit $?"
    [ "$(counts_of "$tmp/domino")" = "1 4 50 532 4804 41832 238263 555636 172314 324" ] || fail "domino: $(counts_of "$tmp/domino")"
    [ "$(counts_of "$tmp/domino")" = "$(counts_of "$tmp/flipslice")" ] || fail "flipslice: $(counts_of "$tmp/flipslice")"
    ;;
coset-ranks)
    need_mpi
    # 1 process, 3 ranks, and 2 ranks stopped and resumed, over the domino cosets.
    "$pzc" enumerate tests/puzzles/cube_edges.pz --coset domino > "$tmp/one" || fail "one process: exit $?"
    ranks 3 tests/puzzles/cube_edges.pz --coset domino > "$tmp/three" 2> "$tmp/err" || fail "3 ranks: exit $?: $(cat "$tmp/err")"
    [ "$(counts_of "$tmp/one")" = "$(counts_of "$tmp/three")" ] || fail "3 ranks: $(counts_of "$tmp/three")"
    grep -qx "states: 1013760 (as the analysis predicts)" "$tmp/three" || fail "$(cat "$tmp/three")"
    grep -qx "layout: replicated" "$tmp/three" || fail "$(tail -2 "$tmp/three")"
    ranks 3 tests/puzzles/cube_edges.pz --coset domino --layout partitioned > "$tmp/sliced" || fail "partitioned: exit $?"
    [ "$(counts_of "$tmp/one")" = "$(counts_of "$tmp/sliced")" ] || fail "partitioned: $(counts_of "$tmp/sliced")"
    ranks 2 tests/puzzles/cube_edges.pz --coset domino --checkpoint "$tmp/ck" --max-depth 6 > /dev/null || fail "part: exit $?"
    ranks 2 tests/puzzles/cube_edges.pz --coset domino --checkpoint "$tmp/ck" --resume > "$tmp/rest" || fail "resume: exit $?"
    grep -q "resumed after depth 6" "$tmp/rest" || fail "$(head -1 "$tmp/rest")"
    [ "$(counts_of "$tmp/one")" = "$(counts_of "$tmp/rest")" ] || fail "resumed: $(counts_of "$tmp/rest")"
    ;;
coset-table)
    need_mpi
    # A coset pattern's table (stored by symmetry classes) built by the
    # enumeration (note [coset class spaces] in pz/enumerate/coset_classes.hpp)
    # is byte for byte the solver's: the tetrads by all 48 symmetries (3393
    # entries, one process), and by F2 alone (83,106 entries over 2 blocks,
    # some classes with a self-symmetry) on 3 ranks, which exchange.
    puzzle=tests/puzzles/cube2_tetrads.pz
    grep -v "symmetry S_URF\|symmetry S_U4\|symmetry S_LR2" $puzzle > "$tmp/f2.pz"
    for p in $puzzle "$tmp/f2.pz"; do
        "$pzc" solve $p --scramble "R U F" > /dev/null || fail "solve $p: exit $?"
    done
    "$pzc" enumerate $puzzle --pattern tetrad_coset --table --table-dir "$tmp/one" > "$tmp/out" 2> "$tmp/err" \
        || fail "one process: exit $?: $(cat "$tmp/err")"
    grep -qx "states: 3393" "$tmp/out" || fail "$(cat "$tmp/out")"
    ranks 3 "$tmp/f2.pz" --pattern tetrad_coset --table --table-dir "$tmp/three" > "$tmp/out3" 2> "$tmp/err" \
        || fail "3 ranks: exit $?: $(cat "$tmp/err")"
    grep -qx "states: 83106" "$tmp/out3" || fail "$(cat "$tmp/out3")"
    grep -q "exchanged 0 bytes" "$tmp/out3" && fail "3 ranks exchanged nothing: $(tail -2 "$tmp/out3")"
    [ "$(ls "$tmp"/one/*.pzt "$tmp"/three/*.pzt | wc -l)" = 2 ] || fail "tables: $(ls "$tmp/one" "$tmp/three")"
    for f in "$tmp"/one/*.pzt "$tmp"/three/*.pzt; do
        cmp "$f" "$cache/tables/$(basename "$f")" || fail "$(basename "$f") differs from the solver's"
    done
    # Children with their images sent packed (note [packed children]), 2 threads a rank.
    ranks 3 "$tmp/f2.pz" --pattern tetrad_coset --table --table-dir "$tmp/packed" --exchange packed --threads 2 \
        > "$tmp/outp" 2> "$tmp/err" || fail "3 ranks packed: exit $?: $(cat "$tmp/err")"
    grep -qx "exchange: packed" "$tmp/outp" || fail "$(tail -3 "$tmp/outp")"
    cmp "$tmp"/three/*.pzt "$tmp"/packed/*.pzt || fail "the packed build differs"
    ;;
projected-table)
    need_mpi
    # A projected coset pattern's table (note [projected tables across ranks]
    # in pz/tables/projected_coset.hpp): one process and 3 ranks write the
    # solver's own file byte for byte. The test knobs force the depth-first
    # step (the ranks split its roots; entries beyond it are cut); without
    # them the breadth-first step reaches every key.
    sed 's/optimal tetrad_coset, top;/optimal tetrad_proj;/' tests/puzzles/cube2_tetrads.pz > "$tmp/proj.pz"
    grep -q "optimal tetrad_proj;" "$tmp/proj.pz" || fail "projected variant"
    "$pzc" build "$tmp/proj.pz" -o "$tmp/solver" > /dev/null || fail "build: exit $?"
    for knobs in "PZ_PROJECTED_BFS_CANDIDATES=60 PZ_PROJECTED_DFS_NODES=300" ""; do
        rm -rf "$tmp/solver-tables" "$tmp/one" "$tmp/three"
        env $knobs "$tmp/solver" --tables --table-dir "$tmp/solver-tables" > "$tmp/tables.txt" || fail "--tables ($knobs)"
        want=$(ls "$tmp"/solver-tables/*tetrad_proj*.pzt) || fail "the solver wrote no table"
        env $knobs "$pzc" enumerate "$tmp/proj.pz" --pattern tetrad_proj --table --table-dir "$tmp/one" > "$tmp/out1" 2> "$tmp/err" ||
            fail "one process ($knobs): exit $?: $(cat "$tmp/err")"
        env $knobs "$mpirun" --oversubscribe -np 3 "$pzc" enumerate "$tmp/proj.pz" --pattern tetrad_proj --table --mpi --threads 1 \
            --table-dir "$tmp/three" > "$tmp/out3" 2> "$tmp/err" || fail "3 ranks ($knobs): exit $?: $(cat "$tmp/err")"
        for dir in one three; do
            cmp "$tmp/$dir/$(basename "$want")" "$want" || fail "$dir: not the solver's table ($knobs): $(ls "$tmp/$dir")"
        done
        grep -q "1 rank(s)" "$tmp/out1" && grep -q "3 rank(s) x 1 thread(s)" "$tmp/out3" || fail "$(head -1 "$tmp/out3")"
        [ "$(depths "$tmp/out1")" = "$(depths "$tmp/out3")" ] || fail "depths differ: $(depths "$tmp/out3")"
        grep -q "exchanged 0 bytes" "$tmp/out3" && fail "3 ranks exchanged nothing"
        grep -q "^cube2_tetrads pattern tetrad_proj (projected coset table): [0-9]* entries" "$tmp/out3" || fail "$(head -1 "$tmp/out3")"
        if [ -n "$knobs" ]; then
            grep -q "^exact up to depth [0-9]*: [1-9][0-9]* entries farther, read as" "$tmp/out3" || fail "cut: $(cat "$tmp/out3")"
        else
            grep -qx "every entry exact" "$tmp/out3" || fail "complete: $(cat "$tmp/out3")"
        fi
    done
    # Over the memory budget: the ranks stop together, one of them says why.
    ranks 2 "$tmp/proj.pz" --pattern tetrad_proj --table --memory 200 --table-dir "$tmp/none" > "$tmp/out" 2> "$tmp/err" &&
        fail "a table over --memory was built"
    [ "$(grep -c "needs 768 bytes (896 bytes while built), more than the memory budget of 200 bytes" "$tmp/err")" = 1 ] ||
        fail "memory refusal: $(cat "$tmp/err")"
    # The entries per distance are the table's: their sum is its entry count.
    total=$(depths "$tmp/out3" | awk '{ n += $3 } END { print n }')
    grep -qx "entries: $total" "$tmp/out3" || fail "entries: $total: $(cat "$tmp/out3")"
    ;;
farthest)
    # The states printed at the greatest distance are solved back in exactly that many moves.
    "$pzc" enumerate puzzles/cube2.pz --whole --farthest 3 > "$tmp/out" || fail "exit $?"
    [ "$(grep -c '^farthest: ' "$tmp/out")" = 3 ] || fail "$(cat "$tmp/out")"
    grep '^farthest: ' "$tmp/out" | sed -E 's/^farthest: index [0-9]+: //' > "$tmp/states"
    while read -r state; do
        "$pzc" solve puzzles/cube2.pz --state "$state" --json > "$tmp/sol" || fail "solve '$state': exit $?"
        grep -q '"length": 11' "$tmp/sol" || fail "state '$state' is not 11 moves away: $(cat "$tmp/sol")"
    done < "$tmp/states"
    ;;
table)
    need_mpi
    # The single-process build (pzc solve builds and caches the table).
    "$pzc" solve puzzles/cube2.pz --scramble "R U F" > /dev/null || fail "solve: exit $?"
    built=$(ls "$cache"/tables/cube2-top-*.pzt) || fail "no cached table"
    ranks 4 puzzles/cube2.pz --pattern top --table --table-dir "$tmp/tables" > "$tmp/out" 2> "$tmp/err" \
        || fail "exit $?: $(cat "$tmp/err")"
    cmp "$built" "$tmp/tables/$(basename "$built")" || fail "the distributed table differs from the solver's"
    grep -q "^table: $tmp/tables/$(basename "$built")" "$tmp/out" || fail "$(cat "$tmp/out")"
    grep -qx "layout: replicated" "$tmp/out" || fail "$(cat "$tmp/out")"
    # Partitioned (gathered from the slices: note [streamed tables]), the same bytes.
    ranks 3 puzzles/cube2.pz --pattern top --table --table-dir "$tmp/sliced" --layout partitioned > "$tmp/out" 2> "$tmp/err" \
        || fail "partitioned: exit $?: $(cat "$tmp/err")"
    cmp "$built" "$tmp/sliced/$(basename "$built")" || fail "the partitioned table differs from the solver's"
    # The same with children sent packed (note [packed children]), 2 threads a rank.
    ranks 2 puzzles/cube2.pz --pattern top --table --table-dir "$tmp/packed" --layout partitioned --exchange packed \
        --threads 2 > "$tmp/out" 2> "$tmp/err" || fail "packed: exit $?: $(cat "$tmp/err")"
    grep -qx "exchange: packed" "$tmp/out" || fail "$(tail -3 "$tmp/out")"
    cmp "$built" "$tmp/packed/$(basename "$built")" || fail "the packed table differs from the solver's"
    # The solver loads it as its own: a cache holding only it, and no rebuild.
    mkdir -p "$tmp/cache/tables" && cp "$tmp/tables"/*.pzt "$tmp/cache/tables/"
    cp -rp "$cache/bin" "$tmp/cache/" 2> /dev/null
    PZC_CACHE_DIR=$tmp/cache "$pzc" solve puzzles/cube2.pz --scramble "R U2 F' R" --json > "$tmp/sol" 2> "$tmp/err" \
        || fail "solve with it: exit $?: $(cat "$tmp/err")"
    grep -q '"length": 4' "$tmp/sol" || fail "$(cat "$tmp/sol")"
    grep -q "rebuilding" "$tmp/err" && fail "the solver rebuilt the table: $(cat "$tmp/err")"
    [ -e "$tmp/cache/tables/$(basename "$built").used" ] || fail "the solver did not load the table"
    ;;
backward)
    need_mpi
    # A dense space (every value a state) of 88 blocks: its last levels run
    # backwards, across ranks by queries (backwardAcross). Its table against
    # the solver's build, and its counts on 1 process, 2 and 3 ranks. The
    # table is gathered in 4 windows of 8 local blocks (note [streamed
    # tables]), the last one cut at the table's end, and rank 0 never holds
    # it whole: 2 MiB per rank is enough for a 2.75 MiB table (slice 960 KiB,
    # windows 768 KiB).
    sed 's/^  solver optimal { optimal top_rows; }/&\n  pattern six { tiles {0 1 2 4 5 6}: positions; }\n  solver small { optimal six; }/' \
        puzzles/slide4.pz > "$tmp/slide4s.pz"
    grep -q "solver small" "$tmp/slide4s.pz" || fail "could not derive the definition"
    "$pzc" solve "$tmp/slide4s.pz" --solver small --scramble "R1 C2" > /dev/null || fail "solve: exit $?"
    built=$(ls "$cache"/tables/slide4-six-*.pzt) || fail "no cached table"
    ranks 3 "$tmp/slide4s.pz" --pattern six --table --table-dir "$tmp/tables" --threads 2 --memory 2M > "$tmp/out" \
        || fail "table: exit $?"
    cmp "$built" "$tmp/tables/$(basename "$built")" || fail "the table built by queries differs from the solver's"
    # The queries packed (note [packed queries] in bfs.hpp), 2 threads a
    # rank: the same table, in fewer bytes.
    ranks 3 "$tmp/slide4s.pz" --pattern six --table --table-dir "$tmp/tablesp" --threads 2 --memory 2M \
        --layout partitioned --exchange packed > "$tmp/outp" || fail "packed table: exit $?"
    grep -qx "exchange: packed" "$tmp/outp" || fail "$(tail -3 "$tmp/outp")"
    cmp "$built" "$tmp/tablesp/$(basename "$built")" || fail "the table built by packed queries differs from the solver's"
    awk -v packed="$(per_state "$tmp/outp")" -v plain="$(per_state "$tmp/out")" 'BEGIN { exit !(packed > 0 && packed * 2 < plain) }' \
        || fail "packed $(per_state "$tmp/outp") bytes per state, plain $(per_state "$tmp/out")"
    # Rank 0 alone over its budget (its windows on top of its slice): every
    # rank stops, none waits for it.
    ranks 3 "$tmp/slide4s.pz" --pattern six --table --table-dir "$tmp/tables2" --memory 1600K > "$tmp/out" 2> "$tmp/err"
    [ $? = 1 ] || fail "rank 0 over its budget: expected exit 1: $(cat "$tmp/err")"
    grep -q "needs 1.7 MiB on rank 0 (768.0 KiB of it to gather the table) with 3 rank(s), more than the memory budget of 1.6 MiB" "$tmp/err" \
        || fail "rank 0 over its budget: $(cat "$tmp/err")"
    "$pzc" enumerate "$tmp/slide4s.pz" --pattern six > "$tmp/one" || fail "one process: exit $?"
    grep -qx "states: 5765760" "$tmp/one" || fail "$(cat "$tmp/one")"
    for n in 2 3; do
        ranks $n "$tmp/slide4s.pz" --pattern six --layout partitioned > "$tmp/out$n" || fail "$n ranks: exit $?"
        [ "$(counts_of "$tmp/one")" = "$(counts_of "$tmp/out$n")" ] || fail "$n ranks: $(counts_of "$tmp/out$n")"
    done
    # Replicated, the backward levels look their parents up in each rank's
    # whole frontier: the same counts, and the same table with 2 threads.
    ranks 3 "$tmp/slide4s.pz" --pattern six > "$tmp/rep" || fail "replicated: exit $?"
    grep -qx "layout: replicated" "$tmp/rep" || fail "$(tail -2 "$tmp/rep")"
    [ "$(counts_of "$tmp/one")" = "$(counts_of "$tmp/rep")" ] || fail "replicated: $(counts_of "$tmp/rep")"
    ranks 2 "$tmp/slide4s.pz" --pattern six --table --table-dir "$tmp/tables3" --threads 2 --layout replicated > /dev/null \
        || fail "replicated table: exit $?"
    cmp "$built" "$tmp/tables3/$(basename "$built")" || fail "the replicated table differs from the solver's"
    # Asked for and over the budget: refused on every rank, not split instead.
    ranks 2 "$tmp/slide4s.pz" --pattern six --layout replicated --memory 2M > /dev/null 2> "$tmp/err"
    [ $? = 1 ] || fail "replicated over its budget: expected exit 1: $(cat "$tmp/err")"
    grep -q "needs 2.1 MiB per rank replicated, more than the memory budget of 2.0 MiB (--memory; or --layout partitioned" "$tmp/err" \
        || fail "replicated over its budget: $(cat "$tmp/err")"
    [ "$(grep -c error "$tmp/err")" = 1 ] || fail "one rank says why: $(cat "$tmp/err")"
    ;;
checkpoint)
    need_mpi
    ranks 2 puzzles/cube2.pz --whole > "$tmp/full" || fail "full run: exit $?"
    # Stop after depth 7 with checkpoints, then go on: the same counts.
    ranks 2 puzzles/cube2.pz --whole --checkpoint "$tmp/ck" --max-depth 7 > "$tmp/part" || fail "part: exit $?"
    grep -qx "stopped after depth 7 (--max-depth)" "$tmp/part" || fail "$(cat "$tmp/part")"
    [ "$(ls "$tmp/ck" | wc -l)" = 4 ] || fail "two levels per rank expected: $(ls "$tmp/ck")"
    cp -r "$tmp/ck" "$tmp/ck2"
    ranks 2 puzzles/cube2.pz --whole --checkpoint "$tmp/ck" --resume > "$tmp/rest" 2> "$tmp/err" || fail "resume: $(cat "$tmp/err")"
    grep -q "resumed after depth 7" "$tmp/rest" || fail "$(head -1 "$tmp/rest")"
    [ "$(counts_of "$tmp/full")" = "$(counts_of "$tmp/rest")" ] || fail "resumed counts: $(counts_of "$tmp/rest")"
    # Another number of ranks: refused, naming the files.
    ranks 3 puzzles/cube2.pz --whole --checkpoint "$tmp/ck2" --resume > /dev/null 2> "$tmp/err" && fail "3 ranks resumed 2 ranks' files"
    grep -q "no checkpoint of whole puzzle by 3 rank(s) .*resume with the number of ranks that wrote it" "$tmp/err" || fail "$(cat "$tmp/err")"
    # A flipped byte in a slice: refused.
    f=$(ls "$tmp"/ck2/*rank-1-of-2.7)
    printf '\x55' | dd of="$f" bs=1 seek=5000 conv=notrunc status=none
    ranks 2 puzzles/cube2.pz --whole --checkpoint "$tmp/ck2" --resume > /dev/null 2> "$tmp/err" && fail "damaged file accepted"
    grep -q "cannot resume: .*rank-1-of-2.7: checksum mismatch in the data" "$tmp/err" || fail "$(cat "$tmp/err")"
    # One process resumes its own checkpoints the same way.
    "$pzc" enumerate puzzles/cube2.pz --whole --checkpoint "$tmp/one" --max-depth 9 > /dev/null || fail "one: exit $?"
    "$pzc" enumerate puzzles/cube2.pz --whole --checkpoint "$tmp/one" --resume > "$tmp/one.out" || fail "one resume: exit $?"
    [ "$(counts_of "$tmp/full")" = "$(counts_of "$tmp/one.out")" ] || fail "one process resumed: $(counts_of "$tmp/one.out")"
    ;;
rank-dies)
    need_mpi
    # Rank 1 killed (SIGKILL) right after its checkpoint of depth 6 (the
    # test's knob PZ_ENUMERATE_KILL=RANK:DEPTH): the job ends with a
    # message naming the rank, and --resume finishes with the published counts.
    PZ_ENUMERATE_KILL=1:6 ranks 2 puzzles/cube2.pz --whole --checkpoint "$tmp/ck" > "$tmp/out" 2> "$tmp/err" \
        && fail "the job went on without rank 1: $(cat "$tmp/out")"
    grep -q "rank 1 .*signal 9" "$tmp/err" || fail "no message naming the lost rank: $(cat "$tmp/err")"
    grep -q "^states:" "$tmp/out" && fail "a distribution printed without rank 1: $(cat "$tmp/out")"
    ranks 2 puzzles/cube2.pz --whole --checkpoint "$tmp/ck" --resume > "$tmp/rest" 2> "$tmp/err" || fail "resume: $(cat "$tmp/err")"
    grep -q "resumed after depth 6" "$tmp/rest" || fail "$(head -1 "$tmp/rest")"
    [ "$(counts_of "$tmp/rest")" = "$published_htm" ] || fail "resumed counts: $(counts_of "$tmp/rest")"
    grep -qx "states: 3674160 (as the analysis predicts)" "$tmp/rest" || fail "$(cat "$tmp/rest")"
    ;;
bad-input)
    expect_error() {  # expect_error CODE MESSAGE ARGS...
        local code=$1 msg=$2; shift 2
        "$pzc" enumerate "$@" > "$tmp/out" 2> "$tmp/err"
        local rc=$?
        [ "$rc" = "$code" ] || fail "$*: exit $rc, $code expected: $(cat "$tmp/err")"
        grep -q -- "$msg" "$tmp/err" || fail "$*: no '$msg': $(cat "$tmp/err")"
    }
    expect_error 2 "say which space" puzzles/cube2.pz
    expect_error 2 "declares no pattern 'nope' (declared: top, bottom)" puzzles/cube2.pz --pattern nope
    expect_error 2 "--whole and --pattern cannot be used together" puzzles/cube2.pz --whole --pattern top
    expect_error 2 "cube2 declares no subgroup 'h' (declared: none)" puzzles/cube2.pz --coset h
    expect_error 2 "declares no subgroup 'G2' (declared: tetrads, layers)" tests/puzzles/cube2_tetrads.pz --coset G2
    expect_error 2 "'tetrad_proj' is a projected coset pattern .* --coset tetrads" tests/puzzles/cube2_tetrads.pz --pattern tetrad_proj
    expect_error 2 "--table needs --pattern" tests/puzzles/cube2_tetrads.pz --coset tetrads --table
    expect_error 2 "not built level by level: --checkpoint" tests/puzzles/cube2_tetrads.pz --pattern tetrad_proj --table --farthest 2
    expect_error 2 "--whole and --coset cannot be used together" puzzles/cube2.pz --whole --coset h
    # A subgroup without an exact coset coordinate: refused at its declaration.
    sed 's/^}$/  subgroup two_gen = <R, U>;\n}/' puzzles/cube2.pz > "$tmp/two_gen.pz"
    line=$(grep -n "subgroup two_gen" "$tmp/two_gen.pz" | cut -d: -f1)
    expect_error 1 "two_gen.pz:$line:3: error: .*no coset coordinate for subgroup 'two_gen'" "$tmp/two_gen.pz" --coset two_gen
    expect_error 2 "--table needs --pattern" puzzles/cube2.pz --whole --table
    expect_error 2 "--resume needs --checkpoint" puzzles/cube2.pz --whole --resume
    expect_error 2 "--layout is auto, replicated or partitioned, not 'split'" puzzles/cube2.pz --whole --layout split
    expect_error 2 "--layout replicated takes a pattern's space, the whole puzzle or a subgroup's cosets, not a coset pattern's classes" tests/puzzles/cube2_tetrads.pz --pattern tetrad_coset --table --layout replicated
    expect_error 2 "--layout replicated keeps no checkpoints" puzzles/cube2.pz --whole --layout replicated --checkpoint "$tmp/ck"
    expect_error 2 "--max-depth, --layout and --exchange do not apply" tests/puzzles/cube2_tetrads.pz --pattern tetrad_proj --table --layout partitioned
    expect_error 2 "--max-depth, --layout and --exchange do not apply" tests/puzzles/cube2_tetrads.pz --pattern tetrad_proj --table --exchange packed
    expect_error 2 "--exchange is auto, packed or plain, not 'zip'" puzzles/cube2.pz --whole --exchange zip
    expect_error 2 "--exchange chooses how the partitioned layout sends children: not with --layout replicated" \
        puzzles/cube2.pz --whole --layout replicated --exchange packed
    expect_error 2 "--exchange packed chooses how the partitioned layout sends children; this run is replicated" \
        puzzles/cube2.pz --whole --exchange packed
    expect_error 1 "needs 31.5 MiB per rank replicated, more than the memory budget of 1.0 MiB" \
        puzzles/cube2.pz --whole --memory 1M --layout replicated
    expect_error 2 "--max-depth would leave it unfinished" puzzles/cube2.pz --pattern top --table --max-depth 3
    expect_error 1 "needs 21.0 MiB per rank with 1 rank(s), more than the memory budget of 1.0 MiB" \
        puzzles/cube2.pz --whole --memory 1M
    expect_error 1 "is a grid-actor puzzle" puzzles/anima.pz --whole
    ;;
*) fail "unknown case" ;;
esac
echo "PASS ($case_name)"
