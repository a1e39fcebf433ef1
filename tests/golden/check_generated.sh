#!/usr/bin/env bash
# Regenerates generated/ into a temporary directory and fails on any
# difference from the checked-in copy.   check_generated.sh PZC
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PZC=$1 scripts/regenerate.sh "$tmp"
if ! diff -ru generated "$tmp"; then
    echo "generated/ is stale: run scripts/regenerate.sh" >&2
    exit 1
fi
