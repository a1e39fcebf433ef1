// pz/blocks/tiles_search.hpp — IDA* for the n-puzzle (included by
// pz/blocks/tiles.hpp; note [tiles heuristic] there).
//
// note [tiles search]
// ~~~~~~~~~~~~~~~~~~~
// A node holds cell -> tile and tile -> cell bytes, the blank's cell, every
// pattern's rank and table entry (direct and reflected) and the Manhattan
// distance of all tiles: a move changes one tile, so only that tile's
// pattern is re-ranked (and the pattern its reflection belongs to), and
// only their two entries are read. An entry is the pattern's value less its
// tiles' Manhattan sum, halved (note [tiles pattern databases]), so the sum
// is Manhattan + 2 x the entries; the reflected lookup adds the same
// Manhattan distance (the reflection is a symmetry of the grid fixing the
// goal: tile t at c is as far from home as its image at the image of c).
// A node's children (never the inverse of the move that made it) are all
// made and their table lines prefetched before any is read, then searched
// in U D L R order. Nodes counted = children generated (the figure Korf's
// papers report).
#pragma once

#include <time.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <optional>
#include <vector>

namespace pz::blocks {

template <class T>
class TileSolver {
public:
    using B = Board<T>;
    static constexpr int N = B::N;
    static constexpr int P = T::kPatterns;
    static constexpr int PS = P > 0 ? P : 1;

    struct Result {
        bool solved = false;          // false: the node limit was reached first
        std::vector<int> moves;       // blank directions, 0..3 = U D L R
        uint64_t nodes = 0;
        double seconds = 0;           // wall clock
        double cpuSeconds = 0;        // this thread's CPU time (what a loaded machine does not inflate)
        int bound = 0;                // the last iteration's bound
    };

    // What may end a search besides a solution and maxNodes (the library's
    // Limits, pz/api/blocks.hpp): checked every kCheckNodes nodes, so the
    // hot path keeps its one comparison against the node limit.
    struct Stop {
        const std::atomic<bool>* cancel = nullptr;
        std::optional<std::chrono::steady_clock::time_point> deadline;
        int maxLength = INT_MAX;  // no iteration with a bound above this
    };
    static constexpr uint64_t kCheckNodes = uint64_t(1) << 16;

    // `tables` must be loaded when T::kPatterns > 0 and outlive the solver.
    explicit TileSolver(const TileTables<T>* tables = nullptr) : tables_(tables) {
        for (int p = 0; p < P; ++p) {
            table_[p] = tables_->table(p);
            shift_[p] = tables_->bitsPerEntry(p) == 4 ? 1 : 0;
            mask_[p] = tables_->bitsPerEntry(p) == 4 ? 15 : 255;
        }
    }

    // The heuristic of a position (tests: never above its distance).
    int heuristic(const Cells<T>& cells) const {
        Node n;
        init(cells, n);
        return n.h;
    }

    Result solve(const Cells<T>& start, uint64_t maxNodes = UINT64_MAX, const Stop& stop = {}) {
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = threadCpuSeconds();
        Result r;
        Node root;
        init(start, root);
        nodes_ = 0;
        maxNodes_ = maxNodes;
        stop_ = &stop;
        limit_ = stop.cancel || stop.deadline ? std::min(maxNodes_, kCheckNodes) : maxNodes_;
        aborted_ = false;
        path_.clear();
        bound_ = root.h;
        for (;;) {
            if (bound_ > stop.maxLength) break;
            nextBound_ = INT_MAX;
            if (dfs(root, 0, -1)) {
                r.solved = true;
                r.moves = path_;
                break;
            }
            if (aborted_ || nextBound_ == INT_MAX) break;
            bound_ = nextBound_;
        }
        r.nodes = nodes_;
        r.bound = bound_;
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.cpuSeconds = threadCpuSeconds() - c0;
        return r;
    }

    static double threadCpuSeconds() {
        timespec ts{};
        ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
    }

private:
    struct Node {
        uint8_t cell[N];
        uint8_t pos[N];
        uint8_t blank, moved;
        uint8_t val[PS], rval[PS];  // the patterns' entries (direct, reflected)
        uint64_t idx[PS], ridx[PS];
        int sum, sumR;  // Manhattan distance of every tile + 2 x the entries (direct, reflected)
        int h;
    };

    // Pattern p's entry at rank i, and the byte that holds it.
    unsigned entry(int p, uint64_t i) const {
        return (table_[p][i >> shift_[p]] >> ((i & shift_[p]) << 2)) & mask_[p];
    }
    const uint8_t* entryByte(int p, uint64_t i) const { return table_[p] + (i >> shift_[p]); }

    static int lis(const int* v, int n) {
        int best[kMaxTileCells], most = 0;
        for (int i = 0; i < n; ++i) {
            best[i] = 1;
            for (int j = 0; j < i; ++j)
                if (v[j] < v[i] && best[j] + 1 > best[i]) best[i] = best[j] + 1;
            most = std::max(most, best[i]);
        }
        return most;
    }
    // 2 per tile to take out of each row and column so that the tiles of no
    // pattern already in their goal line are in goal order there.
    static int linearConflicts(const uint8_t* cell) {
        int extra = 0, seq[kMaxTileCells];
        for (int r = 0; r < B::H; ++r) {
            int n = 0;
            for (int c = 0; c < B::W; ++c) {
                const int t = cell[r * B::W + c];
                if (t && T::kPatternOf[t] < 0 && B::goalCell[t] / B::W == r) seq[n++] = B::goalCell[t] % B::W;
            }
            if (n > 1) extra += 2 * (n - lis(seq, n));
        }
        for (int c = 0; c < B::W; ++c) {
            int n = 0;
            for (int r = 0; r < B::H; ++r) {
                const int t = cell[r * B::W + c];
                if (t && T::kPatternOf[t] < 0 && B::goalCell[t] % B::W == c) seq[n++] = B::goalCell[t] / B::W;
            }
            if (n > 1) extra += 2 * (n - lis(seq, n));
        }
        return extra;
    }
    static int reflectedConflicts(const uint8_t* cell) {
        uint8_t r[N];
        for (int c = 0; c < N; ++c) r[T::kReflectCell[c]] = T::kReflectTile[cell[c]];
        return linearConflicts(r);
    }

    void computeH(Node& n) const {
        int a = n.sum;
        if constexpr (T::kLinearConflicts) a += linearConflicts(n.cell);
        if constexpr (T::kReflection) {
            int b = n.sumR;
            if constexpr (T::kLinearConflicts) b += reflectedConflicts(n.cell);
            a = std::max(a, b);
        }
        n.h = a;
    }

    void init(const Cells<T>& cells, Node& n) const {
        for (int c = 0; c < N; ++c) {
            n.cell[c] = cells[c];
            n.pos[cells[c]] = static_cast<uint8_t>(c);
        }
        n.blank = n.pos[0];
        n.moved = 0;
        int md = 0;
        for (int t = 1; t < N; ++t) md += T::kManhattan[t][n.pos[t]];
        n.sum = n.sumR = md;
        for (int p = 0; p < P; ++p) {
            n.idx[p] = B::patternIndex(p, n.pos);
            n.val[p] = static_cast<uint8_t>(entry(p, n.idx[p]));
            n.sum += 2 * n.val[p];
            if constexpr (T::kReflection) {
                n.ridx[p] = B::reflectedPatternIndex(p, n.pos);
                n.rval[p] = static_cast<uint8_t>(entry(p, n.ridx[p]));
                n.sumR += 2 * n.rval[p];
            }
        }
        computeH(n);
    }

    // The child of n by blank direction d: everything but the table reads
    // (their lines are prefetched; finishChild reads them).
    void makeChild(const Node& n, int d, Node& c) const {
        c = n;
        const int b = n.blank, q = T::kNeighbours[b][d];
        const int t = n.cell[q];
        c.cell[b] = static_cast<uint8_t>(t);
        c.cell[q] = 0;
        c.pos[t] = static_cast<uint8_t>(b);
        c.pos[0] = static_cast<uint8_t>(q);
        c.blank = static_cast<uint8_t>(q);
        c.moved = static_cast<uint8_t>(t);
        const int delta = T::kManhattan[t][b] - T::kManhattan[t][q];
        c.sum += delta;
        if constexpr (T::kReflection) c.sumR += delta;
        const int p = T::kPatternOf[t];
        if (p >= 0) {
            c.idx[p] = B::patternIndex(p, c.pos);
            pz::prefetch(entryByte(p, c.idx[p]));
        }
        if constexpr (T::kReflection) {
            const int rp = T::kPatternOf[T::kReflectTile[t]];
            if (rp >= 0) {
                c.ridx[rp] = B::reflectedPatternIndex(rp, c.pos);
                pz::prefetch(entryByte(rp, c.ridx[rp]));
            }
        }
    }
    void finishChild(Node& c) const {
        const int t = c.moved;
        const int p = T::kPatternOf[t];
        if (p >= 0) {
            const unsigned v = entry(p, c.idx[p]);
            c.sum += 2 * (int(v) - int(c.val[p]));
            c.val[p] = static_cast<uint8_t>(v);
        }
        if constexpr (T::kReflection) {
            const int rp = T::kPatternOf[T::kReflectTile[t]];
            if (rp >= 0) {
                const unsigned v = entry(rp, c.ridx[rp]);
                c.sumR += 2 * (int(v) - int(c.rval[rp]));
                c.rval[rp] = static_cast<uint8_t>(v);
            }
        }
        computeH(c);
    }

    // The table lines n's children will read (note [tiles search]: one
    // level of lookahead, so a child's misses overlap its siblings' work).
    void prefetchChildren(const Node& n, int prevDir) const {
        uint8_t pos[N];
        std::memcpy(pos, n.pos, N);
        for (int d = 0; d < 4; ++d) {
            if (d == (prevDir ^ 1)) continue;
            const int q = T::kNeighbours[n.blank][d];
            if (q < 0) continue;
            const int t = n.cell[q];
            pos[t] = n.blank;
            const int p = T::kPatternOf[t];
            if (p >= 0) pz::prefetch(entryByte(p, B::patternIndex(p, pos)));
            if constexpr (T::kReflection) {
                const int rp = T::kPatternOf[T::kReflectTile[t]];
                if (rp >= 0) pz::prefetch(entryByte(rp, B::reflectedPatternIndex(rp, pos)));
            }
            pos[t] = static_cast<uint8_t>(q);
        }
    }

    bool isGoal(const Node& n) const {
        for (int c = 0; c < N; ++c)
            if (n.cell[c] != T::kGoal[c]) return false;
        return true;
    }

    // Past limit_: the node limit, or time to look at the cancel flag and
    // the deadline (then the next look is kCheckNodes nodes on).
    bool keepGoing() {
        if (nodes_ > maxNodes_) return false;
        if ((stop_->cancel && stop_->cancel->load(std::memory_order_relaxed)) ||
            (stop_->deadline && std::chrono::steady_clock::now() >= *stop_->deadline))
            return false;
        limit_ = std::min(maxNodes_, nodes_ + kCheckNodes);
        return true;
    }

    bool dfs(const Node& n, int g, int prevDir) {
        if (n.h == 0 && isGoal(n)) return true;
        Node kids[4];
        int dirs[4], m = 0;
        for (int d = 0; d < 4; ++d) {
            if (prevDir >= 0 && d == (prevDir ^ 1)) continue;
            if (T::kNeighbours[n.blank][d] < 0) continue;
            makeChild(n, d, kids[m]);
            dirs[m++] = d;
        }
        for (int i = 0; i < m; ++i) finishChild(kids[i]);
        nodes_ += static_cast<uint64_t>(m);
        if (nodes_ > limit_ && !keepGoing()) {
            aborted_ = true;
            return false;
        }
        if (lookahead_ && P > 0)
            for (int i = 0; i < m; ++i)
                if (g + 1 + kids[i].h <= bound_) prefetchChildren(kids[i], dirs[i]);
        for (int i = 0; i < m; ++i) {
            const int f = g + 1 + kids[i].h;
            if (f > bound_) {
                nextBound_ = std::min(nextBound_, f);
                continue;
            }
            path_.push_back(dirs[i]);
            if (dfs(kids[i], g + 1, dirs[i])) return true;
            path_.pop_back();
            if (aborted_) return false;
        }
        return false;
    }

public:
    // Prefetch the grandchildren's lines before descending (default on).
    void setLookahead(bool on) { lookahead_ = on; }

private:
    bool lookahead_ = true;
    const TileTables<T>* tables_;
    const uint8_t* table_[PS] = {};
    unsigned shift_[PS] = {}, mask_[PS] = {};  // 1, 15: 4-bit entries; 0, 255: bytes
    uint64_t nodes_ = 0, maxNodes_ = UINT64_MAX, limit_ = UINT64_MAX;
    const Stop* stop_ = nullptr;
    bool aborted_ = false;
    int bound_ = 0, nextBound_ = INT_MAX;
    std::vector<int> path_;
};

}  // namespace pz::blocks
