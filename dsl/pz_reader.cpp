// The textual front end: ANTLR parse tree -> ast::Puzzle.
//
// The generated parser (dsl/Puzzle.g4, generated into the build directory)
// reports syntax errors through DiagnosticListener into the DiagnosticEngine;
// ANTLR's default console listener is removed. After a syntax error the tree
// is not converted (error recovery leaves holes), so a file with syntax
// errors reports all of them and nothing else.
//
// AstBuilder is the typed visitor. Rules with labelled alternatives (atoms,
// suffixes, invariants, solver bodies, grid items, motions, sliding-block
// items) go through the
// generated visitor interface; everything else is read with the generated
// accessors directly, which keeps the types visible.
#include <algorithm>
#include <cctype>
#include <cstring>
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
    auto close = message.rfind('}');
    if (close == std::string::npos) return message;
    std::string list = message.substr(open + 11, close - open - 11);
    std::vector<std::string> tokens, kept;
    for (size_t pos = 0; pos < list.size();) {
        auto comma = list.find(", ", pos);
        tokens.push_back(list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
        pos = comma == std::string::npos ? list.size() : comma + 2;
    }
    bool name = std::find(tokens.begin(), tokens.end(), "IDENT") != tokens.end();
    for (const auto& token : tokens) {
        bool keyword = token.size() > 2 && token.front() == '\'' && std::isalpha((unsigned char)token[1]);
        if (token == "IDENT" || (name && keyword)) continue;
        else if (token == "INT") kept.push_back("a number");
        else if (token == "STRING") kept.push_back("a string");
        else kept.push_back(token);
    }
    if (name) kept.insert(kept.begin(), "a name");
    std::string out;
    for (size_t i = 0; i < kept.size(); ++i) out += (i ? (i + 1 == kept.size() ? " or " : ", ") : "") + kept[i];
    return message.substr(0, open) + "expecting " + out + message.substr(close + 1);
}

std::string readable(std::string message) {
    for (auto pos = message.find("'<EOF>'"); pos != std::string::npos; pos = message.find("'<EOF>'"))
        message.replace(pos, 7, "end of file");
    for (auto pos = message.find("<EOF>"); pos != std::string::npos; pos = message.find("<EOF>"))
        message.replace(pos, 5, "end of file");
    for (std::string prefix : {"mismatched input ", "extraneous input "})
        if (message.rfind(prefix, 0) == 0) message = "unexpected " + message.substr(prefix.size());
    if (auto pos = message.find(" expecting "); pos != std::string::npos) message.insert(pos, ",");
    for (auto [token, words] : {std::pair{"expecting STRING", "expecting a string"},
                                std::pair{"expecting INT", "expecting a number"},
                                std::pair{"expecting IDENT", "expecting a name"}})
        if (message.size() >= std::strlen(token) && message.compare(message.size() - std::strlen(token), std::string::npos, token) == 0)
            message = message.substr(0, message.size() - std::strlen(token)) + words;
    return simplifyExpected(message);
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
        diags_.error(file_, origin_.at(line, col, length), readable(message));
        ++count_;
    }
    int count() const { return count_; }

    void report(antlr4::Token* at, const std::string& message) {
        diags_.error(file_, origin_.at(at->getLine(), at->getCharPositionInLine(), at->getText().size()), message);
        ++count_;
    }
    void reportAt(size_t line, size_t col, const std::string& message) {
        diags_.error(file_, origin_.at(line, col, 1), message);
        ++count_;
    }

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
    AstBuilder(TextOrigin origin, const std::string& file, DiagnosticEngine& diags)
        : origin_(origin), file_(file), diags_(diags) {}
    // Numbers that were rejected while building (the AST is then discarded).
    int errors() const { return errors_; }

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

    // A number other than an exponent: at most kMaxNumber (every bound of the
    // language is far below); larger ones are an error here, so the lowering
    // pass never sees a clamped value.
    static constexpr int kMaxNumber = 999999999;
    int toInt(antlr4::Token* token) {
        std::string digits = token->getText();
        size_t first = digits.find_first_not_of('0');
        if (first == std::string::npos) return 0;
        if (digits.size() - first > 9) {
            std::string shown = digits.size() > 24 ? digits.substr(0, 12) + "..." + std::to_string(digits.size()) + " digits"
                                                   : digits;
            diags_.error(file_, origin_.at(token->getLine(), token->getCharPositionInLine(), digits.size()),
                         "number " + shown + " is too large (numbers are at most " + std::to_string(kMaxNumber) +
                             "; only exponents may be larger)");
            ++errors_;
            return 0;
        }
        return std::stoi(digits.substr(first));
    }
    int toInt(antlr4::tree::TerminalNode* node) { return toInt(node->getSymbol()); }
    int signedInt(PuzzleParser::SignedIntContext* ctx) {
        int v = toInt(ctx->INT());
        return ctx->children.size() > 1 ? -v : v;
    }
    // An exponent: any size; the lowering pass reduces it modulo the order
    // of the element it applies to.
    static mpz_class bigSignedInt(PuzzleParser::SignedIntContext* ctx) {
        mpz_class v(ctx->INT()->getText(), 10);
        return ctx->children.size() > 1 ? mpz_class(-v) : v;
    }

    ast::PositionRef position(PuzzleParser::PositionContext* ctx) {
        ast::PositionRef p;
        if (ctx->INT()) p.index = toInt(ctx->INT());
        else p.name = ctx->name()->getText();
        p.range = range(ctx);
        return p;
    }
    std::vector<ast::PositionRef> positions(const std::vector<PuzzleParser::PositionContext*>& list) {
        std::vector<ast::PositionRef> out;
        for (auto* p : list) out.push_back(position(p));
        return out;
    }

    ast::Cycle cycle(PuzzleParser::CycleContext* ctx) {
        ast::Cycle c;
        for (auto* e : ctx->cycleElement()) {
            ast::CycleElement el;
            el.position = position(e->position());
            if (e->twist) {
                el.twist = toInt(e->twist);
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
                wrapped.power = bigSignedInt(power->signedInt());
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
            orbit.size = toInt(o->size);
            orbit.sizeRange = origin_.at(o->size->getLine(), o->size->getCharPositionInLine(), o->size->getText().size());
            if (o->modulus) {
                orbit.orientation = toInt(o->modulus);
                orbit.orientationRange = origin_.at(o->modulus->getLine(), o->modulus->getCharPositionInLine(),
                                                    o->modulus->getText().size());
                if (o->ignored && orbit.orientation > 1) {  // note [ignored orientation] (compiler/ir/lower.cpp)
                    orbit.orientationIgnored = orbit.orientation;
                    orbit.orientation = 1;
                }
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
        } else if (auto* io = ctx->ignoredOrientDecl()) {
            ast::IgnoredOrientation ig;
            ig.orbit = name(io->name());
            ig.pieces = positions(io->positionSet()->position());
            ig.range = range(io);
            p.ignoredOrientations.push_back(std::move(ig));
        } else if (auto* il = ctx->illegalDecl()) {
            ast::IllegalPlacement ip;
            ip.orbit = name(il->name());
            ip.position = position(il->position());
            ip.label = {il->label()->getText(), range(il->label())};
            ip.range = range(il);
            p.illegal.push_back(std::move(ip));
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
            if (auto* c = pt->patternCoset()) {
                pattern.coset = name(c->name());
                if (c->exact) {
                    pattern.exact = toInt(c->exact);
                    pattern.exactRange = origin_.at(c->exact->getLine(), c->exact->getCharPositionInLine(),
                                                    c->exact->getText().size());
                }
            }
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
        } else if (auto* ly = ctx->layoutDecl()) {
            layout(ly, p);
        }
    }

    // ---- the layout (presentation only; docs/language.md, Layouts)

    void layout(PuzzleParser::LayoutDeclContext* ctx, ast::Puzzle& p) {
        if (p.layout) {
            diags_.error(file_, range(ctx), "'layout' is given twice (a puzzle has at most one layout)");
            ++errors_;
            return;
        }
        ast::Layout& out = p.layout.emplace();
        out.range = range(ctx);
        for (auto* item : ctx->layoutItem()) {
            if (auto* f = dynamic_cast<PuzzleParser::FaceItemContext*>(item)) {
                std::string colour = f->colour->getText();
                if (colour.front() == '"') colour = unquote(colour);
                out.faces.push_back({name(f->name()), {colour, tokenRange(f->colour)}, range(item)});
                continue;
            }
            ast::LayoutSticker st;
            st.range = range(item);
            if (auto* fx = dynamic_cast<PuzzleParser::FixedItemContext*>(item)) {
                place(fx->layoutPlace(), st);
                st.face = name(fx->face);
                out.fixed.push_back(std::move(st));
            } else if (auto* si = dynamic_cast<PuzzleParser::StickerItemContext*>(item)) {
                st.orbit = name(si->name(0));
                st.position = position(si->position());
                st.slot = toInt(si->slot);
                st.slotRange = tokenRange(si->slot);
                place(si->layoutPlace(), st);
                st.face = name(si->face);
                out.stickers.push_back(std::move(st));
            }
        }
    }
    void place(PuzzleParser::LayoutPlaceContext* ctx, ast::LayoutSticker& st) {
        st.placeRange = range(ctx);
        if (auto* c = dynamic_cast<PuzzleParser::CellPlaceContext*>(ctx)) {
            st.col = toInt(c->col);
            st.row = toInt(c->row);
            return;
        }
        st.cell = false;
        for (auto* c : dynamic_cast<PuzzleParser::PolygonPlaceContext*>(ctx)->coordinate())
            st.polygon.push_back(coordinate(c->getStart()));
    }
    // A polygon coordinate: at most kMaxCoordinate, at most 3 decimals (so
    // that printing it back gives the same number).
    double coordinate(antlr4::Token* token) {
        std::string text = token->getText();
        auto dot = text.find('.');
        if ((dot != std::string::npos && text.size() - dot - 1 > 3) || text.size() > 12 ||
            std::stod(text) > kMaxCoordinate) {
            diags_.error(file_, tokenRange(token), "coordinate " + text + ": expected a number 0.." +
                                                       std::to_string((int)kMaxCoordinate) + " with at most 3 decimals");
            ++errors_;
            return 0;
        }
        return std::stod(text);
    }
    static constexpr double kMaxCoordinate = 1000;

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
    antlrcpp::Any visitSiftSolver(PuzzleParser::SiftSolverContext*) override {
        ast::SolverDef s;
        s.kind = ast::SolverDef::Kind::Sift;
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

    // ---- sliding-block puzzles

    // A string's text: its range starts after the opening quote.
    ast::Name stringText(antlr4::tree::TerminalNode* node) const {
        SourceRange r = range(node);
        std::string text = unquote(node->getText());
        r.col += 1;
        r.endCol = r.col + (text.empty() ? 1 : (int)text.size());
        return {text, r};
    }
    ast::Name label(PuzzleParser::LabelContext* ctx) const { return {ctx->getText(), range(ctx)}; }
    SourceRange tokenRange(antlr4::Token* t) const {
        return origin_.at(t->getLine(), t->getCharPositionInLine(), t->getText().size());
    }
    // An item a definition gives at most once: a second one is an error.
    template <typename T>
    bool once(const std::optional<T>& slot, antlr4::ParserRuleContext* ctx, const char* what) {
        if (!slot) return true;
        diags_.error(file_, range(ctx), std::string("'") + what + "' is given twice");
        ++errors_;
        return false;
    }

    antlrcpp::Any visitBoardDecl(PuzzleParser::BoardDeclContext* ctx) override {
        if (!once(blocks_->board, ctx, "board")) return {};
        blocks_->board.emplace();
        for (auto* s : ctx->STRING()) blocks_->board->push_back(stringText(s));
        blocks_->boardRange = range(ctx);
        return {};
    }
    antlrcpp::Any visitSizeDecl(PuzzleParser::SizeDeclContext* ctx) override {
        if (!once(blocks_->size, ctx, "size")) return {};
        if (ctx->by->getText() != "x") {
            diags_.error(file_, range(ctx->by), "expected 'x' between the width and the height ('size 6 x 6;')");
            ++errors_;
        }
        blocks_->size = ast::BlocksDef::Size{toInt(ctx->width), toInt(ctx->height), range(ctx)};
        return {};
    }
    antlrcpp::Any visitExitDecl(PuzzleParser::ExitDeclContext* ctx) override {
        if (!once(blocks_->exit, ctx, "exit")) return {};
        blocks_->exit = ast::BlocksDef::Exit{name(ctx->side), toInt(ctx->offset), range(ctx)};
        return {};
    }
    antlrcpp::Any visitMetricDecl(PuzzleParser::MetricDeclContext* ctx) override {
        if (once(blocks_->metric, ctx, "metric")) blocks_->metric = name(ctx->name());
        return {};
    }
    antlrcpp::Any visitMovesDecl(PuzzleParser::MovesDeclContext* ctx) override {
        if (once(blocks_->moves, ctx, "moves")) blocks_->moves = name(ctx->name());
        return {};
    }
    antlrcpp::Any visitAxisDecl(PuzzleParser::AxisDeclContext* ctx) override {
        ast::BlocksDef::Axis a;
        if (ctx->piece) a.piece = label(ctx->piece);
        a.axis = name(ctx->axisName);
        a.range = range(ctx);
        blocks_->axes.push_back(std::move(a));
        return {};
    }
    antlrcpp::Any visitStartDecl(PuzzleParser::StartDeclContext* ctx) override {
        if (once(blocks_->start, ctx, "start")) blocks_->start = range(ctx);
        return {};
    }
    antlrcpp::Any visitIdenticalDecl(PuzzleParser::IdenticalDeclContext* ctx) override {
        ast::BlocksDef::Identical id;
        for (auto* l : ctx->label()) id.pieces.push_back(label(l));
        id.range = range(ctx);
        blocks_->identical.push_back(std::move(id));
        return {};
    }
    antlrcpp::Any visitGoalDecl(PuzzleParser::GoalDeclContext* ctx) override {
        if (!once(blocks_->goal, ctx, "goal")) return {};
        ast::BlocksDef::Goal g;
        g.range = range(ctx);
        auto* goal = ctx->blocksGoal();
        if (auto* e = dynamic_cast<PuzzleParser::ExitGoalContext*>(goal)) {
            g.kind = ast::BlocksDef::Goal::Kind::Exit;
            g.exitPiece = label(e->label());
        } else if (auto* pl = dynamic_cast<PuzzleParser::PlaceGoalContext*>(goal)) {
            g.kind = ast::BlocksDef::Goal::Kind::Place;
            for (auto* p : pl->placement())
                g.placements.push_back({label(p->label()), toInt(p->x), toInt(p->y), range(p)});
        }
        blocks_->goal = std::move(g);
        return {};
    }
    antlrcpp::Any visitBlocksSymmetryDecl(PuzzleParser::BlocksSymmetryDeclContext* ctx) override {
        blocks_->symmetries.push_back({name(ctx->name(0)), name(ctx->mapping), range(ctx)});
        return {};
    }
    antlrcpp::Any visitBlocksPatternDecl(PuzzleParser::BlocksPatternDeclContext* ctx) override {
        ast::BlocksDef::Pattern pt;
        pt.name = name(ctx->name());
        for (auto* l : ctx->label()) pt.pieces.push_back(label(l));
        pt.range = range(ctx);
        blocks_->patterns.push_back(std::move(pt));
        return {};
    }
    antlrcpp::Any visitBlocksSolverDecl(PuzzleParser::BlocksSolverDeclContext* ctx) override {
        ast::BlocksDef::Solver sv;
        sv.name = name(ctx->name());
        sv.range = range(ctx);
        for (auto* item : ctx->blocksSolverItem()) blocksSolverItem(item, sv);
        blocks_->solvers.push_back(std::move(sv));
        return {};
    }
    void blocksSolverItem(PuzzleParser::BlocksSolverItemContext* item, ast::BlocksDef::Solver& sv) {
        if (auto* r = dynamic_cast<PuzzleParser::ReflectItemContext*>(item)) {
            if (once(sv.reflect, item, "reflect")) sv.reflect = name(r->name());
            return;
        }
        if (!sv.heuristic.text.empty()) {
            diags_.error(file_, range(item), "solver '" + sv.name.text + "' already has a heuristic ('" +
                                                 sv.heuristic.text + "'); give one of bfs, manhattan and additive");
            ++errors_;
            return;
        }
        antlr4::Token* keyword = item->getStart();
        sv.heuristic = {keyword->getText(), tokenRange(keyword)};
        if (auto* m = dynamic_cast<PuzzleParser::ManhattanItemContext*>(item)) sv.conflicts = m->withConflicts != nullptr;
        if (auto* a = dynamic_cast<PuzzleParser::AdditiveItemContext*>(item))
            for (auto* n : a->name()) sv.patterns.push_back(name(n));
    }
    antlrcpp::Any visitBlocksLevelsDecl(PuzzleParser::BlocksLevelsDeclContext* ctx) override {
        for (auto* s : ctx->STRING()) blocks_->levels.push_back({unquote(s->getText()), range(s)});
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
        } else if (auto* blocks = ctx->blocksPuzzle()) {
            p.kind = ast::Puzzle::Kind::Blocks;
            p.name = name(blocks->name());
            blocks_ = &p.blocks;
            for (auto* it : blocks->blocksItem()) visit(it);
            blocks_ = nullptr;
            p.blocks.range = range(blocks);
            p.range = range(blocks);
        }
        return p;
    }

private:
    TextOrigin origin_;
    std::string file_;
    DiagnosticEngine& diags_;
    int errors_ = 0;
    ast::GridDef* grid_ = nullptr;
    ast::BlocksDef* blocks_ = nullptr;
};

// Owns the ANTLR pipeline for one piece of text.
// Bounds on nesting that keep the recursive-descent parser and the passes
// after it (all recursive over expressions) far from the stack limit.
constexpr int kMaxNesting = 200;
constexpr int kMaxSuffixRun = 200;

// Returns the byte offset of the first invalid UTF-8 sequence, or npos.
// ANTLR's input stream throws on invalid UTF-8, so it is checked first.
size_t invalidUtf8(const std::string& text) {
    size_t i = 0, n = text.size();
    while (i < n) {
        unsigned char c = text[i];
        int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xe ? 2 : (c >> 3) == 0x1e ? 3 : -1;
        if (extra < 0 || (c == 0xc0 || c == 0xc1) || c > 0xf4) return i;
        if (extra > 0 && i + extra >= n) return i;
        unsigned cp = extra == 0 ? c : c & (0x3f >> extra);
        for (int k = 1; k <= extra; ++k) {
            unsigned char d = text[i + k];
            if ((d >> 6) != 0x2) return i;
            cp = (cp << 6) | (d & 0x3f);
        }
        if ((extra == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (extra == 3 && (cp < 0x10000 || cp > 0x10ffff)))
            return i;
        i += extra + 1;
    }
    return std::string::npos;
}

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

    // Lexes everything and rejects input nested too deeply to parse safely.
    bool tooDeep() {
        tokens.fill();
        int depth = 0, suffixRun = 0;
        for (auto* t : tokens.getTokens()) {
            std::string text = t->getText();
            if (text == "(" || text == "[" || text == "{" || text == "<") {
                if (++depth > kMaxNesting) {
                    listener.report(t, "nesting deeper than " + std::to_string(kMaxNesting) + " levels");
                    return true;
                }
            } else if (text == ")" || text == "]" || text == "}" || text == ">") {
                --depth;
            }
            // A run of ' and ^n suffixes nests the expression; numbers and
            // signs neither count nor end a run.
            if (t->getType() == PuzzleLexer::PRIME || text == "^") ++suffixRun;
            else if (t->getType() != PuzzleLexer::INT && text != "-") suffixRun = 0;
            if (suffixRun > kMaxSuffixRun) {
                listener.report(t, "more than " + std::to_string(kMaxSuffixRun) + " suffixes in a row");
                return true;
            }
        }
        return false;
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

// Builds a session for `text`, or reports why the text cannot be parsed.
std::unique_ptr<ParseSession> openSession(const std::string& file, const std::string& text, TextOrigin origin,
                                          DiagnosticEngine& diags) {
    if (!checkUtf8(file, text, SourceRange::at(origin.line, origin.col), diags)) return nullptr;
    auto session = std::make_unique<ParseSession>(file, text, origin, diags);
    if (session->tooDeep()) return nullptr;
    return session;
}


}  // namespace

bool checkUtf8(const std::string& file, const std::string& text, SourceRange origin, DiagnosticEngine& diags) {
    size_t bad = invalidUtf8(text);
    if (bad == std::string::npos) return true;
    size_t line = 1 + std::count(text.begin(), text.begin() + bad, '\n');
    size_t lineStart = text.rfind('\n', bad);
    size_t col = bad - (lineStart == std::string::npos ? 0 : lineStart + 1);
    DiagnosticListener(file, originOf(origin), diags).reportAt(line, col, "invalid UTF-8 byte");
    return false;
}

std::optional<ast::Puzzle> parsePzText(const std::string& file, const std::string& text, DiagnosticEngine& diags) {
    if (!diags.sourceText(file)) diags.addSource(file, text);
    auto session = openSession(file, text, {}, diags);
    if (!session) return std::nullopt;
    auto* tree = session->parser.file();
    if (session->listener.count() > 0) return std::nullopt;
    AstBuilder builder({}, file, diags);
    auto puzzle = builder.puzzle(tree, file);
    if (builder.errors()) return std::nullopt;
    return puzzle;
}

std::optional<ast::Expr> parseExpressionText(const std::string& file, const std::string& text, SourceRange origin,
                                             DiagnosticEngine& diags) {
    auto session = openSession(file, text, originOf(origin), diags);
    if (!session) return std::nullopt;
    auto* tree = session->parser.expressionOnly();
    if (session->listener.count() > 0) return std::nullopt;
    AstBuilder builder(originOf(origin), file, diags);
    if (tree->expr()) {
        auto e = builder.expr(tree->expr());
        if (builder.errors()) return std::nullopt;
        return e;
    }
    ast::Expr identity;
    identity.range = origin;
    return identity;
}

std::optional<std::vector<ast::Cycle>> parseCyclesText(const std::string& file, const std::string& text,
                                                       SourceRange origin, DiagnosticEngine& diags) {
    auto session = openSession(file, text, originOf(origin), diags);
    if (!session) return std::nullopt;
    auto* tree = session->parser.cyclesOnly();
    if (session->listener.count() > 0) return std::nullopt;
    AstBuilder builder(originOf(origin), file, diags);
    std::vector<ast::Cycle> out;
    for (auto* c : tree->cycle()) out.push_back(builder.cycle(c));
    if (builder.errors()) return std::nullopt;
    return out;
}

std::optional<std::vector<ast::Expr>> parseGeneratorsText(const std::string& file, const std::string& text,
                                                          SourceRange origin, DiagnosticEngine& diags) {
    auto session = openSession(file, text, originOf(origin), diags);
    if (!session) return std::nullopt;
    auto* tree = session->parser.generatorsOnly();
    if (session->listener.count() > 0) return std::nullopt;
    AstBuilder builder(originOf(origin), file, diags);
    auto out = builder.generators(tree->expr());
    if (builder.errors()) return std::nullopt;
    return out;
}

std::optional<std::vector<ast::PositionRef>> parsePositionsText(const std::string& file, const std::string& text,
                                                                SourceRange origin, DiagnosticEngine& diags) {
    auto session = openSession(file, text, originOf(origin), diags);
    if (!session) return std::nullopt;
    auto* tree = session->parser.positionSetOnly();
    if (session->listener.count() > 0) return std::nullopt;
    AstBuilder builder(originOf(origin), file, diags);
    auto out = builder.positions(tree->position());
    if (builder.errors()) return std::nullopt;
    return out;
}

}  // namespace pz
