#!/usr/bin/env bash
# cache.sh CASE PZC CACHEDIR — pzc cache list|prune|clear (note [cache
# metadata] in compiler/driver/cache.hpp). Each case works in its own
# temporary PZC_CACHE_DIR; CACHEDIR only keeps the compiled solvers (and the
# definitions they were built from, at fixed paths) between runs, so that
# a later run compiles nothing.
set -uo pipefail
case_name=$1 pzc=$2 keep=$3
mkdir -p "$keep/bin" "$keep/defs"
tmp=$(mktemp -d)
solver_pid=
cleanup() {
    [ -n "$solver_pid" ] && kill "$solver_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
export PZC_CACHE_DIR=$tmp/cache
mkdir -p "$PZC_CACHE_DIR"
# Precompiled runtime headers go outside the cache whose listings these
# cases compare (note [precompiled runtime]); case precompiled tests them in it.
export PZC_PCH_DIR=${PZC_PCH_DIR:-$tmp/pch}
fail() { echo "FAIL: $*" >&2; exit 1; }
contains() { local text=$1; shift; grep "$@" <<< "$text"; }

# listing: "STATUS KIND NAME" lines of `pzc cache list --json`, sorted.
listing() {
    "$pzc" cache list --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for e in d["entries"]:
    print(e["status"], e["kind"], e["name"])' | sort
}
files() { (cd "$PZC_CACHE_DIR" && find . -type f | sort); }
# solve DEF ARGS...: pzc solve, with the solvers compiled for DEF's bytes by
# an earlier run put in the cache first (found by their source, as a
# compile would leave them); the ones this solve did not use are taken out
# again, so that listings show only what the solves made.
solve() {
    local store=$keep/bin/$(md5sum < "$1" | cut -c1-16) f name
    mkdir -p "$store" "$PZC_CACHE_DIR/bin"
    for f in "$store"/*; do [ -e "$f" ] && [ ! -e "$PZC_CACHE_DIR/bin/${f##*/}" ] && cp "$f" "$PZC_CACHE_DIR/bin/"; done
    "$pzc" solve "$@" > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/err" >&2; fail "solve $*"; }
    for f in "$PZC_CACHE_DIR"/bin/*; do
        case $f in *.meta) continue ;; esac
        name=${f##*/}
        [ -e "$PZC_CACHE_DIR/bin/${name%%.*}.meta" ] || { rm -f "$f"; continue; }
        [ -e "$store/$name" ] || cp "$f" "$store/"
    done
}

# The definition at a fixed path (so its binary is found again next run).
def=$keep/defs/p.pz
cp tests/puzzles/loopover3.pz "$def"

# start_solver BIN: the solver BIN waiting for positions on a fifo (fd 3),
# its tables loaded and mapped (locked).
start_solver() {
    mkfifo "$tmp/fifo"
    "$1" --stdin --json < "$tmp/fifo" > "$tmp/solver.out" 2> "$tmp/solver.err" &
    solver_pid=$!
    exec 3> "$tmp/fifo"
    for _ in $(seq 100); do
        contains "$("$pzc" cache list --json)" -q '"in-use": true' && return 0
        sleep 0.1
    done
    fail "the background solver never locked its table: $(cat "$tmp/solver.err")"
}
finish_solver() {
    echo "1 2 0 3 4 5 6 7 8" >&3
    exec 3>&-
    wait "$solver_pid" || fail "the background solver failed: $(cat "$tmp/solver.err")"
    solver_pid=
    grep -q '"length": 1' "$tmp/solver.out" || fail "the background solver's answer: $(cat "$tmp/solver.out")"
}

case $case_name in
prune)
    # Solve, edit the definition so its table key changes, solve again:
    # prune removes exactly the first binary, its two index entries (the
    # solver's and its search estimate's, note [search gate]) and its table,
    # while a solver of the edited definition runs with its table mapped.
    solve "$def" --random 1
    first=$(listing)
    [ "$(contains "$first" -c '^current')" = 4 ] || fail "after one solve, expected 4 current entries: $first"
    sed -i 's/pattern top_row { tiles {0 1 2}: positions; }/pattern top_row { tiles {0 1 2 3}: positions; }/' "$def"
    solve "$def" --random 1
    before=$(listing)
    [ "$(contains "$before" -c '^stale')" = 4 ] || fail "expected the 4 entries of the first definition stale: $before"
    [ "$(contains "$before" -c '^current')" = 4 ] || fail "expected 4 current entries: $before"
    # Stale = the first solve's entries, named by the first listing.
    diff <(sed 's/^current/stale/' <<< "$first") <(grep '^stale' <<< "$before") || fail "stale entries differ from the first solve's"
    bin=$PZC_CACHE_DIR/bin/$(contains "$before" '^current binary' | awk '{print $3}')
    table=$(contains "$before" '^current table' | awk '{print $3}')
    start_solver "$bin"
    # pzc solves beside the prune.
    (for _ in 1 2 3; do "$pzc" solve "$def" --random 1 > /dev/null || exit 1; done) &
    solves=$!
    out=$("$pzc" cache prune) || fail "prune: $out"
    wait $solves || fail "a pzc solve beside the prune failed"
    [ "$(contains "$out" -c '^removed \(binary\|index\|table\)')" = 4 ] || fail "prune output: $out"
    after=$(listing)
    diff <(grep '^current' <<< "$before") <(echo "$after") || fail "prune did not keep exactly the current entries"
    [ -f "$PZC_CACHE_DIR/tables/$table" ] || fail "the table in use was removed"
    finish_solver
    # Nothing left to prune.
    out=$("$pzc" cache prune) && contains "$out" -q '^removed 0 entries' || fail "second prune: $out"
    ;;
pending)
    # After a new runtime (as after a pzc upgrade) the old binary and its two
    # index entries (solver and search estimate) are stale,
    # but its table is kept ("pending") until the new solver has run: it
    # names the same table, which is then current again.
    solve "$def" --random 1
    rm -rf "$keep/rt" && cp -r runtime/include "$keep/rt" && echo "// changed" >> "$keep/rt/pz/search/search.hpp"
    export PZC_RUNTIME_INCLUDE=$keep/rt
    list=$(listing)
    [ "$(contains "$list" -c '^stale \(binary\|index\) ')" = 3 ] || fail "after a runtime change: $list"
    contains "$list" -q '^pending table loopover3-top_row-' || fail "the table is not pending: $list"
    out=$("$pzc" cache prune) || fail "prune: $out"
    contains "$out" -q '^removed 3 entries' || fail "prune: $out"
    solve "$def" --random 1
    list=$(listing)
    [ "$(contains "$list" -c '^current')" = 4 ] || fail "after a solve with the new runtime: $list"
    [ "$(contains "$list" -c 'table')" = 1 ] || fail "the new solver built another table: $list"
    ;;
dry-run-clear)
    # --dry-run lists what it would remove and removes nothing; clear
    # empties the cache except a table a running solver has mapped.
    solve "$def" --random 1
    echo '// edited' >> "$def"  # a comment: the binary, its entry and table go stale
    mkdir -p "$PZC_CACHE_DIR/tables"
    printf 'x' > "$PZC_CACHE_DIR/tables/loopover3-old-0123456789abcdef.pzt"   # no metadata: unknown
    printf 'x' > "$PZC_CACHE_DIR/tables/gone-x-0123456789abcdef.pzt.used"     # a sidecar without its table
    list=$("$pzc" cache list) || fail "list"
    contains "$list" -q '^unknown table .*loopover3-old' || fail "list: no unknown table: $list"
    contains "$list" -q '^total: 6 entries' || fail "list totals: $list"
    before=$(files)
    out=$("$pzc" cache prune --dry-run) || fail "prune --dry-run"
    [ "$(contains "$out" -c '^would remove \(binary\|index\|table\) ')" = 5 ] || fail "prune --dry-run: $out"   # binary, 2 index entries, table, sidecar
    contains "$out" -q 'would remove binary loopover3-.*its definition .* has changed' || fail "dry-run reason: $out"
    contains "$out" -q 'loopover3-old' && fail "dry-run would remove the unknown table: $out"
    [ "$(files)" = "$before" ] || fail "prune --dry-run removed files"
    out=$("$pzc" cache clear --dry-run) || fail "clear --dry-run"
    [ "$(contains "$out" -c '^would remove \(binary\|index\|table\) ')" = 6 ] || fail "clear --dry-run: $out"
    [ "$(files)" = "$before" ] || fail "clear --dry-run removed files"
    # clear, with a solver running on the table.
    solve "$def" --random 1   # the current binary
    bin=$PZC_CACHE_DIR/bin/$(listing | awk '$1 == "current" && $2 == "binary" {print $3}')
    start_solver "$bin"
    out=$("$pzc" cache clear) || fail "clear: $out"
    contains "$out" -q '^kept table loopover3-top_row-.*: in use' || fail "clear kept no table in use: $out"
    [ "$(files | grep -c -v 'top_row-')" = 0 ] || fail "clear left: $(files)"
    finish_solver
    out=$("$pzc" cache clear) || fail "second clear: $out"
    [ -z "$(files)" ] || fail "the cache is not empty after clear: $(files)"
    ;;
max-size)
    # --max-size and PZC_CACHE_MAX_SIZE evict least recently used first.
    solve "$def" --random 1
    tables=$PZC_CACHE_DIR/tables
    touch "$tmp/external-solver"   # a program outside the cache (pzc build -o): its tables are current
    for n in 1 2 3; do   # three older tables, used 3, 2 and 1 days ago
        head -c 100000 /dev/zero > "$tables/old$n-x-0123456789abcdef.pzt"
        printf '%s\t\n' "$tmp/external-solver" > "$tables/old$n-x-0123456789abcdef.pzt.used"
        touch -d "$((4 - n)) days ago" "$tables/old$n-x-0123456789abcdef.pzt.used"
    done
    total=$("$pzc" cache list --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["total-bytes"])')
    # Room for all but about one old table: the oldest one goes.
    out=$("$pzc" cache prune --max-size $((total - 50000))B --dry-run) || fail "dry-run: $out"
    out=$("$pzc" cache prune --max-size $((total - 50000))B) || fail "prune --max-size: $out"
    [ -f "$tables/old1-x-0123456789abcdef.pzt" ] && fail "the least recently used table was kept: $out"
    [ -f "$tables/old2-x-0123456789abcdef.pzt" ] || fail "a more recently used table was removed: $out"
    contains "$out" -q '^removed 1 entries' || fail "prune --max-size output: $out"
    # PZC_CACHE_MAX_SIZE after a solve: everything it did not use goes.
    PZC_CACHE_MAX_SIZE=1K solve "$def" --random 1
    left=$(listing)
    contains "$left" -q old && fail "PZC_CACHE_MAX_SIZE kept old tables: $left"
    [ "$(contains "$left" -c '^current \(binary\|table\)')" = 2 ] || fail "PZC_CACHE_MAX_SIZE removed what the solve used: $left"
    PZC_CACHE_MAX_SIZE=junk solve "$def" --random 1
    grep -q "PZC_CACHE_MAX_SIZE='junk' is not a size" "$tmp/err" || fail "bad PZC_CACHE_MAX_SIZE: $(cat "$tmp/err")"
    ;;
bad-input)
    expect_usage() {  # expect_usage PATTERN ARGS...: exit 2, PATTERN on stderr
        local pattern=$1; shift
        "$pzc" cache "$@" > "$tmp/out" 2> "$tmp/err"
        rc=$?
        [ $rc = 2 ] || fail "pzc cache $*: exit $rc, expected 2"
        grep -q -- "$pattern" "$tmp/err" || fail "pzc cache $*: stderr lacks '$pattern': $(cat "$tmp/err")"
    }
    expect_usage "unknown cache command 'purge'" purge
    expect_usage "--max-size needs a size such as 2G" prune --max-size 2X
    expect_usage "--max-size needs a size" prune --max-size -1
    expect_usage "--json is an option of 'pzc cache list'" prune --json
    expect_usage "--max-size is an option of 'pzc cache prune'" clear --max-size 1G
    expect_usage "unknown cache command ''" ""
    expect_usage "list|prune|clear"
    "$pzc" cache --help > "$tmp/out" || fail "--help"
    grep -q "pzc cache prune \[--dry-run\] \[--max-size SIZE\]" "$tmp/out" || fail "--help: $(cat "$tmp/out")"
    # An empty or missing cache lists nothing.
    PZC_CACHE_DIR=$tmp/none "$pzc" cache list | grep -q '^total: 0 entries' || fail "list of a missing cache"
    ;;
precompiled)
    # note [precompiled runtime]: the first solver of a kind precompiles its
    # runtime headers into the cache, the next one of the kind reuses them,
    # the binary answers the same, pzc cache lists, prunes and clears them.
    unset PZC_PCH_DIR
    printf 'puzzle pa {\n  orbit p 4;\n  move A = p (0 1 2 3);\n  move B = p (0 1);\n}\n' > "$tmp/pa.pz"
    printf 'puzzle pb {\n  orbit p 5;\n  move A = p (0 1 2 3 4);\n  move B = p (0 1);\n}\n' > "$tmp/pb.pz"
    out=$("$pzc" solve "$tmp/pa.pz" --scramble "A B A" --json) || fail "solve pa"
    contains "$out" -q '"length": 3' || fail "pa: $out"
    [ "$(ls "$PZC_CACHE_DIR/pch" | wc -l)" = 1 ] || fail "expected one precompiled folder: $(ls "$PZC_CACHE_DIR/pch")"
    gch=$(ls "$PZC_CACHE_DIR"/pch/*/pz_runtime.hpp.gch) || fail "no .gch"
    grep -q '#include "pz/' "$(dirname "$gch")/pz_runtime.hpp" || fail "the header lacks the runtime includes"
    before=$(stat -c %i "$gch")
    out=$("$pzc" solve "$tmp/pb.pz" --scramble "A B" --json) || fail "solve pb"
    contains "$out" -q '"optimal": true' || fail "pb: $out"
    [ "$(ls "$PZC_CACHE_DIR/pch" | wc -l)" = 1 ] || fail "a second folder for the same includes"
    [ "$(stat -c %i "$gch")" = "$before" ] || fail "the .gch was rebuilt"
    # PZC_NO_PCH: none made; PZC_PCH_DIR: made there.
    rm -rf "$PZC_CACHE_DIR/bin" "$PZC_CACHE_DIR/index" "$PZC_CACHE_DIR/pch"
    PZC_NO_PCH=1 "$pzc" solve "$tmp/pa.pz" --scramble "A" > /dev/null || fail "PZC_NO_PCH solve"
    [ ! -e "$PZC_CACHE_DIR/pch" ] || fail "PZC_NO_PCH=1 precompiled"
    rm -rf "$PZC_CACHE_DIR/bin" "$PZC_CACHE_DIR/index"
    PZC_PCH_DIR=$tmp/elsewhere "$pzc" solve "$tmp/pa.pz" --scramble "A" > /dev/null || fail "PZC_PCH_DIR solve"
    ls "$tmp"/elsewhere/*/pz_runtime.hpp.gch > /dev/null || fail "nothing in PZC_PCH_DIR"
    # In the cache: listed as current; one of another runtime is stale and pruned; clear removes all.
    rm -rf "$PZC_CACHE_DIR/bin" "$PZC_CACHE_DIR/index"
    "$pzc" solve "$tmp/pa.pz" --scramble "A" > /dev/null || fail "solve"
    listing | grep -q "^current pch " || fail "not listed: $(listing)"
    mkdir -p "$PZC_CACHE_DIR/pch/0000000000000000-0000000000000000"
    echo x > "$PZC_CACHE_DIR/pch/0000000000000000-0000000000000000/pz_runtime.hpp.gch"
    "$pzc" cache prune > /dev/null || fail "prune"
    [ ! -e "$PZC_CACHE_DIR/pch/0000000000000000-0000000000000000" ] || fail "prune kept another runtime's folder"
    ls "$PZC_CACHE_DIR"/pch/*/pz_runtime.hpp.gch > /dev/null || fail "prune removed the current one"
    "$pzc" cache clear > /dev/null || fail "clear"
    [ -z "$(ls "$PZC_CACHE_DIR/pch")" ] || fail "clear left $(ls "$PZC_CACHE_DIR/pch")"
    # PZC_PCH_DIR is not the cache's: prune leaves it alone (the suite's
    # cases share one, as may several pzc of several runtimes).
    mkdir -p "$tmp/elsewhere/0000000000000000-0000000000000000"
    echo x > "$tmp/elsewhere/0000000000000000-0000000000000000/pz_runtime.hpp.gch"
    PZC_PCH_DIR=$tmp/elsewhere "$pzc" cache prune > /dev/null || fail "prune PZC_PCH_DIR"
    [ -e "$tmp/elsewhere/0000000000000000-0000000000000000" ] || fail "prune removed a folder of PZC_PCH_DIR"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "PASS: cache $case_name"
