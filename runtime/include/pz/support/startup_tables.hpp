// pz/support/startup_tables.hpp — memory for the tables every solver builds
// before main.
//
// note [start-up tables]
// The coordinate ranking tables (CombinationRanks<16> in pz/coord.hpp, 512
// KiB; kColexRank16 in pz/lane_coord.hpp, 128 KiB) are built at start-up in
// every solver. Written into fresh pages one 4 KiB page at a time they cost
// ~160 page faults, and a fault in this VM costs tens of microseconds: about
// 4 ms of a one-shot slide4 solve of 23 ms (perf: 42% of the process's
// faults came from zeroing them). Here they share 2 MiB regions, aligned
// and advised MADV_HUGEPAGE, so the first write takes one fault for a huge
// page; mmap's memory is already zero, so nothing is cleared by hand.
// Without a huge page (THP off) the kernel falls back to 4 KiB pages, as before.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>

namespace pz {

// `bytes` of zeroed memory, 64-byte aligned, never freed (start-up tables
// live as long as the process). Thread-safe.
inline void* startupTableBytes(size_t bytes) {
    constexpr size_t kRegion = size_t{2} << 20;
    static std::mutex lock;
    static char* base = nullptr;
    static size_t used = 0, size = 0;
    std::lock_guard<std::mutex> hold(lock);
    bytes = (bytes + 63) & ~size_t{63};
    if (!base || used + bytes > size) {
        const size_t want = (bytes + kRegion - 1) / kRegion * kRegion;
        // Over-map by one region to align the start to 2 MiB.
        void* raw = ::mmap(nullptr, want + kRegion, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) throw std::bad_alloc();
        const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
        const uintptr_t aligned = (start + kRegion - 1) / kRegion * kRegion;
        if (aligned > start) ::munmap(raw, aligned - start);
        const uintptr_t end = start + want + kRegion;
        if (end > aligned + want) ::munmap(reinterpret_cast<void*>(aligned + want), end - (aligned + want));
        base = reinterpret_cast<char*>(aligned);
        used = 0, size = want;
        ::madvise(base, size, MADV_HUGEPAGE);  // a hint: ignored without THP
    }
    void* out = base + used;
    used += bytes;
    return out;
}

template <class T>
T* startupTable(size_t count) {
    return static_cast<T*>(startupTableBytes(count * sizeof(T)));
}

}  // namespace pz
