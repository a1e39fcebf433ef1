#!/usr/bin/env bash
# install.sh CASE SOURCE BUILD CMAKE CPACK GENERATOR CXX — one installation
# case (tests/install/CMakeLists.txt, label install):
#   prefix    cmake --install into a temp prefix, check the tree, move the
#             prefix elsewhere and run the moved pzc: --version, and a real
#             solve that compiles a solver against <moved prefix>/include
#             (note [finding the runtime] in compiler/driver/native_build.cpp)
#   consumer  tests/install/consumer built against the installed package
#             (CMAKE_PREFIX_PATH) and against the build tree (pzc_DIR)
#   deb       cpack -G DEB into a temp dir: the package's files and Depends
#   examples  examples/* built (or, Python, imported) from the installed
#             prefix and run, their output checked; pzc_generate() regenerates on an edit of the
#             definition only, and a bad definition fails the build located
set -uo pipefail
case_name=$1 src=$2 build=$3 cmake=$4 cpack=$5 generator=$6 cxx=$7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# run LOG command...: the command's output into $tmp/LOG, shown on failure.
run() {
    local log=$tmp/$1; shift
    "$@" > "$log" 2>&1 || { cat "$log" >&2; fail "exit $?: $*"; }
}
version=$(sed -n 's/^project(pzc VERSION \([0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
[ -n "$version" ] || fail "no version in project() of $src/CMakeLists.txt"

install_into() {  # install_into PREFIX
    run install.log "$cmake" --install "$build" --prefix "$1"
}

case $case_name in
prefix)
    install_into "$tmp/p1"
    for f in bin/pzc include/pz/solver_main.hpp include/pz/state.hpp lib/cmake/pzc/pzcConfig.cmake \
             lib/cmake/pzc/pzcConfigVersion.cmake lib/cmake/pzc/pzcTargets.cmake \
             share/pzc/puzzles/cube3.pz share/pzc/puzzles/loopover3.pz \
             share/pzc/puzzles/anima/levels/1.1-line_dance.txt share/doc/pzc/README.md \
             share/doc/pzc/docs/architecture.md share/doc/pzc/docs/language.md; do
        [ -f "$tmp/p1/$f" ] || fail "not installed: $f"
    done
    [ -x "$tmp/p1/bin/pzc" ] || fail "bin/pzc is not executable"
    # Every runtime header, whatever folder of pz/ it is in.
    (cd "$src/runtime/include" && find pz -type f) | sort > "$tmp/want"
    (cd "$tmp/p1/include" && find pz -type f) | sort > "$tmp/got"
    diff "$tmp/want" "$tmp/got" > /dev/null || { diff "$tmp/want" "$tmp/got" >&2; fail "include/pz differs from runtime/include/pz"; }
    [ "$(ls "$tmp/p1/share/pzc/puzzles/anima/levels" | wc -l)" -ge 23 ] || fail "anima levels missing"
    [ ! -e "$tmp/p1/bin/pzc.runtime-include" ] || fail "the build tree's pzc.runtime-include was installed"
    # No path into the source or build tree is baked into the binary.
    ! grep -q -F -e "$src/runtime" -e "$build/" "$tmp/p1/bin/pzc" || fail "bin/pzc names the source or build tree"

    # Move the prefix: pzc must find its headers beside itself.
    mv "$tmp/p1" "$tmp/p2"
    pzc=$tmp/p2/bin/pzc
    out=$(env -u PZC_RUNTIME_INCLUDE "$pzc" --version) || fail "pzc --version failed"
    [ "$out" = "pzc $version" ] || fail "pzc --version printed '$out', expected 'pzc $version'"
    export PZC_CACHE_DIR=$tmp/cache
    run solve.log env -u PZC_RUNTIME_INCLUDE -u CXX "$pzc" solve "$tmp/p2/share/pzc/puzzles/loopover3.pz" \
        --random 2 --seed 1 --json
    [ "$(grep -c '"optimal": true' "$tmp/solve.log")" = 2 ] || { cat "$tmp/solve.log" >&2; fail "expected two optimal solutions"; }
    # The solver was compiled against <moved prefix>/include: a header
    # broken there breaks the build (a changed header misses every cache).
    echo '#error "installed runtime header used"' >> "$tmp/p2/include/pz/solver_main.hpp"
    env -u PZC_RUNTIME_INCLUDE -u CXX "$pzc" solve "$tmp/p2/share/pzc/puzzles/loopover3.pz" --random 1 --seed 1 \
        > "$tmp/out" 2> "$tmp/err" && fail "a broken installed header went unnoticed"
    grep -q "installed runtime header used" "$tmp/err" || { cat "$tmp/err" >&2; fail "not compiled against $tmp/p2/include"; }
    # pzc without headers beside it (and no build-tree file): a clear error.
    mkdir -p "$tmp/lone/bin" && cp "$pzc" "$tmp/lone/bin/"
    env -u PZC_RUNTIME_INCLUDE "$tmp/lone/bin/pzc" solve "$tmp/p2/share/pzc/puzzles/loopover3.pz" --random 1 \
        > "$tmp/out" 2> "$tmp/err" && fail "pzc without runtime headers succeeded"
    grep -q "cannot find the runtime headers" "$tmp/err" && grep -q -F "$tmp/lone/include/pz/solver_main.hpp" "$tmp/err" \
        || { cat "$tmp/err" >&2; fail "no clear error without runtime headers"; }
    ;;
consumer)
    install_into "$tmp/prefix"
    consumer=$src/tests/install/consumer
    # includes DIR: the consumer's compile line has DIR as an include directory
    # (imported targets' directories are -isystem).
    includes() { grep -q -F -e "-isystem $1 " -e "-I$1 " "$tmp/build-$how.log"; }
    for how in installed build-tree; do
        if [ $how = installed ]; then where=(-DCMAKE_PREFIX_PATH="$tmp/prefix"); else where=(-Dpzc_DIR="$build"); fi
        run "configure-$how.log" "$cmake" -S "$consumer" -B "$tmp/$how" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
            -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON "${where[@]}"
        run "build-$how.log" "$cmake" --build "$tmp/$how" -v
        if [ $how = installed ]; then
            includes "$tmp/prefix/include" || fail "installed consumer not compiled with $tmp/prefix/include"
            grep -q -F "pzc::pzc is $tmp/prefix/bin/pzc" "$tmp/build-$how.log" || fail "pzc::pzc is not the installed pzc"
        else
            includes "$src/runtime/include" || fail "build-tree consumer not compiled with $src/runtime/include"
            grep -q -F "pzc::pzc is $build/compiler/driver/pzc" "$tmp/build-$how.log" || fail "pzc::pzc is not the build's pzc"
        fi
        out=$("$tmp/$how/consumer") || fail "$how consumer failed: $out"
        [ "$out" = "consumer: runtime abi 1, rotl(1, 4) = 16, built with pzc $version" ] || fail "$how consumer printed '$out'"
    done
    # Version checks: SameMinorVersion accepts 0.46 but not the next minor.
    major=${version%%.*} rest=${version#*.} minor=${rest%%.*}
    sed "s/find_package(pzc [0-9.]* /find_package(pzc $major.$((minor + 1)) /" "$consumer/CMakeLists.txt" > "$tmp/CMakeLists.txt"
    mkdir -p "$tmp/newer" && cp "$tmp/CMakeLists.txt" "$consumer/main.cpp" "$consumer/pzc_version.cmake" "$tmp/newer/"
    "$cmake" -S "$tmp/newer" -B "$tmp/newer-build" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
        -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/out" 2>&1 && fail "find_package(pzc $major.$((minor + 1))) accepted $version"
    grep -q "with requested version \"$major.$((minor + 1))\"" "$tmp/out" || { cat "$tmp/out" >&2; fail "the newer request failed for another reason"; }
    ;;
examples)
    install_into "$tmp/prefix"
    export PZC_CACHE_DIR=$tmp/cache
    configure() {  # configure NAME SOURCE: a project against the installed package
        run "configure-$1.log" "$cmake" -S "$2" -B "$tmp/$1" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
            -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON -DCMAKE_PREFIX_PATH="$tmp/prefix"
    }
    # Anima: three levels, their published optimal lengths (../shared/reference/facts.md).
    configure anima "$src/examples/anima_levels"
    run build-anima.log "$cmake" --build "$tmp/anima"
    grep -q -F "$tmp/prefix/share/pzc/puzzles/anima.pz" "$tmp/build-anima.log" || fail "anima not generated from the installed puzzles"
    run anima.out "$tmp/anima/anima_levels"
    for want in "1.3-spiral: 16 moves (optimal)" "2.3-cycle: 13 moves (optimal)" "3.14-antiparticle: 22 moves (optimal)"; do
        grep -q -F "$want" "$tmp/anima.out" || { cat "$tmp/anima.out" >&2; fail "anima_levels: no '$want'"; }
    done
    "$tmp/anima/anima_levels" 9.9-none > "$tmp/out" 2>&1 && fail "an unknown level succeeded"
    grep -q "no level named '9.9-none' (compiled in: 1.3-spiral, 2.3-cycle, 3.14-antiparticle)" "$tmp/out" \
        || { cat "$tmp/out" >&2; fail "unknown level: unclear error"; }
    # The cube scrambler: five scrambles, each replayed by the program to the state it drew.
    configure cube "$src/examples/cube_scrambler"
    run build-cube.log "$cmake" --build "$tmp/cube"
    run cube.out "$tmp/cube/cube_scrambler" 5 1
    [ "$(wc -l < "$tmp/cube.out")" = 5 ] || { cat "$tmp/cube.out" >&2; fail "expected 5 scrambles"; }
    grep -q -v -E "^([UDFBLR]['2]? ?){15,30}$" "$tmp/cube.out" && { cat "$tmp/cube.out" >&2; fail "a scramble is not 15-30 cube moves"; }
    [ "$(sort -u "$tmp/cube.out" | wc -l)" = 5 ] || fail "scrambles repeat"
    # Python: slide4 positions through the installed module, which finds the prefix's pzc itself.
    site=$tmp/prefix/lib/python3/dist-packages
    if [ -d "$site/pzc" ]; then
        run python.out env -u PZC -u PZC_PUZZLE_DIR PYTHONPATH="$site" python3 "$src/examples/python/solve_slide4.py" 3 1
        [ "$(grep -c -E '^[0-9 ]{2} moves \(optimal\): ' "$tmp/python.out")" = 3 ] || { cat "$tmp/python.out" >&2; fail "python: expected 3 optimal solutions"; }
        grep -q -x -F "error: bad scramble: unknown move 'Q'" "$tmp/python.out" || { cat "$tmp/python.out" >&2; fail "python: the bad scramble's message"; }
    else
        echo "python module not installed (PZ_PYTHON off): the Python example is skipped"
    fi
    # pzc_generate(): an edit of the definition regenerates, a rebuild alone does not, a bad definition fails located.
    mkdir -p "$tmp/edit"
    cp "$src/puzzles/loopover3.pz" "$tmp/edit/loopover3.pz"
    # The project calls the library from C++ and through its C entry, from C.
    printf 'cmake_minimum_required(VERSION 3.25)\nproject(edit LANGUAGES C CXX)\nfind_package(pzc CONFIG REQUIRED)\npzc_generate(TARGET lo DEFINITION loopover3.pz)\nadd_executable(edit main.cpp solve.c)\ntarget_link_libraries(edit PRIVATE lo)\n' > "$tmp/edit/CMakeLists.txt"
    printf '#include <cstdio>\n#include "lo.hpp"\nextern "C" int solveInC(void);\nint main() { auto s = lo::makeSolver(); if (!s || (*s)->info().name != "loopover3") return 1; return solveInC(); }\n' > "$tmp/edit/main.cpp"
    cat > "$tmp/edit/solve.c" <<'EOF_C'
#include <stdio.h>
#include "lo_c.h"
int solveInC(void) {
    pz_solver* solver = NULL; pz_position* pos = NULL; pz_solution* sol = NULL; pz_error err;
    char text[256];
    if (lo_solver_new(NULL, NULL, &solver, &err) != PZ_OK || pz_solver_prepare(solver, &err) != PZ_OK ||
        pz_parse_scramble(solver, "R1 C2", &pos, &err) != PZ_OK || pz_solve(solver, pos, NULL, &sol, &err) != PZ_OK ||
        pz_solution_text(sol, text, sizeof text, NULL, &err) != PZ_OK) {
        printf("error: %s\n", err.message);
        return 1;
    }
    printf("C: %s\n", text);
    if (lo_solver_new("nope", NULL, &solver, &err) == PZ_OK) return 1;
    printf("C: %s\n", err.message);
    pz_solution_free(sol, NULL); pz_position_free(pos, NULL); pz_solver_free(solver, NULL);
    return 0;
}
EOF_C
    configure edit "$tmp/edit"
    run build-edit1.log "$cmake" --build "$tmp/edit"
    run edit.out "$tmp/edit/edit"
    grep -q -x -F "C: C2' R1'" "$tmp/edit.out" || { cat "$tmp/edit.out" >&2; fail "the C entry did not solve R1 C2"; }
    grep -q -F "C: loopover3 has no solver 'nope' in this library" "$tmp/edit.out" || { cat "$tmp/edit.out" >&2; fail "the C entry's error"; }
    run build-edit2.log "$cmake" --build "$tmp/edit"
    grep -q "pzc: generating" "$tmp/build-edit2.log" && fail "a rebuild with nothing changed ran pzc again"
    echo "// an edit" >> "$tmp/edit/loopover3.pz"
    run build-edit3.log "$cmake" --build "$tmp/edit"
    grep -q "pzc: generating solver library lo" "$tmp/build-edit3.log" || fail "an edited definition was not regenerated"
    echo "move bogus = nothing;" >> "$tmp/edit/loopover3.pz"
    "$cmake" --build "$tmp/edit" > "$tmp/build-edit4.log" 2>&1 && fail "a bad definition built"
    grep -q -E "loopover3.pz:[0-9]+:[0-9]+: error:" "$tmp/build-edit4.log" || { cat "$tmp/build-edit4.log" >&2; fail "the bad definition's error is not located"; }
    ;;
deb)
    command -v dpkg-deb > /dev/null || fail "dpkg-deb not found (scripts/install-deps.sh installs dpkg-dev)"
    run cpack.log "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb"
    deb=$(ls "$tmp"/deb/pzc_"$version"_*.deb 2> /dev/null | head -1)
    [ -n "$deb" ] || { cat "$tmp/cpack.log" >&2; fail "no pzc_${version}_*.deb"; }
    dpkg-deb -c "$deb" > "$tmp/contents" || fail "dpkg-deb -c failed"
    for f in ./usr/bin/pzc ./usr/include/pz/solver_main.hpp ./usr/include/pz/api/solver.hpp ./usr/include/pz/pz_c.h \
             ./usr/lib/libpz_c.a ./usr/lib/cmake/pzc/pzcGenerate.cmake ./usr/lib/cmake/pzc/pzcConfig.cmake \
             ./usr/lib/cmake/pzc/pzcConfigVersion.cmake ./usr/share/pzc/puzzles/cube3.pz \
             ./usr/share/pzc/puzzles/anima/levels/1.1-line_dance.txt ./usr/share/doc/pzc/README.md; do
        grep -q -F " $f" "$tmp/contents" || { cat "$tmp/contents" >&2; fail "$f not in the .deb"; }
    done
    dpkg-deb -I "$deb" > "$tmp/info" || fail "dpkg-deb -I failed"
    depends=$(sed -n 's/^ Depends: //p' "$tmp/info")
    echo "Depends: $depends"
    # What bin/pzc is linked against, dynamically, must be named (note
    # [static dependencies]: with static archives pzc is wholly static, and g++ alone).
    libs="'g++ (>= 4:12)'"
    if ldd "$build/compiler/driver/pzc" > /dev/null 2>&1; then libs="$libs libc6"; fi  # a static pzc needs no libc6
    if ldd "$build/compiler/driver/pzc" 2>/dev/null | grep -q libantlr4-runtime; then libs="$libs libantlr4-runtime libyaml-cpp libgmp10 libstdc++6"; fi
    eval "set -- $libs"
    for lib in "$@"; do
        grep -q -F -- "$lib" <<< "$depends" || { cat "$tmp/info" >&2; fail "Depends lacks $lib"; }
    done
    # The package's tree works where it is unpacked.
    dpkg-deb -x "$deb" "$tmp/root" || fail "dpkg-deb -x failed"
    out=$("$tmp/root/usr/bin/pzc" --version) && [ "$out" = "pzc $version" ] || fail "unpacked pzc --version: '$out'"
    grep -q "^ Package: pzc$" "$tmp/info" && grep -q "^ Version: $version$" "$tmp/info" \
        && grep -q "^ Maintainer: ." "$tmp/info" || { cat "$tmp/info" >&2; fail "bad control fields"; }
    ;;
*) fail "unknown case $case_name" ;;
esac
echo "ok: $case_name"
