// The closed-set key (note [grid keys] in runtime/include/pz/grid_bits.hpp):
// packed per-colour fields or the bitboards, and pack() with the heuristic
// in one pass (packEstimate).
#include "compiler/codegen/grid/level_emitter.hpp"

namespace pz::codegen::grid {

bool LevelEmitter::listed(size_t i) const {
    return compactFloorSets() && actorsOf(i) >= 1 && actorsOf(i) <= kMaxListActors;
}

// Actor a of the list declared by boardLines(): byte a of `lo` or `hi`.
std::string LevelEmitter::actorByte(int a) {
    const std::string word = a < 8 ? "lo" : "hi";
    const int shift = 8 * (a % 8);
    return shift ? word + " >> " + std::to_string(shift) + " & 0xff" : word + " & 0xff";
}

// A mask of the low `width` bits of each of the first `count` bytes.
std::string LevelEmitter::byteFieldMask(int count, int width) {
    uint64_t m = 0;
    for (int j = 0; j < count; ++j) m |= ((uint64_t(1) << width) - 1) << (8 * j);
    return hex(m);
}

// The lines pack(), packEstimate() and heuristic() run for board i: its
// key field into `key` (withKey) and its nearest-actor distances into
// `far` (withRows, needs listed(i)), from one read of its actors.
std::vector<std::string> LevelEmitter::boardLines(size_t i, bool withKey, bool withRows) const {
    using Kind = GridLayout::Part::Kind;
    const auto& part = layout_.parts[i];
    const int k = actorsOf(i), width = indexBits(layout_.floorCells);
    const std::string i_ = std::to_string(i), board = "s.colour[" + i_ + "]", table = "kDist" + i_;
    const std::string offset = std::to_string(part.offset);
    const bool keyField = withKey && part.bits > 0;
    const bool list = listed(i) && (withRows || (keyField && part.kind != Kind::FloorBits));
    std::vector<std::string> out;
    if (list) {
        out.push_back("const pz::grid::ActorList list = pz::grid::actorList<" + std::to_string(k) + ">(" + board +
                      ", kFloorIndexBytes);  // " + commentText(rules_.colours[layout_.colours[i]].name));
        out.push_back("const uint64_t lo = pz::grid::lowBytes(list);");
        if (k > 8) out.push_back("const uint64_t hi = pz::grid::highBytes(list);");
    }
    if (keyField) {
        switch (part.kind) {
            case Kind::FloorBits:  // a field of at most 64 bits: at most 64 floor cells, so compact
                out.push_back("key |= (Key)floorSet(" + board + ") << " + offset + ";");
                break;
            case Kind::IndexList:
                if (list) {
                    out.push_back("key |= pz::grid::extractBits(lo, " + byteFieldMask(std::min(k, 8), width) +
                                  ") << " + offset + ";");
                    if (k > 8)
                        out.push_back("key |= pz::grid::extractBits(hi, " + byteFieldMask(k - 8, width) + ") << " +
                                      std::to_string(part.offset + 8 * width) + ";");
                } else {
                    out.push_back("int shift = " + offset + ";");
                    out.push_back("for (int wi = 0; wi < {{WORDS}}; ++wi)");
                    out.push_back("    for (uint64_t b = " + board + ".w[wi]; b; b &= b - 1, shift += " +
                                  std::to_string(width) + ")");
                    out.push_back("        key |= (Key)kFloorIndex[wi * 64 + __builtin_ctzll(b)] << shift;");
                }
                break;
            case Kind::Colex:
                out.push_back("uint64_t rank = 0;");
                if (list) {
                    for (int a = 0; a < k; ++a)
                        out.push_back("rank += kChoose(" + actorByte(a) + ", " + std::to_string(a + 1) + ");");
                } else {
                    out.push_back("int i = 0;");
                    out.push_back("for (int wi = 0; wi < {{WORDS}}; ++wi)");
                    out.push_back("    for (uint64_t b = " + board + ".w[wi]; b; b &= b - 1)");
                    out.push_back("        rank += kChoose(kFloorIndex[wi * 64 + __builtin_ctzll(b)], ++i);");
                }
                out.push_back("key |= rank << " + offset + ";");
                break;
        }
    }
    if (withRows) {
        out.push_back("pz::grid::DistanceRow near = " + table + "[" + actorByte(0) + "];");
        for (int a = 1; a < k; ++a)
            out.push_back("near = pz::grid::minRow(near, " + table + "[" + actorByte(a) + "]);");
        out.push_back("far = pz::grid::maxRow(far, near);");
    }
    return out;
}

// The binomial table colex ranks need (note [grid colex tables]), rows
// up to a power of two above F.
void LevelEmitter::emitChooseTable(int maxK) {
    int rows = 2;
    while (rows <= layout_.floorCells) rows *= 2;
    w_.line("constexpr pz::grid::ColexTable<" + std::to_string(rows) + ", " + std::to_string(maxK) + "> kChoose{};");
}

// Lines that unrank `rank` (k actors) into floor indices: `each` gets f.
void LevelEmitter::emitColexUnrank(int k, const std::string& each) {
    w_.line("for (int i = " + std::to_string(k) + "; i > 0; --i) {");
    w_.line("    const int f = kChoose.largest(i, rank);  // below the previous f: C(n, i) > rank for n >= F");
    w_.line("    rank -= kChoose(f, i);");
    w_.line("    " + each);
    w_.line("}");
}

bool LevelEmitter::goalWithoutActors() const {
    for (const auto& goal : level_.goals)
        if (actorsOfColour(goal.colour) == 0) return true;
    return false;
}

// One braced block per board: its key field and, with `rows`, its
// nearest-actor distances (the bodies of pack() and packEstimate()).
void LevelEmitter::emitKeyBlocks(bool rows) {
    for (size_t i = 0; i < layout_.parts.size(); ++i) {
        const auto lines = boardLines(i, true, rows && boardHasDistanceRows(i));
        if (lines.empty()) continue;
        w_.line("{");
        w_.indent();
        for (const auto& line : lines) w_.line(line);
        w_.dedent();
        w_.line("}");
    }
}

// pack() and heuristic() in one pass over each colour's actors: the
// search needs both for nearly every child (most children are new), and
// finding the actors costs more than either use of them.
void LevelEmitter::emitPackEstimate() {
    w_.line("// pack(s) and heuristic(s) at once (the search's per-child work)");
    // Inlined into the search's child loop, so its long dependency chain
    // (extraction, row loads, maxima) overlaps the next child's kernel
    // and no vzeroupper/call frame is paid per child (12x12 levels: 2-6%).
    w_.line("[[gnu::always_inline]] inline Key packEstimate(const State& s, int& h) {");
    w_.indent();
    w_.line("Key key = 0;");
    w_.line("pz::grid::DistanceRow far{};");
    emitKeyBlocks(true);
    if (goalWithoutActors()) {
        w_.line("h = kDead;  // a goal of a colour without actors");
    } else {
        w_.line("h = pz::grid::largestByte<" + std::to_string(level_.goals.size()) + ">(far);");
        w_.line("if (h == pz::grid::kUnreachableByte) h = kDead;");
    }
    w_.line("return key;");
    w_.dedent();
    w_.line("}");
}

// note [grid key parts] in gridLayout(): one bit field per colour.
void LevelEmitter::emitPackedKey() {
    using Kind = GridLayout::Part::Kind;
    const bool compact = compactFloorSets();
    int maxColexK = 0;
    bool needFloorTables = false;
    std::string fields;
    static const char* partNames[] = {"floor bits", "floor indices", "colex rank"};
    for (size_t i = 0; i < layout_.parts.size(); ++i) {
        const auto& part = layout_.parts[i];
        if (part.kind == Kind::Colex) maxColexK = std::max(maxColexK, part.actors);
        if (part.kind != Kind::FloorBits && !listed(i)) needFloorTables = true;
        fields += (i ? ", " : "") + commentText(rules_.colours[layout_.colours[i]].name) + " " + partNames[(int)part.kind] +
                  " [" + std::to_string(part.offset) + ", " + std::to_string(part.offset + part.bits) + ")";
    }
    w_.line("using Key = uint64_t;  // bit fields: " + fields + "; see note [grid key parts]");
    if (needFloorTables) emitFloorTables();
    if (maxColexK) emitChooseTable(maxColexK);
    const int indexWidth = indexBits(layout_.floorCells);
    // pack
    w_.line("inline Key pack(const State& s) {");
    w_.indent();
    w_.line("Key key = 0;");
    emitKeyBlocks(false);
    w_.line("return key;");
    w_.dedent();
    w_.line("}");
    // Not with --hall: its checks cost more than the rows, and apart they
    // run only for new children, from the parent's h - 1 (measured with
    // them in packEstimate: antiparticle 7.4 -> 11.3 ms).
    if (useDistanceRows() && !hallBound_) emitPackEstimate();
    // unpack
    w_.line("inline State unpack(Key key) {");
    w_.indent();
    w_.line("State s{};");
    for (size_t i = 0; i < layout_.parts.size(); ++i) {
        const auto& part = layout_.parts[i];
        const std::string board = "s.colour[" + std::to_string(i) + "]";
        if (part.bits == 0) continue;
        const std::string field = "(key >> " + std::to_string(part.offset) + ") & " + lowMask(part.bits);
        w_.line("{");
        w_.indent();
        switch (part.kind) {
            case Kind::FloorBits:
                w_.line(board + " = boardOf((FloorSet)(" + field + "));");
                break;
            case Kind::IndexList:
                if (compact) {
                    w_.line("FloorSet f = 0;");
                    for (int a = 0; a < part.actors; ++a)
                        w_.line("f |= FloorSet(1) << ((key >> " + std::to_string(part.offset + a * indexWidth) +
                                ") & " + std::to_string((1 << indexWidth) - 1) + ");");
                    w_.line(board + " = boardOf(f);");
                } else {
                    for (int a = 0; a < part.actors; ++a)
                        w_.line(board + ".set(kFloorCell[(key >> " + std::to_string(part.offset + a * indexWidth) +
                                ") & " + std::to_string((1 << indexWidth) - 1) + "]);");
                }
                break;
            case Kind::Colex:
                w_.line("uint64_t rank = " + field + ";");
                if (compact) {
                    w_.line("FloorSet set = 0;");
                    emitColexUnrank(part.actors, "set |= FloorSet(1) << f;");
                    w_.line(board + " = boardOf(set);");
                } else {
                    emitColexUnrank(part.actors, board + ".set(kFloorCell[f]);");
                }
                break;
        }
        w_.dedent();
        w_.line("}");
    }
    w_.line("return s;");
    w_.dedent();
    w_.line("}");
    w_.line("struct Hasher {");
    w_.line("    uint64_t operator()(Key k) const { return pz::grid::mixHash(k); }");
    w_.line("};");
}

void LevelEmitter::emitKey() {
    w_.section("grid_emit: key");
    switch (layout_.key) {
        case GridLayout::KeyKind::Packed:
            emitPackedKey();
            break;
        case GridLayout::KeyKind::Words: {
            w_.line("using Key = State;  // too many cells and actors for one word: the bitboards themselves");
            w_.line("inline Key pack(const State& s) { return s; }");
            w_.line("inline State unpack(const Key& k) { return k; }");
            w_.line("struct Hasher {");
            w_.line("    uint64_t operator()(const Key& k) const {");
            w_.line("        uint64_t h = 0;");
            w_.line("        for (const auto& b : k.colour)");
            w_.line("            for (int i = 0; i < {{WORDS}}; ++i) h = pz::grid::mixHash(h ^ b.w[i]);");
            w_.line("        return h;");
            w_.line("    }");
            w_.line("};");
            break;
        }
    }
    w_.line();
}

}  // namespace pz::codegen::grid
