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
hostile-paths)
    # Cache directories with a quote and a command substitution in their
    # names: pzc runs its solver and the compiler without a shell, so nothing
    # runs and the solve works (issue 13 item 9).
    evil="$tmp/q'\$(touch $tmp/pwned)'\`touch $tmp/pwned2\`"
    mkdir -p "$evil"
    cp -r "$cache/bin" "$evil/" 2>/dev/null || true
    out=$(PZC_CACHE_DIR="$evil" "$pzc" solve $puzzle --scramble "R1 C2" --json) || fail "solve with a hostile PZC_CACHE_DIR"
    echo "$out" | grep -q '"length": 2' || fail "expected length 2: $out"
    mkdir -p "$evil/home/.cache/pzc"
    cp -r "$cache/bin" "$evil/home/.cache/pzc/" 2>/dev/null || true
    out=$(env -u PZC_CACHE_DIR -u XDG_CACHE_HOME HOME="$evil/home" "$pzc" solve $puzzle --scramble "C1" --json) || fail "solve with a hostile HOME"
    echo "$out" | grep -q '"length": 1' || fail "expected length 1: $out"
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
    echo "$out" | grep -q '"length": 2' || fail "planted temp file changed the answer: $out"
    [ "$(ls "$tmp/t" | wc -l)" = "$before" ] || fail "pzc solve created files in TMPDIR"
    out=$(TMPDIR="$tmp/no/such/dir" "$pzc" solve $puzzle --scramble "C2 R3" --json) || fail "solve with a missing TMPDIR"
    echo "$out" | grep -q '"length": 2' || fail "unexpected: $out"
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
    ;;
cached-binary)
    # Cached solvers are checked against their build stamp before they run
    # (note [build stamps]); a damaged one is rebuilt; a solver that lies or
    # breaks the protocol is an internal error, never a wrong answer
    # (issue 13 items 7, 13, 14).
    export PZC_CACHE_DIR=$tmp/cache
    mkdir -p "$tmp/cache"
    cp -r "$cache/bin" "$tmp/cache/" 2>/dev/null || true
    "$pzc" solve $puzzle --scramble "C2 R3" > /dev/null || fail "first solve"
    bin=$(ls "$tmp"/cache/bin/*.stamp | sed 's/\.stamp$//' | while read -r b; do [ -x "$b" ] && echo "$b"; done | head -1)
    [ -n "$bin" ] || fail "no stamped binary in the cache"
    for damage in empty truncated; do
        if [ $damage = empty ]; then : > "$bin"; else truncate -s 4096 "$bin"; fi
        out=$("$pzc" solve $puzzle --scramble "C2 R3" --json 2> "$tmp/err") || { cat "$tmp/err"; fail "solve after $damage binary"; }
        grep -q "unusable" "$tmp/err" || { cat "$tmp/err"; fail "$damage binary not reported"; }
        echo "$out" | grep -q '"length": 2' || fail "after $damage binary: $out"
    done
    # Fake solvers with valid stamps: what they print must not be believed.
    fake() {  # fake SCRIPT-BODY: install a shell script as the cached binary, stamped
        cp "$bin" "$tmp/real"
        printf '#!/bin/sh\ncat > /dev/null\n%s\n' "$1" > "$bin"
        python3 - "$bin" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
h = 1469598103934665603
for b in data:
    h = ((h ^ b) * 1099511628211) % (1 << 64)
open(sys.argv[1] + ".stamp", "w").write("pzc-build-stamp 1 %d %016x\n" % (len(data), h))
PY
    }
    fake "echo 'P 0 1 2 3 4 5 6 7 8 ; M ; N 1 ; S 0.1'"
    expect_error "internal error: the solver printed an unreadable result" -- "$pzc" solve $puzzle --scramble "C2 R3"
    # Claims the position is solved: pzc replays against its own state.
    fake "echo '{\"type\": \"solution\", \"index\": 0, \"moves\": [], \"nodes\": 1, \"seconds\": 0.1}'"
    expect_error "internal error: the solution does not solve the position" -- "$pzc" solve $puzzle --scramble "C2 R3"
    grep -q "already solved" "$tmp/out" && fail "printed a wrong answer"
    fake "echo '{\"type\": \"solution\", \"index\": 0, \"moves\": [99], \"nodes\": 1, \"seconds\": 0.1}'"
    expect_error "move number 99" -- "$pzc" solve $puzzle --scramble "C2 R3"
    fake "true"
    expect_error "answered 0 of 1 positions" -- "$pzc" solve $puzzle --scramble "C2 R3"
    fake 'kill -SEGV $$'
    expect_error "killed by signal 11" -- "$pzc" solve $puzzle --scramble "C2 R3"
    grep -q "status 3[0-9][0-9][0-9]" "$tmp/err" && fail "raw wait status printed"
    fake "exit 4"
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
