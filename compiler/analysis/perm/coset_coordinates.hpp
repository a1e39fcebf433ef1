// Coordinates of subgroups and search plans of phased solvers.
//
// note [coset coordinates]
// A phased solver `phased H1, H2, ...` searches from a state into H1 with all
// moves, then from H1 into H2 with the moves that lie in H1, and so on; the
// last phase ends in solved. Phase k needs a coordinate c with
//   c(s) = c(solved)  iff  s is in the phase's target, and
//   c(s m) a function of c(s) and the move m,
// so that search runs on move tables (coordinate x move -> coordinate) and
// pruning tables instead of states. A state is the product of its moves
// (note [element convention]), so c must be constant on the cosets H s
// (h s relabels the pieces of s by h): the coset space H\G.
//
// The coordinate of H\G is a mixed-radix number of parts, each a function of
// H s (H keeps it, G's moves act on it alone):
//   membership  : for an orbit split into sets by H, the set each position's
//                 piece belongs to (a multinomial: nested combinations);
//   orientation : for an orbit H keeps oriented, the orientation at each
//                 position (modulus^n, or modulus^(n-1) when every move
//                 keeps the orientation sum at 0: the last one is implied);
//   parity      : the permutation parity summed over a set of orbits, when
//                 H's generators keep it even and some move does not.
// For invariant subgroups the sets and oriented orbits are declared; for
// subgroups given by generators they are derived: the sets are H's orbits
// on positions, an orbit is oriented when no generator twists it, and the
// parities are the GF(2)-independent parity characters trivial on H.
// The parts always distinguish cosets that differ in them; they describe H
// exactly when their sizes multiply to the index [G : H] (Schreier–Sims).
// Otherwise the solver cannot be built, and `pzc check` says why.
//
// note [orientation frames]
// In a subgroup given by generators a piece may have one orientation per
// position that is not 0 (rotate4o's half turns add 2 to each piece they
// move, so in the square subgroup a piece's orientation is 2 * the rows it
// moved, mod 4). H's orbits on (position, orientation) pairs show it: from
// the root of each set, every position is reached with one orientation
// f(p); measured in the frame ori - f(p) + f(q) (q the piece's solved
// position), H keeps every orientation at 0, and the frame is invariant
// under H s. The frame is fixed up to a constant per set; the constants are
// chosen so that G's orientations, in the frame, are multiples of the
// largest step d (rotate4o: d = 2, a quarter turn moves a piece to the
// other colour), and the part keeps only ori / d, base modulus / d. Both
// are checked on G's and H's orbits on (position, orientation) pairs.
//
// The last phase's coordinate (within the previous target H, to solved) is
// the permutation of the pieces inside each set of H (Lehmer rank, |set|!)
// plus the orientations H does not fix. Those determine the state within H;
// the search replays every solution anyway.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/analysis/perm/canonical_automaton.hpp"
#include "compiler/analysis/perm/puzzle_analysis.hpp"
#include "compiler/ir/puzzle.hpp"
#include "dsl/diagnostics.hpp"

namespace pz::analysis {

struct PhasePart {
    enum class Kind { Membership, Orientation, Parity, SetPermutation };
    Kind kind = Kind::Membership;
    int orbit = 0;                   // Membership, Orientation, SetPermutation
    std::vector<int> setOf;          // Membership: set of each solved position (label)
    int sets = 0;                    // Membership: number of sets
    std::vector<int> positions;      // SetPermutation: the set's positions, ascending;
                                     // Orientation: the positions whose digits it keeps (empty = all)
    int modulus = 1;                 // Orientation
    bool sumConstrained = false;     // Orientation: the last position is implied
    // Orientation in a frame (note [orientation frames]): the digit at
    // position p holding label q is ((ori - frame[p] + frame[q]) mod modulus)
    // / step, in base modulus / step. Empty frame = all 0, step 1.
    std::vector<int> frame;
    int step = 1;
    std::vector<int> parityOrbits;   // Parity: the orbits whose parities are summed
    uint64_t size = 1;
    std::string describe(const ir::Puzzle& puzzle) const;
    std::string kindName() const;
};

// Dense rank of the part of element e, and an element with that rank (every
// other field solved). Plain reference implementations (the runtime's are
// tested against them).
uint64_t referencePartRank(const PhasePart& part, const ir::Element& e);
ir::Element referencePartUnrank(const PhasePart& part, uint64_t rank, const std::vector<ir::Orbit>& orbits);

// The invariants of a subgroup, declared or derived.
struct SubgroupInvariants {
    std::vector<std::vector<int>> setOf;  // [orbit][position] -> set
    std::vector<int> setCount;            // [orbit]
    std::vector<bool> oriented;           // [orbit]: every position keeps orientation 0 (in the frame)
    std::vector<std::vector<int>> frame;  // [orbit]: orientation frame (empty = 0), derived only
    std::vector<int> step;                // [orbit]: G's orientations in the frame are multiples of it
    std::vector<std::vector<int>> parities;  // orbit sets whose summed parity H keeps even
    bool derived = false;                 // from generators
    std::string unsupported;              // why no coordinate can be built, or ""
};

struct CosetCoordinate {
    int subgroup = -1;
    SubgroupInvariants invariants;
    std::vector<PhasePart> parts;  // mixed radix, first part most significant
    mpz_class size = 1;            // product of the part sizes
    mpz_class index = 0;           // [G : H]
    bool exact = false;            // size == index
    std::string problem;           // why not exact / unsupported, or ""
};

CosetCoordinate cosetCoordinate(PuzzleAnalysis& analysis, int subgroup);

// One phase of a phased solver.
struct PhasePlan {
    std::string target;              // subgroup name, or "solved"
    int subgroup = -1;               // -1: solved
    std::vector<int> moves;          // indices into the canonical automaton's search moves
    CanonicalAutomaton canon;        // over `moves` (its searchMoves are puzzle move indices)
    std::vector<PhasePart> parts;
    std::vector<uint64_t> goal;      // per part: the rank of the solved state
    std::vector<std::pair<int, int>> tables;  // pruning tables over (part, part), second -1 = one part
    uint64_t tableEntries(size_t t) const;
    // The symmetry-reduced pruning table (note [phase symmetries]); empty
    // symmetries = none. symmetries[0] = 0, the identity.
    std::vector<int> symmetries;     // indices into PuzzleAnalysis::symmetries().elements
    std::vector<int> symInverse;     // index into `symmetries` of each one's inverse
    std::vector<int> reduced;        // parts reduced to symmetry classes (mixed radix)
    std::vector<int> rest;           // parts conjugated value by value
    uint64_t reducedSize = 1;        // product of the reduced parts' sizes
    uint64_t restSize = 1;           // product of the other parts' sizes
    // Coset patterns: the symmetries whose conjugates the table is read at
    // (note [coset pattern lookups]); [0] = 0, the identity.
    std::vector<int> lookups;
    // Per lookup S: the search moves m (indices into the automaton's search
    // moves) with S^-1 m S in H (note [moves in the subgroup]).
    std::vector<std::vector<int>> lookupMovesInSubgroup;
    // A projected coset pattern (note [projected coset patterns]): the
    // parts its table keeps in place of `rest` (the orientation parts
    // restricted to the named positions); empty = the whole coordinate.
    std::vector<PhasePart> kept;
    // The declared least exact depth of a projected table (`coset H exact
    // D;`, note [declared exact depth] in pz/tables/projected_coset.hpp); 0 = the
    // build's default.
    int exactDepth = 0;
};

// note [phase symmetries]
// A phase's pruning table can be stored by symmetry class (Kociemba's
// flip-slice classes): a symmetry S (conjugation x -> S^-1 x S) qualifies
// when it keeps the phase's target and the group it searches in (S H S^-1 =
// H, Schreier–Sims, PuzzleAnalysis::subgroupSymmetries) and maps the
// phase's moves to its moves; then x and its conjugate are equally far from
// the target. The table covers parts A (reduced to classes) and B (the
// rest of the table's parts); it needs every qualifying S to act on A as a
// function of A's values and on each part of B as a function of that part's
// value. That is checked on random states of the phase's group (a random
// walk of its moves): A's value of S^-1 x S must equal A's value of
// S^-1 y S for y the state built from x's A values alone
// (referencePartsUnrank; the runtime builds its classes from the same
// construction); a symmetry that fails is dropped (those that pass form a
// group). Among the splits with A at most kMaxPhasePartSize raw values and
// about |A| / |S| * |B| entries at most kMaxPhaseTableEntries that cover
// parts no pair table covers together, or all the phase's parts, the one
// covering most parts wins, then the one with fewest entries, then the
// smallest A. Pair tables over parts it covers are dropped. At most 64
// symmetries.
ir::Element referencePartsUnrank(const std::vector<PhasePart>& parts, const std::vector<int>& which,
                                 const std::vector<uint64_t>& values, const std::vector<ir::Orbit>& orbits);

// A direction the search starts from (note [phased directions] in
// runtime/include/pz/search/phased.hpp): the position conjugated by a symmetry
// (an index into PuzzleAnalysis::symmetries().elements), or its inverse.
struct PhaseDirection {
    int symmetry = 0;
    bool inverse = false;
};

struct SolverPlan {
    std::string solver;
    std::vector<PhasePlan> phases;
    // One symmetry per coset of those keeping the first subgroup (conjugate
    // subgroups differ), each also inverted when every move's inverse is a
    // move; at most kMaxPhaseDirections.
    std::vector<PhaseDirection> directions;
};

inline constexpr size_t kMaxPhaseDirections = 12;

// note [class counts]
// The number of symmetry classes of a phase's reduced parts (the runtime's
// class index, note [symmetry classes] in runtime/include/pz/search/phased.hpp),
// computed without building the table: each reduced part gets a move table
// (value x phase move -> value); a breadth-first search from the goal over
// the reduced parts' values carries, for each generator S of the phase's
// symmetries, the image of every value: S^-1 (x m) S = (S^-1 x S)(S^-1 m S),
// so image(a m) = image(a) sigma_S(m), sigma_S(m) the phase move equal to
// S^-1 m S. The edges from the first kClassCountCheckedValues values
// searched check that rule on every move (the others only set images: a
// check on every edge costs seconds on the cube; the runtime's class index
// checks the symmetries again); the classes are the orbits of the
// generators on the values. When the values are more than
// kMaxClassCountValues, the move tables need more than kMaxClassCountSteps
// steps, some value is not reached from the goal, or a rule fails, the
// count is left to the table build (the solver's --tables) and `why` says so.
struct PhaseClassCount {
    uint64_t classes = 0;   // 0: not computed here
    uint64_t values = 0;    // raw values of the reduced parts
    std::string why;        // when not computed
};
inline constexpr uint64_t kMaxClassCountValues = 1ull << 24;
inline constexpr uint64_t kMaxClassCountSteps = 1ull << 22;
inline constexpr uint64_t kClassCountCheckedValues = 1ull << 16;
PhaseClassCount countPhaseClasses(PuzzleAnalysis& analysis, const PhasePlan& phase);

// Limits (documented in docs/language.md).
inline constexpr uint64_t kMaxPhasePartSize = 1ull << 24;       // values of one move-tabled part
inline constexpr uint64_t kMaxPhaseTableEntries = 1ull << 28;   // entries of one pruning table
inline constexpr size_t kMaxPhaseParts = 16;                    // coordinate parts of one phase

// The plan of declared phased solver `solver` (an index into puzzle.solvers)
// over the search moves `searchMoves` (the full canonical automaton's). On
// failure reports a located error at the solver and returns false.
bool buildSolverPlan(PuzzleAnalysis& analysis, int solver, const std::vector<int>& searchMoves, SolverPlan& out,
                     DiagnosticEngine& diags);

// note [coset patterns]
// `pattern P { coset H; }` prunes an optimal search with the distance, over
// the solver's moves, from a state's coset of H to H itself: every solution
// passes through H (solved is in H), so it is a lower bound, and so is the
// same distance for the inverse state (dist(s^-1) = dist(s) when the moves
// are closed under inverses). It is the table of a one-phase plan into H
// with every search move (note [phase symmetries]): the coset coordinate of
// H in one table, stored by symmetry class under the symmetries that keep H
// and the move set (the cube's H48: corners in tetrads and oriented, edges in
// slices, 48 symmetries: 3393 corner classes x 34,650 edge values, the h0
// table of the H48 solver). The runtime (pz/coset_pattern.hpp) builds it
// with the phased tables' breadth-first search and looks it up from the
// full state. One table must cover the whole coordinate: the symmetry-
// reduced one, or without symmetries a single part or pair of parts, at most
// kMaxPhaseTableEntries entries; else `pzc check` says so at the pattern.
//
// note [coset table keys]
// A coset pattern's cached table is keyed by what its bytes depend on: the
// state layout, the move kernels and inverses, the symmetries (the
// traits' core sections) and the pattern's own plan (name, parts, moves,
// symmetries, automaton, kept parts), not by the solver's other patterns.
// So the solvers of one definition that search the same pattern (cube3's
// optimal solvers, a --solver switch) share its table; a plain pattern's
// key is its definition and the kernels (SolverModel::patternHashes).
//
// note [coset pattern lookups]
// A symmetry S that maps the search moves onto themselves preserves
// distance, so the table read at the conjugate S^-1 x S is a lower bound
// too, and a different one when S moves H to another subgroup (S H S^-1 !=
// H: the cube's G1 read along its three axes, as Kociemba's optimal solver
// does). S and S U give the same entry when U keeps H, so one lookup per
// coset of those symmetries: symmetryCosetRepresentatives, the same choice
// as a phased solver's directions. At most kMaxCosetPatternLookups per
// pattern (each costs a conjugation, a rank and a table line).
inline constexpr size_t kMaxCosetPatternLookups = 8;
//
// note [projected coset patterns]
// `pattern P { coset H; ORBIT {POSITIONS}: orientations; }` keeps, of H's
// coset coordinate, the orientation of ORBIT at POSITIONS only (H must keep
// ORBIT oriented, so its coordinate has that orientation part): the H48
// solver's h1..h10, `coset H11; edges {UR UF UL}: orientations;` with H11 =
// H48 with every edge oriented. A projection of a function of the coset is
// one too, and the table holds for each kept value the fewest moves over
// every full value projecting to it: a lower bound. The other parts must
// take a symmetry-reduced table as a plain coset pattern would (the cube:
// H48's corner classes, kept by all 48 symmetries); the orientation parts
// join the rest, ranked from the state conjugated by the class's symmetry
// (their conjugates depend on the positions' sets too, so value-by-value
// tables would not do). The full coordinate is too large to search
// breadth-first, so the runtime (pz/tables/projected_coset.hpp) searches keys
// breadth-first while they are few and depth-first after: entries are exact
// up to a depth it reports, larger ones read one more; it stores them in 2
// bits over the base with the largest mean bound. At most
// kMaxProjectedTableEntries entries (about: classes are estimated as the
// reduced values / the symmetries); the memory budget applies when built.
inline constexpr uint64_t kMaxProjectedTableEntries = 1ull << 36;
inline constexpr size_t kMaxKeptOrientations = 16;  // positions kept per part (the runtime's part arrays)
// Its table is stored in 2-bit entries over a base, 254 to a 64-byte line
// with the line's minimum (note [two-bit tables] in pz/tables/two_bit_table.hpp),
// and beside the lines a set of the entries below the base (note [entries
// below the base]); its size is the runtime's own (cosetPatternTableBytes
// asks pz/tables/table_layout.hpp, not a copy of its rules).
//
// note [moves in the subgroup]
// When the table read at the inverse y = x^-1 of a node x (at S^-1 y S) is
// exactly the number of moves left, no solution of that length starts with
// a move m whose conjugate S^-1 m S lies in H: y = m r (r the rest of the
// solution), so S^-1 y S would lie in H (S^-1 r S), one move closer to H
// than the table says. The search skips those moves there (the H48
// solver's "tight bound": its H contains the half turns), so the compiler
// lists them per lookup.
// Representatives (0, the identity, first) of the cosets S K of the
// symmetries K keeping subgroup H, among the symmetries S that map
// `searchMoves` onto themselves; at most `limit` of them.
std::vector<int> symmetryCosetRepresentatives(PuzzleAnalysis& analysis, int subgroup, const std::vector<int>& searchMoves,
                                              size_t limit);
// The plan of coset pattern `pattern` (an index into puzzle.patterns, with
// cosetSubgroup >= 0) over `searchMoves`; on failure a located error at the
// pattern.
// Symmetry classes of a coset pattern's reduced parts: counted, or estimated
// as the reduced values / the symmetries (rounded up) when `classes` has
// none; 0 without symmetries.
uint64_t cosetPatternClasses(const PhasePlan& plan, const PhaseClassCount& classes);
// Entries of a coset pattern's table: its classes x the other parts;
// without symmetries, the plain table's entries.
uint64_t cosetPatternEntries(const PhasePlan& plan, const PhaseClassCount& classes);
// Bytes of its table as the solver holds it (pz/tables/table_layout.hpp): the
// 4-bit entries, or a projected table's 2-bit lines and its set of entries
// below the base, with the class index and move tables beside them.
uint64_t cosetPatternTableBytes(const PhasePlan& plan, const PhaseClassCount& classes);
bool buildCosetPatternPlan(PuzzleAnalysis& analysis, int pattern, const std::vector<int>& searchMoves, PhasePlan& out,
                           DiagnosticEngine& diags);

}  // namespace pz::analysis
