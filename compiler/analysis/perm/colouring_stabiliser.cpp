#include "compiler/analysis/perm/colouring_stabiliser.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "compiler/analysis/perm/schreier_sims.hpp"

namespace pz::analysis {

namespace {

// The point chain of G with points reordered (note [colouring stabiliser]),
// and each reordered point's colour.
struct ReorderedPoints {
    std::vector<int> colour;  // by new index
    std::vector<int> newIndex;  // by old point
};

ReorderedPoints reorder(const ir::Puzzle& puzzle, const PointAction& points) {
    const int n = points.pointCount();
    std::vector<int> colour(n);
    std::map<std::tuple<int, int, int>, int> ids;
    for (size_t o = 0; o < puzzle.orbits.size(); ++o)
        for (int p = 0; p < puzzle.orbits[o].size; ++p)
            for (int r = 0; r < puzzle.orbits[o].orient; ++r) {
                const auto key = std::make_tuple((int)o, puzzle.orbits[o].solvedLabel[p], r);
                auto it = ids.emplace(key, (int)ids.size()).first;
                colour[points.point((int)o, p, r)] = it->second;
            }
    std::vector<int> classSize(ids.size(), 0);
    for (int c : colour) ++classSize[c];
    std::vector<int> order(n);  // new index -> old point
    std::iota(order.begin(), order.end(), 0);
    // Unique colours first (H fixes them), then small classes (their points
    // have few places to go), keeping a piece's orientations together.
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return classSize[colour[a]] < classSize[colour[b]]; });
    ReorderedPoints r;
    r.colour.resize(n);
    r.newIndex.resize(n);
    for (int i = 0; i < n; ++i) {
        r.newIndex[order[i]] = i;
        r.colour[i] = colour[order[i]];
    }
    return r;
}

class Search {
public:
    // imageColour[x]: the colour a point must have to be sent to x (colour
    // itself for Y; the colour a state shows at x for reachability).
    Search(const StabilizerChain& chain, const std::vector<int>& colour, std::vector<int> imageColour, double work)
        : chain_(chain), colour_(colour), image_(std::move(imageColour)), n_((int)colour_.size()),
          budget_(static_cast<size_t>(work / std::max(1, n_))) {
        for (int j = 0; j < n_; ++j)
            if (chain_.orbitSize(j) > 1) {
                active_.push_back(j);
                orbits_.push_back(chain_.basicOrbit(j));
            }
    }

    // |G ∩ Y| bottom up (note [colouring stabiliser]).
    std::optional<mpz_class> stabiliserOrder() {
        mpz_class order = 1;
        std::vector<Perm> gens;  // of H^(j) for the level j being done
        for (size_t k = active_.size(); k-- > 0;) {
            const int j = active_[k];
            std::vector<char> reached(n_, 0), failed(n_, 0);
            size_t reachedCount = markOrbit(j, gens, reached);
            for (int gamma : orbits_[k]) {
                if (colour_[gamma] != colour_[j] || reached[gamma] || failed[gamma]) continue;
                if (++nodes_ > budget_) return std::nullopt;  // each candidate costs O(points)
                std::vector<char> mine(n_, 0);
                markOrbit(gamma, gens, mine);
                bool ruledOut = false;  // a point of its orbit has no element: neither has gamma
                for (int p = 0; p < n_; ++p) ruledOut = ruledOut || (mine[p] && failed[p]);
                std::optional<Perm> h;
                if (!ruledOut) {
                    const Perm x = chain_.transversalPoints(j, gamma);
                    if (coloursHold(x, j + 1, next(k))) h = find(k + 1, x);
                    if (exhausted_) return std::nullopt;
                }
                if (h) {
                    gens.push_back(std::move(*h));
                    std::fill(reached.begin(), reached.end(), 0);
                    reachedCount = markOrbit(j, gens, reached);
                } else {
                    for (int p = 0; p < n_; ++p) failed[p] = failed[p] || mine[p];
                }
            }
            order *= static_cast<unsigned long>(reachedCount);
        }
        return order;
    }

    // Some element of G sends every point to a point of its image colour.
    std::optional<bool> exists() {
        const Perm id = identityPerm(n_);
        const int first = active_.empty() ? n_ : active_[0];
        if (!coloursHold(id, 0, first)) return false;
        const bool found = find(0, id).has_value();
        if (exhausted_) return std::nullopt;
        return found;
    }

    size_t nodes() const { return nodes_; }

private:
    int next(size_t k) const { return k + 1 < active_.size() ? active_[k + 1] : n_; }

    // Points from..to-1 go to points of their image colour under x.
    bool coloursHold(const Perm& x, int from, int to) const {
        for (int p = from; p < to; ++p)
            if (image_[x[p]] != colour_[p]) return false;
        return true;
    }

    // An element g then x that keeps the colours, g in G^(active[k]): the
    // images of the points before active[k] are final in x and hold.
    std::optional<Perm> find(size_t k, const Perm& x) {
        if (k == active_.size()) return x;
        const int j = active_[k];
        for (int d : orbits_[k]) {
            if (image_[x[d]] != colour_[j]) continue;
            if (++nodes_ > budget_) {
                exhausted_ = true;
                return std::nullopt;
            }
            const Perm y = d == j ? x : composePerm(chain_.transversalPoints(j, d), x);
            if (!coloursHold(y, j + 1, next(k))) continue;
            if (auto t = find(k + 1, y)) return t;
            if (exhausted_) return std::nullopt;
        }
        return std::nullopt;
    }

    size_t markOrbit(int start, const std::vector<Perm>& gens, std::vector<char>& seen) const {
        std::vector<int> queue{start};
        seen[start] = 1;
        for (size_t q = 0; q < queue.size(); ++q)
            for (const Perm& g : gens) {
                const int to = g[queue[q]];
                if (!seen[to]) {
                    seen[to] = 1;
                    queue.push_back(to);
                }
            }
        return queue.size();
    }

    const StabilizerChain& chain_;
    const std::vector<int>& colour_;
    std::vector<int> image_;
    int n_;
    size_t budget_;
    std::vector<int> active_;
    std::vector<std::vector<int>> orbits_;
    size_t nodes_ = 0;
    bool exhausted_ = false;
};

}  // namespace

struct ColouringSearch::Impl {
    PointAction points;
    ReorderedPoints re;
    StabilizerChain chain;
    mpz_class groupOrder;
    size_t nodes = 0;

    Impl(const ir::Puzzle& puzzle, const mpz_class& order)
        : points(puzzle.orbits), re(reorder(puzzle, points)), chain(points.pointCount()), groupOrder(order) {
        for (const auto& f : puzzle.families) chain.addGenerator(relabel(points.toPoints(f.base)));
        chain.setKnownOrder(groupOrder);
    }
    Perm relabel(const Perm& p) const {
        Perm q(p.size());
        for (size_t x = 0; x < p.size(); ++x) q[re.newIndex[x]] = re.newIndex[p[x]];
        return q;
    }
};

bool colouringSearchAffordable(const ir::Puzzle& puzzle) {
    return PointAction(puzzle.orbits).pointCount() <= kMaxColouringSearchPoints;
}

ColouringSearch::ColouringSearch(const ir::Puzzle& puzzle, const mpz_class& groupOrder)
    : impl_(std::make_unique<Impl>(puzzle, groupOrder)) {}
ColouringSearch::~ColouringSearch() = default;

size_t ColouringSearch::nodes() const { return impl_->nodes; }

std::optional<mpz_class> ColouringSearch::stabiliserOrder(double work) {
    Search search(impl_->chain, impl_->re.colour, impl_->re.colour, work);
    std::optional<mpz_class> order = search.stabiliserOrder();
    impl_->nodes = search.nodes();
    if (order && impl_->groupOrder % *order != 0)
        throw std::logic_error("colouring stabiliser order does not divide the group order");
    return order;
}

std::optional<bool> ColouringSearch::showsReachable(const ir::Element& e, double work) {
    // e shows at point x the colour of the point it sends to x.
    const Perm inv = inversePerm(impl_->relabel(impl_->points.toPoints(e)));
    std::vector<int> image(inv.size());
    for (size_t x = 0; x < inv.size(); ++x) image[x] = impl_->re.colour[inv[x]];
    Search search(impl_->chain, impl_->re.colour, std::move(image), work);
    std::optional<bool> found = search.exists();
    impl_->nodes = search.nodes();
    return found;
}

}  // namespace pz::analysis
