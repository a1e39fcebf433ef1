#!/usr/bin/env bash
# Builds the web page's puzzles: each a folder `pzc build --target wasm`
# writes under web/puzzles/ (or $PZC_WEB_OUT), and puzzles/index.json
# listing them. Then serve web/ with `pzc serve` (or any static server).
#   scripts/build-web.sh                 every puzzle below
#   scripts/build-web.sh cube3 anima     those only
# Needs Emscripten (scripts/install-deps.sh installs it). The table files
# of cube3, slide4, rotate4o, skewb and fifteen are built natively once
# (then cached) and shipped; pyraminx's, cube2's and eight's are built in
# the page; Anima, Rush Hour and Klotski need none.
set -euo pipefail
cd "$(dirname "$0")/.."
PZC=${PZC:-build/compiler/driver/pzc}
OUT=${PZC_WEB_OUT:-web/puzzles}

# id | definition | pzc build options | title | example scramble
PUZZLES=(
  "cube3|puzzles/cube3.pz|--solver two_phase --tables|3×3×3 cube, two-phase|R U F' L2 D B R' U2 F"
  "slide4|puzzles/slide4.pz|--tables|Loopover 4×4, optimal|R1 C2x3 R3 C4"
  "anima|puzzles/anima.pz||Anima, 23 levels, optimal|"
  "pyraminx|puzzles/pyraminx.pz||Pyraminx without tips, optimal (tables built in the page)|R U L' B"
  "rotate4o|puzzles/rotate4o.pz|--solver via_square --tables|rotate4o via the square|"
  "cube2|puzzles/cube2.pz||2×2×2 cube, optimal (tables built in the page)|R U F' R2"
  "skewb|puzzles/skewb.pz|--tables|Skewb, optimal|R U L' B"
  "fifteen|puzzles/fifteen.pz|--solver six --tables|15-puzzle, optimal (6-6-3 databases)|R R D L D R R D L L"
  "eight|puzzles/eight.pz||8-puzzle, optimal (tables built in the page)|R D R D L L U"
  "rushhour|puzzles/rushhour.pz||Rush Hour, database boards, optimal|"
  "klotski|puzzles/klotski.pz||Klotski, 81 moves (a move goes anywhere it can reach)|"
)

wanted=("$@")
for w in "${wanted[@]}"; do
  printf '%s\n' "${PUZZLES[@]}" | grep -q "^$w|" || { echo "build-web.sh: no puzzle '$w' (see PUZZLES in $0)" >&2; exit 2; }
done
mkdir -p "$OUT"
for entry in "${PUZZLES[@]}"; do
  IFS='|' read -r id def opts title example <<<"$entry"
  if ((${#wanted[@]})) && [[ ! " ${wanted[*]} " =~ " $id " ]]; then continue; fi
  echo "== $id"
  # shellcheck disable=SC2086  # opts is a word list
  "$PZC" build "$def" --target wasm -o "$OUT/$id" $opts
done
# The index: every puzzle of the list built here, now or before.
index="["
for entry in "${PUZZLES[@]}"; do
  IFS='|' read -r id def opts title example <<<"$entry"
  [ -f "$OUT/$id/puzzle.json" ] || continue
  solver=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["defaultSolver"])' "$OUT/$id/puzzle.json")
  index+=$([ "$index" = "[" ] || echo ",")
  index+=$(python3 -c 'import json,sys; print(json.dumps(dict(id=sys.argv[1], title=sys.argv[2], solver=sys.argv[3], example=sys.argv[4]), ensure_ascii=False))' \
    "$id" "$title" "$solver" "$example")
done
echo "$index]" > "$OUT/index.json"
echo "wrote $OUT/index.json; serve the page: $PZC serve --root $(dirname "$OUT")"
