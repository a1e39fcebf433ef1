// Where a pzc command's wall time goes, stage by stage.
//
// note [timeline]
// With PZC_TIMINGS=1 in the environment, pzc prints on stderr, as it exits,
// the milliseconds since main() began at which each marked stage ended:
//   pzc: timings (ms since main): definition 2.7, positions 2.9, ... exit 49.1 (cpu 9.8)
// (cpu: pzc's own processor time, its solvers' not counted).
// A one-shot solve's overhead is the whole process minus the search
// (bench/oneshot/oneshot.sh measures it; what comes before main, exec and
// loading, is the whole minus the last mark); these marks say which stage
// to blame. Marks cost nothing when timings are off.
#pragma once

namespace pz::driver::timeline {

// Records that `stage` ended now (a string literal).
void mark(const char* stage);

// Prints the marks (when PZC_TIMINGS is set); called once, at exit.
void print();

}  // namespace pz::driver::timeline
