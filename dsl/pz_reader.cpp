// The textual front end: ANTLR parse tree -> ast::Puzzle.
//
// The generated parser (dsl/Puzzle.g4, generated into the build directory)
// reports syntax errors through DiagnosticListener into the DiagnosticEngine;
// ANTLR's default console listener is removed. After a syntax error the tree
// is not converted (error recovery leaves holes), so a file with syntax
// errors reports all of them and nothing else.
//
// AstBuilder is the typed visitor. Rules with labelled alternatives (atoms,
// suffixes, invariants, solver bodies, grid items, motions) go through the
// generated visitor interface; everything else is read with the generated
// accessors directly, which keeps the types visible.
#include <cctype>
#include <memory>
#include <sstream>

#include "PuzzleBaseVisitor.h"
#include "PuzzleLexer.h"
#include "PuzzleParser.h"
#include "antlr4-runtime.h"
#include "dsl/frontend.hpp"
#include "dsl/text_parsers.hpp"

namespace pz {
namespace {

using grammar::PuzzleLexer;
using grammar::PuzzleParser;

// Maps positions of the parsed text to positions in the file: the text may
// start at `origin` (a YAML scalar); its first line is shifted by the origin's
// column, later lines only by its line. ANTLR columns are 0-based; this is
// the one place where they become 1-based.
struct TextOrigin {
    int line = 1, col = 1;

    SourceRange at(size_t line1, size_t col0, size_t length) const {
        int l = (int)line1 + line - 1;
        int c = (int)col0 + 1 + (line1 == 1 ? col - 1 : 0);
        return SourceRange::at(l, c, (int)length);
    }
};

// ANTLR lists every token it would accept; since every keyword is also a
// name, those lists are long. Keywords and IDENT collapse into "a name".
std::string simplifyExpected(const std::string& message) {
    auto open = message.find("expecting {");
    if (open == std::string::npos) return message;
    auto close = message.find('}', open);
    if (close == std::string::npos) return message;
    std::string list = message.substr(open + 11, close - open - 11);
    std::vector<std::string> kept;
    bool name = false;
    size_t pos = 0;
    while (pos < list.size()) {
        auto comma = list.find(", ", pos);
        std::string token = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        pos = comma == std::string::npos ? list.size() : comma + 2;
        bool keyword = token.size() > 2 && token.front() == '\'' && std::isalpha((unsigned char)token[1]);
        if (token == "IDENT" || keyword) name = true;
        else if (token == "INT") kept.push_back("a number");
        else if (token == "STRING") kept.push_back("a string");
        else kept.push_back(token);
    }
    if (name) kept.insert(kept.begin(), "a name");
    std::string out;
    for (size_t i = 0; i < kept.size(); ++i) out += (i ? (i + 1 == kept.size() ? " or " : ", ") : "") + kept[i];
    return message.substr(0, open) + "expecting " + out + message.substr(close + 1);
}

class DiagnosticListener : public antlr4::BaseErrorListener {
public:
    DiagnosticListener(const std::string& file, TextOrigin origin, DiagnosticEngine& diags)
        : file_(file), origin_(origin), diags_(diags) {}

    void syntaxError(antlr4::Recognizer*, antlr4::Token* offending, size_t line, size_t col,
                     const std::string& message, std::exception_ptr) override {
        size_t length = 1;
        if (offending && offending->getType() != antlr4::Token::EOF) {
            auto text = offending->getText();
            if (!text.empty() && text.find('\n') == std::string::npos) length = text.size();
        }
        diags_.error(file_, origin_.at(line, col, length), simplifyExpected(message));
        ++count_;
    }
    int count() const { return count_; }

private:
    std::string file_;
    TextOrigin origin_;
    DiagnosticEngine& diags_;
    int count_ = 0;
};

std::string unquote(const std::string& quoted) {
    std::string out;
    for (size_t i = 1; i + 1 < quoted.size(); ++i) {
        if (quoted[i] == '\\' && i + 2 < quoted.size()) ++i;
        out += quoted[i];
    }
    return out;
}

class AstBuilder : public grammar::PuzzleBaseVisitor {
public:
    AstBuilder(TextOrigin origin) : origin_(origin) {}

    SourceRange range(antlr4::ParserRuleContext* ctx) const {
        auto* start = ctx->getStart();
        auto* stop = ctx->getStop();
        if (!stop || stop->getTokenIndex() < start->getTokenIndex()) stop = start;
        SourceRange r = origin_.at(start->getLine(), start->getCharPositionInLine(), 1);
        SourceRange end = origin_.at(stop->getLine(), stop->getCharPositionInLine(), stop->getText().size());
        r.endLine = end.endLine;
        r.endCol = end.endCol;
        return r;
    }
    SourceRange range(antlr4::tree::TerminalNode* node) const {
        auto* t = node->getSymbol();
        return origin_.at(t->getLine(), t->getCharPositionInLine(), t->getText().size());
    }

    ast::Name name(PuzzleParser::NameContext* ctx) const { return {ctx->getText(), range(ctx)}; }

    static int toInt(const std::string& digits) {
        // Saturate: out-of-range values are reported by the lowering pass.
        long long v = 0;
        for (char c : digits) {
            v = v * 10 + (c - '0');
            if (v > 1000000000) return 1000000000;
        }
        return (int)v;
    }
    int signedInt(PuzzleParser::SignedIntContext* ctx) const {
        int v = toInt(ctx->INT()->getText());
        return ctx->children.size() > 1 ? -v : v;
    }

    ast::PositionRef position(PuzzleParser::PositionContext* ctx) const {
        ast::PositionRef p;
        if (ctx->INT()) p.index = toInt(ctx->INT()->getText());
        else p.name = ctx->name()->getText();
        p.range = range(ctx);
        return p;
    }
    std::vector<ast::PositionRef> positions(const std::vector<PuzzleParser::PositionContext*>& list) const {
        std::vector<ast::PositionRef> out;
        for (auto* p : list) out.push_back(position(p));
        return out;
    }

    ast::Cycle cycle(PuzzleParser::CycleContext* ctx) const {
        ast::Cycle c;
        for (auto* e : ctx->cycleElement()) {
            ast::CycleElement el;
            el.position = position(e->position());
            if (e->twist) {
                el.twist = toInt(e->twist->getText());
                if (e->sign->getText() == "-") el.twist = -el.twist;
            }
            el.range = range(e);
            c.elements.push_back(std::move(el));
        }
        c.range = range(ctx);
        return c;
    }

    // ---- expressions

    ast::Expr expr(PuzzleParser::ExprContext* ctx) {
        auto items = ctx->postfix();
        if (items.size() == 1) return postfix(items[0]);
        ast::Expr e;
        e.kind = ast::Expr::Kind::Sequence;
        for (auto* p : items) e.items.push_back(postfix(p));
        e.range = range(ctx);
        return e;
    }

    ast::Expr postfix(PuzzleParser::PostfixContext* ctx) {
        ast::Expr base = visit(ctx->atom()).as<ast::Expr>();
        auto suffixes = ctx->suffix();
        size_t i = 0;
        // Primes right after a name belong to it ("R'" is looked up whole
        // first); see ast.hpp.
        if (dynamic_cast<PuzzleParser::RefAtomContext*>(ctx->atom())) {
            for (; i < suffixes.size() && dynamic_cast<PuzzleParser::InverseSuffixContext*>(suffixes[i]); ++i)
                base.ref.text += '\'';
            if (i > 0) {
                base.ref.range.endCol = range(suffixes[i - 1]).endCol;
                base.range = base.ref.range;
            }
        }
        for (; i < suffixes.size(); ++i) {
            ast::Expr wrapped;
            wrapped.range = base.range;
            wrapped.range.endLine = range(suffixes[i]).endLine;
            wrapped.range.endCol = range(suffixes[i]).endCol;
            if (auto* power = dynamic_cast<PuzzleParser::PowerSuffixContext*>(suffixes[i])) {
                wrapped.kind = ast::Expr::Kind::Power;
                wrapped.power = signedInt(power->signedInt());
            } else {
                wrapped.kind = ast::Expr::Kind::Inverse;
            }
            wrapped.items.push_back(std::move(base));
            base = std::move(wrapped);
        }
        return base;
    }

    antlrcpp::Any visitRefAtom(PuzzleParser::RefAtomContext* ctx) override {
        ast::Expr e;
        e.kind = ast::Expr::Kind::Ref;
        e.ref = name(ctx->name());
        e.range = e.ref.range;
        return e;
    }
    antlrcpp::Any visitGroupAtom(PuzzleParser::GroupAtomContext* ctx) override {
        if (ctx->expr()) return expr(ctx->expr());
        ast::Expr e;
        e.kind = ast::Expr::Kind::Identity;
        e.range = range(ctx);
        return e;
    }
    antlrcpp::Any visitCommutatorAtom(PuzzleParser::CommutatorAtomContext* ctx) override {
        return binary(ast::Expr::Kind::Commutator, ctx, ctx->expr());
    }
    antlrcpp::Any visitConjugateAtom(PuzzleParser::ConjugateAtomContext* ctx) override {
        return binary(ast::Expr::Kind::Conjugate, ctx, ctx->expr());
    }
    ast::Expr binary(ast::Expr::Kind kind, antlr4::ParserRuleContext* ctx,
                     const std::vector<PuzzleParser::ExprContext*>& operands) {
        ast::Expr e;
        e.kind = kind;
        for (auto* o : operands) e.items.push_back(expr(o));
        e.range = range(ctx);
        return e;
    }

    // ---- declarations

    void body(PuzzleParser::BodyContext* ctx, std::vector<ast::OrbitCycles>& cycles, std::optional<ast::Expr>& out) {
        if (ctx->expr()) {
            out = expr(ctx->expr());
            return;
        }
        for (auto* oc : ctx->orbitCycles()) {
            ast::OrbitCycles o;
            o.orbit = name(oc->name());
            for (auto* c : oc->cycle()) o.cycles.push_back(cycle(c));
            o.range = range(oc);
            cycles.push_back(std::move(o));
        }
    }

    std::vector<ast::Expr> generators(const std::vector<PuzzleParser::ExprContext*>& list) {
        std::vector<ast::Expr> out;
        for (auto* e : list) out.push_back(expr(e));
        return out;
    }

    void item(PuzzleParser::ItemContext* ctx, ast::Puzzle& p) {
        if (auto* o = ctx->orbitDecl()) {
            ast::Orbit orbit;
            auto names = o->name();
            orbit.name = name(names[0]);
            orbit.size = toInt(o->size->getText());
            orbit.sizeRange = origin_.at(o->size->getLine(), o->size->getCharPositionInLine(), o->size->getText().size());
            if (o->modulus) {
                orbit.orientation = toInt(o->modulus->getText());
                orbit.orientationRange = origin_.at(o->modulus->getLine(), o->modulus->getCharPositionInLine(),
                                                    o->modulus->getText().size());
            }
            for (size_t i = 1; i < names.size(); ++i) orbit.positionNames.push_back(name(names[i]));
            orbit.range = range(o);
            p.orbits.push_back(std::move(orbit));
        } else if (auto* s = ctx->solvedDecl()) {
            ast::SolvedLabels solved;
            solved.orbit = name(s->name());
            for (auto* l : s->label()) solved.labels.push_back({l->getText(), range(l)});
            solved.range = range(s);
            p.solved.push_back(std::move(solved));
        } else if (auto* pw = ctx->powersDecl()) {
            p.powers.range = range(pw);
            for (auto* pn : pw->powerName()) {
                ast::PowerName n;
                n.power = signedInt(pn->signedInt());
                n.suffix = unquote(pn->STRING()->getText());
                n.inMetric = pn->children.size() == 4;  // power ':' STRING ';' (no 'uncounted')
                n.range = range(pn);
                p.powers.names.push_back(std::move(n));
            }
        } else if (auto* m = ctx->moveDecl()) {
            ast::MoveDef move;
            move.name = name(m->name());
            move.isMacro = m->kind->getText() == "macro";
            body(m->body(), move.cycles, move.expr);
            move.range = range(m);
            p.moves.push_back(std::move(move));
        } else if (auto* sy = ctx->symmetryDecl()) {
            ast::SymmetryDef sym;
            sym.name = name(sy->name());
            for (auto* child : sy->children)
                if (child->getText() == "mirror" && dynamic_cast<antlr4::tree::TerminalNode*>(child)) sym.mirror = true;
            body(sy->body(), sym.cycles, sym.expr);
            sym.range = range(sy);
            p.symmetries.push_back(std::move(sym));
        } else if (auto* sg = ctx->subgroupDecl()) {
            ast::SubgroupDef sub;
            sub.name = name(sg->name());
            if (sg->generators()) sub.generators = generators(sg->generators()->expr());
            for (auto* inv : sg->invariant()) sub.invariants.push_back(visit(inv).as<ast::Invariant>());
            sub.range = range(sg);
            p.subgroups.push_back(std::move(sub));
        } else if (auto* pt = ctx->patternDecl()) {
            ast::PatternDef pattern;
            pattern.name = name(pt->name());
            for (auto* part : pt->patternPart()) {
                ast::PatternPart pp;
                pp.orbit = name(part->name());
                if (part->positionSet()) pp.pieces = positions(part->positionSet()->position());
                pp.positions = false;
                for (auto* a : part->aspect()) {
                    auto text = a->getText();
                    if (text == "positions") pp.positions = true;
                    else if (text == "orientations") pp.orientations = true;
                    else pp.unordered = true;
                }
                pp.range = range(part);
                pattern.parts.push_back(std::move(pp));
            }
            pattern.range = range(pt);
            p.patterns.push_back(std::move(pattern));
        } else if (auto* sv = ctx->solverDecl()) {
            ast::SolverDef solver = visit(sv->solverBody()).as<ast::SolverDef>();
            solver.name = name(sv->name());
            solver.range = range(sv);
            p.solvers.push_back(std::move(solver));
        }
    }

    antlrcpp::Any visitKeepInSets(PuzzleParser::KeepInSetsContext* ctx) override {
        ast::Invariant inv;
        inv.kind = ast::Invariant::Kind::KeepInSets;
        inv.orbit = name(ctx->name());
        for (auto* set : ctx->positionSet()) inv.sets.push_back(positions(set->position()));
        inv.range = range(ctx);
        return inv;
    }
    antlrcpp::Any visitOriented(PuzzleParser::OrientedContext* ctx) override {
        ast::Invariant inv;
        inv.kind = ast::Invariant::Kind::Oriented;
        inv.orbit = name(ctx->name());
        if (ctx->positionSet()) inv.positions = positions(ctx->positionSet()->position());
        inv.range = range(ctx);
        return inv;
    }
    antlrcpp::Any visitOptimalSolver(PuzzleParser::OptimalSolverContext* ctx) override {
        ast::SolverDef s;
        s.kind = ast::SolverDef::Kind::Optimal;
        for (auto* n : ctx->name()) s.patterns.push_back(name(n));
        return s;
    }
    antlrcpp::Any visitPhasedSolver(PuzzleParser::PhasedSolverContext* ctx) override {
        ast::SolverDef s;
        s.kind = ast::SolverDef::Kind::Phased;
        for (auto* n : ctx->name()) s.phases.push_back(name(n));
        return s;
    }

    // ---- grid puzzles

    antlrcpp::Any visitDirectionDecl(PuzzleParser::DirectionDeclContext* ctx) override {
        ast::DirectionDef d;
        d.name = name(ctx->name());
        d.dx = signedInt(ctx->dx);
        d.dy = signedInt(ctx->dy);
        d.range = range(ctx);
        grid_->directions.push_back(std::move(d));
        return {};
    }
    antlrcpp::Any visitColourDecl(PuzzleParser::ColourDeclContext* ctx) override {
        ast::ColourDef c;
        c.name = name(ctx->name()[0]);
        c.actorChar = ctx->actor->getText();
        c.goalChar = ctx->goal->getText();
        auto* motion = ctx->motion();
        if (dynamic_cast<PuzzleParser::WithMotionContext*>(motion)) {
            c.motion = ast::ColourDef::Motion::With;
        } else if (dynamic_cast<PuzzleParser::AgainstMotionContext*>(motion)) {
            c.motion = ast::ColourDef::Motion::Against;
        } else if (auto* map = dynamic_cast<PuzzleParser::MapMotionContext*>(motion)) {
            c.motion = ast::ColourDef::Motion::Map;
            auto names = map->name();
            for (size_t i = 0; i + 1 < names.size(); i += 2) c.map.push_back({name(names[i]), name(names[i + 1])});
        }
        c.range = range(ctx);
        grid_->colours.push_back(std::move(c));
        return {};
    }
    antlrcpp::Any visitLevelsDecl(PuzzleParser::LevelsDeclContext* ctx) override {
        for (auto* s : ctx->STRING()) grid_->levels.push_back({unquote(s->getText()), range(s)});
        return {};
    }

    ast::Puzzle puzzle(PuzzleParser::FileContext* ctx, const std::string& file) {
        ast::Puzzle p;
        p.file = file;
        if (auto* perm = ctx->permutationPuzzle()) {
            p.kind = ast::Puzzle::Kind::Permutation;
            p.name = name(perm->name());
            for (auto* it : perm->item()) item(it, p);
            p.range = range(perm);
        } else if (auto* grid = ctx->gridPuzzle()) {
            p.kind = ast::Puzzle::Kind::Grid;
            p.name = name(grid->name());
            grid_ = &p.grid;
            for (auto* it : grid->gridItem()) visit(it);
            grid_ = nullptr;
            p.grid.range = range(grid);
            p.range = range(grid);
        }
        return p;
    }

private:
    TextOrigin origin_;
    ast::GridDef* grid_ = nullptr;
};

// Owns the ANTLR pipeline for one piece of text.
struct ParseSession {
    antlr4::ANTLRInputStream input;
    PuzzleLexer lexer;
    antlr4::CommonTokenStream tokens;
    PuzzleParser parser;
    DiagnosticListener listener;

    ParseSession(const std::string& file, const std::string& text, TextOrigin origin, DiagnosticEngine& diags)
        : input(text), lexer(&input), tokens(&lexer), parser(&tokens), listener(file, origin, diags) {
        lexer.removeErrorListeners();
        lexer.addErrorListener(&listener);
        parser.removeErrorListeners();
        parser.addErrorListener(&listener);
    }
};

TextOrigin originOf(SourceRange r) {
    TextOrigin o;
    if (r.known()) {
        o.line = r.line;
        o.col = r.col;
    }
    return o;
}

}  // namespace

std::optional<ast::Puzzle> parsePzText(const std::string& file, const std::string& text, DiagnosticEngine& diags) {
    if (!diags.sourceText(file)) diags.addSource(file, text);
    ParseSession session(file, text, {}, diags);
    auto* tree = session.parser.file();
    if (session.listener.count() > 0) return std::nullopt;
    return AstBuilder({}).puzzle(tree, file);
}

std::optional<ast::Expr> parseExpressionText(const std::string& file, const std::string& text, SourceRange origin,
                                             DiagnosticEngine& diags) {
    ParseSession session(file, text, originOf(origin), diags);
    auto* tree = session.parser.expressionOnly();
    if (session.listener.count() > 0) return std::nullopt;
    AstBuilder builder(originOf(origin));
    if (tree->expr()) return builder.expr(tree->expr());
    ast::Expr identity;
    identity.range = origin;
    return identity;
}

std::optional<std::vector<ast::Cycle>> parseCyclesText(const std::string& file, const std::string& text,
                                                       SourceRange origin, DiagnosticEngine& diags) {
    ParseSession session(file, text, originOf(origin), diags);
    auto* tree = session.parser.cyclesOnly();
    if (session.listener.count() > 0) return std::nullopt;
    AstBuilder builder(originOf(origin));
    std::vector<ast::Cycle> out;
    for (auto* c : tree->cycle()) out.push_back(builder.cycle(c));
    return out;
}

std::optional<std::vector<ast::Expr>> parseGeneratorsText(const std::string& file, const std::string& text,
                                                          SourceRange origin, DiagnosticEngine& diags) {
    ParseSession session(file, text, originOf(origin), diags);
    auto* tree = session.parser.generatorsOnly();
    if (session.listener.count() > 0) return std::nullopt;
    AstBuilder builder(originOf(origin));
    return builder.generators(tree->expr());
}

std::optional<std::vector<ast::PositionRef>> parsePositionsText(const std::string& file, const std::string& text,
                                                                SourceRange origin, DiagnosticEngine& diags) {
    ParseSession session(file, text, originOf(origin), diags);
    auto* tree = session.parser.positionSetOnly();
    if (session.listener.count() > 0) return std::nullopt;
    return AstBuilder(originOf(origin)).positions(tree->position());
}

}  // namespace pz
