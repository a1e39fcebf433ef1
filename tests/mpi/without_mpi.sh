#!/usr/bin/env bash
# without_mpi.sh PZC — issue 50: a pzc without MPI says so. pzc itself is
# built without MPI and hands --mpi commands to pzc-mpi beside it (note
# [pzc-mpi] in compiler/driver/main.cpp); copied alone into an empty folder,
# it has no pzc-mpi, so `solve --mpi` and `enumerate --mpi` must each stop
# with their message and a non-zero exit, before compiling anything.
set -uo pipefail
pzc=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL (without-mpi): $*"; exit 1; }
cp "$pzc" "$tmp/pzc" || fail "copy"
export PZC_CACHE_DIR=$tmp/cache
echo "R1" > "$tmp/batch"
"$tmp/pzc" solve puzzles/loopover3.pz --scrambles "$tmp/batch" --mpi > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" != 0 ] || fail "solve --mpi exited 0"
grep -q "pzc solve: error: pzc was built without MPI, so --mpi cannot run" "$tmp/err" || fail "solve: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "solve printed: $(cat "$tmp/out")"
"$tmp/pzc" enumerate puzzles/cube2.pz --whole --mpi > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" != 0 ] || fail "enumerate --mpi exited 0"
grep -q "pzc enumerate: error: pzc was built without MPI" "$tmp/err" || fail "enumerate: $(cat "$tmp/err")"
[ ! -d "$tmp/cache/bin" ] || fail "something was compiled: $(ls "$tmp/cache/bin")"
# Without --mpi the same copy solves (the whole compiler and driver; away
# from its build folder it is told where the runtime headers are).
PZC_RUNTIME_INCLUDE=$PWD/runtime/include "$tmp/pzc" solve puzzles/loopover3.pz --scramble "R1" --json > "$tmp/out" 2> "$tmp/err" || fail "solve without --mpi: $(cat "$tmp/err")"
grep -q '"solution": "R1'"'"'", "length": 1, "optimal": true' "$tmp/out" || fail "not the solution: $(cat "$tmp/out")"
echo "PASS (without-mpi)"
