#!/usr/bin/env bash
# The solver page in headless Chromium (tests/web/checks/page.mjs): a site
# made of web/ and the puzzles scripts/build-web.sh builds (cube3, slide4,
# pyraminx, anima, fifteen, eight, rushhour) in BUILD/web-site; its screenshot goes to BUILD/web-artefacts/page.png.
# First draw_test.mjs: the page's pictures against pzc draw's, in node.
# Usage: page_test.sh PZC BUILD_DIR [site|browser]: `site` builds the site
# and runs draw_test (ctest's web/site, beside other tests), `browser` only
# opens it in Chromium (web/page, alone: its solves run against timeouts);
# neither: both. Exit 77 (skipped) without Emscripten, node or Chromium
# (scripts/install-deps.sh installs them).
set -euo pipefail
pzc=$1 build=$2 part=${3:-both}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
for tool in em++ node; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed (scripts/install-deps.sh)"; exit 77; }
done
[ -x "${PZ_CHROMIUM:-/usr/bin/chromium}" ] || { echo "skipped: chromium is not installed"; exit 77; }
[ -d "$here/node_modules/playwright-core" ] || { echo "skipped: run npm ci --prefix tests/web"; exit 77; }
site=$build/web-site
if [ "$part" != browser ]; then
  rm -rf "$site"
  mkdir -p "$site"
  cp "$root"/web/index.html "$root"/web/app.mjs "$root"/web/style.css "$site"/
  PZC=$pzc PZC_WEB_OUT=$site/puzzles "$root"/scripts/build-web.sh cube3 slide4 pyraminx anima fifteen eight rushhour
  # Two schematics for draw_test (no layout): a .tws import with twists, and
  # identical pieces.
  (cd "$root" && "$pzc" build tests/tws/cube2.tws --target wasm -o "$site/puzzles/tws-cube2" &&
    "$pzc" build puzzles/slide4_rows.pz --target wasm -o "$site/puzzles/slide4_rows")
  # From the root: the packages name their definitions as build-web.sh gave them.
  (cd "$root" && node "$here/draw_test.mjs" "$pzc" "$site" "cube3=puzzles/cube3.pz=R U F' L2 D B R' U2 F" \
    "slide4=puzzles/slide4.pz=R1 C2x3 R3 C4" "pyraminx=puzzles/pyraminx.pz=R U L' B" \
    "anima=puzzles/anima.pz=up left=2.1-single_file" "anima=puzzles/anima.pz=right up=3.10-box_step" \
    "tws-cube2=tests/tws/cube2.tws=U R F2 U'" "slide4_rows=puzzles/slide4_rows.pz=R1 C2 R3" \
    "eight=puzzles/eight.pz=R D R D L L U" \
    "rushhour=puzzles/rushhour.pz=M-1 H+1 K+1 E-2 L+1=levels:1@puzzles/rushhour/levels.txt")
fi
[ "$part" = site ] && exit 0
[ -f "$site/puzzles/index.json" ] || { echo "page_test.sh: no site in $site (run the site part first)"; exit 1; }
exec node "$here/browser.mjs" --pzc "$pzc" --root "$site" --check "$here/checks/page.mjs" \
  --screenshot "$build/web-artefacts/page.png" --timeout 120000
