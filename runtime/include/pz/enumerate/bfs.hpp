// pz/enumerate/bfs.hpp — a level-synchronous breadth-first enumeration of
// a coordinate space (a pattern of puzzle traits T: P::rank/unrank/kSize),
// split across ranks (note [rank slices] in slices.hpp) and threads.
//
// Distances are to solved, as in PruneTable::build (x's neighbours are
// x * m^-1), so a table of DepthNibbles is that build's table.
//
// note [bfs rounds]
// A level runs in rounds of local values: every rank scans its
// next round of values for the level's states (threads take chunks), applies
// each move, keeps the children it owns (claimed at once) and buckets the
// others by owner; then the ranks exchange the buckets (one all-to-all) and
// claim what they received, the exchange running while the next round
// expands (note [overlapped rounds] in transport.hpp). A round bounds the buffers: its length is set
// from the level's density (the counts every rank knows) so that about
// kRoundChildren children are in flight per rank, and every rank runs the
// same number of rounds, so the collective calls always match. Children are
// the owner's local indices (4 bytes while a slice has at most 2^32 values,
// else 8), or, across machines, sorted as varint gaps (note [packed children]).
// A level whose unseen values are fewer than its frontier runs backwards,
// as PruneTable::build does: each unseen state looks for a neighbour in the
// level (moves closed under inverse), a few moves at a time, and stops at
// the first. With one rank that is a lookup; across ranks a neighbour
// another rank owns is a query to it, answered with a bit (backwardAcross):
// the big last levels then cost a few queries per unseen state instead of
// every move of every frontier state.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "pz/enumerate/packed_children.hpp"
#include "pz/enumerate/slices.hpp"
#include "pz/enumerate/transport.hpp"

namespace pz::enumerate {

// Runs f(t) on threads 0..n-1 (0 on the caller) and sums what they return.
template <class F>
uint64_t parallelSum(int n, F&& f) {
    if (n <= 1) return f(0);
    std::vector<uint64_t> part(static_cast<size_t>(n));
    std::vector<std::thread> pool;
    for (int t = 1; t < n; ++t) pool.emplace_back([&, t] { part[t] = f(t); });
    part[0] = f(0);
    for (auto& th : pool) th.join();
    uint64_t s = 0;
    for (auto v : part) s += v;
    return s;
}

struct BfsOptions {
    int threads = 1;
    unsigned maxDepth = ~0u;       // stop after this level (--max-depth)
    Progress* progress = nullptr;  // rank 0's, or none
    // A forward level sends children sorted as varint gaps (note [packed
    // children]): for ranks on several machines, where the network binds.
    bool packed = false;
    // Called after every finished level (a checkpoint), with the new depth.
    std::function<void(unsigned)> levelDone;
};

template <class T, class P, class Store, class Transport>
class SpaceBfs {
public:
    using State = typename T::State;
    static constexpr uint64_t kChunk = uint64_t{1} << 13;

    SpaceBfs(Transport& net, BfsOptions options)
        : net_(net), options_(std::move(options)), part_(P::kSize, net.ranks(), net.rank()),
          store_(part_.localEntries()) {}

    const Partition& partition() const { return part_; }
    Store& store() { return store_; }
    // States per depth, summed over the ranks (the same on every rank).
    const std::vector<uint64_t>& counts() const { return counts_; }
    std::vector<uint64_t>& counts() { return counts_; }
    uint64_t reached() const {
        uint64_t r = 0;
        for (auto c : counts_) r += c;
        return r;
    }

    // Runs from solved, or from a restored level (counts() and store() set).
    void run() {
        if (counts_.empty()) {
            // Solved, or every value P names as solved (note [coset class spaces]).
            std::vector<uint64_t> starts{P::rank(T::solved())};
            if constexpr (requires { P::starts(); }) starts = P::starts();
            for (uint64_t start : starts)
                if (part_.owner(start) == part_.rank) store_.setStart(part_.local(start));
            counts_.push_back(starts.size());
        }
        const bool wide = part_.localEntries() > (uint64_t{1} << 32);
        const unsigned deepest = std::min(Store::kMaxDepth, options_.maxDepth);
        for (unsigned d = static_cast<unsigned>(counts_.size() - 1); d + 1 <= deepest; ++d) {
            if (reached() == P::kSize) break;
            if (options_.progress) options_.progress->beginLevel();
            const bool backward = T::kInverseLookups && P::kSize - reached() < counts_[d];
            uint64_t found = backward && part_.ranks == 1 ? backwardLevel(d)
                             : backward ? (wide ? backwardAcross<uint64_t>(d) : backwardAcross<uint32_t>(d))
                             : wide     ? forwardLevel<uint64_t>(d)
                                        : forwardLevel<uint32_t>(d);
            found = net_.sum(found);
            // Nothing new: the level just expanded is the last, and stays the
            // store's frontier (farthest() reads it).
            if (found == 0) break;
            store_.endLevel();
            counts_.push_back(found);
            if (options_.progress) options_.progress->level(static_cast<int>(d + 1), found);
            if (options_.levelDone) options_.levelDone(d + 1);
        }
    }

    // Up to n values at the greatest depth, smallest first (on rank 0; the
    // other ranks return nothing). Each rank offers its n smallest.
    std::vector<uint64_t> farthest(size_t n) {
        const unsigned last = static_cast<unsigned>(counts_.size() - 1);
        std::vector<uint64_t> mine;
        if (n > 0)
            for (uint64_t b = 0; b < part_.localEntries() && mine.size() < n; b += Partition::kBlock)
                store_.forEachFrontier(b, b + Partition::kBlock, last, [&](uint64_t l) {
                    if (mine.size() < n) mine.push_back(part_.global(l));
                });
        std::vector<uint64_t> all;
        for (auto& v : net_.gather(mine)) all.insert(all.end(), v.begin(), v.end());
        std::sort(all.begin(), all.end());
        if (all.size() > n) all.resize(n);
        return all;
    }

private:
    // Values a child stands for: itself, or with its images when P has
    // them (a coset pattern's entries: note [coset class spaces] in
    // coset_classes.hpp), claimed at the child's depth together.
    static constexpr int kImages = [] {
        if constexpr (requires { P::kMaxImages; }) return P::kMaxImages;
        else return 1;
    }();
    static constexpr double kRoundChildren = 1 << 23;  // per rank: 32 MiB of 4-byte children
    static constexpr unsigned kAskerBits = 26;          // a backward round's states: at most 2^26 (roundEntries)
    // Local values per round (a power of two from 2^16 to 2^26) where a
    // `share` of the values each yield `perValue` children or queries.
    static uint64_t roundEntries(double share, double perValue) {
        const double want = kRoundChildren / std::max(share * perValue, 1e-9);
        uint64_t k = Partition::kBlock;
        while (k < (uint64_t{1} << kAskerBits) && static_cast<double>(k) * 2 <= want) k *= 2;
        return k;
    }

    template <bool Atomic>
    bool claim(uint64_t l, unsigned d) {
        return store_.template claim<Atomic>(l, d);
    }
    bool claimAny(uint64_t l, unsigned d) {
        return options_.threads > 1 ? claim<true>(l, d) : claim<false>(l, d);
    }

    template <class W>
    uint64_t forwardLevel(unsigned d) {
        const int ranks = part_.ranks, me = part_.rank, threads = std::max(1, options_.threads);
        const uint64_t local = part_.localEntries();
        const uint64_t kRoundEntries = roundEntries(double(counts_[d]) / double(P::kSize), T::kMoves);
        const uint64_t rounds = (local + kRoundEntries - 1) / kRoundEntries;
        // Kept from level to level (note [exchange buffers] in transport.hpp).
        Outboxes<W>& outbox = buffers<W>().outbox;
        Received<W>& received = buffers<W>().received;
        // Or sent packed (note [packed children]), sorted in `scratch`.
        const bool pack = options_.packed && ranks > 1;
        auto& scratch = buffers<W>().scratch;
        Outboxes<uint8_t>& packed = packed_.outbox;
        Received<uint8_t>& receivedPacked = packed_.received;
        const unsigned bits = static_cast<unsigned>(std::bit_width(std::max<uint64_t>(local, 2) - 1));
        outbox.resize(threads);
        scratch.resize(threads);
        packed.resize(threads);
        for (auto& box : packed) box.resize(ranks);
        for (auto& box : outbox) {
            box.resize(ranks);
            // Room for a round's share at once: no copies as they grow.
            for (int r = 0; r < ranks && ranks > 1; ++r)
                if (r != me) box[r].reserve(static_cast<size_t>(kRoundChildren) / threads / ranks);
        }
        uint64_t found = 0;
        // The previous round's exchange is in flight while this round
        // expands (note [overlapped rounds] in transport.hpp): its children
        // are claimed after, which changes nothing, as this level's
        // expansion reads depth d and claims write d + 1.
        bool inFlight = false;
        for (uint64_t round = 0; round < rounds; ++round) {
            const uint64_t begin = round * kRoundEntries, end = std::min(local, begin + kRoundEntries);
            std::atomic<uint64_t> next{begin};
            found += parallelSum(threads, [&](int t) {
                uint64_t mine = 0;
                auto& box = outbox[t];
                uint64_t child[T::kMoves * kImages];
                int owner[T::kMoves * kImages];
                // Polled from the main thread (MPI's only caller) every
                // kPollStates expanded states or kPollChunks chunks: often
                // enough to keep the exchange moving, rarely enough to cost
                // nothing in a sparse level's empty chunks.
                constexpr uint64_t kPollStates = 4096, kPollChunks = 64;
                uint64_t sincePoll = 0;
                for (;;) {
                    if (t == 0 && inFlight && (sincePoll += kPollStates / kPollChunks) >= kPollStates) {
                        net_.poll();
                        sincePoll = 0;
                    }
                    const uint64_t b = next.fetch_add(kChunk);
                    if (b >= end) break;
                    store_.forEachFrontier(b, std::min(end, b + kChunk), d, [&](uint64_t l) {
                        ++sincePoll;
                        const State s = P::unrank(part_.global(l));
                        // Ranked and prefetched first: each claim is a cache miss.
                        int n = 0;
                        for (int m = 0; m < T::kMoves; ++m) {
                            const State c = T::applyInverseMove(s, m);
                            if constexpr (kImages > 1)
                                n += P::images(c, child + n);  // note [coset class spaces]
                            else
                                child[n++] = P::rank(c);
                        }
                        for (int k = 0; k < n; ++k) {
                            owner[k] = part_.owner(child[k]);
                            child[k] = part_.local(child[k]);
                            if (owner[k] == me) store_.prefetch(child[k]);
                        }
                        for (int k = 0; k < n; ++k) {
                            if (owner[k] == me)
                                mine += claimAny(child[k], d);
                            else
                                box[owner[k]].push_back(static_cast<W>(child[k]));
                        }
                    });
                }
                for (int r = 0; r < ranks && pack; ++r) {
                    if (r == me || box[r].empty()) continue;
                    radixSort(box[r], scratch[t], bits);
                    appendRuns(box[r], packed[t][r]);
                    box[r].clear();
                }
                return mine;
            });
            if (inFlight) {
                net_.wait();
                found += pack ? claimPacked(receivedPacked, d) : claimReceived(received, d);
            }
            if (ranks > 1) {
                if (pack)
                    net_.post(packed, receivedPacked);
                else
                    net_.post(outbox, received);
                inFlight = true;
            }
            if (options_.progress) options_.progress->update(static_cast<int>(d + 1), double(end) / double(local));
        }
        if (inFlight) {
            net_.wait();
            found += pack ? claimPacked(receivedPacked, d) : claimReceived(received, d);
        }
        return found;
    }

    template <class W>
    uint64_t claimReceived(const Received<W>& in, unsigned d) {
        const int threads = std::max(1, options_.threads);
        const size_t n = in.size(), per = (n + threads - 1) / threads;
        return parallelSum(threads, [&](int t) {
            uint64_t mine = 0;
            const size_t first = std::min(n, per * t), last = std::min(n, first + per);
            constexpr size_t kAhead = 16;
            for (size_t k = first; k < last; ++k) {
                if (k + kAhead < last) store_.prefetch(in[k + kAhead]);
                mine += claimAny(in[k], d);
            }
            return mine;
        });
    }

    // Claims the packed runs received (note [packed children]), the threads
    // taking runs in turn, each prefetching kAhead values ahead of its claims.
    uint64_t claimPacked(const Received<uint8_t>& in, unsigned d) {
        const std::vector<PackedRun> runs = packedRuns(in.data(), in.size());
        std::atomic<size_t> next{0};
        return parallelSum(std::max(1, options_.threads), [&](int) {
            uint64_t mine = 0;
            constexpr size_t kAhead = 16;
            uint64_t ahead[kAhead];
            for (size_t k; (k = next.fetch_add(1)) < runs.size();) {
                size_t held = 0, taken = 0;
                forEachPacked(runs[k], [&](uint64_t l) {
                    store_.prefetch(l);
                    if (held - taken == kAhead) mine += claimAny(ahead[taken++ % kAhead], d);
                    ahead[held++ % kAhead] = l;
                });
                while (taken < held) mine += claimAny(ahead[taken++ % kAhead], d);
            }
            return mine;
        });
    }

    // One rank only: each unseen value looks for a neighbour in level d
    // (moves closed under inverse: such a neighbour is a parent).
    uint64_t backwardLevel(unsigned d) {
        const int threads = std::max(1, options_.threads);
        const uint64_t local = part_.localEntries();
        std::atomic<uint64_t> next{0};
        constexpr int kBatch = 4;  // most hits come early: few neighbours ranked for nothing
        return parallelSum(threads, [&](int t) {
            uint64_t mine = 0, neighbour[T::kMoves];
            for (;;) {
                const uint64_t b = next.fetch_add(kChunk);
                if (b >= local) break;
                store_.forEachUnseen(b, std::min(local, b + kChunk), [&](uint64_t l) {
                    if (l >= P::kSize) return;  // the slice's padding
                    if constexpr (requires { P::isState(l); })
                        if (!P::isState(l)) return;  // note [parts on one orbit]
                    const State s = P::unrank(l);
                    bool hit = false;
                    for (int first = 0; first < T::kMoves && !hit; first += kBatch) {
                        const int last = std::min(T::kMoves, first + kBatch);
                        for (int m = first; m < last; ++m) {
                            neighbour[m] = P::rank(T::applyMove(s, m));
                            store_.prefetch(neighbour[m]);
                        }
                        for (int m = first; m < last && !hit; ++m) hit = store_.isFrontier(neighbour[m], d);
                    }
                    if (hit) mine += claimAny(l, d);
                });
                if (t == 0 && options_.progress)
                    options_.progress->update(static_cast<int>(d + 1), double(std::min(local, b + kChunk)) / double(local));
            }
            return mine;
        });
    }

    // Across ranks: each unseen state of the round asks about its neighbours
    // kBatch moves at a time. A neighbour this rank owns is looked up at
    // once; another rank's is a query (its local index) to its owner, who
    // answers with one bit per query, in the order asked. A state with a hit
    // is claimed and asks no more. Every rank runs every sub-round, so the
    // collective calls match, asking nothing once its states are done.
    //
    // Note [packed queries]
    // ~~~~~~~~~~~~~~~~~~~~~
    // Packed (BfsOptions::packed, note [packed children]), the queries go
    // as sorted runs of gaps too: each thread keeps its queries for a rank
    // as 64-bit pairs, the asking state's index in the round (below 2^26)
    // above the query (a local index: the slice's bit width), sorts them by
    // the query (radixSort's key: the low bits) and sends the queries as
    // runs, repeats once; the owner answers one bit per query it decoded, in
    // the order sent, and the asker walks its sorted pairs again, moving to
    // the next bit where a run begins (every kRunValues pairs) or the query
    // changes, as appendRun did. Slices of more than 2^38 values, where a
    // pair would not fit, ask plainly.
    template <class W>
    uint64_t backwardAcross(unsigned d) {
        const int ranks = part_.ranks, me = part_.rank, threads = std::max(1, options_.threads);
        const uint64_t local = part_.localEntries();
        constexpr int kBatch = 4;
        const uint64_t kRoundEntries = roundEntries(double(P::kSize - reached()) / double(P::kSize), kBatch);
        const uint64_t rounds = (local + kRoundEntries - 1) / kRoundEntries;
        std::vector<uint64_t> pending;
        std::vector<State> states;
        std::vector<uint8_t> hit;
        // note [packed queries]
        const unsigned bits = static_cast<unsigned>(std::bit_width(std::max<uint64_t>(local, 2) - 1));
        const bool pack = options_.packed && ranks > 1 && bits + kAskerBits <= 64;
        Asking<W> a(threads, ranks, bits);
        uint64_t found = 0;
        for (uint64_t round = 0; round < rounds; ++round) {
            const uint64_t begin = round * kRoundEntries, end = std::min(local, begin + kRoundEntries);
            pending.clear();
            store_.forEachUnseen(begin, end, [&](uint64_t l) {
                const uint64_t g = part_.global(l);
                if (g >= P::kSize) return;  // the last block's padding
                if constexpr (requires { P::isState(g); })
                    if (!P::isState(g)) return;  // note [parts on one orbit]
                pending.push_back(l);
            });
            states.resize(pending.size());
            for (int first = 0; first < T::kMoves; first += kBatch) {
                const int last = std::min(T::kMoves, first + kBatch);
                const size_t n = pending.size(), per = (n + threads - 1) / threads;
                hit.assign(n, 0);
                found += parallelSum(threads, [&](int t) {
                    uint64_t mine = 0, neighbour[kBatch];
                    auto& myQueries = a.queries[t];
                    auto& myAskers = a.threadAskers[t];
                    auto& myPairs = a.pairs[t];
                    for (size_t k = per * t; k < std::min(n, per * t + per); ++k) {
                        if (first == 0) states[k] = P::unrank(part_.global(pending[k]));
                        for (int m = first; m < last; ++m) {
                            neighbour[m - first] = P::rank(T::applyMove(states[k], m));
                            if (part_.owner(neighbour[m - first]) == me) store_.prefetch(part_.local(neighbour[m - first]));
                        }
                        bool found_here = false;
                        for (int j = 0; j < last - first && !found_here; ++j)
                            found_here = part_.owner(neighbour[j]) == me && store_.isFrontier(part_.local(neighbour[j]), d);
                        if (found_here) {
                            hit[k] = 1;
                            mine += claimAny(pending[k], d);
                            continue;
                        }
                        for (int j = 0; j < last - first; ++j) {
                            const int owner = part_.owner(neighbour[j]);
                            if (owner == me) continue;
                            if (pack) {
                                myPairs[owner].push_back(uint64_t{k} << bits | part_.local(neighbour[j]));
                                continue;
                            }
                            myQueries[owner].push_back(static_cast<W>(part_.local(neighbour[j])));
                            myAskers[owner].push_back(static_cast<uint32_t>(k));
                        }
                    }
                    for (int r = 0; r < ranks && pack; ++r) {
                        if (myPairs[r].empty()) continue;
                        radixSort(myPairs[r], a.scratch[t], bits);
                        appendRuns(LowBits{myPairs[r].data(), myPairs[r].size(), (uint64_t{1} << bits) - 1}, a.packed[t][r]);
                    }
                    return mine;
                });
                found += pack ? askPacked(d, a, pending, hit) : askPlain(d, a, pending, hit);
                // Only the states without a hit ask about their next moves.
                size_t kept = 0;
                for (size_t k = 0; k < n; ++k)
                    if (!hit[k]) pending[kept] = pending[k], states[kept] = states[k], ++kept;
                pending.resize(kept);
                states.resize(kept);
            }
            if (options_.progress) options_.progress->update(static_cast<int>(d + 1), double(end) / double(local));
        }
        return found;
    }

    // A backward level's queries and answers, kept for its sub-rounds: per
    // thread and rank the queries (plain: the local indices and, apart, the
    // asking states; packed: note [packed queries]), then what crosses.
    template <class W>
    struct Asking {
        Outboxes<W> queries;
        std::vector<std::vector<std::vector<uint32_t>>> threadAskers;
        std::vector<std::vector<uint32_t>> askers;               // per rank, in the order sent
        std::vector<std::vector<std::vector<uint64_t>>> pairs;  // packed: asker << queryBits | query
        std::vector<std::vector<uint64_t>> scratch;             // packed: per thread, the sort's
        Outboxes<uint8_t> packed, answers;
        Received<W> received;
        Received<uint8_t> receivedPacked, answered;
        std::vector<uint8_t> flat;  // one answer a byte, before they go as bits
        std::vector<int> counts;    // values (or bytes) received from each rank
        unsigned queryBits;         // a local index's: the slice's bit width
        Asking(int threads, int ranks, unsigned bits)
            : queries(threads, typename Outboxes<W>::value_type(ranks)),
              threadAskers(threads, std::vector<std::vector<uint32_t>>(ranks)),
              askers(ranks),
              pairs(threads, std::vector<std::vector<uint64_t>>(ranks)),
              scratch(threads),
              packed(threads, Outboxes<uint8_t>::value_type(ranks)),
              answers(1, Outboxes<uint8_t>::value_type(ranks)),
              queryBits(bits) {}
    };

    // A backward sub-round's queries sent plainly: answered a bit each, in
    // the order asked; the askers with a hit claimed.
    template <class W>
    uint64_t askPlain(unsigned d, Asking<W>& a, const std::vector<uint64_t>& pending, std::vector<uint8_t>& hit) {
        const int ranks = part_.ranks, threads = std::max(1, options_.threads);
        for (int r = 0; r < ranks; ++r)
            for (int t = 0; t < threads; ++t) {
                // In the order the exchange sends the queries: by rank, then thread.
                a.askers[r].insert(a.askers[r].end(), a.threadAskers[t][r].begin(), a.threadAskers[t][r].end());
                a.threadAskers[t][r].clear();
            }
        net_.exchange(a.queries, a.received, &a.counts);
        // The answers, in the order asked, split by asking rank.
        const auto& received = a.received;
        a.flat.resize(received.size());
        const size_t qn = received.size(), qper = (qn + threads - 1) / threads;
        parallelSum(threads, [&](int t) {
            constexpr size_t kAhead = 16;
            const size_t lo = std::min(qn, qper * t), hi = std::min(qn, lo + qper);
            for (size_t k = lo; k < hi; ++k) {
                if (k + kAhead < hi) store_.prefetch(received[k + kAhead]);
                a.flat[k] = store_.isFrontier(received[k], d) ? 1 : 0;
            }
            return uint64_t{0};
        });
        for (size_t r = 0, at = 0; r < static_cast<size_t>(ranks); at += a.counts[r], ++r)
            toBits(a.flat.data() + at, static_cast<size_t>(a.counts[r]), a.answers[0][r]);
        net_.exchange(a.answers, a.answered);
        uint64_t found = 0;
        for (size_t r = 0, at = 0; r < static_cast<size_t>(ranks); at += (a.askers[r].size() + 7) / 8, a.askers[r].clear(), ++r)
            for (size_t i = 0; i < a.askers[r].size(); ++i)
                if ((a.answered[at + (i >> 3)] >> (i & 7) & 1) && !hit[a.askers[r][i]]) {
                    hit[a.askers[r][i]] = 1;
                    found += claimAny(pending[a.askers[r][i]], d);
                }
        return found;
    }

    // One bit an answer, 8 to a byte (an asker knows how many it asked each rank).
    static void toBits(const uint8_t* answers, size_t n, std::vector<uint8_t, RoundAllocator<uint8_t>>& bits) {
        bits.assign((n + 7) / 8, 0);
        for (size_t i = 0; i < n; ++i) bits[i >> 3] |= static_cast<uint8_t>(answers[i] << (i & 7));
    }

    // The same with each thread's queries sorted and packed (note [packed
    // queries]): a.pairs hold (asker << a.queryBits | query), sorted by
    // query, and a.packed their runs.
    template <class W>
    uint64_t askPacked(unsigned d, Asking<W>& a, const std::vector<uint64_t>& pending, std::vector<uint8_t>& hit) {
        const int ranks = part_.ranks, threads = std::max(1, options_.threads);
        const unsigned bits = a.queryBits;
        const uint64_t queryMask = (uint64_t{1} << bits) - 1;
        net_.exchange(a.packed, a.receivedPacked, &a.counts);
        // Each asking rank's runs, and where each run's answers start.
        std::vector<PackedRun> runs;
        std::vector<size_t> runAt, answersOf(ranks + 1);
        size_t distinct = 0;
        for (int r = 0, at = 0; r < ranks; at += a.counts[r], ++r) {
            answersOf[r] = distinct;
            for (const PackedRun& run : packedRuns(a.receivedPacked.data() + at, static_cast<size_t>(a.counts[r]))) {
                runs.push_back(run);
                runAt.push_back(distinct);
                distinct += run.count;
            }
        }
        answersOf[ranks] = distinct;
        a.flat.resize(distinct);
        std::atomic<size_t> next{0};
        parallelSum(threads, [&](int) {
            for (size_t k; (k = next.fetch_add(1)) < runs.size();) {
                size_t i = runAt[k];
                forEachPacked(runs[k], [&](uint64_t l) { a.flat[i++] = store_.isFrontier(l, d) ? 1 : 0; });
            }
            return uint64_t{0};
        });
        for (int r = 0; r < ranks; ++r) toBits(a.flat.data() + answersOf[r], answersOf[r + 1] - answersOf[r], a.answers[0][r]);
        net_.exchange(a.answers, a.answered);
        // Each rank's answers: its distinct queries, thread by thread, as sent.
        uint64_t found = 0;
        for (size_t r = 0, at = 0; r < static_cast<size_t>(ranks); ++r) {
            size_t bit = 0;
            for (int t = 0; t < threads; ++t) {
                auto& pairs = a.pairs[t][r];
                uint64_t previous = 0;
                for (size_t i = 0; i < pairs.size(); ++i) {
                    const uint64_t query = pairs[i] & queryMask;
                    if (i % kRunValues == 0 || query != previous) ++bit;  // appendRun's repeats once
                    previous = query;
                    const size_t b = bit - 1;
                    const uint64_t asker = pairs[i] >> bits;
                    if ((a.answered[at + (b >> 3)] >> (b & 7) & 1) && !hit[asker]) {
                        hit[asker] = 1;
                        found += claimAny(pending[asker], d);
                    }
                }
                pairs.clear();
            }
            at += (bit + 7) / 8;
        }
        return found;
    }

    // A forward level's outboxes and received values, by index width, kept
    // between levels (note [exchange buffers] in transport.hpp).
    template <class W>
    struct Buffers {
        Outboxes<W> outbox;
        std::vector<typename Outboxes<W>::value_type::value_type> scratch;  // per thread: the radix sort's
        Received<W> received;
    };
    Buffers<uint32_t> narrow_;
    Buffers<uint64_t> wide_;
    Buffers<uint8_t> packed_;  // what a forward level sends (note [packed children])
    template <class W>
    Buffers<W>& buffers() {
        if constexpr (std::is_same_v<W, uint32_t>) return narrow_;
        else return wide_;
    }

    Transport& net_;
    BfsOptions options_;
    Partition part_;
    Store store_;
    std::vector<uint64_t> counts_;
};

}  // namespace pz::enumerate
