#!/usr/bin/env bash
# pzc build --target wasm refuses what it cannot build, before compiling
# anything, with a message naming why (docs/web.md). Usage: refusals.sh PZC
set -uo pipefail
pzc=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
expect() {  # expect CODE PATTERN -- ARGS...
  local code=$1 pattern=$2
  shift 3
  local got rc
  got=$("$pzc" "$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -q -- "$pattern" <<<"$got"; then
    echo "FAIL: pzc $*: exit $rc (want $code), output:"; echo "$got"; fail=1
  else
    echo "ok: pzc $* -> exit $rc: $(grep -m1 -- "$pattern" <<<"$got")"
  fi
}
expect 1 "need 3.5 GiB, more than a WebAssembly module holds" -- build "$root/puzzles/rotate4o.pz" --target wasm -o "$out/r" --solver optimal_big
expect 2 "a sliding-block puzzle other than an n-puzzle has no tables" -- build "$root/puzzles/rushhour.pz" --target wasm --tables -o "$out/h"
expect 2 "a breadth-first solver of an n-puzzle solves levels" -- build "$root/puzzles/eight.pz" --target wasm -o "$out/e" --solver bfs
expect 2 "declares no solver 'nosuch'" -- build "$root/puzzles/fifteen.pz" --target wasm -o "$out/f" --solver nosuch
expect 2 "a grid-actor puzzle has no tables" -- build "$root/puzzles/anima.pz" --target wasm --tables -o "$out/a"
expect 2 "runs inside pzc solve only" -- build "$root/puzzles/megaminx.pz" --target wasm -o "$out/m" --solver quick
expect 2 "target is native or wasm, not 'js'" -- build "$root/puzzles/cube3.pz" --target js -o "$out/c"
expect 2 "tables needs --target wasm" -- build "$root/puzzles/cube3.pz" --tables -o "$out/c"
expect 2 "-o DIR is required" -- build "$root/puzzles/cube3.pz" --target wasm
expect 2 "no solver" -- build "$root/puzzles/cube3.pz" --target wasm -o "$out/c" --solver nosuch
# Nothing was written for any of them.
left=$(find "$out" -mindepth 1 | head -3)
[ -z "$left" ] || { echo "FAIL: refused builds left files: $left"; fail=1; }
exit $fail
