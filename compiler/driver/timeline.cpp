// note [timeline] (timeline.hpp).
#include "compiler/driver/timeline.hpp"

#include <sys/resource.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace pz::driver::timeline {

namespace {

bool enabled() {
    static const bool on = [] {
        const char* v = std::getenv("PZC_TIMINGS");
        return v && *v && std::string(v) != "0";
    }();
    return on;
}

std::vector<std::pair<const char*, double>>& marks() {
    static std::vector<std::pair<const char*, double>> m;
    return m;
}

// Seconds on the monotonic clock.
double nowSeconds() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace

void mark(const char* stage) {
    if (enabled()) marks().emplace_back(stage, nowSeconds());
}

void print() {
    if (!enabled() || marks().empty()) return;
    const double start = marks().front().second;  // main
    std::string line = "pzc: timings (ms since main):";
    char buf[96];
    for (size_t i = 1; i < marks().size(); ++i) {
        std::snprintf(buf, sizeof buf, " %s %.1f,", marks()[i].first, (marks()[i].second - start) * 1e3);
        line += buf;
    }
    // pzc's own processor time (its solvers' not counted): what a rank that
    // only hands out work takes from the cores its solvers need.
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    const double cpu = static_cast<double>(self.ru_utime.tv_sec + self.ru_stime.tv_sec) * 1e3 +
                       static_cast<double>(self.ru_utime.tv_usec + self.ru_stime.tv_usec) * 1e-3;
    std::snprintf(buf, sizeof buf, " exit %.1f (cpu %.1f)", (nowSeconds() - start) * 1e3, cpu);
    std::fprintf(stderr, "%s%s\n", line.c_str(), buf);
}

}  // namespace pz::driver::timeline
