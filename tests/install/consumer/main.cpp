// Uses the installed runtime headers (pzc::runtime) and the version of the
// pzc executable (pzc::pzc, run at build time).
#include <cstdio>
#include <thread>

#include "pz/state.hpp"
#include "pzc_version.hpp"

int main() {
    static_assert(__cplusplus >= 202002L, "pzc::runtime asks for C++20");
    unsigned rotated = 0;
    std::thread t([&] { rotated = static_cast<unsigned>(pz::rotl(1, 4)); });  // Threads::Threads
    t.join();
    std::printf("consumer: runtime abi %d, rotl(1, 4) = %u, built with %s\n", pz::kRuntimeAbi, rotated, PZC_TOOL_VERSION);
    return rotated == 16 ? 0 : 1;
}
