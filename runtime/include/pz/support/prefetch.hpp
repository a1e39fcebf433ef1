// pz/support/prefetch.hpp — software prefetches the compiler keeps.
//
// GCC drops __builtin_prefetch from loops it vectorises: g++ 12 at -O3
// removed the big table's line prefetches from the optimal search's child
// loops (pz/search/search.hpp), so every lookup waited for its miss in full (about
// 200 ns on the 1.8 GiB cube table on this kind of machine). On x86 the
// instruction is emitted directly (an asm statement is never dropped, and
// keeps its loop scalar); elsewhere the builtin is the best there is.
#pragma once

namespace pz {

// Fetch the line holding p into every cache level, for reading.
inline void prefetch(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
    asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
    __builtin_prefetch(p);
#endif
}

// The same for a line about to be written (an ownership request where the
// CPU has one).
inline void prefetchForWrite(const void* p) {
#if (defined(__x86_64__) || defined(__i386__)) && defined(__PRFCHW__)
    asm volatile("prefetchw %0" : : "m"(*static_cast<const char*>(p)));
#elif defined(__x86_64__) || defined(__i386__)
    asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
    __builtin_prefetch(p, 1);
#endif
}

}  // namespace pz
