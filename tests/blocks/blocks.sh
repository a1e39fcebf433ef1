#!/usr/bin/env bash
# blocks.sh CASE PZC — end-to-end cases of the sliding-block family (label
# blocks): every answer is replayed by pzc's interpreter before it is
# printed, so these check optimality against facts and independent searches.
set -uo pipefail
case_name=$1 pzc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case_name): $*" >&2; exit 1; }
lengths() { sed -n 's/.*"length": \([0-9]*\).*/\1/p'; }

case $case_name in
rushhour)
    # check counts each database board's cluster and refuses a count that
    # differs from the file's; solve refuses a length that differs.
    out=$("$pzc" check puzzles/rushhour.pz) || fail "check: $out"
    echo "$out" | grep -q "^level levels:1: 12 pieces, 2332 reachable states, solvable in 60 moves$" || fail "hardest board: $out"
    [ "$(echo "$out" | grep -c '^level ')" = 9 ] || fail "expected 9 levels: $out"
    out=$("$pzc" solve puzzles/rushhour.pz --json) || fail "solve: $out"
    [ "$(echo "$out" | grep -c '"outcome": "solved"')" = 9 ] || fail "not every board solved: $out"
    [ "$(echo "$out" | lengths | tr '\n' ' ')" = "60 58 55 53 51 50 30 15 10 " ] || fail "lengths: $(echo "$out" | lengths)"
    # The reference interpreter's BFS agrees on the hardest board.
    "$pzc" solve puzzles/rushhour.pz --interp --level puzzles/rushhour/levels.txt --json | head -1 | grep -q '"length": 60' ||
        fail "interpreter on the hardest board"
    # A board whose red car is walled in: no solution, said with the count.
    echo "ooooooooooooAAxoooBoooooBooooooooooo" > "$tmp/walled.txt"
    "$pzc" solve puzzles/rushhour.pz --level "$tmp/walled.txt" > "$tmp/out" 2> "$tmp/err" && fail "walled board solved"
    grep -q "no solution: every one of the 2 reachable states was searched" "$tmp/err" || fail "walled: $(cat "$tmp/err")"
    # A database line whose count is wrong is refused.
    echo "61 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332" > "$tmp/wrong.txt"
    "$pzc" solve puzzles/rushhour.pz --level "$tmp/wrong.txt" > "$tmp/out" 2> "$tmp/err" && fail "wrong length accepted"
    grep -q "60 moves, but its level file says 61" "$tmp/err" || fail "wrong length: $(cat "$tmp/err")"
    echo "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2333" > "$tmp/wrong.txt"
    "$pzc" check puzzles/rushhour.pz --level "$tmp/wrong.txt" > "$tmp/out" 2> "$tmp/err" && fail "wrong count accepted"
    grep -q "2332 reachable states, but its file says 2333" "$tmp/err" || fail "wrong count: $(cat "$tmp/err")"
    ;;
klotski)
    # The classic layout in the three metrics (facts.md): 116, 90, 81 moves;
    # 25,955 positions with identical pieces identical.
    for pair in klotski_step:116 klotski_slide:90 klotski:81; do
        def=puzzles/${pair%%:*}.pz want=${pair##*:}
        out=$("$pzc" solve "$def" --json) || fail "$def: $out"
        [ "$(echo "$out" | lengths)" = "$want" ] || fail "$def: $out"
    done
    "$pzc" check puzzles/klotski.pz | grep -q "^level start: 10 pieces, 25955 reachable states, solvable in 81 moves$" ||
        fail "klotski count"
    ;;
eight)
    # Three solvers, two engines: IDA* with additive databases + reflection,
    # IDA* with Manhattan + conflicts (tile engine), breadth-first (board
    # engine): the same lengths on random states, and the interpreter's BFS
    # on a few.
    for solver in pdb manhattan bfs; do
        "$pzc" solve puzzles/eight.pz --solver $solver --random 40 --seed 7 --json > "$tmp/$solver" || fail "$solver"
        [ "$(lengths < "$tmp/$solver" | wc -l)" = 40 ] || fail "$solver: $(cat "$tmp/$solver")"
    done
    cmp <(lengths < "$tmp/pdb") <(lengths < "$tmp/bfs") || fail "pdb and bfs lengths differ"
    cmp <(lengths < "$tmp/manhattan") <(lengths < "$tmp/bfs") || fail "manhattan and bfs lengths differ"
    "$pzc" solve puzzles/eight.pz --interp --random 5 --seed 7 --json | lengths > "$tmp/interp"
    cmp "$tmp/interp" <(lengths < "$tmp/bfs" | head -5) || fail "interpreter lengths differ"
    out=$("$pzc" solve puzzles/eight.pz --solver pdb --state "8 6 7 2 5 4 3 0 1" --json) || fail "27"
    [ "$(echo "$out" | lengths)" = 27 ] || fail "8 6 7 2 5 4 3 0 1: $out"
    # check enumerates the 8-puzzle (facts.md: 181,440 states, the farthest
    # 31 moves away, 2 of them).
    "$pzc" check puzzles/eight.pz | grep -q "breadth-first from the solved board: 181440 states, the farthest 31 moves away (2 positions)" ||
        fail "8-puzzle enumeration: $("$pzc" check puzzles/eight.pz)"
    ;;
fifteen)
    # Korf's first ten instances (korf100.txt: id, length, nodes, cells) to
    # their published lengths, with a small 5-5-5 partition.
    head -13 tests/blocks/korf100.txt | grep -v '^#' | while read -r id length nodes cells; do
        echo "$cells"
    done > "$tmp/states"
    args=()
    while read -r s; do args+=(--state "$s"); done < "$tmp/states"
    "$pzc" solve tests/puzzles/fifteen_555.pz "${args[@]}" --json > "$tmp/out" || fail "solve: $(cat "$tmp/out")"
    got=$(lengths < "$tmp/out" | tr '\n' ' ')
    want=$(grep -v '^#' tests/blocks/korf100.txt | head -10 | awk '{printf "%s ", $2}')
    [ "$got" = "$want" ] || fail "lengths $got, published $want"
    # --max-nodes: instance 1 (57 moves) given up early, with the bound proved.
    "$pzc" solve tests/puzzles/fifteen_555.pz --state "$(head -1 "$tmp/states")" --max-nodes 1000 --json > "$tmp/out" 2> "$tmp/err" &&
        fail "a solve stopped by --max-nodes exits 0"
    grep -q '"outcome": "limit"' "$tmp/out" || fail "--max-nodes: $(cat "$tmp/out")"
    bound=$(sed -n 's/.*"lower-bound": \([0-9]*\).*/\1/p' "$tmp/out")
    [ -n "$bound" ] && [ "$bound" -le 57 ] && [ "$bound" -ge 41 ] || fail "--max-nodes: lower bound '$bound' not in 41..57"
    grep -q "no solution shorter than $bound moves" "$tmp/err" || fail "--max-nodes message: $(cat "$tmp/err")"
    ;;
bad-input)
    expect() {  # expect MESSAGE -- COMMAND...: fails with MESSAGE on stderr
        local msg=$1; shift 2
        "$@" > "$tmp/out" 2> "$tmp/err" && fail "succeeded: $*"
        grep -qF -- "$msg" "$tmp/err" || fail "$*: expected '$msg', got: $(cat "$tmp/err")"
    }
    expect "cannot be solved: its permutation parity" -- "$pzc" solve puzzles/eight.pz --state "0 2 1 3 4 5 6 7 8"
    expect "tile '1' is given twice" -- "$pzc" solve puzzles/eight.pz --state "1 1 2 3 4 5 6 7 0"
    expect "move U takes the blank off the board" -- "$pzc" solve puzzles/eight.pz --scramble "U"
    expect "'X' is not a move" -- "$pzc" solve puzzles/eight.pz --scramble "R X"
    expect "declares no solver 'nope'" -- "$pzc" solve puzzles/eight.pz --solver nope --random 1
    expect "takes --level FILE" -- "$pzc" solve puzzles/klotski.pz --state "1 2 3"
    # Additive databases on a board that is not an n-puzzle: a located error.
    sed 's/solver bfs { bfs; }/pattern p { A; }\n  solver add { additive p; }/' puzzles/klotski.pz > "$tmp/k.pz"
    expect "k.pz:" -- "$pzc" check "$tmp/k.pz"
    grep -q "'additive' tables the distance to the solved board" "$tmp/err" || fail "additive: $(cat "$tmp/err")"
    ;;
run-inspect)
    # R then D: the blank goes right, then down (tile 1 left, tile 4 up).
    out=$("$pzc" run puzzles/eight.pz "R D") || fail "run"
    [ "$out" = "$(printf '1 4 2\n3 . 5\n6 7 8')" ] || fail "run R D: $out"
    "$pzc" run puzzles/eight.pz "R L" | tail -1 | grep -q "^solved$" || fail "R L is not back to solved"
    "$pzc" inspect puzzles/fifteen.pz --header | grep -q "kNeighbours" || fail "inspect --header"
    "$pzc" inspect puzzles/rushhour.pz | grep -q "board engine\|pz/blocks/board.hpp" || fail "inspect rushhour"
    ;;
domino34)
    # A 4 x 3 board with a domino (tests/puzzles/blocks_domino34.pz): the
    # generated board engine's optimal lengths equal the interpreter's BFS.
    lv=(--level tests/blocks/domino34/1.txt --level tests/blocks/domino34/2.txt)
    "$pzc" solve tests/puzzles/blocks_domino34.pz "${lv[@]}" --json > "$tmp/engine" || fail "engine"
    "$pzc" solve tests/puzzles/blocks_domino34.pz "${lv[@]}" --interp --json > "$tmp/interp" || fail "interp"
    [ "$(lengths < "$tmp/engine" | tr '\n' ' ')" = "16 18 " ] || fail "engine lengths: $(cat "$tmp/engine")"
    cmp <(lengths < "$tmp/engine") <(lengths < "$tmp/interp") || fail "engine and interpreter differ"
    ;;
draw)
    # A solution's strip ends solved: its last frame says so, the others not.
    sed -n 9p puzzles/rushhour/levels.txt > "$tmp/easy.txt"
    sol=$("$pzc" solve puzzles/rushhour.pz --level "$tmp/easy.txt" --json | sed 's/.*"solution": "\([^"]*\)".*/\1/')
    [ -n "$sol" ] || fail "no solution"
    "$pzc" draw puzzles/rushhour.pz --level "$tmp/easy.txt" --solution "$sol" -o "$tmp/strip.svg" || fail "draw"
    [ "$(grep -c 'class="frame"' "$tmp/strip.svg")" = 11 ] || fail "expected 11 frames"
    [ "$(grep -c 'data-solved="true"' "$tmp/strip.svg")" = 1 ] || fail "not exactly one solved frame"
    grep 'id="frame-10"' "$tmp/strip.svg" | grep -q 'data-solved="true"' || fail "the last frame is not solved"
    grep -q 'id="f0-piece-A"' "$tmp/strip.svg" || fail "piece ids"
    # A --state draws its tiles where it says; identical runs, identical bytes.
    "$pzc" draw puzzles/fifteen.pz --state "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3" -o "$tmp/a.svg" || fail "draw state"
    "$pzc" draw puzzles/fifteen.pz --state "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3" -o "$tmp/b.svg" || fail "draw state"
    cmp -s "$tmp/a.svg" "$tmp/b.svg" || fail "two runs differ"
    grep -q 'id="piece-14" class="piece" data-piece="14" data-type="14" data-x="0" data-y="0"' "$tmp/a.svg" || fail "tile 14"
    "$pzc" draw puzzles/klotski.pz --scramble "AD1" -o "$tmp/c.svg" 2> "$tmp/err" && fail "an illegal move drawn"
    grep -q "not legal" "$tmp/err" || fail "illegal move: $(cat "$tmp/err")"
    ;;
twentyfour)
    # Opt-in (tests/blocks/CMakeLists.txt): three positions 60 random blank
    # moves from solved, the 6-6-6-6 databases + reflection against IDA* with
    # Manhattan distance + conflicts on the same positions.
    args=()
    for seed in 1 2 3; do
        args+=(--scramble "$(python3 -c "
import random
random.seed($seed); x = y = 0; last = None; out = []
step = {'U': (0, -1), 'D': (0, 1), 'L': (-1, 0), 'R': (1, 0)}; back = {'U': 'D', 'D': 'U', 'L': 'R', 'R': 'L'}
while len(out) < 60:
    m = random.choice('UDLR'); nx, ny = x + step[m][0], y + step[m][1]
    if last and back[m] == last or not (0 <= nx < 5 and 0 <= ny < 5): continue
    x, y, last = nx, ny, m; out.append(m)
print(' '.join(out))")")
    done
    "$pzc" solve puzzles/twentyfour.pz --solver korf "${args[@]}" --json > "$tmp/korf" || fail "korf"
    "$pzc" solve puzzles/twentyfour.pz --solver manhattan "${args[@]}" --json > "$tmp/md" || fail "manhattan"
    [ "$(lengths < "$tmp/korf" | wc -l)" = 3 ] || fail "$(cat "$tmp/korf")"
    cmp <(lengths < "$tmp/korf") <(lengths < "$tmp/md") || fail "lengths differ: $(lengths < "$tmp/korf") vs $(lengths < "$tmp/md")"
    ;;
*) fail "unknown case" ;;
esac
echo "ok ($case_name)"
