#!/usr/bin/env bash
# Runs one FileCheck golden test: executes the `RUN:` lines of TEST (in its
# comments) with %s = the test file, %S = its directory, %root = the
# repository, %pzc = the pzc binary, %FileCheck = FileCheck.
#   run_golden.sh PZC FILECHECK ROOT TEST
set -euo pipefail
pzc=$1 filecheck=$2 root=$3 test=$4
dir=$(cd "$(dirname "$test")" && pwd)
found=0
while IFS= read -r line; do
    cmd=${line#*RUN: }
    cmd=${cmd//%pzc/$pzc}
    cmd=${cmd//%FileCheck/$filecheck}
    cmd=${cmd//%root/$root}
    cmd=${cmd//%S/$dir}
    cmd=${cmd//%s/$test}
    found=1
    echo "RUN: $cmd"
    bash -o pipefail -c "$cmd"
done < <(grep -E '(//|#) RUN: ' "$test")
if [ "$found" = 0 ]; then
    echo "error: $test has no RUN: line" >&2
    exit 1
fi
