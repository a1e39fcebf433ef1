#!/usr/bin/env bash
# library.sh CASE PZC CACHEDIR BFS — one puzzle-library case; see CMakeLists.txt.
set -uo pipefail
case_name=$1 pzc=$2 cache=$3 bfs=$4
export PZC_CACHE_DIR=$cache
mkdir -p "$cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_order() {  # expect_order FILE ORDER
    local got
    got=$("$pzc" check "$1" | sed -n 's/^group order: //p') || fail "check $1"
    [ "$got" = "$2" ] || fail "$1: group order $got, expected $2"
    echo "$1: group order $got"
}
# expect_depths FILE MAXDEPTH "N0 N1 ...": BFS depth counts equal a published distribution.
expect_depths() {
    local got
    got=$("$bfs" "$1" "$2" | sed -n 's/^count [0-9]* //p' | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$3" ] || fail "$1: states by depth $got, expected $3"
    echo "$1: states by depth $got"
}
# optimal_lengths FILE MAXDEPTH EVERY: the solver's lengths for every EVERY-th
# state within MAXDEPTH equal their BFS distance (each solution is replayed
# by the solver, so a length equal to the distance is optimal).
optimal_lengths() {
    "$bfs" "$1" "$2" "$3" | grep ' ; ' > "$tmp/states" || fail "bfs $1"
    "$pzc" build "$1" -o "$tmp/solver" > /dev/null || fail "build $1"
    # The tables go to the case's cache, where the later solves find them.
    sed 's/^[0-9]* ; //' "$tmp/states" | "$tmp/solver" --stdin --machine --threads 1 > "$tmp/solved" || fail "solver failed"
    [ "$(wc -l < "$tmp/solved")" = "$(wc -l < "$tmp/states")" ] || fail "$1: not every state was solved"
    # Results are JSON lines {"type": "solution", "index": I, "moves": [...]}, matched by index.
    sed -n 's/.*"index": \([0-9]*\), "moves": \[\([0-9, ]*\)\].*/\1|\2/p' "$tmp/solved" > "$tmp/lengths"
    [ "$(wc -l < "$tmp/lengths")" = "$(wc -l < "$tmp/states")" ] || fail "$1: unexpected solver output: $(head -3 "$tmp/solved")"
    awk -F'|' 'NR == FNR { split($0, want, " ; "); dist[NR - 1] = want[1]; state[NR - 1] = want[2]; next }
        { n = ($2 == "") ? 0 : split($2, m, ", ")
          if (n != dist[$1]) { print "state", state[$1], "distance", dist[$1], "solver length", n; bad = 1 }
          count[dist[$1]]++ }
        END { for (d in count) printf "depth %s: %d states\n", d, count[d]; exit bad }' "$tmp/states" "$tmp/lengths" || fail "$1: non-optimal lengths"
}
# scrambles FILE MAXLEN SCRAMBLE...: each is solved (and verified by pzc) in at most MAXLEN moves.
scrambles() {
    local file=$1 max=$2
    shift 2
    for s in "$@"; do
        out=$("$pzc" solve "$file" --scramble "$s" --json) || fail "solve $file '$s'"
        len=$(echo "$out" | sed 's/.*"length": \([0-9]*\).*/\1/')
        [ "$len" -le "$max" ] || fail "$file '$s': $len moves, more than God's number $max"
        echo "$file '$s': $len moves"
    done
}

# sift_random FILE SOLVER N MAXLEN: N random states solved by the sift solver
# (pzc replays each), none labelled optimal, each within MAXLEN moves, and
# the same answers on a second run (the table depends on the definition only).
sift_random() {
    local file=$1 solver=$2 n=$3 max=$4 first second
    first=$("$pzc" solve "$file" --solver "$solver" --random "$n" --seed 7 --json) || fail "sift solve $file"
    [ "$(echo "$first" | grep -c '"optimal": false, "solver": "'"$solver"'"')" = "$n" ] || fail "$file: $first"
    echo "$first" | sed 's/.*"length": \([0-9]*\).*/\1/' | awk -v max="$max" -v f="$file" \
        '{ sum += $1; if ($1 > max || $1 == 0) { print f ": sift length " $1 " (limit " max ")"; bad = 1 } }
         END { printf "%s: sift mean length %.1f over %d states\n", f, sum / NR, NR; exit bad }' || fail "$file: sift lengths"
    second=$("$pzc" solve "$file" --solver "$solver" --random "$n" --seed 7 --json) || fail "sift solve $file again"
    [ "$(echo "$first" | sed 's/"seconds": [0-9.e-]*//')" = "$(echo "$second" | sed 's/"seconds": [0-9.e-]*//')" ] ||
        fail "$file: the sift solver answered differently on a second run"
}

# same_on_both_paths FILE SCRAMBLE...: the solver built for this machine
# (-march=native: vpermb/pshufb lane kernels) and the portable build
# (PZC_MARCH=x86-64: the loop path of pz/lanes.hpp) print the same solutions.
same_on_both_paths() {
    local file=$1 native portable
    shift
    for s in "$@"; do
        native=$("$pzc" solve "$file" --scramble "$s" --json | sed 's/"seconds": [0-9.e-]*//; s/"nodes": [0-9]*//') || fail "solve $file '$s'"
        portable=$(PZC_MARCH=x86-64 "$pzc" solve "$file" --scramble "$s" --json | sed 's/"seconds": [0-9.e-]*//; s/"nodes": [0-9]*//') ||
            fail "portable solve $file '$s'"
        [ "$native" = "$portable" ] || fail "$file '$s': native $native, portable $portable"
        echo "$file '$s': native and portable agree: $native"
    done
}

case $case_name in
orders)
    # Published figures; the sources are cited in each definition's header.
    expect_order puzzles/cube2.pz 3674160
    expect_order puzzles/cube2_qtm.pz 3674160
    expect_order puzzles/floppy.pz 192
    expect_order puzzles/dino.pz 239500800
    expect_order puzzles/topspin.pz 2432902008176640000
    expect_order puzzles/hungarian_rings.pz 523022617466601111760007224100074291200000000
    # 5x5 Loopover: A25 (every move a 5-cycle), 25!/2.
    expect_order puzzles/loopover5.pz 7755605021665492992000000
    # Pyraminx, with and without tips: 6!/2 * 2^5 * 3^4 (* 3^4) (Jaap's
    # pyraminx page; Wikipedia "Pyraminx").
    expect_order puzzles/pyraminx.pz 933120
    expect_order puzzles/pyraminx_tips.pz 75582720
    # Skewb: 3,149,280 (Wikipedia "Skewb"); Ivy Cube: 29,160 (Wikipedia "Ivy Cube").
    expect_order puzzles/skewb.pz 3149280
    expect_order puzzles/ivy.pz 29160
    # 3x3x2 Domino with the U/D centres fixed: (8!)^2 (Dik Winter, Cube-Lovers
    # 1992; Wikipedia's 406,425,600 is this over the 4 turns about U-D).
    expect_order puzzles/domino332.pz 1625702400
    # 3x3 Loopover: A9 (facts.md; Jaap's loopover page).
    expect_order puzzles/loopover3.pz 181440
    # Megaminx: 20!/2 * 3^19 * 30!/2 * 2^29 (Wikipedia "Megaminx", OEIS A309113).
    expect_order puzzles/megaminx.pz 100669616553523347122516032313645505168688116411019768627200000000000
    # 4x4x4 with identical centres: distinct states 7.4e45 (Wikipedia
    # "Rubik's Revenge": 8! 3^7 24!^2 / (4!^6 24)); DBL is fixed.
    got=$("$pzc" check puzzles/cube4.pz | sed -n 's/^distinct states: \([0-9]*\) .*/\1/p')
    [ "$got" = 7401196841564901869874093974498574336000000000 ] || fail "cube4: distinct states $got"
    echo "puzzles/cube4.pz: distinct states $got"
    "$pzc" run puzzles/topspin.pz "S T S'" | grep -q '^solved: no' || fail "topspin run"
    "$pzc" run puzzles/hungarian_rings.pz "A^20 B^20" | grep -q '^solved: yes' || fail "hungarian_rings run"
    ;;
loopover5)
    # 25 tiles in byte lanes. Optimal lengths of every 53rd state within 4
    # moves against BFS; scrambles solved and verified; the vector and the
    # portable lane paths give the same answers.
    optimal_lengths puzzles/loopover5.pz 4 53
    scrambles puzzles/loopover5.pz 8 "R1 C2 R3' C4 R5 C1' R2 C3'" "C5 C5 R4 R4' C1 R1 C1' R1'"
    same_on_both_paths puzzles/loopover5.pz "R1 C2 R3' C4 R5 C1'" "C3 R2' C1 R5 C4'"
    # Random states: the sift solver (bounded; about 62 moves).
    sift_random puzzles/loopover5.pz quick 10 120
    # Its table, level by level: 25 tiles, the last two in place by then (A25).
    out=$("$pzc" inspect puzzles/loopover5.pz --solver quick) || fail "inspect --solver quick"
    echo "$out" | grep -q '^sift table: 25 levels, 299 sequences over 20 metric moves' || fail "inspect: $out"
    [ "$(echo "$out" | grep -c 'in place once the pieces before it are')" = 2 ] || fail "inspect: $out"
    echo "$out" | grep -q '^directions per position: 96 ' || fail "inspect directions: $out"
    ;;
topspin)
    # 20 discs in byte lanes: optimal lengths within 7 moves against BFS
    # (the portable path is compared on loopover5 only: a second compile).
    optimal_lengths puzzles/topspin.pz 7 17
    scrambles puzzles/topspin.pz 10 "S T S S T S' S' T S T"
    ;;
hungarian_rings)
    # 38 balls in 64 byte lanes: optimal lengths within 7 moves.
    optimal_lengths puzzles/hungarian_rings.pz 7 7
    scrambles puzzles/hungarian_rings.pz 9 "A B A B' A' B A A B"
    ;;
cube2)
    # Wikipedia "Pocket Cube" (half-turn metric, fixed corner): 1, 9, 54, 321,
    # 1847, 9992, 50136, 227536 positions at distance 0..7; God's number 11.
    expect_depths puzzles/cube2.pz 7 "1 9 54 321 1847 9992 50136 227536"
    optimal_lengths puzzles/cube2.pz 6 97
    scrambles puzzles/cube2.pz 11 "R U2 F' R2 U F2 R' U' F R2 U2 F" "F R U R' U' F' R U R' U' R2 F2 U"
    ;;
cube2_qtm)
    # Quarter-turn metric: 1, 6, 27, 120, 534, 2256, 8969, 33058 at 0..7
    # (Wikipedia "Pocket Cube"); God's number 14.
    expect_depths puzzles/cube2_qtm.pz 7 "1 6 27 120 534 2256 8969 33058"
    optimal_lengths puzzles/cube2_qtm.pz 6 29
    scrambles puzzles/cube2_qtm.pz 14 "R U' F R' U F' R U R F' U' R" "U R U R' F' U' F R U' R'"
    ;;
floppy)
    # The whole group (192 states, God's number 8): every state's length.
    expect_depths puzzles/floppy.pz 20 "1 4 10 24 53 64 31 4 1"
    optimal_lengths puzzles/floppy.pz 20 1
    ;;
dino)
    # States within 5 moves (16 moves: 8 corners, both directions).
    optimal_lengths puzzles/dino.pz 5 211
    scrambles puzzles/dino.pz 20 "UFR URB' DLB DFL' UBL ULF DRF' DBR UFR' DLB'"
    ;;
slide4_rows)
    # Identical pieces: rows of one colour. Distinct states 16!/4!^4 =
    # 63,063,000 (the multinomial coefficient) next to the group order 16!;
    # the BFS over distinct states within 5 moves and the solver's optimal
    # lengths of every 97th of them; scrambles solved and replayed by pzc.
    expect_order puzzles/slide4_rows.pz 20922789888000
    got=$("$pzc" check puzzles/slide4_rows.pz | sed -n 's/^distinct states: \([0-9]*\) .*/\1/p')
    [ "$got" = 63063000 ] || fail "slide4_rows: distinct states $got, expected 63063000"
    echo "puzzles/slide4_rows.pz: distinct states $got"
    optimal_lengths puzzles/slide4_rows.pz 5 97
    scrambles puzzles/slide4_rows.pz 12 "R1 C2 R3x3 C4 R2x2 C1x3 R4" "C1 C2 C3 C4 R1x2 R3"
    ;;
pyraminx)
    # States by distance 1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467,
    # 166276, 2457, 32 (Jaap Scherphuis, jaapsch.net/puzzles/pyraminx.htm;
    # God's number 11; the BFS of all 933,120 takes 30 s, so CI checks up to
    # depth 8); the solver's lengths for every 101st state within 7; with the
    # tips, every 97th within 5.
    expect_depths puzzles/pyraminx.pz 8 "1 8 48 288 1728 9896 51808 220111 480467"
    optimal_lengths puzzles/pyraminx.pz 7 101
    optimal_lengths puzzles/pyraminx_tips.pz 5 97
    scrambles puzzles/pyraminx_tips.pz 15 "U L' R B' U' l r' b"
    ;;
skewb)
    # States within 6 moves (every 37th); scrambles within God's number 11.
    optimal_lengths puzzles/skewb.pz 6 37
    scrambles puzzles/skewb.pz 11 "R U L' B R' U' L B' R U'" "U' B L R' U B' L'"
    ;;
ivy)
    # The whole group (29,160): every state's length.
    expect_depths puzzles/ivy.pz 20 "1 8 48 288 1640 7582 15262 4221 110"
    optimal_lengths puzzles/ivy.pz 20 1
    ;;
domino332)
    # States within 6 moves (every 53rd); scrambles solved and replayed.
    optimal_lengths puzzles/domino332.pz 6 53
    scrambles puzzles/domino332.pz 20 "U R2 F2 D' L2 U2 B2 D R2 U' F2" "D2 L2 U' B2 U R2 D F2 U2"
    ;;
loopover3)
    # The whole group: states by distance equal the published distribution
    # (facts.md), and every 17th state's length.
    expect_depths puzzles/loopover3.pz 20 "1 12 96 736 5208 28674 89497 54741 2475"
    optimal_lengths puzzles/loopover3.pz 20 17
    ;;
megaminx)
    # 50 pieces in byte lanes, 48 moves: every 13th state within 3 moves;
    # short scrambles.
    optimal_lengths puzzles/megaminx.pz 3 13
    scrambles puzzles/megaminx.pz 5 "R U2 F' DBL B2'" "D' BL2 F U"
    # Random states: the sift solver (bounded; about 275 moves).
    sift_random puzzles/megaminx.pz quick 10 450
    ;;
cube4)
    # Identical centres: distances between distinct states within 3 moves
    # (every 7th), with the centre tables (labels on byte lanes); scrambles
    # up to 9 moves (the 9-mover took 2.4M nodes without the centre tables).
    optimal_lengths puzzles/cube4.pz 3 7
    scrambles puzzles/cube4.pz 9 "r U f' R u2" "F2 b' l" "r U f' R u2 F d2 b l'"
    # Random states: the sift solver over identical centres (about 200 moves).
    sift_random puzzles/cube4.pz quick 10 350
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "PASS $case_name"
