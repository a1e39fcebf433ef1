#!/usr/bin/env bash
# Times `pzc check` on the definitions behind bench/ssims's harness entries
# (generated here, not stored: each is one long cycle). Prints user, system
# and wall seconds per definition; the order printed by check must be exact.
#   bench/ssims/check_inputs.sh [PZC] [REPS]     (default build/compiler/driver/pzc, 3)
set -euo pipefail
pzc=${1:-build/compiler/driver/pzc}; reps=${2:-3}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
cycle() { local n=$1 first=${2:-0}; printf '(%s' "$first"; seq -s ' ' 1 $((n - 1)) | sed 's/^/ /'; printf ')'; }
write() { printf 'puzzle p { %s }\n' "$2" > "$dir/$1.pz"; }
write sym1024      "orbit p 1024; move C = p $(cycle 1024); move T = p (0 1);"
write alt1023      "orbit p 1023; move C = p $(cycle 1023); move T = p (0 1 2);"
for m in 2 3 8 256; do  # Cm wr Sym(1024) with twist sum 0
    write "c${m}wr1024" "orbit p 1024 orient $m; move C = p $(cycle 1024); move T = p (0 1); move W = p (0+1) (1-1);"
done
for n in 256 1024; do   # a twisted n-cycle and a swap (orient 3)
    write "twisted$n" "orbit p $n orient 3; move C = p $(cycle $n 0+1); move T = p (0 1);"
done
printf '%-12s %8s %8s %8s  %s\n' definition user sys wall order
for f in sym1024 alt1023 c2wr1024 c3wr1024 c8wr1024 c256wr1024 twisted256 twisted1024; do
    for _ in $(seq "$reps"); do
        /usr/bin/time -o "$dir/time" -f '%U %S %e' "$pzc" check "$dir/$f.pz" > "$dir/out" 2> "$dir/err" \
            || { echo "$f: pzc check failed: $(head -3 "$dir/err")" >&2; exit 1; }
        order=$(grep -m1 '^group order:' "$dir/out" | cut -d' ' -f3 | cut -c1-24)
        printf '%-12s %8s %8s %8s  %s...\n' "$f" $(cat "$dir/time") "$order"
    done
done
