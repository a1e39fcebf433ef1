#!/usr/bin/env bash
# e2e.sh CASE PZC CACHEDIR [BFS] — one end-to-end case; see CMakeLists.txt.
set -uo pipefail
case_name=$1 pzc=$2 cache=$3 bfs=${4:-}
puzzle=tests/puzzles/loopover3.pz
export PZC_CACHE_DIR=$cache
mkdir -p "$cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_error() {  # expect_error PATTERN -- command...: non-zero exit and PATTERN on stderr
    local pattern=$1; shift 2
    "$@" > "$tmp/out" 2> "$tmp/err" && fail "expected failure: $*"
    grep -q -- "$pattern" "$tmp/err" || { cat "$tmp/err" >&2; fail "stderr lacks '$pattern': $*"; }
}

# check_lengths SOLVER STATES: the solver's solution lengths for the lines
# "<depth> ; <state>" of STATES equal <depth> (solutions are replayed by the
# solver itself, so a length equal to the true distance means optimal).
check_lengths() {
    local solver=$1 states=$2
    sed 's/^[0-9]* ; //' "$states" | "$solver" --stdin --machine --table-dir "$tmp/tables" > "$tmp/solved" || fail "solver failed"
    paste -d '|' "$states" "$tmp/solved" | awk -F'|' '
        { split($1, want, " ; "); split($2, got, " ; "); n = split(got[2], m, " ") - 1
          if (n != want[1]) { print "state", want[2], "distance", want[1], "solver length", n; bad = 1 }
          count[want[1]]++ }
        END { for (d in count) printf "depth %s: %d states\n", d, count[d]; exit bad }' || fail "non-optimal lengths"
}

case $case_name in
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
    echo "$out" | grep -q '"length": 0' || fail "solved position: $out"
    # R1 then R1x2 is a full turn: already solved.
    out=$("$pzc" solve $puzzle --scramble "R1 R1x2") || fail "solve full turn"
    echo "$out" | grep -q "already solved" || fail "expected solved: $out"
    # Exponents of any size reduce modulo the order (3): 10^9 + 1 = 2, so the
    # answer is R1 (a clamped 10^9 = 1 gave R1x2); 10^21 + 2 = 0: solved.
    out=$("$pzc" solve $puzzle --scramble "R1^1000000001" --json) || fail "solve a big exponent"
    echo "$out" | grep -q '"solution": "R1",' || fail "R1^1000000001 is R1x2, solved by R1: $out"
    out=$("$pzc" solve $puzzle --scramble "(R1 C1)^-100000000000000000000000000002") || fail "solve a huge exponent"
    echo "$out" | grep -q "already solved" && fail "(R1 C1)^-(10^29+2) is not solved: $out"
    out=$("$pzc" solve $puzzle --scramble "R1^1000000000000000000002") || fail "solve a huge exponent"
    echo "$out" | grep -q "already solved" || fail "R1^(10^21+2) is solved: $out"
    # A four-move scramble needs at most four.
    out=$("$pzc" solve $puzzle --scramble "R1 C2 R3x2 C1") || fail "solve 4"
    echo "$out"
    echo "$out" | grep -Eq '^  [0-4] moves \(optimal\)' || fail "length > 4: $out"
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
    echo "$out" | grep -q '"solution": "R1x2"' || fail "expected R1x2: $out"
    ;;
bad-input)
    expect_error "error" -- "$pzc" solve $puzzle --scramble "R1 Q7"
    expect_error "not a permutation" -- "$pzc" solve $puzzle --state "0 0 1 2 3 4 5 6 7"
    expect_error "has 9 numbers" -- "$pzc" solve $puzzle --state "0 1 2"
    expect_error "not a number" -- "$pzc" solve $puzzle --state "0 1 2 x 4 5 6 7 8"
    # A single transposition is odd; 3x3 Loopover moves are 3-cycles (even).
    expect_error "cannot be reached" -- "$pzc" solve $puzzle --state "1 0 2 3 4 5 6 7 8"
    expect_error "usage" -- "$pzc" solve $puzzle
    expect_error "cannot read" -- "$pzc" solve tests/e2e/no-such-puzzle.pz --scramble "R1"
    ;;
corrupt-cache)
    export PZC_CACHE_DIR=$tmp/cache
    mkdir -p "$tmp/cache"
    cp -r "$cache/bin" "$tmp/cache/" 2>/dev/null || true
    want=$("$pzc" solve $puzzle --scramble "R1 C2 R3" --json | sed 's/"nodes".*//') || fail "first solve"
    table=$(ls "$tmp"/cache/tables/*.pzt) || fail "no table file cached"
    # Flip bytes in the data: detected by the checksum, reported, rebuilt.
    printf '\x5a\x5a\x5a\x5a' | dd of="$table" bs=1 seek=300 conv=notrunc status=none
    got=$("$pzc" solve $puzzle --scramble "R1 C2 R3" --json 2> "$tmp/err" | sed 's/"nodes".*//')
    grep -q "unusable (checksum mismatch); rebuilding" "$tmp/err" || { cat "$tmp/err"; fail "corruption not reported"; }
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
    ;;
build-binary)
    "$pzc" build $puzzle -o "$tmp/solver" > /dev/null || fail "build"
    out=$("$tmp/solver" --scramble "C1 R2" --json --table-dir "$tmp/tables") || fail "run built solver"
    echo "$out" | grep -q '"length": 2' || fail "expected length 2: $out"
    expect_error "unknown move" -- "$tmp/solver" --scramble "C9" --table-dir "$tmp/tables"
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
    echo "$out" | grep -q "^INJECTED" && fail "the payload in the path ran: $out"
    echo "$out" | grep -q '"length": 2' || fail "expected length 2: $out"
    name=$'a"; inline static int pwned2 = (__builtin_puts("INJECTED LEVEL"), 0); const char* b = "\n#ifndef Q\nstatic int pwned3 = (__builtin_puts("INJECTED LINE"), 0);\n#endif\n'
    cp puzzles/anima/levels/1.1-line_dance.txt "$tmp/$payload/$name.txt"
    "$pzc" solve puzzles/anima.pz --level "$tmp/$payload/$name.txt" --emit "$tmp/grid.cpp" || fail "emit"
    ${CXX:-c++} -std=c++20 -O1 -I runtime/include "$tmp/grid.cpp" -o "$tmp/grid" 2> "$tmp/err" || { cat "$tmp/err" >&2; fail "the grid solver for a hostile level name does not compile"; }
    out=$("$tmp/grid" 2>&1) || fail "run grid solver: $out"
    echo "$out" | grep -q "^INJECTED" && fail "the payload in the level name ran: $out"
    echo "$out" | grep -q 'solved' || fail "the hostile-named level was not solved: $out"
    ;;
grid-limits)
    # note [grid depth limit]: a 1x257 corridor needs 256 presses, one more
    # than A*'s one-byte g; the answer must be 256 (optimal), never "no
    # solution", with the generated solver and the interpreter alike.
    { printf 'r'; printf '.%.0s' $(seq 256); printf '\n\nR 256 0\n'; } > "$tmp/corridor.txt"
    for mode in "" --interp; do
        out=$("$pzc" solve puzzles/anima.pz --level "$tmp/corridor.txt" --json $mode 2>&1) || fail "corridor $mode: $out"
        echo "$out" | grep -q '"length": 256, "optimal": true' || fail "corridor $mode: expected 256 moves: $(echo "$out" | tail -c 300)"
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
        echo "$out" | grep -q '"length": 2' || fail "puzzle $(n 0): expected length 2: $out"
        echo "puzzle $(n 0): $out"
    done
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
*)
    fail "unknown case $case_name"
    ;;
esac
echo "ok: $case_name"
