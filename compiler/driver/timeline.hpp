// Where a pzc command's wall time goes, stage by stage.
//
// note [timeline]
// With PZC_TIMINGS=1 in the environment, pzc prints on stderr, as it exits,
// the milliseconds since the process started (the kernel's start time, so
// loading pzc's shared libraries counts) at which each marked stage ended:
//   pzc: timings: main 9.1, definition 10.3, solver index 11.0, ...
// A one-shot solve's overhead is the whole process minus the search
// (bench/oneshot/oneshot.sh measures it); these marks say which stage to
// blame. Marks cost a clock read when timings are off.
#pragma once

namespace pz::driver::timeline {

// Records that `stage` ended now (a string literal).
void mark(const char* stage);

// Prints the marks (when PZC_TIMINGS is set); called once, at exit.
void print();

}  // namespace pz::driver::timeline
