#!/usr/bin/env bash
# tws.sh CASE PZC CACHEDIR — one .tws import/export case; see CMakeLists.txt.
set -uo pipefail
case_name=$1 pzc=$2 cache=$3
export PZC_CACHE_DIR=$cache
mkdir -p "$cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# contains TEXT GREP-ARGS...: grep over a string without a pipe; under
# pipefail, `echo "$x" | grep -q` fails when grep exits before echo is done.
contains() { local text=$1; shift; grep "$@" <<< "$text"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
order() { "$pzc" check "$1" | sed -n 's/^group order: //p'; }
expect_order() {  # expect_order FILE ORDER
    local got
    got=$(order "$1") || fail "check $1"
    [ "$got" = "$2" ] || fail "$1: group order $got, expected $2"
    echo "$1: group order $got"
}

case $case_name in
group-orders)
    # 3x3x3: 43,252,003,274,489,856,000 (Hofstadter 1981; Singmaster).
    expect_order tests/tws/cube3.tws 43252003274489856000
    # 2x2x2 with a fixed corner (U, R, F): 3,674,160 = 7! * 3^6.
    expect_order tests/tws/cube2.tws 3674160
    # Identical pieces do not change the group: 120 (a BFS in features.tws).
    expect_order tests/tws/features.tws 120
    "$pzc" check tests/tws/features.tws | grep -q 'TILES: 6 positions, orientation 1, 2 distinct pieces' || fail "labels"
    ;;
convert-roundtrip)
    # tws -> pz -> tws and tws -> yaml -> tws give the tws written directly;
    # the converted definitions have the same group order.
    for f in tests/tws/cube2.tws tests/tws/cube3.tws tests/tws/features.tws tests/tws/cube2_partly_wild.tws tests/tws/cube2_illegal.tws; do
        "$pzc" convert "$f" --to tws -o "$tmp/direct.tws" || fail "convert $f --to tws"
        for via in pz yaml; do
            "$pzc" convert "$f" --to $via -o "$tmp/x.$via" || fail "convert $f --to $via"
            [ "$(order "$tmp/x.$via")" = "$(order "$f")" ] || fail "$f -> $via: group order differs"
            "$pzc" convert "$tmp/x.$via" --to tws -o "$tmp/back.tws" || fail "convert back from $via"
            diff "$tmp/direct.tws" "$tmp/back.tws" || fail "$f -> $via -> tws differs from $f -> tws"
        done
        [ "$(order "$tmp/direct.tws")" = "$(order "$f")" ] || fail "$f -> tws: group order differs"
        # The export reads back to itself (up to the note on omitted macros).
        "$pzc" convert "$tmp/direct.tws" --to tws -o "$tmp/again.tws" || fail "re-export"
        diff <(grep -v '^# Not expressible' "$tmp/direct.tws") "$tmp/again.tws" || fail "$f: export is not a fixed point"
        echo "$f: round trips"
    done
    # The renamed (non-identifier) moves of features.tws are valid .pz.
    "$pzc" convert tests/tws/features.tws --to pz | grep -q 'macro _2Left = L2;' || fail "renaming 2Left"
    "$pzc" convert tests/tws/features.tws --to pz | grep -q 'move RL = _2Left R;' || fail "renaming a reference"
    ;;
shipped-to-tws)
    # Every shipped permutation puzzle whose metric twsearch can express
    # exports, with its group order; the others (quarter-turn metrics, where
    # a move's square is not a move) are refused with that reason.
    for f in puzzles/*.pz tests/puzzles/loopover3.pz; do
        grep -qE '^(grid|blocks) ' "$f" && continue
        case $f in
        puzzles/cube2_qtm.pz|puzzles/topspin.pz|puzzles/hungarian_rings.pz|puzzles/loopover5.pz)
            "$pzc" convert "$f" --to tws > "$tmp/out" 2> "$tmp/err" && fail "$f exported"
            grep -q "is not a move of the metric" "$tmp/err" || fail "$f: $(cat "$tmp/err")"
            echo "$f -> tws: refused (metric)"
            continue;;
        esac
        "$pzc" convert "$f" --to tws -o "$tmp/x.tws" || fail "convert $f --to tws"
        [ "$(order "$tmp/x.tws")" = "$(order "$f")" ] || fail "$f -> tws: group order differs"
        echo "$f -> tws: group order $(order "$f")"
    done
    # What .tws cannot express is refused with the reason.
    "$pzc" convert puzzles/anima.pz --to tws > "$tmp/out" 2> "$tmp/err" && fail "anima exported"
    grep -q 'grid-actor puzzle' "$tmp/err" || fail "anima: $(cat "$tmp/err")"
    printf 'puzzle p { orbit t 3; move A = t (0 1 2); }\n' > "$tmp/gen_only.pz"
    "$pzc" convert "$tmp/gen_only.pz" --to tws > "$tmp/out" 2> "$tmp/err" && fail "generator-only metric exported"
    grep -q "power 2 of move 'A' is not a move of the metric" "$tmp/err" || fail "metric: $(cat "$tmp/err")"
    ;;
sequences)
    # twsearch move sequences: blanks or commas, derived powers, rotations
    # and aliases (macros), primes as inverses.
    out=$("$pzc" run tests/tws/cube2.tws "R U R' U'") || fail "run"
    contains "$out" -q '^order: 6' || fail "sexy move order: $out"
    out=$("$pzc" run tests/tws/cube2.tws "R2,R2") || fail "run commas"
    contains "$out" -q '^solved: yes' || fail "R2 R2: $out"
    out=$("$pzc" run tests/tws/features.tws "Fv' Fv2 Fv") || fail "run rotation powers"
    contains "$out" -q 'FRAME: 0=0+2' || fail "Fv' Fv2 Fv: $out"
    out=$("$pzc" run tests/tws/features.tws "2Left Left2'") || fail "run alias"
    contains "$out" -q '^solved: yes' || fail "2Left Left2': $out"
    out=$("$pzc" run tests/tws/features.tws "LR L R") || fail "run sequence"
    contains "$out" -q '^order: 5' || fail "LR L R should be (L R)^2 of order 5: $out"
    ;;
scramble-file)
    # ScrambleAlg and Scramble/ScrambleState positions; each is solved
    # optimally (2x2x2 <U,R,F>: a BFS of 3,674,160 states gives God's number
    # 11 in this metric; here short cases with known lengths).
    out=$("$pzc" solve tests/tws/cube2.tws --tws-scrambles tests/tws/cube2.scr --json) || fail "solve"
    echo "$out"
    [ "$(echo "$out" | sed 's/.*"length": \([0-9]*\).*/\1/' | tr '\n' ' ')" = "4 1 1 " ] || fail "lengths"
    echo "$out" | sed -n 2p | grep -q '"solution": "R'"'"'"' || fail "after_R is solved by R'"
    ;;
solved-orientations)
    # '?' on every piece of a set (orientation does not matter): the states
    # are the corner permutations of <U,R,F>, 7! = 5040; a pure twist is
    # solved. Non-zero solved orientations: the same group and lengths as
    # cube2.tws (the import changes the orientation frame).
    expect_order tests/tws/cube2_wild.tws 5040
    "$pzc" check tests/tws/cube2_wild.tws | grep -q 'CORNERS: 8 positions, orientation 1 (mod 3 ignored),' || fail "wild set unoriented"
    out=$("$pzc" run tests/tws/cube2_wild.tws "R U R' U' R U R' U'") || fail "run twists"
    contains "$out" -q '^solved: yes' || fail "twists with orientation ignored: $out"
    out=$("$pzc" solve tests/tws/cube2_wild.tws --tws-scrambles tests/tws/cube2_wild.scr --json) || fail "solve wild"
    echo "$out"
    [ "$(echo "$out" | sed 's/.*"length": \([0-9]*\).*/\1/' | tr '\n' ' ')" = "4 0 1 " ] || fail "wild lengths"
    expect_order tests/tws/cube2_twisted.tws 3674160
    out=$("$pzc" solve tests/tws/cube2_twisted.tws --tws-scrambles tests/tws/cube2_twisted.scr --json) || fail "solve twisted"
    echo "$out"
    [ "$(echo "$out" | sed 's/.*"length": \([0-9]*\).*/\1/' | tr '\n' ' ')" = "4 1 " ] || fail "twisted lengths"
    echo "$out" | sed -n 2p | grep -q '"solution": "R'"'"'"' || fail "twisted after_R is solved by R'"
    # '?' on some pieces only (note [sticker sets]): 7! * 3^5 distinct states;
    # corners 1 and 2 twisted in place is solved, 3 and 4 is not; '?' on a
    # piece whose orientation matters is refused, located.
    "$pzc" check tests/tws/cube2_partly_wild.tws | grep -q '^distinct states: 1224720 ' || fail "partly wild count"
    out=$("$pzc" solve tests/tws/cube2_partly_wild.tws --tws-scrambles tests/tws/cube2_partly_wild.scr --json) || fail "solve partly wild"
    echo "$out"
    [ "$(echo "$out" | sed 's/.*"length": \([0-9]*\).*/\1/' | tr '\n' ' ')" = "4 0 6 1 " ] || fail "partly wild lengths"
    sed 's/^2 ? 1 ? 1 0 0 2$/? ? 1 ? 1 0 0 2/' tests/tws/cube2_partly_wild.scr > "$tmp/bad.scr"
    out=$("$pzc" solve tests/tws/cube2_partly_wild.tws --tws-scrambles "$tmp/bad.scr" 2>&1) && fail "a '?' on a piece whose orientation matters was accepted"
    contains "$out" -q "bad.scr:25:1: error: '?' (orientation does not matter) on a piece of set 'CORNERS' whose orientation matters" || fail "partly wild error: $out"
    # Random states solve to the same optimal lengths in both frames.
    a=$("$pzc" solve tests/tws/cube2.tws --random 5 --seed 7 --json | sed 's/.*"length": \([0-9]*\).*/\1/' | tr '\n' ' ')
    b=$("$pzc" solve tests/tws/cube2_twisted.tws --random 5 --seed 7 --json | sed 's/.*"length": \([0-9]*\).*/\1/' | tr '\n' ' ')
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "random lengths differ: '$a' vs '$b'"
    ;;
illegal)
    # ksolve's Illegal (note [illegal placements]): 1728 of the 29160 states
    # of <U,R> are reached through legal states (optimal lengths through
    # them: e2e/optimal-bfs-cube2_illegal); a position showing an illegal
    # placement, or reached only through one, is refused; the .pz and YAML
    # twins say the same; solutions never enter an illegal state (replayed).
    f=tests/tws/cube2_illegal.tws
    out=$("$pzc" check $f) || fail "check $f"
    contains "$out" -q '^illegal placements: 3 ' || fail "illegal count: $out"
    contains "$out" -q '^reachable states: 1728 ' || fail "reachable count: $out"
    "$pzc" convert $f --to pz -o "$tmp/i.pz" && "$pzc" convert $f --to yaml -o "$tmp/i.yaml" || fail "convert"
    grep -q '^  illegal CORNERS 0 holds 4;$' "$tmp/i.pz" || fail "pz syntax: $(cat "$tmp/i.pz")"
    for g in "$tmp/i.pz" "$tmp/i.yaml"; do
        "$pzc" check "$g" | grep -q '^reachable states: 1728 ' || fail "$g: reachable count"
    done
    out=$("$pzc" solve $f --scramble "R" 2>&1) && fail "an illegal position was solved"
    contains "$out" -q "position 1 is illegal: orbit CORNERS position 0 holds the piece solved at 4" || fail "illegal message: $out"
    out=$("$pzc" solve $f --scramble "U R U'" 2>&1) && fail "a position reached only through an illegal state was solved"
    contains "$out" -q "position 1 cannot be reached through legal states" || fail "unreachable message: $out"
    "$pzc" solve $f --random 5 --seed 3 --json > "$tmp/r" || fail "random"
    [ "$(wc -l < "$tmp/r")" = 5 ] || fail "5 random answers"
    ;;
sift)
    # pzc solve --sift: a sift solver for an undeclared puzzle (note [sift
    # words]), here over sticker sets ('?' pieces: identical stickers, note
    # [sift labels]); every answer replayed by pzc, solved in one run and
    # the same in the next; a scramble file's positions too; illegal
    # placements refused with the reason.
    f=tests/tws/cube2_partly_wild.tws
    "$pzc" solve $f --sift --random 5 --seed 2 --json > "$tmp/a" || fail "sift random"
    [ "$(grep -c '"optimal": false, "solver": "sift"' "$tmp/a")" = 5 ] || fail "5 sift answers: $(cat "$tmp/a")"
    "$pzc" solve $f --sift --random 5 --seed 2 --json > "$tmp/b" || fail "sift random again"
    [ "$(sed 's/"seconds": [0-9.e-]*//' "$tmp/a")" = "$(sed 's/"seconds": [0-9.e-]*//' "$tmp/b")" ] || fail "sift answers differ"
    out=$("$pzc" solve $f --sift --tws-scrambles tests/tws/cube2_partly_wild.scr) || fail "sift scramble file: $out"
    contains "$out" -q "(already solved)" || fail "twist12 is solved: $out"
    out=$("$pzc" solve tests/tws/cube2_illegal.tws --sift --random 1 2>&1) && fail "sift over illegal placements"
    contains "$out" -q "sift solver cannot be built: the puzzle declares illegal placements" || fail "illegal message: $out"
    out=$("$pzc" solve $f --sift --solver x --random 1 2>&1) && fail "--sift with --solver"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "PASS $case_name"
