// note [timeline] (timeline.hpp).
#include "compiler/driver/timeline.hpp"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
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

// Seconds since boot, the clock /proc/self/stat's start time counts in.
double bootSeconds() {
    timespec t{};
    clock_gettime(CLOCK_BOOTTIME, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// The process's start in seconds since boot (field 22 of /proc/self/stat,
// in clock ticks), else the first mark.
double processStart() {
    std::ifstream in("/proc/self/stat");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    const size_t close = text.rfind(')');
    if (close == std::string::npos) return marks().empty() ? bootSeconds() : marks().front().second;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i)
        if (i == 22) return std::stod(field) / static_cast<double>(sysconf(_SC_CLK_TCK));
    return marks().empty() ? bootSeconds() : marks().front().second;
}

}  // namespace

void mark(const char* stage) {
    if (enabled()) marks().emplace_back(stage, bootSeconds());
}

void print() {
    if (!enabled()) return;
    const double start = processStart();
    std::string line = "pzc: timings (ms since the process started):";
    char buf[96];
    for (const auto& [stage, at] : marks()) {
        std::snprintf(buf, sizeof buf, " %s %.1f,", stage, (at - start) * 1e3);
        line += buf;
    }
    std::snprintf(buf, sizeof buf, " exit %.1f", (bootSeconds() - start) * 1e3);
    std::fprintf(stderr, "%s%s\n", line.c_str(), buf);
}

}  // namespace pz::driver::timeline
