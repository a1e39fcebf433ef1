# bench/mpi/timing.sh — sourced by the MPI benchmarks: wall time of one run
# and the median of several. Needs $tmp (a scratch folder).
# timed CMD...: wall seconds of one run (stdout in $tmp/out, stderr in $tmp/err).
timed() {
    local start end
    start=$(date +%s.%N)
    "$@" > "$tmp/out" 2> "$tmp/err"
    end=$(date +%s.%N)
    printf "%.3f\n" "$(echo "$end - $start" | bc)"
}
# The median of the numbers on stdin, one a line.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
