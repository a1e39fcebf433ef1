// pz/enumerate/transport.hpp — what the ranks of an enumeration say to each
// other: the values found for another rank's slice, sums, and gathers.
//
// LocalTransport is one process (nothing to exchange); MpiTransport (with
// PZ_WITH_MPI, in the solvers pzc compiles for `pzc enumerate --mpi`) is
// MPI_COMM_WORLD. The BFS (bfs.hpp) is written once against both.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/mman.h>

#ifdef PZ_WITH_MPI
#include <mpi.h>

#include "pz/support/launcher_sockets.hpp"
#endif

namespace pz::enumerate {

// The least of a and b in each of their sixteen 4-bit fields (the entries
// of a table under construction: pz/tables/projected_coset.hpp). Even and
// odd fields go to bytes of their own, where (x | 0x80) - y keeps bit 7 of
// each byte iff x >= y, with no borrow from one byte into the next.
inline uint64_t minOfNibbles(uint64_t a, uint64_t b) {
    constexpr uint64_t kLow = 0x0F0F0F0F0F0F0F0FULL, kHigh = 0x8080808080808080ULL;
    auto half = [](uint64_t x, uint64_t y) {
        const uint64_t ge = (((x | kHigh) - y) & kHigh) >> 7;  // 1 in each byte where x >= y
        const uint64_t take = ge * 0xFF;                       // those bytes take y
        return (y & take) | (x & ~take);
    };
    return half(a & kLow, b & kLow) | half(a >> 4 & kLow, b >> 4 & kLow) << 4;
}

// note [exchange buffers]
// A round's buffers live as long as the enumeration, are never zeroed, and
// once large sit in 2 MiB-aligned memory advised for transparent huge
// pages: on this VM a fresh 4 KiB page costs ~2.3 us to fault in, and a
// 2-rank cube2 run spent a third of its time faulting in, clearing and
// copying buffers that were freed and allocated again every round.
// Received values land in a vector whose resize leaves new elements
// uninitialised (the exchange writes them before anyone reads them).
template <class T>
struct RoundAllocator {
    using value_type = T;
    static constexpr size_t kHuge = size_t{2} << 20;
    RoundAllocator() = default;
    template <class U>
    RoundAllocator(const RoundAllocator<U>&) noexcept {}
    T* allocate(size_t n) {
        const size_t bytes = n * sizeof(T);
        if (bytes < kHuge) return static_cast<T*>(::operator new(bytes));
        void* p = std::aligned_alloc(kHuge, (bytes + kHuge - 1) / kHuge * kHuge);
        if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        ::madvise(p, (bytes + kHuge - 1) / kHuge * kHuge, MADV_HUGEPAGE);  // a hint: ignored without THP
#endif
        return static_cast<T*>(p);
    }
    void deallocate(T* p, size_t n) noexcept {
        if (n * sizeof(T) < kHuge) ::operator delete(p);
        else std::free(p);
    }
    template <class U, class... A>
    void construct(U* p, A&&... a) {
        if constexpr (sizeof...(A) == 0) ::new (static_cast<void*>(p)) U;
        else ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
    }
    template <class U>
    bool operator==(const RoundAllocator<U>&) const noexcept { return true; }
};
template <class W>
using Received = std::vector<W, RoundAllocator<W>>;
// What a round sends: per thread, per destination rank.
template <class W>
using Outboxes = std::vector<std::vector<std::vector<W, RoundAllocator<W>>>>;

class LocalTransport {
public:
    int rank() const { return 0; }
    int ranks() const { return 1; }
    // Ranks on this machine (for the default thread count).
    int localRanks() const { return 1; }
    template <class W>
    void exchange(Outboxes<W>&, Received<W>& in, std::vector<int>* inCounts = nullptr) {
        in.clear();
        if (inCounts) inCounts->assign(1, 0);
    }
    // The same in flight (note [overlapped rounds]): nothing to send.
    template <class W>
    void post(Outboxes<W>&, Received<W>& in) { in.clear(); }
    void poll() {}
    void wait() {}
    uint64_t sum(uint64_t v) { return v; }
    uint64_t min(uint64_t v) { return v; }
    int firstWhere(bool b) { return b ? 0 : -1; }
    // Rank 0 receives every rank's `mine` (in rank order).
    template <class W>
    std::vector<std::vector<W>> gather(const std::vector<W>& mine) { return {mine}; }
    // Rank 0 receives every rank's slice a window at a time (note [streamed
    // tables] in enumerate_main.hpp): take(first, parts, n), parts holding
    // rank r's words [first, first + n) at parts + r * n.
    template <class Take>
    void gatherWindows(const uint64_t* slice, uint64_t words, uint64_t window, Take&& take) {
        for (uint64_t w = 0; w < words; w += window) take(w, slice + w, std::min(window, words - w));
    }
    // Rank 0's `words` become every rank's 4-bit fields' minima
    // (minOfNibbles; note [projected tables across ranks]): one rank, as they are.
    void reduceMinNibbles(uint64_t*, uint64_t) {}
    // Every rank's `words` become the OR of all ranks' (note [replicated
    // spaces] in replicated_bfs.hpp): one rank, as they are.
    void orWords(uint64_t*, uint64_t) {}
    uint64_t bytesSent() const { return 0; }
    [[noreturn]] void abortAll(int code) { std::exit(code); }
};

#ifdef PZ_WITH_MPI

template <class W>
MPI_Datatype mpiTypeOf() {
    static_assert(std::is_same_v<W, uint8_t> || std::is_same_v<W, uint32_t> || std::is_same_v<W, uint64_t>);
    if constexpr (std::is_same_v<W, uint8_t>) return MPI_UINT8_T;
    return std::is_same_v<W, uint32_t> ? MPI_UINT32_T : MPI_UINT64_T;
}

class MpiTransport {
public:
    MpiTransport(int* argc, char*** argv) {
        int provided = 0;
        // Only the main thread calls MPI (worker threads scan and claim).
        MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
        noDelayOnTcpSockets();  // note [launcher sockets]: MPI_Finalize 45 -> 2 ms
        MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
        MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
        MPI_Comm node;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
        MPI_Comm_size(node, &localRanks_);
        MPI_Comm_free(&node);
    }
    ~MpiTransport() { MPI_Finalize(); }
    MpiTransport(const MpiTransport&) = delete;
    MpiTransport& operator=(const MpiTransport&) = delete;

    int rank() const { return rank_; }
    int ranks() const { return ranks_; }
    int localRanks() const { return localRanks_; }

    // out[t][r]: thread t's values for rank r (none for rank()); `in` gets
    // what the others sent here. Counts first (MPI_Alltoall), then the
    // values (MPI_Alltoallv); a round is bounded (note [bfs rounds]), so
    // counts fit an int. `inCounts`, when given, gets how many came from each
    // rank (in rank order: `in` is their concatenation). The outboxes are
    // emptied, keeping their capacity (note [exchange buffers]).
    template <class W>
    void exchange(Outboxes<W>& out, Received<W>& in, std::vector<int>* inCounts = nullptr) {
        post(out, in);
        wait();
        if (inCounts) *inCounts = flight_.recvCount;
    }

    // note [overlapped rounds]
    // The same exchange in three calls, so that a rank computes while it is
    // in flight: post() copies the outboxes out (they are free at once) and
    // starts the counts' all-to-all; poll(), called often from the main
    // thread while the workers expand the next round, moves it on (Open MPI
    // progresses a non-blocking collective only inside MPI calls) and starts
    // the values' all-to-all once the counts are in; wait() finishes it,
    // after which `in` holds the values. One exchange is in flight at a time
    // and `in` is not touched between post() and wait(). Every rank posts
    // the same exchanges in the same order, as collectives need.
    template <class W>
    void post(Outboxes<W>& out, Received<W>& in) {
        Flight& f = flight_;
        f.sendCount.assign(ranks_, 0);
        f.recvCount.assign(ranks_, 0);
        f.sendAt.assign(ranks_, 0);
        f.recvAt.assign(ranks_, 0);
        size_t total = 0;
        for (const auto& box : out)
            for (const auto& v : box) total += v.size();
        if (total * sizeof(W) > send_.size()) send_.resize(total * sizeof(W) * 3 / 2);
        W* send = reinterpret_cast<W*>(send_.data());
        size_t at = 0;
        for (int r = 0; r < ranks_; ++r) {
            f.sendAt[r] = static_cast<int>(at);
            for (auto& box : out) {
                std::copy(box[r].begin(), box[r].end(), send + at);
                at += box[r].size();
                box[r].clear();
            }
            f.sendCount[r] = static_cast<int>(at) - f.sendAt[r];
        }
        sent_ += at * sizeof(W);
        f.type = mpiTypeOf<W>();
        f.receive = [&in](size_t n) -> void* {
            in.resize(n);
            return in.data();
        };
        f.stage = Flight::kCounts;
        MPI_Ialltoall(f.sendCount.data(), 1, MPI_INT, f.recvCount.data(), 1, MPI_INT, MPI_COMM_WORLD, &f.request);
    }
    void poll() {
        Flight& f = flight_;
        if (f.stage == Flight::kIdle) return;
        int done = 0;
        MPI_Test(&f.request, &done, MPI_STATUS_IGNORE);
        if (done) advance();
    }
    void wait() {
        while (flight_.stage != Flight::kIdle) {
            MPI_Wait(&flight_.request, MPI_STATUS_IGNORE);
            advance();
        }
    }
    uint64_t sum(uint64_t v) { return reduce(v, MPI_SUM); }
    uint64_t min(uint64_t v) { return reduce(v, MPI_MIN); }
    // The lowest rank whose `b` is true (-1: none); every rank calls it.
    int firstWhere(bool b) {
        const uint64_t first = min(b ? static_cast<uint64_t>(rank_) : UINT64_MAX);
        return first == UINT64_MAX ? -1 : static_cast<int>(first);
    }
    template <class W>
    std::vector<std::vector<W>> gather(const std::vector<W>& mine) {
        const int n = static_cast<int>(mine.size());
        std::vector<int> counts(ranks_), at(ranks_);
        MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
        int total = 0;
        for (int r = 0; r < ranks_; ++r) at[r] = total, total += counts[r];
        std::vector<W> all(rank_ == 0 ? static_cast<size_t>(total) : 0);
        MPI_Gatherv(mine.data(), n, mpiTypeOf<W>(), all.data(), counts.data(), at.data(), mpiTypeOf<W>(), 0,
                    MPI_COMM_WORLD);
        std::vector<std::vector<W>> out;
        if (rank_ == 0)
            for (int r = 0; r < ranks_; ++r) out.emplace_back(all.begin() + at[r], all.begin() + at[r] + counts[r]);
        return out;
    }
    // Rank 0 receives every rank's slice a window at a time (note [streamed
    // tables] in enumerate_main.hpp): take(first, parts, n), parts holding
    // rank r's words [first, first + n) at parts + r * n. Every rank's slice
    // has the same length (note [rank slices]), so the gathers match.
    template <class Take>
    void gatherWindows(const uint64_t* slice, uint64_t words, uint64_t window, Take&& take) {
        std::vector<uint64_t> parts(rank_ == 0 ? static_cast<size_t>(std::min(window, words) * ranks_) : 0);
        for (uint64_t w = 0; w < words; w += window) {
            const uint64_t n = std::min(window, words - w);  // a window's count fits an int
            MPI_Gather(slice + w, static_cast<int>(n), MPI_UINT64_T, parts.data(), static_cast<int>(n), MPI_UINT64_T, 0,
                       MPI_COMM_WORLD);
            if (rank_ == 0) take(w, parts.data(), n);
        }
    }
    // Rank 0's `words` become every rank's 4-bit fields' minima (minOfNibbles;
    // note [projected tables across ranks]), reduced a window of 8 MiB at a
    // time: what MPI holds besides the table stays small whatever its size.
    void reduceMinNibbles(uint64_t* words, uint64_t count) {
        MPI_Op op;
        MPI_Op_create(&reduceNibbles, 1, &op);
        constexpr uint64_t kWindow = uint64_t{1} << 20;
        for (uint64_t w = 0; w < count; w += kWindow) {
            const int n = static_cast<int>(std::min(kWindow, count - w));
            if (rank_ == 0)
                MPI_Reduce(MPI_IN_PLACE, words + w, n, MPI_UINT64_T, op, 0, MPI_COMM_WORLD);
            else
                MPI_Reduce(words + w, nullptr, n, MPI_UINT64_T, op, 0, MPI_COMM_WORLD);
            sent_ += static_cast<uint64_t>(n) * 8;
        }
        MPI_Op_free(&op);
    }
    // Every rank's `words` become the OR of all ranks' (note [replicated
    // spaces] in replicated_bfs.hpp), in place, 2 MiB at a time; a window
    // that is zero on every rank (one small all-reduce of flags says which)
    // is not sent: a level's early windows are mostly empty.
    void orWords(uint64_t* words, uint64_t count) {
        if (ranks_ == 1) return;  // nothing to combine, nothing sent
        constexpr uint64_t kWindow = uint64_t{1} << 18;
        const uint64_t windows = (count + kWindow - 1) / kWindow;
        std::vector<uint8_t> marked(windows);
        for (uint64_t k = 0; k < windows; ++k) {
            const uint64_t* w = words + k * kWindow;
            marked[k] = std::any_of(w, w + std::min(kWindow, count - k * kWindow), [](uint64_t x) { return x != 0; });
        }
        MPI_Allreduce(MPI_IN_PLACE, marked.data(), static_cast<int>(windows), MPI_UINT8_T, MPI_BOR, MPI_COMM_WORLD);
        for (uint64_t k = 0; k < windows; ++k) {
            if (!marked[k]) continue;
            const int n = static_cast<int>(std::min(kWindow, count - k * kWindow));
            MPI_Allreduce(MPI_IN_PLACE, words + k * kWindow, n, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
            sent_ += static_cast<uint64_t>(n) * 8;
        }
    }
    uint64_t bytesSent() const { return sent_; }
    // Ends the whole job (every rank) with `code`.
    [[noreturn]] void abortAll(int code) {
        std::fflush(stdout);
        std::fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, code);
        std::exit(code);
    }

private:
    // The exchange in flight (note [overlapped rounds]).
    struct Flight {
        enum Stage { kIdle, kCounts, kValues } stage = kIdle;
        std::vector<int> sendCount, recvCount, sendAt, recvAt;
        MPI_Datatype type = MPI_DATATYPE_NULL;
        std::function<void*(size_t)> receive;  // sizes `in`, returns where the values go
        MPI_Request request = MPI_REQUEST_NULL;
    };
    // The request just completed: the counts start the values; the values end it.
    void advance() {
        Flight& f = flight_;
        if (f.stage == Flight::kValues) {
            f.stage = Flight::kIdle;
            f.receive = nullptr;
            return;
        }
        int received = 0;
        for (int r = 0; r < ranks_; ++r) f.recvAt[r] = received, received += f.recvCount[r];
        void* in = f.receive(static_cast<size_t>(received));
        f.stage = Flight::kValues;
        MPI_Ialltoallv(send_.data(), f.sendCount.data(), f.sendAt.data(), f.type, in, f.recvCount.data(),
                       f.recvAt.data(), f.type, MPI_COMM_WORLD, &f.request);
    }
    Flight flight_;
    static void reduceNibbles(void* in, void* inout, int* len, MPI_Datatype*) {
        const auto* a = static_cast<const uint64_t*>(in);
        auto* b = static_cast<uint64_t*>(inout);
        for (int i = 0; i < *len; ++i) b[i] = minOfNibbles(a[i], b[i]);
    }
    uint64_t reduce(uint64_t v, MPI_Op op) {
        uint64_t r = 0;
        MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, op, MPI_COMM_WORLD);
        return r;
    }
    int rank_ = 0, ranks_ = 1, localRanks_ = 1;
    uint64_t sent_ = 0;
    std::vector<std::byte, RoundAllocator<std::byte>> send_;  // note [exchange buffers]
};

#endif

}  // namespace pz::enumerate
