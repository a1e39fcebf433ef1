#!/usr/bin/env bash
# Fuzzes the readers (.pz, YAML, .tws, level files) and the lowering pass with libFuzzer,
# ASan and UBSan for SECONDS (default 60), then the command line (fuzz_cli:
# every subcommand's options) for SECONDS / 2.
#   scripts/fuzz.sh [SECONDS] [--frontend-only]
# --frontend-only: the readers alone (ctest's fuzz_short: building fuzz_cli
# compiles every back end with sanitizers, minutes of CI for seconds of fuzzing).
# Builds with clang++-14 in $PZ_FUZZ_BUILD (default build-fuzz), seeds the
# corpus from puzzles/ and tests/, and keeps the corpus in
# $PZ_FUZZ_BUILD/corpus between runs. Exits 77 (skipped) without clang++-14,
# 1 on a finding (the reproducer is left in $PZ_FUZZ_BUILD/findings, and
# named on the first line printed after the build): libFuzzer's own exit
# code for a finding is 77, which ctest would read as "skipped". A fuzzer
# that exits without a finding (it could not run) and a failed build fail
# too, each with its own message.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
frontend_only=false
[ "${2:-}" = "--frontend-only" ] && frontend_only=true
build="${PZ_FUZZ_BUILD:-build-fuzz}"

if ! command -v clang++-14 >/dev/null; then
  echo "fuzz.sh: clang++-14 not found; skipping"
  exit 77
fi

# The build's output goes to a log, shown only when it fails: what a test
# run shows first is then the fuzzing's own result.
mkdir -p "$build"
targets=(fuzz_frontend); $frontend_only || targets+=(fuzz_cli)
if ! { cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPZ_FUZZ=ON \
         -DCMAKE_CXX_COMPILER=clang++-14 \
         -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" &&
       cmake --build "$build" -j2 --target "${targets[@]}"; } > "$build/build.log" 2>&1; then
  echo "fuzz.sh: building the fuzzers failed (clang++-14, sanitizers):"
  tail -n 40 "$build/build.log"
  exit 1
fi

# fuzz NAME BINARY ARGS...: runs one fuzzer. A finding leaves an artifact
# (crash-, leak-, timeout-, oom-, slow-unit-) under $build/findings, named
# first; an exit without one is the fuzzer failing to run (a sanitizer that
# cannot work here, say), said as such. Either fails the run.
fuzz() {
  local name=$1; shift
  local log="$build/$name.log" before after
  before=$(ls "$build/findings" | sort)
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 "$@" > "$log" 2>&1
  local rc=$?
  after=$(comm -13 <(echo "$before") <(ls "$build/findings" | sort))
  if [ $rc -eq 0 ]; then
    echo "fuzz.sh: $name: no finding ($(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$log" | tail -n 1))"
    return 0
  fi
  if [ -n "$after" ]; then
    echo "fuzz.sh: $name: FINDING, exit $rc: $(echo $after) in $build/findings (reproduce: $1 FILE)"
  else
    echo "fuzz.sh: $name: the fuzzer exited $rc without a finding (no artifact): it did not run properly here"
  fi
  tail -n 40 "$log"
  return 1
}

# Seeds: every shipped and test definition, once per front end byte.
corpus="$build/corpus"
seeds="$build/seeds"
mkdir -p "$corpus" "$seeds" "$build/findings"
for f in puzzles/*.pz puzzles/*.yaml tests/puzzles/*.pz tests/roundtrip/*.pz tests/diagnostics/*.pz \
         tests/diagnostics/*.yaml tests/tws/*.tws tests/diagnostics/*.tws puzzles/anima/levels/*.txt; do
  [ -f "$f" ] || continue
  case "$f" in *.yaml) byte='\001' ;; *.tws) byte='\002' ;; *.txt) byte='\003' ;; *) byte='\000' ;; esac
  name=$(echo "$f" | tr '/' '_')
  { printf "$byte"; cat "$f"; } > "$seeds/$name"
done

# -rss_limit_mb/-timeout: a slow or huge input counts as a finding.
fuzz fuzz_frontend "$build/fuzz/fuzz_frontend" "$corpus" "$seeds" \
  -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 -error_exitcode=1 -timeout_exitcode=1 \
  -artifact_prefix="$build/findings/" -print_final_stats=1 || exit 1

$frontend_only && exit 0

# The command line: seeds from tests/fuzz/cli_seeds.txt (tab-separated words
# become NUL-separated argv words).
cli_corpus="$build/cli-corpus"
cli_seeds="$build/cli-seeds"
mkdir -p "$cli_corpus" "$cli_seeds"
n=0
grep -v '^#' tests/fuzz/cli_seeds.txt | while IFS= read -r line; do
  n=$((n + 1))
  printf '%s' "$line" | tr '\t' '\0' > "$cli_seeds/seed$n"
done
fuzz fuzz_cli "$build/fuzz/fuzz_cli" "$cli_corpus" "$cli_seeds" \
  -max_total_time="$((seconds / 2))" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -error_exitcode=1 -timeout_exitcode=1 \
  -artifact_prefix="$build/findings/cli-" -print_final_stats=1 || exit 1
