#!/usr/bin/env bash
# mpi.sh CASE PZC CACHEDIR MPIRUN — one case of pzc solve --mpi; see CMakeLists.txt.
set -uo pipefail
case_name=$1 pzc=$2 cache=$3 mpirun=$4
[ -n "$mpirun" ] && [ -x "$mpirun" ] || { echo "SKIP: no mpirun"; exit 77; }
export PZC_CACHE_DIR=$cache
mkdir -p "$cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case_name): $*"; exit 1; }
puzzle=puzzles/loopover3.pz
np=3  # rank 0 and two workers, each running a solver
mpi() { "$mpirun" --oversubscribe -np $np "$pzc" solve $puzzle --mpi "$@"; }
# Timing fields differ from run to run: everything else must match.
strip() { sed -E 's/, "nodes": [0-9]+, "seconds": [0-9.e+-]+//' "$1"; }
# A private copy of the cache, whose loopover3 solver ($bin, the newest: a
# cache kept between runs may also hold a build for other flags) the cases
# below replace with a script (fake_solver), or restore (real_solver).
private_cache() {
    cp -rp "$cache" "$tmp/cache"
    export PZC_CACHE_DIR=$tmp/cache
    bin=$(ls -t "$tmp"/cache/bin/loopover3-* | grep -Ev '\.[a-z]+$' | head -1)
    [ -n "$bin" ] || fail "no cached loopover3 solver"
    cp -p "$bin" "$tmp/real-solver"
}
# The solver becomes a script running the shell line $1 (rank by Open MPI's
# OMPI_COMM_WORLD_RANK), then the real solver; with a valid build stamp, so
# pzc runs it.
fake_solver() {
    printf '#!/bin/sh\n%s\nexec %s "$@"\n' "$1" "$tmp/real-solver" > "$bin"
    stamp
}
real_solver() { cp -p "$tmp/real-solver" "$bin"; stamp; }
stamp() { python3 "$(dirname "$0")/../e2e/build_stamp.py" "$bin"; }

"$pzc" solve $puzzle --scrambles /dev/null --mpi > /dev/null 2> "$tmp/err"
if grep -q "built without MPI" "$tmp/err"; then echo "SKIP: pzc was built without MPI"; exit 77; fi

# 50 positions: random states (their "state" field) and scrambles, besides a bad line and a comment.
"$pzc" solve $puzzle --random 48 --seed 5 --json > "$tmp/random" || fail "random"
{ echo "R1 C2"; echo "# a comment"; echo "R1 Q7"
  sed -E 's/.*"state": "([0-9 ]*)".*/\1/' "$tmp/random"; echo "C1 R2 C3'"; } > "$tmp/batch"
"$pzc" solve $puzzle --scrambles "$tmp/batch" > "$tmp/single" 2> "$tmp/single.err"
single_rc=$?
[ "$single_rc" = 1 ] || fail "one process: exit $single_rc (a bad line: 1)"
[ "$(wc -l < "$tmp/single")" = 51 ] || fail "one process: $(wc -l < "$tmp/single") lines"

case $case_name in
same-output)
    np=4  # issue 50's test: 4 ranks on this machine's cores, 50 positions
    mpi --scrambles "$tmp/batch" --progress > "$tmp/mpi" 2> "$tmp/mpi.err"
    rc=$?
    [ "$rc" = "$single_rc" ] || fail "exit $rc, one process $single_rc: $(cat "$tmp/mpi.err")"
    cmp <(strip "$tmp/single") <(strip "$tmp/mpi") || fail "output differs: $(diff <(strip "$tmp/single") <(strip "$tmp/mpi"))"
    grep -q "batch:3: unknown move 'Q7'" "$tmp/mpi.err" || fail "no per-line error: $(cat "$tmp/mpi.err")"
    grep -q "50/50 positions" "$tmp/mpi.err" || fail "no progress: $(cat "$tmp/mpi.err")"
    ;;
two-ranks)
    # Rank 0 and one worker: rank 0 solves too (its chunks and the worker's
    # come from one queue), and the output is the same.
    np=2
    PZC_TIMINGS=1 mpi --scrambles "$tmp/batch" --progress > "$tmp/mpi" 2> "$tmp/mpi.err"
    rc=$?
    [ "$rc" = "$single_rc" ] || fail "exit $rc, one process $single_rc: $(cat "$tmp/mpi.err")"
    cmp <(strip "$tmp/single") <(strip "$tmp/mpi") || fail "output differs: $(diff <(strip "$tmp/single") <(strip "$tmp/mpi"))"
    grep -q "50/50 positions, .* (2 ranks solving)" "$tmp/mpi.err" || fail "no progress: $(cat "$tmp/mpi.err")"
    # note [timeline]: rank 0 marks its own solver's first answer.
    grep -q "timings .* rank 0 result" "$tmp/mpi.err" || fail "rank 0 did not solve: $(cat "$tmp/mpi.err")"
    ;;
phased)
    # A phased solver's batch on 2 ranks: its tables shared (--shared-tables,
    # where one process copies them), the same answers as one process.
    np=2
    p=tests/puzzles/cube2_phased.pz
    "$pzc" solve $p --solver two_phase --random 30 --seed 7 --json > "$tmp/prandom" || fail "phased random"
    sed -E 's/.*"state": "([0-9 ]*)".*/\1/' "$tmp/prandom" > "$tmp/pbatch"
    "$pzc" solve $p --solver two_phase --scrambles "$tmp/pbatch" --json > "$tmp/psingle" || fail "phased one process"
    "$mpirun" --oversubscribe -np $np "$pzc" solve $p --solver two_phase --scrambles "$tmp/pbatch" --json --mpi \
        > "$tmp/pmpi" 2> "$tmp/pmpi.err" || fail "phased on 2 ranks: $(cat "$tmp/pmpi.err")"
    [ "$(wc -l < "$tmp/pmpi")" = 30 ] || fail "phased on 2 ranks: $(wc -l < "$tmp/pmpi") lines"
    cmp <(strip "$tmp/psingle") <(strip "$tmp/pmpi") || fail "phased output differs: $(diff <(strip "$tmp/psingle") <(strip "$tmp/pmpi"))"
    ;;
resume)
    # The first 12 results, then a torn line (a run killed while writing).
    head -12 "$tmp/single" > "$tmp/out"
    printf '{"line": 15, "solu' >> "$tmp/out"
    mpi --scrambles "$tmp/batch" --resume "$tmp/out" > "$tmp/stdout" 2> "$tmp/err"
    rc=$?
    [ "$rc" = "$single_rc" ] || fail "exit $rc, one process $single_rc: $(cat "$tmp/err")"
    [ -s "$tmp/stdout" ] && fail "--resume prints to OUT, not stdout: $(cat "$tmp/stdout")"
    cmp <(strip "$tmp/single") <(strip "$tmp/out") || fail "resumed file differs: $(diff <(strip "$tmp/single") <(strip "$tmp/out"))"
    # The first 12 were not solved again: their timings are the first run's.
    cmp <(head -12 "$tmp/single") <(head -12 "$tmp/out") || fail "answered lines were rewritten"
    # Nothing left: nothing solved, the same file, and the bad line's exit 1.
    cp "$tmp/out" "$tmp/done"
    mpi --scrambles "$tmp/batch" --resume "$tmp/out" 2> "$tmp/err"
    [ $? = 1 ] || fail "all answered: exit 1 expected (the bad line in OUT)"
    cmp "$tmp/done" "$tmp/out" || fail "a finished file changed"
    # The one-process path resumes the same way.
    head -5 "$tmp/single" > "$tmp/out1"
    "$pzc" solve $puzzle --scrambles "$tmp/batch" --resume "$tmp/out1" 2> /dev/null
    cmp <(strip "$tmp/single") <(strip "$tmp/out1") || fail "one process: resumed file differs"
    # Not a result file: refused, untouched.
    echo "hello" > "$tmp/bad"; echo "{}" >> "$tmp/bad"
    mpi --scrambles "$tmp/batch" --resume "$tmp/bad" 2> "$tmp/err" && fail "a foreign OUT was accepted"
    grep -q "not a result line" "$tmp/err" || fail "no message: $(cat "$tmp/err")"
    ;;
bad-lines)
    # Only bad lines: nothing to farm out, the workers are released.
    printf 'R1 Q7\nX\n' > "$tmp/bad"
    mpi --scrambles "$tmp/bad" > "$tmp/out" 2> "$tmp/err"
    [ $? = 1 ] || fail "bad lines: exit 1 expected"
    [ "$(cat "$tmp/out")" = '{"line": 1, "error": "unknown move '"'"'Q7'"'"'"}
{"line": 2, "error": "unknown move '"'"'X'"'"'"}' ] || fail "output: $(cat "$tmp/out")"
    # A missing file: the single-process error and exit code.
    mpi --scrambles "$tmp/missing" > /dev/null 2> "$tmp/err"
    [ $? = 1 ] || fail "missing file: exit 1 expected"
    grep -q "cannot read" "$tmp/err" || fail "missing file: $(cat "$tmp/err")"
    # --mpi needs a batch.
    "$pzc" solve $puzzle --random 3 --mpi 2> "$tmp/err" && fail "--mpi without --scrambles accepted"
    grep -q "needs --scrambles" "$tmp/err" || fail "$(cat "$tmp/err")"
    ;;
solver-dies)
    # A private copy of the cache whose loopover3 solver is a script that
    # exits at once: on every rank, then on rank 0 only (the other ranks run
    # the real solver), so rank 0's own solver dying is the same failure as
    # a worker's.
    private_cache
    for who in all 0; do
    for code in 3 4; do
        if [ $who = all ]; then
            fake_solver "exit $code"
        else
            fake_solver "[ \"\$OMPI_COMM_WORLD_RANK\" = 0 ] && exit $code"
        fi
        mpi --scrambles "$tmp/batch" > "$tmp/out" 2> "$tmp/err"
        rc=$?
        # As one process: a refused memory budget (4) is exit 1, anything else 3.
        want=$([ $code = 4 ] && echo 1 || echo 3)
        [ "$rc" = "$want" ] || fail "solver exit $code: pzc exit $rc, $want expected: $(cat "$tmp/err")"
        ranks=$([ $who = all ] && echo "[0-2]" || echo 0)
        grep -q "the solver .* on rank $ranks \(exited with status 3\|ran out of memory\)" "$tmp/err" ||
            fail "solver exit $code on rank $who: no message: $(cat "$tmp/err")"
    done
    done
    ;;
rank-dies)
    # A worker rank killed during the batch (its solver kills it, SIGKILL,
    # before answering): the job ends with Open MPI's message and a failing
    # exit, what rank 0 printed before is whole results of the batch, and
    # --resume with the real solver finishes it as one process would.
    private_cache
    fake_solver "[ \"\$OMPI_COMM_WORLD_RANK\" = 2 ] && kill -9 \$PPID"
    mpi --scrambles "$tmp/batch" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" != 0 ] || fail "a killed rank, yet exit 0: $(cat "$tmp/err")"
    grep -q "rank 2 .*signal 9" "$tmp/err" || fail "no message naming the rank: $(cat "$tmp/err")"
    # Whole lines of the batch's results, in order (a torn last line aside;
    # rank 0 and the other worker may have answered all before the end).
    lines=$(grep -c '}$' "$tmp/out")
    cmp <(head -"$lines" "$tmp/out" | strip /dev/stdin) <(strip "$tmp/single" | head -"$lines") ||
        fail "what was printed is not the batch's first results"
    real_solver
    mpi --scrambles "$tmp/batch" --resume "$tmp/out" > /dev/null 2> "$tmp/err"
    rc=$?
    [ "$rc" = "$single_rc" ] || fail "--resume: exit $rc, one process $single_rc: $(cat "$tmp/err")"
    cmp <(strip "$tmp/out" | sort) <(strip "$tmp/single" | sort) ||
        fail "--resume: results differ from one process: $(diff <(strip "$tmp/out" | sort) <(strip "$tmp/single" | sort))"
    ;;
threads)
    # note [threads per rank]: without --threads each rank's solver gets
    # its machine's CPUs over the ranks on it; --threads is kept as given.
    # The solver records its arguments, then runs.
    private_cache
    fake_solver "echo \"\$*\" > $tmp/argv.\$OMPI_COMM_WORLD_RANK"
    share=$(( $(getconf _NPROCESSORS_ONLN) / np )); [ $share -ge 1 ] || share=1
    mpi --scrambles "$tmp/batch" > "$tmp/out" 2> "$tmp/err"
    for r in 0 1 2; do
        grep -q -- "--threads $share\( \|$\)" "$tmp/argv.$r" || fail "rank $r: no --threads $share: $(cat "$tmp/argv.$r")"
    done
    cmp <(strip "$tmp/single") <(strip "$tmp/out") || fail "output differs"
    rm -f "$tmp"/argv.*
    mpi --scrambles "$tmp/batch" --threads 1 > "$tmp/out" 2> "$tmp/err"
    for r in 0 1 2; do
        [ "$(grep -o -- "--threads [0-9]*" "$tmp/argv.$r")" = "--threads 1" ] ||
            fail "rank $r with --threads 1: $(cat "$tmp/argv.$r")"
    done
    ;;
memory-choice)
    # note [memory choice] under MPI: the workers' solver 'small' refuses
    # --memory 800 before any answer, so rank 0 hands over to 'least' (as
    # e2e/memory-budget does in one process). A cache of its own: the choice
    # is remembered. Two solver compiles: ~30 s.
    sed 's/^  solver optimal { optimal tetrad_coset, top; }/&\n  solver big { optimal tetrad_coset; }\n  solver small { optimal tetrad_proj; }\n  pattern tiny { corners {UFR}: positions; }\n  solver least { optimal tiny; }/' \
        tests/puzzles/cube2_tetrads.pz > "$tmp/cube2_mem.pz"
    grep -q "solver least" "$tmp/cube2_mem.pz" || fail "could not derive the definition"
    printf "R U F' R2 U'\nR U\nF R' U2\n" > "$tmp/b"
    PZC_CACHE_DIR=$tmp/cache "$mpirun" --oversubscribe -np 3 "$pzc" solve "$tmp/cube2_mem.pz" --scrambles "$tmp/b" --mpi \
        --memory 800 > "$tmp/out" 2> "$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
    grep -q "note: solver 'small' needs more than --memory; trying 'least'" "$tmp/err" || fail "no hand-over: $(cat "$tmp/err")"
    [ "$(grep -c '"solver": "least"' "$tmp/out")" = 3 ] || fail "not solved by 'least': $(cat "$tmp/out")"
    sed -E 's/.*"length": ([0-9]+).*/\1/' "$tmp/out" | tr '\n' ' ' | grep -qx "5 2 3 " || fail "lengths: $(cat "$tmp/out")"
    ;;
*) fail "unknown case" ;;
esac
echo "PASS ($case_name)"
