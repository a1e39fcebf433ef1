#!/usr/bin/env bash
# e2e.sh CASE PZC CACHEDIR [BFS [PUZZLE]] — one end-to-end case; see CMakeLists.txt.
set -uo pipefail
case_name=$1 pzc=$2 cache=$3 bfs=${4:-}
puzzle=${5:-tests/puzzles/loopover3.pz}
export PZC_CACHE_DIR=$cache
mkdir -p "$cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# contains TEXT GREP-ARGS...: grep over a string without a pipe; under
# pipefail, `echo "$x" | grep -q` fails when grep exits before echo is done.
contains() { local text=$1; shift; grep "$@" <<< "$text"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_error() {  # expect_error PATTERN -- command...: non-zero exit and PATTERN on stderr
    local pattern=$1; shift 2
    "$@" > "$tmp/out" 2> "$tmp/err" && fail "expected failure: $*"
    grep -q -- "$pattern" "$tmp/err" || { cat "$tmp/err" >&2; fail "stderr lacks '$pattern': $*"; }
}

# fake_solver BIN SCRIPT-BODY: replace the cached solver BIN by a shell script
# (it reads its input, then runs SCRIPT-BODY) with a valid build stamp
# (note [build stamps]), so pzc runs it: what it prints must not be believed.
fake_solver() {
    printf '#!/bin/sh\ncat > /dev/null\n%s\n' "$2" > "$1"
    python3 "$(dirname "$0")/build_stamp.py" "$1"
}

# check_lengths SOLVER STATES: the solver's solution lengths for the lines
# "<depth> ; <state>" of STATES equal <depth> (solutions are replayed by the
# solver itself, so a length equal to the true distance means optimal). The
# solver answers in the JSON lines of note [result protocol], in input order.
check_lengths() {
    local solver=$1 states=$2
    sed 's/^[0-9]* ; //' "$states" | "$solver" --stdin --machine --table-dir "$tmp/tables" > "$tmp/solved" || fail "solver failed"
    [ "$(wc -l < "$tmp/solved")" = "$(wc -l < "$states")" ] || fail "expected one result per state"
    sed 's/.*"moves": \[\([0-9, ]*\)\].*/\1/' "$tmp/solved" | paste -d '|' "$states" - | awk -F'|' '
        { split($1, want, " ; "); n = split($2, m, ", ")
          if (n != want[1]) { print "state", want[2], "distance", want[1], "solver length", n; bad = 1 }
          count[want[1]]++ }
        END { for (d in count) printf "depth %s: %d states\n", d, count[d]; exit bad }' || fail "non-optimal lengths"
}

# check_pzc_lengths OPTION LINES [ARGS...]: `pzc solve $puzzle OPTION <x> ... --json ARGS`
# for the lines "<depth> ; <x>" of LINES (x a state or a scramble); every
# answer must claim optimality and have length <depth>, the BFS distance.
check_pzc_lengths() {
    local option=$1 lines=$2 args=()
    shift 2
    while IFS= read -r line; do args+=("$option" "${line#* ; }"); done < "$lines"
    "$pzc" solve "$puzzle" "${args[@]}" --json "$@" > "$tmp/answers" 2> "$tmp/err" || { cat "$tmp/err" >&2; fail "pzc solve $option failed"; }
    [ "$(wc -l < "$tmp/answers")" = "$(wc -l < "$lines")" ] || fail "expected $(wc -l < "$lines") answers, got $(wc -l < "$tmp/answers")"
    paste -d '|' "$lines" "$tmp/answers" | awk -F'|' '
        { split($1, want, " ; "); got = $2; sub(/.*"length": /, "", got); sub(/,.*/, "", got)
          if ($2 !~ /"optimal": true/ || got != want[1] + 0) { print "BFS distance", want[1], "for", want[2], "but pzc says", $2; bad = 1 }
          count[want[1] + 0]++; if (want[1] + 0 > max) max = want[1] + 0 }
        END { printf "%s: %d answers, by distance:", opt, NR; for (d = 0; d <= max; d++) printf " %d", count[d]; print ""; exit bad }' opt="$option" || fail "optimal claims that BFS refutes ($option)"
}

case $case_name in
optimal-bfs)
    # Optimal claims against BFS distances to solved (IR element algebra
    # only): uniform random states plus the deepest ones, and random
    # scrambles over all of the puzzle's moves (uncounted powers included).
    # Their own cache: other cases pick "the" cached binary out of $cache/bin.
    export PZC_CACHE_DIR=$cache/optimal-bfs
    mkdir -p "$PZC_CACHE_DIR"
    [ -x "$bfs" ] || fail "no bfs_distances binary"
    "$bfs" "$puzzle" --sample 200 11 --scrambles 60 3 12 --scrambles 60 25 13 > "$tmp/bfs" || fail "bfs"
    sed -n 's/^state //p' "$tmp/bfs" > "$tmp/states"
    check_pzc_lengths --state "$tmp/states"
    sed -n 's/^scramble //p' "$tmp/bfs" | head -60 > "$tmp/short"
    check_pzc_lengths --scramble "$tmp/short"
    sed -n 's/^scramble //p' "$tmp/bfs" | tail -n +61 > "$tmp/long"
    check_pzc_lengths --scramble "$tmp/long"
    # Split from the first iteration (note [parallel IDA*]): still the BFS
    # distances, and the very same moves on 1 and 2 threads.
    solutions() { sed 's/.*"solution": "\([^"]*\)".*/\1/' "$1"; }
    for lines in states long; do
        option=--scramble; [ $lines = states ] && option=--state
        PZ_PARALLEL_FROM_NODES=0 check_pzc_lengths $option "$tmp/$lines" --threads 1
        solutions "$tmp/answers" > "$tmp/one"
        PZ_PARALLEL_FROM_NODES=0 check_pzc_lengths $option "$tmp/$lines" --threads 2
        solutions "$tmp/answers" > "$tmp/two"
        cmp -s "$tmp/one" "$tmp/two" || { diff "$tmp/one" "$tmp/two" | head >&2; fail "2 threads answer differently from 1 ($lines)"; }
    done
    ;;
optimal-solvers)
    # Two declared optimal solvers (note [search plans]): each is its own
    # plan, binary and table; both answer the BFS distances, and each
    # searches its own table (the perfect one visits far fewer nodes). A
    # cache of its own, so that its binaries can be counted.
    export PZC_CACHE_DIR=$tmp/cache
    mkdir -p "$PZC_CACHE_DIR"
    [ -x "$bfs" ] || fail "no bfs_distances binary"
    "$bfs" "$puzzle" --sample 60 11 > "$tmp/bfs" || fail "bfs"
    sed -n 's/^state //p' "$tmp/bfs" > "$tmp/states"
    nodes() { sed 's/.*"nodes": \([0-9]*\).*/\1/' "$tmp/answers" | awk '{ n += $1 } END { print n }'; }
    check_pzc_lengths --state "$tmp/states"
    grep -q '"solver"' "$tmp/answers" && fail "the default solver's answers name a solver"
    weak=$(nodes)
    check_pzc_lengths --state "$tmp/states" --solver exact
    [ "$(grep -c '"solver": "exact"' "$tmp/answers")" = "$(wc -l < "$tmp/states")" ] || fail "answers do not name solver exact"
    exact=$(nodes)
    [ "$exact" -lt "$weak" ] || fail "solver exact visited $exact nodes, the default $weak: not its own table"
    # Naming the default solver is the default build (one binary, no "solver" field).
    check_pzc_lengths --state "$tmp/states" --solver weak
    grep -q '"solver"' "$tmp/answers" && fail "--solver weak (the default) names a solver"
    [ "$(ls "$PZC_CACHE_DIR/bin" | grep -c '\.stamp$')" = 2 ] || { ls "$PZC_CACHE_DIR/bin" >&2; fail "expected two solver binaries"; }
    out=$("$pzc" solve $puzzle --scramble "R1 C2 R3" --solver exact) || fail "text solve"
    contains "$out" -q "3 moves (optimal, exact)" || fail "text output does not name the solver: $out"
    # inspect and build follow --solver.
    "$pzc" inspect $puzzle --solver exact | grep -q "^  all: 362880 values" || fail "inspect --solver exact lacks its pattern"
    "$pzc" inspect $puzzle | grep -q "^  top_row: 504 values" || fail "inspect lacks the default solver's pattern"
    "$pzc" inspect $puzzle --solver exact | grep -q "^  top_row" && fail "inspect --solver exact shows the default's pattern"
    "$pzc" build $puzzle --solver exact -o "$tmp/exact" > /dev/null || fail "build --solver exact"
    out=$("$tmp/exact" --scramble "R1 C2 R3" --json --table-dir "$tmp/tables") || fail "run the built solver"
    contains "$out" -q '"length": 3' || fail "built solver: $out"
    expect_error "declares no solver 'nope'" -- "$pzc" build $puzzle --solver nope -o "$tmp/nope"
    expect_error "declares no solver 'nope'" -- "$pzc" inspect $puzzle --solver nope
    # note [memory choice]: with --memory and no --solver, the solver with the
    # largest tables that fit (weak: 256 bytes, exact: 181,440 bytes).
    "$pzc" check $puzzle | grep -q "exact: optimal, heuristic max of all, tables 181440 bytes" || fail "check lacks the solver's table bytes"
    for budget in 1M 181440 200K; do
        out=$("$pzc" solve $puzzle --scramble "R1 C2 R3" --json --memory $budget) || fail "solve --memory $budget"
        contains "$out" -q '"solver": "exact"' || fail "--memory $budget did not choose exact: $out"
    done
    out=$("$pzc" solve $puzzle --scramble "R1 C2 R3" --json --memory 181439) || fail "solve --memory 181439"
    contains "$out" -q '"solver"' && fail "--memory 181439 chose another solver than the default: $out"
    contains "$out" -q '"length": 3' || fail "--memory 181439: $out"
    # None fits: the default solver refuses the budget, naming its tables.
    expect_error "more than the memory budget of 200 bytes" -- "$pzc" solve $puzzle --scramble "R1" --memory 200
    # --solver wins over the choice.
    out=$("$pzc" solve $puzzle --scramble "R1 C2 R3" --json --memory 1M --solver weak) || fail "solve --solver weak --memory 1M"
    contains "$out" -q '"solver"' && fail "--solver weak ran another solver: $out"
    # The ranking counts a coset table's class and move tables (817 KB for
    # tetrad_coset): with --memory 100K solver small runs straight away. A
    # solver needs more than its tables while it builds them (tetrad_proj's
    # 768 bytes are filled in 4-bit entries first, 896 in all): one that
    # refuses the budget hands over to the next largest, and the choice is
    # remembered.
    sed 's/^  solver optimal { optimal tetrad_coset, top; }/&\n  solver big { optimal tetrad_coset; }\n  solver small { optimal tetrad_proj; }\n  pattern tiny { corners {UFR}: positions; }\n  solver least { optimal tiny; }/' \
        tests/puzzles/cube2_tetrads.pz > "$tmp/cube2_mem.pz"
    grep -q "solver least" "$tmp/cube2_mem.pz" || fail "could not derive the definition"
    out=$("$pzc" solve "$tmp/cube2_mem.pz" --scramble "R U F' R2 U'" --json --memory 100K 2> "$tmp/err") || { cat "$tmp/err"; fail "solve --memory 100K"; }
    contains "$out" -q '"solver": "small"' || fail "--memory 100K did not choose solver small: $out"
    contains "$out" -q '"length": 5' || fail "--memory 100K: $out"
    grep -q "note: solver" "$tmp/err" && { cat "$tmp/err"; fail "--memory 100K tried a solver whose tables do not fit"; }
    # (A cache of its own: a table built above would load, not be built.)
    out=$(PZC_CACHE_DIR=$tmp/cache800 "$pzc" solve "$tmp/cube2_mem.pz" --scramble "R U F' R2 U'" --json --memory 800 2> "$tmp/err") ||
        { cat "$tmp/err"; fail "solve --memory 800"; }
    contains "$out" -q '"solver": "least"' || fail "--memory 800 did not end at solver least: $out"
    contains "$out" -q '"length": 5' || fail "--memory 800: $out"
    grep -q "note: solver 'small' needs more than --memory; trying 'least'" "$tmp/err" || { cat "$tmp/err"; fail "no hand-over note"; }
    out=$(PZC_CACHE_DIR=$tmp/cache800 "$pzc" solve "$tmp/cube2_mem.pz" --scramble "R U F' R2 U'" --json --memory 800 2> "$tmp/err") ||
        fail "second solve --memory 800"
    contains "$out" -q '"solver": "least"' || fail "second --memory 800: $out"
    [ ! -s "$tmp/err" ] || { cat "$tmp/err"; fail "the remembered choice tried the other solvers again"; }
    # With room for the class tables, the default solver runs.
    out=$("$pzc" solve "$tmp/cube2_mem.pz" --scramble "R U F' R2 U'" --json --memory 64M) || fail "solve --memory 64M"
    contains "$out" -q '"solver"' && fail "--memory 64M did not run the default solver: $out"
    # note [coset table keys]: solver big searches the default's coset
    # pattern: it reads the same table file, not one of its own.
    "$pzc" solve "$tmp/cube2_mem.pz" --scramble "R U F' R2 U'" --solver big > /dev/null || fail "solve --solver big"
    n=$(ls "$PZC_CACHE_DIR/tables" | grep -c 'coset-tetrad_coset-.*\.pzt$')
    [ "$n" = 1 ] || { ls "$PZC_CACHE_DIR/tables" >&2; fail "$n tetrad_coset tables for two solvers, expected one"; }
    ;;
threads)
    # Searches split from the first iteration answer the same on 1, 2 and 3
    # threads, move for move (note [parallel IDA*], [subtree order]), and
    # as long as the unsplit search, on the 2x2x2 (random states 9-11 moves
    # deep: real searches) and 3x3 Loopover; a bad PZ_PARALLEL_FROM_NODES
    # is refused.
    for p in tests/puzzles/cube2_htm.pz tests/puzzles/loopover3.pz; do
        "$pzc" solve $p --random 12 --seed 5 --json --threads 1 > "$tmp/serial" || fail "solve $p, unsplit"
        PZ_PARALLEL_FROM_NODES=0 "$pzc" solve $p --random 12 --seed 5 --json --threads 1 > "$tmp/one" || fail "solve $p, 1 thread"
        diff <(sed -n 's/.*"length": \([0-9]*\).*/\1/p' "$tmp/serial") <(sed -n 's/.*"length": \([0-9]*\).*/\1/p' "$tmp/one") ||
            fail "$p: the split search's lengths differ from the unsplit one's"
        for n in 2 3; do
            PZ_PARALLEL_FROM_NODES=0 "$pzc" solve $p --random 12 --seed 5 --json --threads $n > "$tmp/more" || fail "solve $p, $n threads"
            [ "$(sed 's/, "nodes.*//' "$tmp/one")" = "$(sed 's/, "nodes.*//' "$tmp/more")" ] || {
                paste "$tmp/one" "$tmp/more" >&2; fail "$p: $n threads answer differently from 1"; }
        done
        [ "$(wc -l < "$tmp/one")" = 12 ] || fail "expected 12 answers"
    done
    PZ_PARALLEL_FROM_NODES=0 "$pzc" solve tests/puzzles/cube2_htm.pz --random 3 --json --threads 2 > "$tmp/out" || fail "solve"
    PZ_PARALLEL_FROM_NODES=x "$pzc" solve tests/puzzles/cube2_htm.pz --random 1 > "$tmp/out" 2> "$tmp/err" && fail "PZ_PARALLEL_FROM_NODES=x accepted"
    grep -q "PZ_PARALLEL_FROM_NODES needs a whole number" "$tmp/err" || { cat "$tmp/err" >&2; fail "no message for PZ_PARALLEL_FROM_NODES=x"; }
    ;;
table-keys)
    # A table's key does not depend on the path the definition was read
    # from: solving through another path to the same file writes no new
    # table (a coset pattern's, a phased solver's).
    export PZC_CACHE_DIR=$tmp/cache
    mkdir -p "$PZC_CACHE_DIR"
    "$pzc" solve tests/puzzles/cube2_tetrads.pz --random 2 > /dev/null || fail "solve (coset)"
    "$pzc" solve tests/puzzles/cube2_phased.pz --solver two_phase --random 2 > /dev/null || fail "solve (phased)"
    ls "$PZC_CACHE_DIR/tables" > "$tmp/before"
    grep -q coset "$tmp/before" || fail "no coset table written: $(cat "$tmp/before")"
    [ "$(wc -l < "$tmp/before")" -ge 3 ] || fail "expected the coset, plain and phased tables: $(cat "$tmp/before")"
    "$pzc" solve ./tests/../tests/puzzles/cube2_tetrads.pz --random 2 > /dev/null || fail "solve (coset, other path)"
    "$pzc" solve "$PWD/tests/puzzles/cube2_phased.pz" --solver two_phase --random 2 > /dev/null || fail "solve (phased, other path)"
    ls "$PZC_CACHE_DIR/tables" > "$tmp/after"
    diff "$tmp/before" "$tmp/after" || fail "another path to the same definition wrote new tables"
    ;;
progress)
    # --progress: one stderr line per IDA* iteration, the last one at the
    # solution's length; refused for a phased solver.
    "$pzc" solve tests/puzzles/loopover3.pz --random 1 --seed 1 --json --progress > "$tmp/out" 2> "$tmp/err" || fail "solve --progress"
    length=$(sed -n 's/.*"length": \([0-9]*\).*/\1/p' "$tmp/out")
    cat "$tmp/err"
    [ -n "$length" ] && [ "$length" -ge 5 ] || fail "no answer: $(cat "$tmp/out")"
    grep -q "^search: depth $length solved: [0-9]* nodes in [0-9.]* s" "$tmp/err" || fail "no line for the solving iteration"
    [ "$(grep -c '^search: depth [0-9]* searched:' "$tmp/err")" -ge 1 ] || fail "no line for an earlier iteration"
    [ "$(tail -1 "$tmp/err" | sed 's/^search: depth \([0-9]*\).*/\1/')" = "$length" ] || fail "the last line is not the solution's depth"
    "$pzc" solve tests/puzzles/loopover3.pz --random 1 --seed 1 > /dev/null 2> "$tmp/quiet" || fail "solve"
    [ ! -s "$tmp/quiet" ] || fail "progress lines without --progress: $(cat "$tmp/quiet")"
    expect_error "--progress needs an optimal solver; 'two_phase' is not one" -- "$pzc" solve puzzles/cube3.pz --random 1 --solver two_phase --progress
    ;;
optimal-lengths)
    # Every fifth state of 3x3 Loopover in BFS order (36,288 states, all depths
    # 0..8) solved with the weak top_row pattern: each length must equal the
    # BFS distance computed with the IR element algebra alone.
    [ -x "$bfs" ] || fail "no bfs_distances binary"
    "$bfs" $puzzle 5 > "$tmp/states" || fail "bfs"
    [ "$(wc -l < "$tmp/states")" = 36288 ] || fail "expected 36288 states, got $(wc -l < "$tmp/states")"
    "$pzc" build $puzzle -o "$tmp/solver" > /dev/null || fail "build"
    check_lengths "$tmp/solver" "$tmp/states"
    ;;
solve-scramble)
    # R1 R1 = R1x2, whose inverse is R1 (rows have three cells).
    out=$("$pzc" solve $puzzle --scramble "R1 R1" --json) || fail "solve"
    [ "$out" = '{"solution": "R1", "length": 1, "optimal": true, "nodes": '"$(echo "$out" | sed 's/.*"nodes": \([0-9]*\).*/\1/')"', "seconds": '"$(echo "$out" | sed 's/.*"seconds": \([0-9.]*\)}/\1/')"'}' ] || fail "unexpected: $out"
    out=$("$pzc" solve $puzzle --scramble "" --json) || fail "solve empty"
    contains "$out" -q '"length": 0' || fail "solved position: $out"
    # R1 then R1x2 is a full turn: already solved.
    out=$("$pzc" solve $puzzle --scramble "R1 R1x2") || fail "solve full turn"
    contains "$out" -q "already solved" || fail "expected solved: $out"
    # Exponents of any size reduce modulo the order (3): 10^9 + 1 = 2, so the
    # answer is R1 (a clamped 10^9 = 1 gave R1x2); 10^21 + 2 = 0: solved.
    out=$("$pzc" solve $puzzle --scramble "R1^1000000001" --json) || fail "solve a big exponent"
    contains "$out" -q '"solution": "R1",' || fail "R1^1000000001 is R1x2, solved by R1: $out"
    out=$("$pzc" solve $puzzle --scramble "(R1 C1)^-100000000000000000000000000002") || fail "solve a huge exponent"
    contains "$out" -q "already solved" && fail "(R1 C1)^-(10^29+2) is not solved: $out"
    out=$("$pzc" solve $puzzle --scramble "R1^1000000000000000000002") || fail "solve a huge exponent"
    contains "$out" -q "already solved" || fail "R1^(10^21+2) is solved: $out"
    # A four-move scramble needs at most four.
    out=$("$pzc" solve $puzzle --scramble "R1 C2 R3x2 C1") || fail "solve 4"
    echo "$out"
    contains "$out" -Eq '^  [0-4] moves \(optimal\)' || fail "length > 4: $out"
    ;;
parts-one-orbit)
    # note [parts on one orbit]: cube_edges' flipslice tracks where the
    # slice edges are and every edge's flip, two parts of one orbit: its
    # values are the cosets of the domino subgroup, so its table's depth
    # counts are those of phase_bfs's coset BFS (phased.sh, phase 1). Both
    # optimal solvers agree on the lengths; the joint table searches fewer
    # nodes than the slice table alone.
    puzzle=tests/puzzles/cube_edges.pz
    "$pzc" check $puzzle | grep -q "flipslice: 1013760 values, .* edges\[4 pieces, positions unordered\] edges\[12 pieces, orientations\]" ||
        fail "check: $("$pzc" check $puzzle | grep flipslice)"
    "$pzc" build $puzzle --solver flip_slice -o "$tmp/solver" > /dev/null || fail "build"
    "$tmp/solver" --tables --table-dir "$tmp/tables" > "$tmp/tables.txt" || fail "--tables"
    grep -qx "  1013760 entries: 0:1 1:4 2:50 3:532 4:4804 5:41832 6:238263 7:555636 8:172314 9:324" "$tmp/tables.txt" ||
        fail "flipslice depths: $(cat "$tmp/tables.txt")"
    printf '%s\n' "F R U' B L2 D" "L F' D R B' U2" "B' L' F D2 R U'" "R F L B U D'" "F2 L' B R' U F'" > "$tmp/scrambles"
    "$pzc" solve $puzzle --scrambles "$tmp/scrambles" --json > "$tmp/slice" || fail "solve (slice)"
    "$pzc" solve $puzzle --solver flip_slice --scrambles "$tmp/scrambles" --json > "$tmp/joint" || fail "solve (flipslice)"
    lengths() { sed 's/.*"length": \([0-9]*\).*/\1/' "$1" | tr '\n' ' '; }
    nodes() { sed 's/.*"nodes": \([0-9]*\).*/\1/' "$1" | awk '{ n += $1 } END { print n }'; }
    [ "$(grep -c '"optimal": true' "$tmp/joint")" = 5 ] || fail "flipslice answers: $(cat "$tmp/joint")"
    [ "$(lengths "$tmp/slice")" = "$(lengths "$tmp/joint")" ] || fail "lengths differ: $(lengths "$tmp/slice") / $(lengths "$tmp/joint")"
    [ "$(nodes "$tmp/joint")" -lt "$(nodes "$tmp/slice")" ] || fail "flipslice searched $(nodes "$tmp/joint") nodes, slice $(nodes "$tmp/slice")"
    echo "lengths $(lengths "$tmp/joint"); nodes: slice $(nodes "$tmp/slice"), flipslice $(nodes "$tmp/joint")"
    # Two positions parts and an orientations part on one orbit: the values
    # with UF outside the slice, 495 x 8 x 2^11, are reached; the others
    # (UF among the slice edges' positions) are no state and stay unreached.
    "$pzc" check $puzzle | grep -q "flipslice_uf: 12165120 values (8110080 of them states)," || fail "check: flipslice_uf's states"
    "$pzc" build $puzzle --solver flip_slice_uf -o "$tmp/solver_uf" > /dev/null || fail "build flip_slice_uf"
    "$tmp/solver_uf" --tables --table-dir "$tmp/tables" > "$tmp/tables.txt" || fail "--tables (flipslice_uf)"
    reached=$(sed -n 's/^  12165120 entries://p' "$tmp/tables.txt" | tr ' ' '\n' | awk -F: '$1 != "" && $1 < 15 { n += $2 } END { print n }')
    [ "$reached" = 8110080 ] || fail "flipslice_uf reached $reached values"
    "$pzc" solve $puzzle --solver flip_slice_uf --scrambles "$tmp/scrambles" --json > "$tmp/uf" || fail "solve (flipslice_uf)"
    [ "$(lengths "$tmp/uf")" = "$(lengths "$tmp/joint")" ] || fail "flipslice_uf lengths: $(lengths "$tmp/uf")"
    [ "$(nodes "$tmp/uf")" -le "$(nodes "$tmp/joint")" ] || fail "flipslice_uf searched $(nodes "$tmp/uf") nodes, flipslice $(nodes "$tmp/joint")"
    echo "flipslice_uf: $(nodes "$tmp/uf") nodes; $(cat "$tmp/tables.txt")"
    ;;
solve-random)
    # Uniform random states: every solution verified by pzc, none longer
    # than God's number of 3x3 Loopover (8, facts.md); the mean is near 6.
    out=$("$pzc" solve $puzzle --random 30 --seed 7 --json) || fail "solve random"
    [ "$(echo "$out" | wc -l)" = 30 ] || fail "expected 30 results"
    echo "$out" | sed 's/.*"length": \([0-9]*\).*/\1/' | awk '$1 > 8 { bad = 1 } { s += $1 } END { print "mean length", s / NR; exit bad }' || fail "a solution longer than 8"
    # Same seed, same states, same solutions.
    again=$("$pzc" solve $puzzle --random 30 --seed 7 --json | sed 's/"nodes".*//')
    [ "$again" = "$(echo "$out" | sed 's/"nodes".*//')" ] || fail "--seed is not deterministic"
    ;;
solve-state)
    # R1 as a state (perm[p] = solved position of the piece at p).
    out=$("$pzc" solve $puzzle --state "2 0 1 3 4 5 6 7 8" --json) || fail "solve state"
    contains "$out" -q '"solution": "R1x2"' || fail "expected R1x2: $out"
    ;;
bad-input)
    expect_error "error" -- "$pzc" solve $puzzle --scramble "R1 Q7"
    expect_error "not a permutation" -- "$pzc" solve $puzzle --state "0 0 1 2 3 4 5 6 7"
    expect_error "has 9 numbers" -- "$pzc" solve $puzzle --state "0 1 2"
    expect_error "not a number" -- "$pzc" solve $puzzle --state "0 1 2 x 4 5 6 7 8"
    # An orientation out of range names its orbit, the range and the number.
    expect_error "orbit corners has orientations 0 to 2 (number 21 is 3)" -- "$pzc" solve puzzles/cube3.pz \
        --state "0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 8 9 10 11 3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
    # A single transposition is odd; 3x3 Loopover moves are 3-cycles (even).
    expect_error "cannot be reached" -- "$pzc" solve $puzzle --state "1 0 2 3 4 5 6 7 8"
    expect_error "usage" -- "$pzc" solve $puzzle
    expect_error "cannot read" -- "$pzc" solve tests/e2e/no-such-puzzle.pz --scramble "R1"
    # A command the puzzle's family lacks (note [back ends]): one error naming
    # the family and what to use instead, exit code 1, nothing built.
    for cmd in "build puzzles/anima.pz -o $tmp/anima-bin" "inspect puzzles/anima.pz" "run puzzles/anima.pz"; do
        $pzc $cmd > /dev/null 2> "$tmp/err"; rc=$?
        [ $rc = 1 ] || fail "pzc $cmd: exit code $rc, expected 1"
        grep -q "error: anima is a grid-actor puzzle; " "$tmp/err" || { cat "$tmp/err"; fail "pzc $cmd: no family error"; }
    done
    [ ! -e "$tmp/anima-bin" ] || fail "pzc build wrote a binary for a grid puzzle"
    expect_error "pzc solve-dir: error: loopover3 is a permutation puzzle; 'pzc solve-dir' solves grid-actor level folders" -- \
        "$pzc" solve-dir $puzzle "$tmp"
    ;;
corrupt-cache)
    export PZC_CACHE_DIR=$tmp/cache
    mkdir -p "$tmp/cache"
    cp -r "$cache/bin" "$tmp/cache/" 2>/dev/null || true
    want=$("$pzc" solve $puzzle --scramble "R1 C2 R3" --json | sed 's/"nodes".*//') || fail "first solve"
    table=$(ls "$tmp"/cache/tables/*.pzt) || fail "no table file cached"
    # Flip bytes in the data (after the 4 KiB header page): detected by the
    # block checksums, reported, rebuilt.
    printf '\x5a\x5a\x5a\x5a' | dd of="$table" bs=1 seek=4100 conv=notrunc status=none
    got=$("$pzc" solve $puzzle --scramble "R1 C2 R3" --json 2> "$tmp/err" | sed 's/"nodes".*//')
    grep -q "unusable (checksum mismatch (data block 0 of [0-9]*)); rebuilding" "$tmp/err" || { cat "$tmp/err"; fail "corruption not reported"; }
    [ "$got" = "$want" ] || fail "different result after rebuild: $got"
    # Flip a byte of the header page's padding: the header checksum.
    printf '\x5a' | dd of="$table" bs=1 seek=300 conv=notrunc status=none
    got=$("$pzc" solve $puzzle --scramble "R1 C2 R3" --json 2> "$tmp/err" | sed 's/"nodes".*//')
    grep -q "unusable (header checksum mismatch); rebuilding" "$tmp/err" || { cat "$tmp/err"; fail "header corruption not reported"; }
    [ "$got" = "$want" ] || fail "different result after rebuild: $got"
    # Truncated: detected too.
    truncate -s 100 "$table"
    "$pzc" solve $puzzle --scramble "R1 C2 R3" --json > /dev/null 2> "$tmp/err" || fail "solve after truncation"
    grep -q "unusable (truncated" "$tmp/err" || { cat "$tmp/err"; fail "truncation not reported"; }
    # Not a table at all.
    echo "hello" > "$table"
    "$pzc" solve $puzzle --scramble "R1" > /dev/null 2> "$tmp/err" || fail "solve after garbage"
    grep -q "unusable" "$tmp/err" || fail "garbage not reported"
    # And the rebuilt file is trusted again, silently.
    "$pzc" solve $puzzle --scramble "R1" > /dev/null 2> "$tmp/err" || fail "solve"
    [ ! -s "$tmp/err" ] || { cat "$tmp/err"; fail "unexpected messages"; }
    # A table save killed mid-write leaves <table>.tmp.<pid>: the next solve
    # removes it (its writer is dead); a live writer's file is left alone.
    sh -c 'exit 0' & dead=$!; wait $dead
    echo partial > "$table.tmp.$dead"
    echo partial > "$table.tmp.$$"
    "$pzc" solve $puzzle --scramble "R1" > /dev/null 2> "$tmp/err" || fail "solve with stale temp files"
    [ ! -e "$table.tmp.$dead" ] || fail "stale temporary table file of a dead writer kept"
    [ -e "$table.tmp.$$" ] || fail "temporary table file of a live writer removed"
    rm -f "$table.tmp.$$"
    ;;
memory-budget)
    # pzc check reports each pattern table's size.
    "$pzc" check $puzzle | grep -q "top_row: 504 values, table 256 bytes," || fail "check does not report the table size"
    "$pzc" check $puzzle --json | grep -q '"table-bytes": "256"' || fail "check --json lacks table-bytes"
    # Tables beyond --memory are refused before allocation, naming the sizes.
    export PZC_CACHE_DIR=$tmp/cache
    mkdir -p "$tmp/cache"
    cp -r "$cache/bin" "$tmp/cache/" 2>/dev/null || true
    expect_error "need 256 bytes (top_row 256 bytes), more than the memory budget of 200 bytes" -- \
        "$pzc" solve $puzzle --scramble "R1" --memory 200
    [ -z "$(ls "$tmp/cache/tables" 2>/dev/null)" ] || fail "a table was built despite the budget"
    expect_error "bad --memory 'lots'" -- "$pzc" solve $puzzle --scramble "R1" --memory lots
    expect_error "bad --memory '0'" -- "$pzc" solve $puzzle --scramble "R1" --memory 0
    out=$("$pzc" solve $puzzle --scramble "R1" --memory 1M --json) || fail "solve within the budget"
    contains "$out" -q '"length": 1' || fail "expected length 1: $out"
    # A cached table larger than the budget is not mapped either.
    expect_error "more than the memory budget of 255 bytes" -- "$pzc" solve $puzzle --scramble "R1" --memory 255
    # --verify-tables checks every block and accepts a sound table.
    "$pzc" solve $puzzle --scramble "R1" --verify-tables > /dev/null 2> "$tmp/err" || fail "solve --verify-tables"
    [ ! -s "$tmp/err" ] || { cat "$tmp/err"; fail "unexpected messages"; }
    ;;
build-binary)
    "$pzc" build $puzzle -o "$tmp/solver" > /dev/null || fail "build"
    out=$("$tmp/solver" --scramble "C1 R2" --json --table-dir "$tmp/tables") || fail "run built solver"
    contains "$out" -q '"length": 2' || fail "expected length 2: $out"
    expect_error "unknown move" -- "$tmp/solver" --scramble "C9" --table-dir "$tmp/tables"
    # A batch on stdin with its tables copied (--resident) or kept mapped and
    # shared (--shared-tables, as pzc solve --mpi runs it): the same answers.
    "$pzc" solve $puzzle --random 3 --seed 5 --json > "$tmp/random" || fail "random"
    sed -E 's/.*"state": "([0-9 ]*)".*/\1/' "$tmp/random" > "$tmp/states"
    lengths() { sed -E 's/.*"length": ([0-9]+).*/\1/' "$1" | tr '\n' ' '; }
    "$tmp/solver" --stdin --json --resident --table-dir "$tmp/tables" < "$tmp/states" > "$tmp/copied" || fail "--resident"
    "$tmp/solver" --stdin --json --shared-tables --table-dir "$tmp/tables" < "$tmp/states" > "$tmp/shared" || fail "--shared-tables"
    [ "$(lengths "$tmp/copied")" = "$(lengths "$tmp/random")" ] || fail "--resident lengths: $(lengths "$tmp/copied")"
    [ "$(lengths "$tmp/shared")" = "$(lengths "$tmp/random")" ] || fail "--shared-tables lengths: $(lengths "$tmp/shared")"
    [ "$(wc -l < "$tmp/shared")" = 3 ] || fail "--shared-tables answered $(wc -l < "$tmp/shared") lines"
    expect_error "give one" -- "$tmp/solver" --stdin --resident --shared-tables --table-dir "$tmp/tables"
    ;;
hostile-paths)
    # Cache directories with a quote and a command substitution in their
    # names: pzc runs its solver and the compiler without a shell, so nothing
    # runs and the solve works (issue 13 item 9).
    evil="$tmp/q'\$(touch $tmp/pwned)'\`touch $tmp/pwned2\`"
    mkdir -p "$evil"
    cp -r "$cache/bin" "$evil/" 2>/dev/null || true
    out=$(PZC_CACHE_DIR="$evil" "$pzc" solve $puzzle --scramble "R1 C2" --json) || fail "solve with a hostile PZC_CACHE_DIR"
    contains "$out" -q '"length": 2' || fail "expected length 2: $out"
    mkdir -p "$evil/home/.cache/pzc"
    cp -r "$cache/bin" "$evil/home/.cache/pzc/" 2>/dev/null || true
    out=$(env -u PZC_CACHE_DIR -u XDG_CACHE_HOME HOME="$evil/home" "$pzc" solve $puzzle --scramble "C1" --json) || fail "solve with a hostile HOME"
    contains "$out" -q '"length": 1' || fail "expected length 1: $out"
    [ ! -e "$tmp/pwned" ] && [ ! -e "$tmp/pwned2" ] || fail "a command in the cache path was run"
    ;;
no-temp-files)
    # Positions go to the solver through a pipe: no temp file is written, so
    # a planted one cannot change the answer, and a missing TMPDIR is no
    # error (issue 13 items 7, 16).
    mkdir "$tmp/t"
    for pid in $(seq $$ $(($$ + 400))); do echo "0 1 2 3 4 5 6 7 8" > "$tmp/t/pzc-solve-$pid.txt"; done
    before=$(ls "$tmp/t" | wc -l)
    out=$(TMPDIR="$tmp/t" "$pzc" solve $puzzle --scramble "C2 R3" --json) || fail "solve"
    contains "$out" -q '"length": 2' || fail "planted temp file changed the answer: $out"
    [ "$(ls "$tmp/t" | wc -l)" = "$before" ] || fail "pzc solve created files in TMPDIR"
    out=$(TMPDIR="$tmp/no/such/dir" "$pzc" solve $puzzle --scramble "C2 R3" --json) || fail "solve with a missing TMPDIR"
    contains "$out" -q '"length": 2' || fail "unexpected: $out"
    ;;
kill-solver)
    # Killing pzc stops its solver: SIGTERM is forwarded, SIGKILL reaches the
    # child through PR_SET_PDEATHSIG (issue 13 item 15).
    "$pzc" solve $puzzle --scramble "R1" > /dev/null || fail "warm-up solve"
    for sig in TERM KILL INT; do
        "$pzc" solve $puzzle --random 500000 --seed 1 > /dev/null 2>&1 &
        parent=$!
        child=
        for _ in $(seq 300); do
            child=$(pgrep -P $parent) && break
            sleep 0.1
        done
        [ -n "$child" ] || { kill -9 $parent; fail "no solver process under pzc"; }
        sleep 0.3
        kill -$sig $parent
        wait $parent 2>/dev/null
        for _ in $(seq 50); do kill -0 $child 2>/dev/null || break; sleep 0.1; done
        if kill -0 $child 2>/dev/null; then kill -9 $child; fail "the solver outlived pzc after SIG$sig"; fi
    done
    # Interrupted while compiling: the compiler stops too, and the cache keeps
    # no half-written source or binary.
    printf '#!/bin/sh\nsleep 60\n' > "$tmp/slow-cxx"
    chmod +x "$tmp/slow-cxx"
    mkdir -p "$tmp/cache"
    PZC_CACHE_DIR="$tmp/cache" CXX="$tmp/slow-cxx" "$pzc" solve $puzzle --scramble "R1" > /dev/null 2>&1 &
    parent=$!
    child=
    for _ in $(seq 300); do child=$(pgrep -P $parent) && break; sleep 0.1; done
    [ -n "$child" ] || { kill -9 $parent; fail "no compiler process under pzc"; }
    kill -TERM $parent
    wait $parent
    rc=$?
    [ $rc = 143 ] || fail "pzc did not die of SIGTERM (exit $rc)"
    for _ in $(seq 50); do kill -0 $child 2>/dev/null || break; sleep 0.1; done
    if kill -0 $child 2>/dev/null; then kill -9 $child; fail "the compiler outlived pzc"; fi
    left=$(ls "$tmp/cache/bin")
    [ -z "$left" ] || fail "an interrupted build left files: $left"
    ;;
cached-binary)
    # Cached solvers are checked against their build stamp before they run
    # (note [build stamps]); a damaged one is rebuilt; a solver that lies or
    # breaks the protocol is an internal error, never a wrong answer
    # (issue 13 items 7, 13, 14).
    export PZC_CACHE_DIR=$tmp/cache
    mkdir -p "$tmp/cache"
    cp -r "$cache/bin" "$tmp/cache/" 2>/dev/null || true
    rm -f "$tmp"/cache/bin/loopover3-*  # the first solve builds the one loopover3 solver below
    "$pzc" solve $puzzle --scramble "C2 R3" > /dev/null || fail "first solve"
    bin=$(ls -t "$tmp"/cache/bin/loopover3-*.stamp | head -1 | sed 's/\.stamp$//')  # the one loopover3 build
    [ -n "$bin" ] || fail "no stamped binary in the cache"
    for damage in empty truncated; do
        if [ $damage = empty ]; then : > "$bin"; else truncate -s 4096 "$bin"; fi
        out=$("$pzc" solve $puzzle --scramble "C2 R3" --json 2> "$tmp/err") || { cat "$tmp/err"; fail "solve after $damage binary"; }
        grep -q "unusable" "$tmp/err" || { cat "$tmp/err"; fail "$damage binary not reported"; }
        contains "$out" -q '"length": 2' || fail "after $damage binary: $out"
    done
    # Fake solvers with valid stamps: what they print must not be believed.
    fake_solver "$bin" "echo 'P 0 1 2 3 4 5 6 7 8 ; M ; N 1 ; S 0.1'"
    expect_error "internal error: the solver printed an unreadable result" -- "$pzc" solve $puzzle --scramble "C2 R3"
    # Claims the position is solved: pzc replays against its own state.
    fake_solver "$bin" "echo '{\"type\": \"solution\", \"index\": 0, \"moves\": [], \"nodes\": 1, \"seconds\": 0.1}'"
    expect_error "internal error: the solution does not solve the position" -- "$pzc" solve $puzzle --scramble "C2 R3"
    grep -q "already solved" "$tmp/out" && fail "printed a wrong answer"
    fake_solver "$bin" "echo '{\"type\": \"solution\", \"index\": 0, \"moves\": [99], \"nodes\": 1, \"seconds\": 0.1}'"
    expect_error "move number 99" -- "$pzc" solve $puzzle --scramble "C2 R3"
    fake_solver "$bin" "true"
    expect_error "answered 0 of 1 positions" -- "$pzc" solve $puzzle --scramble "C2 R3"
    fake_solver "$bin" 'kill -SEGV $$'
    expect_error "killed by signal 11" -- "$pzc" solve $puzzle --scramble "C2 R3"
    grep -q "status 3[0-9][0-9][0-9]" "$tmp/err" && fail "raw wait status printed"
    fake_solver "$bin" "exit 4"
    expect_error "ran out of memory" -- "$pzc" solve $puzzle --scramble "C2 R3"
    # A failed native build: one short message naming the log, no source left.
    rm -rf "$tmp/cache/bin"
    printf '#!/bin/sh\nfor i in $(seq 500); do echo "gen.cpp:$i:1: error: something went wrong $i"; done\nexit 1\n' > "$tmp/bad-cxx"
    chmod +x "$tmp/bad-cxx"
    CXX="$tmp/bad-cxx" expect_error "internal error: the C++ compiler" -- "$pzc" solve $puzzle --scramble "C2 R3"
    [ "$(wc -l < "$tmp/err")" -le 2 ] || { head -5 "$tmp/err"; fail "a wall of compiler output"; }
    grep -q "full output in .*\.log" "$tmp/err" || fail "no log path: $(cat "$tmp/err")"
    log=$(ls "$tmp"/cache/bin/*.log) || fail "no log kept"
    [ "$(wc -l < "$log")" = 500 ] || fail "log incomplete"
    ! ls "$tmp"/cache/bin/*.cpp > /dev/null 2>&1 || fail "a failed build left its .cpp in the cache"
    ;;
solver-index)
    # A cached solver is found by the definition's bytes before any analysis
    # (note [solver index]); an edited definition, a changed runtime header or
    # a damaged binary is rebuilt, never run stale; states are still checked.
    export PZC_CACHE_DIR=$tmp/cache
    mkdir -p "$tmp/cache"
    cp -r "$cache/bin" "$tmp/cache/" 2>/dev/null || true
    cp $puzzle "$tmp/p.pz"
    solved() { "$pzc" solve "$tmp/p.pz" --scramble "$1" --json 2> "$tmp/err" || { cat "$tmp/err"; fail "solve $1"; }; }
    # The index's solver entries (those naming a binary; note [search gate]
    # keeps its estimate beside them, as numbers).
    solver_entries() { grep -l '^binary ' "$tmp"/cache/index/* 2> /dev/null; }
    out=$(solved "R1 C2") && contains "$out" -q '"length": 2' || fail "first solve: $out"
    [ "$(solver_entries | wc -l)" = 1 ] || fail "no index entry after a solve"
    bin=$(sed -n 's/^binary //p' $(solver_entries)) && [ -x "$tmp/cache/bin/$bin" ] || fail "index names no binary"
    # A hit runs the indexed binary (a stamped fake proves it) and still replays.
    cp "$tmp/cache/bin/$bin" "$tmp/real" && cp "$tmp/cache/bin/$bin.stamp" "$tmp/real.stamp"
    fake_solver "$tmp/cache/bin/$bin" "echo '{\"type\": \"solution\", \"index\": 0, \"moves\": [0], \"nodes\": 1, \"seconds\": 0.1}'"
    expect_error "internal error: the solution does not solve the position" -- "$pzc" solve "$tmp/p.pz" --scramble "R1 C2"
    cp "$tmp/real" "$tmp/cache/bin/$bin" && cp "$tmp/real.stamp" "$tmp/cache/bin/$bin.stamp"
    # States are checked for membership on a hit too (loopover3's moves are even).
    expect_error "cannot be reached by the moves of loopover3" -- "$pzc" solve "$tmp/p.pz" --state "1 0 2 3 4 5 6 7 8"
    out=$(solved "C1") && contains "$out" -q '"solution": "C1x2"' || fail "hit: $out"
    # Edited definition: R1 now cycles the other way. The old solver would
    # answer its move 0 (the old R1), which replays as the new R1: not solved.
    sed -i 's/move R1 = tiles (0 1 2);/move R1 = tiles (2 1 0);/' "$tmp/p.pz"
    out=$(solved "R1") && contains "$out" -q '"solution": "R1x2"' || fail "edited definition: $out"
    [ "$(solver_entries | wc -l)" = 2 ] || fail "an edited definition reused the old index entry"
    # A changed runtime header: a new binary.
    cp -r runtime/include "$tmp/rt"
    export PZC_RUNTIME_INCLUDE=$tmp/rt
    solved "R1" > /dev/null
    before=$(ls "$tmp"/cache/bin/loopover3-*.stamp | wc -l)
    echo "// changed" >> "$tmp/rt/pz/search/search.hpp"
    solved "R1" > /dev/null
    [ "$(ls "$tmp"/cache/bin/loopover3-*.stamp | wc -l)" = $((before + 1)) ] || fail "a changed runtime header reused the old binary"
    unset PZC_RUNTIME_INCLUDE
    # A damaged indexed binary is reported and rebuilt.
    bin=$(sed -n 's/^binary //p' "$(ls -t $(solver_entries) | tail -1)")
    : > "$tmp/cache/bin/$bin"
    sed -i 's/move R1 = tiles (2 1 0);/move R1 = tiles (0 1 2);/' "$tmp/p.pz"
    out=$(solved "R1 C2") && contains "$out" -q '"length": 2' || fail "after a damaged binary: $out"
    grep -q "unusable" "$tmp/err" || { cat "$tmp/err"; fail "damaged indexed binary not reported"; }
    # A damaged index entry is ignored (the full path rewrites it).
    for f in "$tmp"/cache/index/*; do echo garbage > "$f"; done
    out=$(solved "R1 C2") && contains "$out" -q '"length": 2' || fail "after a damaged index: $out"
    grep -q "^pzc-solver-index 1" "$tmp"/cache/index/* || fail "index entry not rewritten"
    ;;
options)
    # One option parser for every command: strict numbers with ranges,
    # conflicting options, outputs that would overwrite inputs (issue 13
    # items 3, 16).
    expect_error "--random needs a whole number from 1 to 1000000, not 'abc'" -- "$pzc" solve $puzzle --random abc
    expect_error "--random needs a whole number" -- "$pzc" solve $puzzle --random 0
    expect_error "--random needs a whole number" -- "$pzc" solve $puzzle --random 9223372036854775807
    expect_error "--random needs a whole number" -- "$pzc" solve $puzzle --random -3
    expect_error "--seed needs a whole number" -- "$pzc" solve $puzzle --random 2 --seed 99999999999999999999
    expect_error "--threads needs a whole number" -- "$pzc" solve $puzzle --random 2 --threads x
    expect_error "--scramble and --random cannot be used together" -- "$pzc" solve $puzzle --scramble R1 --random 3
    expect_error "--state and --random cannot be used together" -- "$pzc" solve $puzzle --state "0 1 2 3 4 5 6 7 8" --random 3
    expect_error "--seed needs --random" -- "$pzc" solve $puzzle --scramble R1 --seed 3
    expect_error "--random is given twice" -- "$pzc" solve $puzzle --random 2 --random 3
    expect_error "unknown option '--bogus'" -- "$pzc" solve $puzzle --scramble R1 --bogus
    grep -q "usage" "$tmp/err" || fail "no usage after an unknown option"
    expect_error "--max-states needs a whole number" -- "$pzc" solve puzzles/anima.pz --level puzzles/anima/levels/1.1-line_dance.txt --max-states abc
    expect_error "--repeat needs a whole number" -- "$pzc" solve puzzles/anima.pz --level puzzles/anima/levels/1.1-line_dance.txt --repeat 0
    cp $puzzle "$tmp/x.pz"
    expect_error "would overwrite the definition" -- "$pzc" build "$tmp/x.pz" -o "$tmp/x.pz"
    expect_error "would overwrite the definition" -- "$pzc" build "$tmp/x.pz" -o "$tmp/../$(basename "$tmp")/x.pz"
    expect_error "would overwrite the definition" -- "$pzc" convert "$tmp/x.pz" --to yaml -o "$tmp/x.pz"
    cmp -s "$tmp/x.pz" $puzzle || fail "the definition was overwritten"
    expect_error "missing FILE" -- "$pzc" inspect
    # A level name the OS refuses (too long) is an error, not an abort
    # (found by fuzz_cli: solve-dir's directory test threw).
    expect_error "error: cannot read file: File name too long" -- "$pzc" solve-dir puzzles/anima.pz "$(printf 'x%.0s' $(seq 300))"
    grep -q terminate "$tmp/err" && fail "solve-dir aborted on a long name"
    expect_error "unexpected argument" -- "$pzc" run $puzzle "R1" "C1"
    "$pzc" solve --help | grep -q -- "--scrambles" || fail "solve --help"
    # A depth-limit failure says what happened; "not reachable" is kept for
    # positions a pattern proves unreachable (stamped fake solvers).
    export PZC_CACHE_DIR=$tmp/cache
    mkdir -p "$tmp/cache"
    cp -r "$cache/bin" "$tmp/cache/" 2>/dev/null || true
    rm -f "$tmp"/cache/bin/loopover3-*  # the first solve builds the one loopover3 solver below
    "$pzc" solve $puzzle --scramble "R1" > /dev/null || fail "solve"
    bin=$(ls -t "$tmp"/cache/bin/loopover3-*.stamp | head -1 | sed 's/\.stamp$//')  # the one loopover3 build
    fake_solver "$bin" "echo '{\"type\": \"no-solution\", \"index\": 0, \"depth-limit\": 40, \"nodes\": 9, \"seconds\": 1.5}'; exit 1"
    expect_error "no solution within the search's depth limit of 40 moves" -- "$pzc" solve $puzzle --scramble "R1"
    grep -q "not reachable" "$tmp/err" && fail "a depth-limit failure called 'not reachable'"
    fake_solver "$bin" "echo '{\"type\": \"no-solution\", \"index\": 0, \"unreachable\": true, \"nodes\": 0, \"seconds\": 0}'; exit 1"
    expect_error "not reachable by the puzzle's moves" -- "$pzc" solve $puzzle --scramble "R1"
    ;;
no-moves)
    # A puzzle with no moves: --random gives its one state, no crash.
    printf 'puzzle nomoves {\n  orbit tiles 3;\n  pattern all { tiles {0 1 2}: positions; }\n  solver optimal { optimal all; }\n}\n' > "$cache/nomoves.pz"  # a fixed path: the cached solver is reused
    out=$("$pzc" solve "$cache/nomoves.pz" --random 2 --json) || fail "solve --random on a puzzle without moves"
    [ "$(contains "$out" -c '"length": 0, "optimal": true.*"state": "0 1 2"')" = 2 ] || fail "unexpected: $out"
    expect_error "cannot be reached" -- "$pzc" solve "$cache/nomoves.pz" --state "1 0 2"
    ;;
grid-levels)
    # Level names equal after sanitising (a-b, a_b) are both solved; a level
    # that starts solved prints "(already solved)", not an empty line; two
    # levels with one name are refused (issue 13 item 16).
    mkdir "$tmp/lv"
    printf '..r\n\nR 0 0\n' > "$tmp/lv/a-b.txt"
    printf 'r..\n\nR 2 0\n' > "$tmp/lv/a_b.txt"
    printf '.r.\n\nR 1 0\n' > "$tmp/lv/solved.txt"
    "$pzc" solve-dir puzzles/anima.pz "$tmp/lv" --json > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/err"; fail "folder solve"; }
    python3 -c '
import json, sys
rows = {r["level"]: r for r in json.load(open(sys.argv[1]))}
assert rows["a-b"]["length"] == 2 and rows["a-b"]["solution"] == "right right", rows
assert rows["a_b"]["length"] == 2 and rows["a_b"]["solution"] == "left left", rows
assert rows["solved"]["length"] == 0 and rows["solved"]["outcome"] == "solved", rows
' "$tmp/out" || fail "folder results: $(cat "$tmp/out")"
    out=$("$pzc" solve puzzles/anima.pz --level "$tmp/lv/solved.txt") || fail "solve a solved level"
    [ "$out" = "(already solved)" ] || fail "solved level printed '$out'"
    mkdir "$tmp/lv2"
    cp "$tmp/lv/a-b.txt" "$tmp/lv2/"
    expect_error "another level is also named 'a-b'" -- "$pzc" solve puzzles/anima.pz --levels "$tmp/lv" --levels "$tmp/lv2"
    ;;
batch)
    # --scrambles: one scramble or state a line, one JSON object a line in
    # line order, bad lines reported with their number (issue 11 item 7).
    printf 'R1 C2\n\n# a comment\nR1 Q7\n2 0 1 3 4 5 6 7 8\n1 0 2 3 4 5 6 7 8\nC1\n' > "$tmp/batch"
    "$pzc" solve $puzzle --scrambles "$tmp/batch" > "$tmp/out" 2> "$tmp/err" && fail "bad lines must give exit 1"
    python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["line"] for r in rows] == [1, 4, 5, 6, 7], rows
assert rows[0]["length"] == 2 and rows[0]["optimal"], rows
assert "unknown move" in rows[1]["error"] and "Q7" in rows[1]["error"], rows
assert rows[2]["solution"] == "R1x2", rows
assert "cannot be reached" in rows[3]["error"], rows
assert rows[4]["solution"] == "C1x2", rows
' "$tmp/out" || fail "batch output: $(cat "$tmp/out")"
    grep -q "$tmp/batch:4: unknown move" "$tmp/err" || fail "no per-line error: $(cat "$tmp/err")"
    grep -q "$tmp/batch:6: bad state" "$tmp/err" || fail "no per-line error: $(cat "$tmp/err")"
    # From stdin, all good: exit 0, and as many results as lines.
    "$bfs" $puzzle 997 | sed 's/^[0-9]* ; //' > "$tmp/states"
    "$pzc" solve $puzzle --scrambles - < "$tmp/states" > "$tmp/out" || fail "batch from stdin"
    [ "$(wc -l < "$tmp/out")" = "$(wc -l < "$tmp/states")" ] || fail "one result per line"
    expect_error "cannot read" -- "$pzc" solve $puzzle --scrambles "$tmp/no-such-file"
    expect_error "cannot be used together" -- "$pzc" solve $puzzle --scrambles "$tmp/batch" --scramble R1
    ;;
known-solution)
    # note [known solutions]: a known solution bounds the search. On states
    # of every BFS distance: given an optimal one, pzc answers it as the
    # known solution, proved; given a longer one (padded by R1 R1 R1, the
    # identity), it finds the BFS distance; --max-length one move short of
    # the distance is a proved "no solution".
    "$bfs" $puzzle 1 | awk '(NR <= 120 && NR % 7 == 1) || NR % 1499 == 0' > "$tmp/states" || fail "bfs"
    n=0
    while IFS= read -r line; do
        d=${line%% ;*} state=${line#* ; }
        out=$("$pzc" solve $puzzle --state "$state" --json) || fail "solve $state"
        sol=$(sed 's/.*"solution": "\([^"]*\)".*/\1/' <<< "$out")
        out=$("$pzc" solve $puzzle --state "$state" --known-solution "$sol" --json) || fail "known optimal: $state"
        contains "$out" -q "\"solution\": \"$sol\", \"length\": $d, \"optimal\": true, \"known-solution\": true," ||
            fail "distance $d, known $sol: $out"
        out=$("$pzc" solve $puzzle --state "$state" --known-solution "$sol R1 R1 R1" --json) || fail "known padded: $state"
        contains "$out" -q "\"length\": $d, \"optimal\": true, \"nodes\"" || fail "distance $d, known $sol R1 R1 R1: $out"
        if [ "$d" -gt 0 ]; then
            expect_error "no solution of $((d - 1)) moves or fewer (--max-length; the search proved it)" -- \
                "$pzc" solve $puzzle --state "$state" --max-length $((d - 1))
        fi
        n=$((n + 1))
    done < "$tmp/states"
    [ "$(cut -d' ' -f1 "$tmp/states" | sort -u | wc -l)" = 9 ] || fail "expected states of every distance 0..8: $(cut -d' ' -f1 "$tmp/states" | sort -u)"
    echo "$n states"
    out=$("$pzc" solve $puzzle --scramble "R1 C2" --known-solution "C2x2 R1x2") || fail "known, readable"
    contains "$out" -q "2 moves (optimal; the known solution: the search found none shorter)" || fail "readable: $out"
    expect_error "known-solution does not solve the position" -- "$pzc" solve $puzzle --scramble "R1 C2" --known-solution "C2x2"
    expect_error "known-solution: unknown move 'Q1'" -- "$pzc" solve $puzzle --scramble "R1 C2" --known-solution "C2x2 Q1"
    expect_error "known-solution needs one position" -- "$pzc" solve $puzzle --scramble R1 --scramble C1 --known-solution "R1x2"
    expect_error "known-solution and --random cannot be used together" -- "$pzc" solve $puzzle --random 1 --known-solution "R1"
    expect_error "known-solution: 'U2' is not a move the search counts" -- "$pzc" solve tests/puzzles/cube2_qtm.pz --scramble "U2" --known-solution "U2"
    expect_error "max-length for an optimal solver is at most 255" -- "$pzc" solve $puzzle --scramble R1 --max-length 256
    expect_error "known-solution has 258 moves; an optimal search goes to 255 at most" -- \
        "$pzc" solve $puzzle --scramble "" --known-solution "$(printf 'R1 %.0s' $(seq 258))"
    expect_error "known-solution and --max-length cannot be used together" -- "$pzc" solve $puzzle --scramble R1 --known-solution "R1x2" --max-length 3
    ;;
random-parity)
    # Random positions are drawn by pzc, uniform over the group
    # (PuzzleAnalysis::randomElement): where every move is odd both parities
    # (distances 0 and 1) appear, with 4 and with 16 pieces (a random walk of
    # a fixed length gives one parity only); --json gives each position's
    # state (issue 13 item 6).
    for n in 4 16; do
        printf 'puzzle odd%s {\n  orbit p %s;\n  move T = p (0 1);\n  pattern all { p {0 1}: positions; }\n  solver optimal { optimal all; }\n}\n' $n $n > "$cache/odd$n.pz"
        out=$("$pzc" solve "$cache/odd$n.pz" --random 40 --seed 5 --json) || fail "solve odd$n"
        zeros=$(contains "$out" -c '"length": 0,') ones=$(contains "$out" -c '"length": 1,')
        echo "odd$n: $zeros at distance 0, $ones at distance 1"
        [ "$zeros" -ge 8 ] && [ "$ones" -ge 8 ] || fail "odd$n: parities not both drawn ($zeros, $ones)"
        contains "$out" -q '"length": 1,.*"state": "1 0 ' || fail "odd$n: no state in --json: $out"
    done
    ;;
identical-pieces)
    # Identical pieces (issue 12): states given by labels, checked for
    # reachability as labelled states (note [distinct states]); --random
    # --json gives labels, which --state takes back with the same length;
    # a solution is replayed by pzc against the colouring.
    p=tests/puzzles/cube2_first_layer.pz
    out=$("$pzc" solve $p --random 6 --seed 3 --json) || fail "solve random"
    echo "$out" | sed -n 's/.*"length": \([0-9]*\),.*"state": "\([0-9 ]*\)".*/\1|\2/p' > "$tmp/random"
    [ "$(wc -l < "$tmp/random")" = 6 ] || fail "expected 6 states with labels: $out"
    while IFS='|' read -r len state; do
        again=$("$pzc" solve $p --state "$state" --json) || fail "solve --state $state"
        contains "$again" -q "\"length\": $len," || fail "--state $state: $again, expected length $len"
    done < "$tmp/random"
    # Labels (0..4: UFR UFL UBL UBR, then the identical D corners) or a permutation.
    "$pzc" solve $p --state "0 1 2 3 4 4 4 0 0 0 0 0 0 0" | grep -q "already solved" || fail "solved colouring"
    "$pzc" solve $p --state "0 1 2 3 6 5 4 0 0 0 0 0 0 0" | grep -q "already solved" || fail "a permutation of identical pieces is solved"
    expect_error "cannot be reached" -- "$pzc" solve $p --state "0 1 2 3 4 4 4 0 0 0 0 0 0 1"
    expect_error "nor a rearrangement of its solved labels" -- "$pzc" solve $p --state "0 1 2 3 4 4 0 0 0 0 0 0 0 0"
    # Not normalised by the labels' swaps: decided by enumeration.
    "$pzc" solve tests/puzzles/turntable_pairs.pz --state "1 0 0 1" --json | grep -q '"length": 3,' || fail "turntable 1 0 0 1 (T from solved; only T is a move)"
    expect_error "cannot be reached" -- "$pzc" solve tests/puzzles/turntable_pairs.pz --state "0 1 0 1"
    ;;
default-pattern-memory)
    # Default patterns (none declared) take --memory as their budget: more
    # pieces tracked, fewer nodes, the same optimal lengths; without it the
    # fixed 2^22 values (7 of 12 pieces: 3,991,680 values).
    p=tests/puzzles/rings12.pz
    "$pzc" check $p | grep -q "default_t: 3991680 values" || fail "check: $("$pzc" check $p | grep default_t)"
    "$pzc" solve $p --random 4 --seed 2 --json --threads 1 > "$tmp/small" || fail "solve"
    "$pzc" solve $p --random 4 --seed 2 --json --threads 1 --memory 64M > "$tmp/big" || fail "solve --memory 64M"
    lens() { sed -n 's/.*"length": \([0-9]*\),.*/\1/p' "$1"; }
    nodes() { sed -n 's/.*"nodes": \([0-9]*\),.*/\1/p' "$1" | awk '{ n += $1 } END { print n }'; }
    [ "$(lens "$tmp/small" | wc -l)" = 4 ] || fail "expected 4 results: $(cat "$tmp/small")"
    [ "$(lens "$tmp/small")" = "$(lens "$tmp/big")" ] || fail "lengths differ: $(lens "$tmp/small" | xargs) vs $(lens "$tmp/big" | xargs)"
    small=$(nodes "$tmp/small"); big=$(nodes "$tmp/big")
    [ "$big" -lt "$small" ] || fail "--memory 64M searched $big nodes, the default budget $small"
    ;;
hostile-names)
    # Names reach generated code only as inert text (note [text in generated
    # code]): a directory whose name holds a line break and a preprocessor
    # payload (it lands in the "generated by pzc from" comment), and a level
    # file whose name closes the kName string literal and breaks the line.
    # Each generated solver must build, solve, and never run the payload.
    payload=$'x\n#ifndef PZ_HOSTILE\nstatic int pwned = (__builtin_puts("INJECTED CODE RAN"), 0);\n#endif\n'
    mkdir -p "$tmp/$payload"
    cp $puzzle "$tmp/$payload/p.pz"
    "$pzc" build "$tmp/$payload/p.pz" -o "$tmp/solver" > /dev/null || fail "build from a hostile path"
    out=$("$tmp/solver" --scramble "C1 R2" --json --table-dir "$tmp/tables" 2>&1) || fail "run: $out"
    contains "$out" -q "^INJECTED" && fail "the payload in the path ran: $out"
    contains "$out" -q '"length": 2' || fail "expected length 2: $out"
    name=$'a"; inline static int pwned2 = (__builtin_puts("INJECTED LEVEL"), 0); const char* b = "\n#ifndef Q\nstatic int pwned3 = (__builtin_puts("INJECTED LINE"), 0);\n#endif\n'
    cp puzzles/anima/levels/1.1-line_dance.txt "$tmp/$payload/$name.txt"
    "$pzc" solve puzzles/anima.pz --level "$tmp/$payload/$name.txt" --emit "$tmp/grid.cpp" || fail "emit"
    ${CXX:-c++} -std=c++20 -O1 -I runtime/include "$tmp/grid.cpp" -o "$tmp/grid" 2> "$tmp/err" || { cat "$tmp/err" >&2; fail "the grid solver for a hostile level name does not compile"; }
    out=$("$tmp/grid" 2>&1) || fail "run grid solver: $out"
    contains "$out" -q "^INJECTED" && fail "the payload in the level name ran: $out"
    contains "$out" -q 'solved' || fail "the hostile-named level was not solved: $out"
    # And through pzc (its cached build of the same source, the result protocol).
    out=$("$pzc" solve puzzles/anima.pz --level "$tmp/$payload/$name.txt" --json 2>&1) || fail "pzc solve: $out"
    contains "$out" -q "^INJECTED" && fail "the payload in the level name ran: $out"
    contains "$out" -q '"length": 2, "optimal": true' || fail "pzc solve of the hostile-named level: $out"
    ;;
grid-limits)
    # note [grid depth limit]: a 1x257 corridor needs 256 presses, one more
    # than A*'s one-byte g; the answer must be 256 (optimal), never "no
    # solution", with the generated solver and the interpreter alike.
    { printf 'r'; printf '.%.0s' $(seq 256); printf '\n\nR 256 0\n'; } > "$tmp/corridor.txt"
    for mode in "" --interp; do
        out=$("$pzc" solve puzzles/anima.pz --level "$tmp/corridor.txt" --json $mode 2>&1) || fail "corridor $mode: $out"
        contains "$out" -q '"length": 256, "optimal": true' || fail "corridor $mode: expected 256 moves: $(echo "$out" | tail -c 300)"
    done
    ;;
reserved-names)
    # Names that are C++ keywords, namespaces, macros or types: each as the
    # puzzle's name (its namespace in generated code) and, rotated, as the
    # orbit, moves, pattern and solver. Each must build, run and solve.
    names=(int class std pz main NDEBUG uint64_t errno EOF)
    for i in "${!names[@]}"; do
        n() { echo "${names[$(( (i + $1) % ${#names[@]} ))]}"; }
        cat > "$tmp/$(n 0).pz" <<PZ
puzzle $(n 0) {
  orbit $(n 1) 4;
  powers { 1: ""; -1: "'"; }
  move $(n 2) = $(n 1) (0 1 2 3);
  move $(n 3) = $(n 1) (0 1);
  pattern $(n 4) { $(n 1): positions; }
  solver $(n 5) { optimal $(n 4); }
}
PZ
        "$pzc" build "$tmp/$(n 0).pz" -o "$tmp/solver-$i" > "$tmp/out" 2>&1 || { cat "$tmp/out" >&2; fail "build: puzzle $(n 0)"; }
        out=$("$tmp/solver-$i" --scramble "$(n 2) $(n 3)" --json --table-dir "$tmp/tables-$i" 2>&1) || fail "run: puzzle $(n 0): $out"
        contains "$out" -q '"length": 2' || fail "puzzle $(n 0): expected length 2: $out"
        echo "puzzle $(n 0): $out"
    done
    ;;
check-output-size)
    # pzc check stays small on a big definition: 2000 transpositions on 1024
    # positions (pairs mostly disjoint, so nearly every pair commutes). The
    # text lists 64 families; --json lists each family's smaller side. The
    # moves are uncounted: a metric over 64 moves is an error of check (the
    # generated solvers' limit), and the summary is what this case tests.
    python3 - "$tmp/many.pz" <<'PY'
import random, sys
random.seed(1)
lines = ["puzzle many {", "  orbit p 1024;", '  powers { 1: "" uncounted; }']
for i in range(2000):
    a, b = random.sample(range(1024), 2)
    lines.append(f"  move T{i} = p ({a} {b});")
open(sys.argv[1], "w").write("\n".join(lines + ["}"]) + "\n")
PY
    "$pzc" check "$tmp/many.pz" > "$tmp/text" || fail "check"
    [ "$(wc -c < "$tmp/text")" -lt 100000 ] || fail "check printed $(wc -c < "$tmp/text") bytes"
    grep -q "and 1936 more families" "$tmp/text" || fail "no family cap in the text"
    "$pzc" check --json "$tmp/many.pz" > "$tmp/json" || fail "check --json"
    # --json stays under 100 KB (note [check json size]): cut lists say so.
    [ "$(wc -c < "$tmp/json")" -lt 100000 ] || fail "check --json printed $(wc -c < "$tmp/json") bytes"
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
f = d['families'][0]
assert 'commutesWithAllBut' in f and 0 < len(f['commutesWithAllBut']) < 50, f
assert d['familiesTruncated'] and d['familiesTotal'] == 2000 and 0 < len(d['families']) < 2000, d['familiesTotal']
assert d['movesTruncated'] and d['movesTotal'] == 2000, d['movesTotal']
assert len(d['groupOrder']) > 2000 and d['groupOrder'].isdigit()
" "$tmp/json" || fail "check --json truncation"
    # Long names everywhere (within the 512 KiB definition bound): 80 orbits
    # of 30 named positions, 300 families (uncounted, as above), names of 120
    # characters.
    python3 - "$tmp/long.pz" <<'PY'
import sys
long = "n" * 120
lines = ["puzzle %s {" % long, '  powers { 1: "" uncounted; }']
for o in range(80):
    names = " ".join("%s_%d_%d" % (long, o, q) for q in range(30))
    lines.append("  orbit o%d_%s 30 { %s }" % (o, long, names))
for f in range(300):
    lines.append("  move %s%d = o%d_%s (%s_%d_0 %s_%d_1);" % (long, f, f % 80, long, long, f % 80, long, f % 80))
open(sys.argv[1], "w").write("\n".join(lines + ["}"]) + "\n")
PY
    "$pzc" check --json "$tmp/long.pz" > "$tmp/json" || fail "check --json (long names)"
    [ "$(wc -c < "$tmp/json")" -lt 100000 ] || fail "check --json printed $(wc -c < "$tmp/json") bytes (long names)"
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['puzzle'].endswith('...') and len(d['puzzle']) < 120, d['puzzle']
assert d['orbitsTruncated'] and d['orbitsTotal'] == 80
assert len(d['orbits'][0]['positions']) == 30
" "$tmp/json" || fail "check --json truncation (long names)"
    ;;
input-bounds)
    # Definitions and level files are bounded before parsing (note [input
    # bounds]): 512 KiB, 65536 lines, 4096 moves; each refusal names the size
    # and the limit, costs little, and exits 1.
    python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
head = "puzzle big {\n  orbit p 4;\n  move A = p (0 1);\n"
open(d + "/bytes.pz", "w").write(head + "// " + "x" * (512 * 1024) + "\n}\n")
open(d + "/fits.pz", "w").write(head + "// " + "x" * (500 * 1024) + "\n}\n")
open(d + "/lines.pz", "w").write(head + "\n" * 65536 + "}\n")
open(d + "/moves.pz", "w").write(head + "".join("  move B%d = A;\n" % i for i in range(4096)) + "}\n")
open(d + "/powers.pz", "w").write("puzzle big {\n  orbit p 4;\n  powers { 1: \"\"; 2: \"2\"; -1: \"'\"; }\n" + "".join("  move B%d = p (0 1);\n" % i for i in range(1366)) + "}\n")
open(d + "/bytes.yaml", "w").write("# " + "x" * (512 * 1024) + "\n")
open(d + "/level.txt", "w").write("#" * (600 * 1024) + "\n")
PY
    "$pzc" check "$tmp/fits.pz" > /dev/null || fail "a definition under the size limit"
    expect_error "bytes.pz: error: file is 524340 bytes; the limit is 524288 bytes (512 KiB)" -- "$pzc" check "$tmp/bytes.pz"
    expect_error "bytes.yaml: error: file is 524291 bytes; the limit is 524288 bytes" -- "$pzc" check "$tmp/bytes.yaml"
    expect_error "lines.pz: error: file has 65540 lines; the limit is 65536 lines" -- "$pzc" check "$tmp/lines.pz"
    expect_error "moves.pz:4099:8: error: too many moves: 4097 declarations; the limit is 4096 moves" -- "$pzc" check "$tmp/moves.pz"
    expect_error "powers.pz:1369:8: error: too many moves: 1366 declarations of 3 powers each; the limit is 4096" -- "$pzc" check "$tmp/powers.pz"
    expect_error "level.txt: error: file is 614401 bytes; the limit is 524288 bytes" -- "$pzc" solve puzzles/anima.pz --level "$tmp/level.txt"
    expect_error "error: file is over 524288 bytes" -- "$pzc" check /dev/zero
    ;;
grid-memory)
    # note [grid memory budget]: a big open level (a 24x24 field, two red and
    # two blue actors in the corners, their targets in the middle; it has no
    # solution, found after about 10^5 states) under a 512 KiB budget stops
    # cleanly, naming the need and the budget, with the generated solver and
    # the interpreter alike; never bad_alloc, never "no solution".
    python3 - "$tmp/open.txt" <<'PY'
import sys
rows = [["."] * 24 for _ in range(24)]
for x, y, c in ((11, 11, "r"), (12, 11, "b"), (11, 12, "b"), (12, 12, "r")):
    rows[y][x] = c
actors = "R 0 0\nR 23 23\nB 0 23\nB 23 0\n"
open(sys.argv[1], "w").write("\n".join("".join(r) for r in rows) + "\n\n" + actors)
PY
    for mode in "" --interp; do
        expect_error "stopped at the memory budget after [0-9]* states: the search needs [0-9.]* [KM]iB, more than the budget of 512.0 KiB (raise --memory)" -- \
            "$pzc" solve puzzles/anima.pz --level "$tmp/open.txt" --memory 512K $mode
        grep -q "no solution\|bad_alloc\|internal error" "$tmp/err" && fail "memory budget $mode: $(cat "$tmp/err")"
    done
    expect_error "bad --memory 'lots'" -- "$pzc" solve puzzles/anima.pz --level "$tmp/open.txt" --memory lots
    # A level that fits its budget is still solved optimally.
    out=$("$pzc" solve puzzles/anima.pz --level puzzles/anima/levels/1.1-line_dance.txt --memory 4M --json) || fail "solve under a budget: $out"
    contains "$out" -q '"optimal": true' || fail "solve under a budget: $out"
    ;;
slide4-optimal)
    # 14-move (God's number) and 13-move slide4 positions: the solver must
    # return exactly those lengths. Uses the test cache's tables (built once,
    # about 80 s, then reused) unless PZ_SLIDE4_TABLE_DIR names a directory.
    "$pzc" build puzzles/slide4.pz -o "$tmp/solver" > /dev/null || fail "build"
    mkdir -p "${PZ_SLIDE4_TABLE_DIR:-$cache/tables}"
    ln -s "$(cd "${PZ_SLIDE4_TABLE_DIR:-$cache/tables}" && pwd)" "$tmp/tables"
    grep -v '^#' tests/e2e/slide4_optimal.txt > "$tmp/states"
    check_lengths "$tmp/solver" "$tmp/states"
    ;;
slide4-full-table)
    export PZC_CACHE_DIR=$tmp/cache
    mkdir -p "$tmp/cache"
    cp -r "$cache/bin" "$tmp/cache/" 2>/dev/null || true
    "$pzc" solve puzzles/slide4.pz --random 3 --seed 1 --json || fail "solve"
    table=$(ls "$tmp"/cache/tables/slide4-top_rows-*.pzt) || fail "no table"
    # Header: magic(8) version(4) bits(4) entries(8) hash(32), then 16 depth counts.
    counts=$(od -A n -t u8 -j 56 -N 88 "$table" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
    want="1 18 255 3648 48787 605886 6632955 56497090 253413670 199503998 2212092"
    [ "$counts" = "$want" ] || fail "depth counts $counts, facts.md says $want"
    ;;
search-gate)
    # note [search gate]: a definition with no solver on a huge puzzle (5x5
    # Loopover, Megaminx: their patterns and solvers removed) refuses random
    # states at once, with the estimate and what would work; a 3-move
    # scramble is searched, with a warning and progress lines.
    sed '/^ *\(pattern\|solver\) /d' puzzles/loopover5.pz > "$tmp/loopover5.pz"
    sed '/^ *\(pattern\|solver\) /d' puzzles/megaminx.pz > "$tmp/megaminx.pz"
    for p in loopover5 megaminx; do
        ! grep -q "^ *solver " "$tmp/$p.pz" || fail "$p still declares a solver"
        start=$(date +%s%N)
        timeout 20 "$pzc" solve "$tmp/$p.pz" --random 2 > "$tmp/out" 2> "$tmp/err"
        rc=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))
        cat "$tmp/err"
        [ $rc = 1 ] || fail "$p --random: exit $rc, expected 1"
        [ $ms -lt 5000 ] || fail "$p --random took $ms ms to refuse"
        grep -q "random states are out of reach of this optimal search: a random state lies about [0-9]* moves away" "$tmp/err" \
            || fail "$p: no estimate"
        grep -q "years on [0-9]* thread" "$tmp/err" || fail "$p: no time"
        grep -q -- "--sift: a sift solver" "$tmp/err" || fail "$p: no --sift advice"
        grep -q -- "larger --memory" "$tmp/err" || fail "$p: no --memory advice"
        [ ! -s "$tmp/out" ] || fail "$p: printed an answer"
    done
    # The declared sift solver is named when there is one.
    expect_error "--solver quick: sift" -- "$pzc" solve puzzles/megaminx.pz --random 1
    # A given position is searched: a warning, progress lines, the answer.
    "$pzc" solve "$tmp/loopover5.pz" --scramble "R1 C2 R3'" --json > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/err"; fail "3-move scramble"; }
    grep -q '"length": 3' "$tmp/out" || fail "3-move scramble: $(cat "$tmp/out")"
    grep -q "warning: a random state would be out of reach" "$tmp/err" || fail "no warning: $(cat "$tmp/err")"
    grep -q "^search: depth 3 solved" "$tmp/err" || fail "no progress lines: $(cat "$tmp/err")"
    # --force searches random states anyway (bounded here by --max-length).
    "$pzc" solve "$tmp/loopover5.pz" --random 1 --force --max-length 2 > /dev/null 2> "$tmp/err"
    grep -q "no solution of 2 moves or fewer" "$tmp/err" || fail "--force: $(cat "$tmp/err")"
    # --progress prints the estimate of a feasible search; without it, nothing.
    "$pzc" solve tests/puzzles/loopover3.pz --random 1 --progress > /dev/null 2> "$tmp/err" || fail "loopover3 --progress"
    grep -q "^pzc solve: estimate: a random state lies about [0-9]* moves away (counting bound): IDA\* would take" "$tmp/err" \
        || fail "no estimate line: $(cat "$tmp/err")"
    ;;
default-solver)
    # note [default solver]: the first declared solver runs without --solver,
    # whatever its kind; with the optimal one removed from cube2_phased.pz,
    # that is its phased two_phase.
    sed '/^ *solver optimal /d' tests/puzzles/cube2_phased.pz > "$tmp/phased.pz"
    "$pzc" solve "$tmp/phased.pz" --random 2 --seed 3 --json > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/err"; fail "solve"; }
    [ "$(grep -c '"solver": "two_phase"' "$tmp/out")" = 2 ] || fail "not answered by two_phase: $(cat "$tmp/out")"
    ! grep -q '"optimal": true' "$tmp/out" || fail "a phased answer labelled optimal"
    # inspect and build take the same default.
    "$pzc" inspect "$tmp/phased.pz" > "$tmp/inspect" || fail "inspect"
    grep -qi "phase" "$tmp/inspect" || fail "inspect shows no phased plan: $(head -5 "$tmp/inspect")"
    # With an optimal solver declared first, it stays the default.
    "$pzc" solve tests/puzzles/cube2_phased.pz --random 1 --seed 3 --json > "$tmp/out" || fail "solve"
    grep -q '"optimal": true' "$tmp/out" || fail "cube2_phased's default is not its optimal solver: $(cat "$tmp/out")"
    # A sift solver declared first is the default too.
    sed 's/^\( *\)solver optimal { optimal top_row; }/\1solver quick { sift; }\n\1solver optimal { optimal top_row; }/' \
        puzzles/loopover5.pz | sed '0,/solver quick { sift; }/!{/solver quick { sift; }/d}' > "$tmp/sift_first.pz"
    "$pzc" solve "$tmp/sift_first.pz" --random 1 --json > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/err"; fail "sift-first solve"; }
    grep -q '"solver": "quick"' "$tmp/out" || fail "sift-first default: $(cat "$tmp/out")"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "ok: $case_name"
