#include "compiler/ir/blocks_level_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "compiler/ir/blocks_shapes.hpp"
#include "dsl/text_parsers.hpp"

namespace pz {
namespace {

using ir::BlockCell;

struct Line {
    int number;  // 1-based
    std::string text;
};

struct Token {
    std::string text;
    int col;  // 1-based
};

std::vector<Token> splitTokens(const std::string& s, bool commas = false) {
    std::vector<Token> tokens;
    auto sep = [&](char c) { return c == ' ' || c == '\t' || c == '\r' || (commas && c == ','); };
    for (size_t i = 0; i < s.size();) {
        if (sep(s[i])) {
            ++i;
            continue;
        }
        size_t start = i;
        while (i < s.size() && !sep(s[i])) ++i;
        tokens.push_back({s.substr(start, i - start), (int)start + 1});
    }
    return tokens;
}

// The lines that hold something, trailing blanks and \r removed.
std::vector<Line> contentLines(const std::string& text) {
    std::vector<Line> lines;
    int number = 1;
    for (size_t pos = 0; pos <= text.size(); ++number) {
        size_t end = text.find('\n', pos);
        std::string s = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
        if (!splitTokens(s).empty()) lines.push_back({number, s});
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return lines;
}

bool allDigits(const std::string& s) {
    return !s.empty() && s.size() <= 12 && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit((unsigned char)c); });
}

std::string quoteChar(char c) {
    if ((unsigned char)c < 32 || (unsigned char)c >= 127) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", (unsigned char)c);
        return std::string("'") + buf + "'";
    }
    return std::string("'") + c + "'";
}

std::string cellText(BlockCell c) { return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")"; }

struct LevelCell {
    enum class Kind { Empty, Wall, Piece } kind = Kind::Empty;
    std::string name;
    SourceRange where;
};

// One level as read, before its pieces are checked.
struct RawLevel {
    std::string name;
    SourceRange where;  // its first line
    std::vector<LevelCell> cells;  // [y * width + x]
    std::optional<long> moves, states;
    bool broken = false;  // its text had errors: its pieces are not checked (no cascades)
};

class LevelReader {
public:
    LevelReader(const std::string& file, const ir::BlockRules& rules, DiagnosticEngine& diags)
        : file_(file), rules_(rules), diags_(diags), cells_(rules.width * rules.height) {}

    std::optional<std::vector<ir::BlockLayout>> read(const std::string& text) {
        auto lines = contentLines(text);
        const std::string stem = std::filesystem::path(file_).stem().string();
        if (lines.empty()) {
            error(SourceRange::at(1, 1), "the level file is empty; expected a board of " + dims());
            return std::nullopt;
        }
        std::vector<RawLevel> raw;
        auto first = splitTokens(lines[0].text);
        const bool database = (first.size() == 2 || first.size() == 3) && allDigits(first[0].text) &&
                              (int)first[1].text.size() > rules_.width;
        const bool oneString = first.size() == 1 && rules_.height > 1 && (int)first[0].text.size() > rules_.width;
        if (database || oneString) {
            for (const auto& line : lines) raw.push_back(stringLine(line));
            if (raw.size() > 1)
                for (size_t i = 0; i < raw.size(); ++i) raw[i].name = stem + ":" + std::to_string(lines[i].number);
        } else {
            bool chars = first.size() == 1 && rules_.width > 1;
            raw.push_back(chars ? charRows(lines) : tokenRows(lines));
        }
        if (raw.size() == 1) raw[0].name = stem;
        std::vector<ir::BlockLayout> out;
        for (const auto& r : raw)
            if (!r.broken)
                if (auto layout = build(r)) out.push_back(std::move(*layout));
        if (diags_.errorCount() > errorsBefore_) return std::nullopt;
        return out;
    }

    // ---- the formats

    // (a) `[moves] BOARD [cluster-size]` or BOARD alone.
    RawLevel stringLine(const Line& line) {
        const int before = diags_.errorCount();
        RawLevel level = stringLineCells(line);
        level.broken = diags_.errorCount() > before;
        return level;
    }
    RawLevel stringLineCells(const Line& line) {
        RawLevel level;
        level.where = SourceRange::at(line.number, 1, (int)line.text.size());
        level.cells = cells_;
        auto tokens = splitTokens(line.text);
        size_t board = tokens.size() >= 2 && allDigits(tokens[0].text) ? 1 : 0;
        if (board == 1) level.moves = std::stol(tokens[0].text);
        if (tokens.size() > board + 2 || (tokens.size() == board + 2 && !allDigits(tokens[board + 1].text))) {
            const Token& t = tokens[std::min(tokens.size() - 1, board + 1)];
            error(SourceRange::at(line.number, t.col, (int)t.text.size()),
                  "expected a database line 'moves board cluster-size' (e.g. '60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM "
                  "2332'), or the board alone");
        } else if (tokens.size() == board + 2) {
            level.states = std::stol(tokens[board + 1].text);
        }
        const Token& t = tokens[board];
        const int n = rules_.width * rules_.height;
        if ((int)t.text.size() != n) {
            error(SourceRange::at(line.number, t.col, (int)t.text.size()),
                  "board string has " + std::to_string(t.text.size()) + " characters; a " + dims() + " board has " +
                      std::to_string(n) + " (row by row)");
            return level;
        }
        for (int i = 0; i < n; ++i) charCell(t.text[i], SourceRange::at(line.number, t.col + i), level.cells[i]);
        return level;
    }

    // (b) `height` rows of `width` characters.
    RawLevel charRows(const std::vector<Line>& lines) {
        const int before = diags_.errorCount();
        RawLevel level = charRowCells(lines);
        level.broken = diags_.errorCount() > before;
        return level;
    }
    RawLevel charRowCells(const std::vector<Line>& lines) {
        RawLevel level;
        level.where = SourceRange::at(lines[0].number, 1);
        level.cells = cells_;
        if (!rowCount(lines)) return level;
        for (int y = 0; y < rules_.height; ++y) {
            const Line& line = lines[y];
            if ((int)line.text.size() != rules_.width) {
                error(SourceRange::at(line.number, 1, (int)line.text.size()),
                      "row has " + std::to_string(line.text.size()) + " characters; the board is " +
                          std::to_string(rules_.width) + " wide");
                continue;
            }
            for (int x = 0; x < rules_.width; ++x)
                if (!charCell(line.text[x], SourceRange::at(line.number, x + 1), level.cells[y * rules_.width + x]))
                    break;  // one per row: a garbage row is one error
        }
        return level;
    }

    // (c) `height` rows of `width` tokens.
    RawLevel tokenRows(const std::vector<Line>& lines) {
        const int before = diags_.errorCount();
        RawLevel level = tokenRowCells(lines);
        level.broken = diags_.errorCount() > before;
        return level;
    }
    RawLevel tokenRowCells(const std::vector<Line>& lines) {
        RawLevel level;
        level.where = SourceRange::at(lines[0].number, 1);
        level.cells = cells_;
        if (!rowCount(lines)) return level;
        for (int y = 0; y < rules_.height; ++y) {
            const Line& line = lines[y];
            auto tokens = splitTokens(line.text);
            if ((int)tokens.size() != rules_.width) {
                error(SourceRange::at(line.number, 1, (int)line.text.size()),
                      "row has " + std::to_string(tokens.size()) + " cells; the board is " + std::to_string(rules_.width) +
                          " wide");
                continue;
            }
            for (int x = 0; x < rules_.width; ++x) {
                const Token& t = tokens[x];
                LevelCell& cell = level.cells[y * rules_.width + x];
                cell.where = SourceRange::at(line.number, t.col, (int)t.text.size());
                if (t.text == ".") continue;
                if (t.text == "#") {
                    cell.kind = LevelCell::Kind::Wall;
                    continue;
                }
                bool ident = std::isalpha((unsigned char)t.text[0]) || t.text[0] == '_';
                for (char c : t.text) ident = ident && (std::isalnum((unsigned char)c) || c == '_');
                if (!ident && !allDigits(t.text)) {
                    error(cell.where, "level token '" + t.text + "' is not '.' (empty), '#' (wall), a name or a number");
                    continue;
                }
                cell.kind = LevelCell::Kind::Piece;
                cell.name = t.text;
            }
        }
        return level;
    }

    bool rowCount(const std::vector<Line>& lines) {
        if ((int)lines.size() == rules_.height) return true;
        const Line& at = (int)lines.size() > rules_.height ? lines[rules_.height] : lines.back();
        error(SourceRange::at(at.number, 1, (int)at.text.size()),
              "the level has " + std::to_string(lines.size()) + " rows; the board is " + dims() + " (" +
                  std::to_string(rules_.height) + " rows)");
        return false;
    }

    bool charCell(char c, SourceRange where, LevelCell& cell) {
        cell.where = where;
        if (c == 'o' || c == '.') return true;
        if (c == 'x') {
            cell.kind = LevelCell::Kind::Wall;
            return true;
        }
        if (c >= 'A' && c <= 'Z') {
            cell.kind = LevelCell::Kind::Piece;
            cell.name = std::string(1, c);
            return true;
        }
        error(where, "unknown character " + quoteChar(c) + "; expected 'o' or '.' (empty), 'x' (wall) or a letter A..Z");
        return false;
    }

    // ---- the pieces

    std::optional<ir::BlockLayout> build(const RawLevel& raw) {
        const int before = diags_.errorCount();
        ir::BlockLayout layout;
        layout.name = raw.name;
        layout.file = file_;
        layout.expectedMoves = raw.moves;
        layout.expectedStates = raw.states;
        layout.wall = rules_.wall;
        std::map<std::string, std::vector<const LevelCell*>> cellsOf;
        std::map<std::string, std::vector<BlockCell>> at;
        std::vector<std::string> order;
        for (int y = 0; y < rules_.height; ++y)
            for (int x = 0; x < rules_.width; ++x) {
                const size_t i = (size_t)y * rules_.width + x;
                const LevelCell& cell = raw.cells[i];
                if (cell.kind == LevelCell::Kind::Wall) {
                    layout.wall[i] = true;
                    continue;
                }
                if (rules_.wall[i] && cell.kind != LevelCell::Kind::Piece) continue;
                if (rules_.wall[i])
                    error(cell.where, "piece '" + cell.name + "' on the wall at " + cellText({x, y}) +
                                          " of the definition's board");
                if (cell.kind == LevelCell::Kind::Empty) {
                    ++layout.empties;
                    continue;
                }
                if (!at.count(cell.name)) order.push_back(cell.name);
                cellsOf[cell.name].push_back(&cell);
                at[cell.name].push_back({x, y});
            }
        std::vector<std::vector<BlockCell>> shapes;
        for (const auto& name : order) {
            auto parts = ir::blockComponents(at[name]);
            if (parts.size() > 1) {
                BlockCell stray = parts[1][0];
                for (size_t k = 0; k < at[name].size(); ++k)
                    if (at[name][k] == stray)
                        error(cellsOf[name][k]->where, "piece '" + name + "' is not connected: its cell " +
                                                           cellText(stray) + " does not touch its cell " +
                                                           cellText(parts[0][0]) + " side by side");
            }
            auto [anchor, shape] = ir::normaliseBlock(at[name]);
            layout.pieces.push_back({name, 0, anchor});
            shapes.push_back(shape);
        }
        if (diags_.errorCount() > before) return std::nullopt;  // the shapes are wrong: no cascades
        if (rules_.board) boardTypes(raw, layout, shapes, cellsOf);
        else ownTypes(layout, shapes, cellsOf);
        checkRules(raw, layout, shapes);
        if (diags_.errorCount() > before) return std::nullopt;
        return layout;
    }

    using CellsOf = std::map<std::string, std::vector<const LevelCell*>>;

    // A definition with a board: the level holds its pieces, shapes unchanged.
    void boardTypes(const RawLevel& raw, ir::BlockLayout& layout, const std::vector<std::vector<BlockCell>>& shapes,
                    CellsOf& cellsOf) {
        const auto& board = *rules_.board;
        layout.types = rules_.types;
        std::set<std::string> present;
        for (size_t i = 0; i < layout.pieces.size(); ++i) {
            auto& p = layout.pieces[i];
            present.insert(p.name);
            auto it = std::find_if(board.pieces.begin(), board.pieces.end(),
                                   [&](const ir::BlockPiece& b) { return b.name == p.name; });
            if (it == board.pieces.end()) {
                error(cellsOf[p.name][0]->where, "piece '" + p.name + "' is not on the definition's board");
                continue;
            }
            p.type = it->type;
            if (shapes[i] != rules_.types[p.type].shape)
                error(cellsOf[p.name][0]->where, "piece '" + p.name + "' is " + ir::extentText(shapes[i]) +
                                                     " here but " + ir::extentText(rules_.types[p.type].shape) +
                                                     " (another shape) on the definition's board");
        }
        for (const auto& b : board.pieces)
            if (!present.count(b.name)) error(raw.where, "the level lacks piece '" + b.name + "' of the definition's board");
    }

    // A definition without a board: each piece its own type, with its axis.
    void ownTypes(ir::BlockLayout& layout, const std::vector<std::vector<BlockCell>>& shapes, CellsOf& cellsOf) {
        using R = ir::BlockRules::AxisRule;
        for (size_t i = 0; i < layout.pieces.size(); ++i) {
            auto& p = layout.pieces[i];
            const SourceRange where = cellsOf[p.name][0]->where;
            ir::BlockType type{p.name, shapes[i], ir::BlockAxis::Any};
            auto [w, h] = ir::blockExtent(shapes[i]);
            auto own = std::find_if(rules_.pieceAxes.begin(), rules_.pieceAxes.end(),
                                    [&](const auto& a) { return a.first == p.name; });
            if (own != rules_.pieceAxes.end()) {
                if (w == h) error(where, "'axis " + p.name + "' on a piece of a square shape (" + ir::extentText(shapes[i]) + ")");
                type.axis = own->second;
            } else if (rules_.axisRule == R::Long) {
                if (!ir::isLineShape(shapes[i]))
                    error(where, "car '" + p.name + "' is neither horizontal nor vertical: it is " +
                                     ir::extentText(shapes[i]) + " (with 'axis long' a piece is 1 x k or k x 1, k >= 2)");
                type.axis = w > h ? ir::BlockAxis::Horizontal : ir::BlockAxis::Vertical;
            } else if (rules_.axisRule != R::None) {
                type.axis = rules_.axisRule == R::Horizontal ? ir::BlockAxis::Horizontal : ir::BlockAxis::Vertical;
            }
            p.type = (int)layout.types.size();
            layout.types.push_back(std::move(type));
        }
    }

    // The goal's pieces and `moves blank`.
    void checkRules(const RawLevel& raw, const ir::BlockLayout& layout, const std::vector<std::vector<BlockCell>>& shapes) {
        auto find = [&](const std::string& name) -> int {
            for (size_t i = 0; i < layout.pieces.size(); ++i)
                if (layout.pieces[i].name == name) return (int)i;
            return -1;
        };
        const auto& goal = rules_.goal;
        if (rules_.exit) {
            BlockCell inside = ir::exitCell(*rules_.exit, rules_.width, rules_.height);
            inside.x = std::clamp(inside.x, 0, rules_.width - 1);
            inside.y = std::clamp(inside.y, 0, rules_.height - 1);
            if (layout.wall[(size_t)inside.y * rules_.width + inside.x])
                error(raw.where, "the level's wall at " + cellText(inside) + " blocks the exit (" +
                                     ir::sideName(rules_.exit->side) + " " + std::to_string(rules_.exit->offset) + ")");
        }
        if (goal.kind == ir::BlockGoal::Kind::Exit) {
            int p = find(goal.exitPiece);
            if (p < 0) error(raw.where, "the level has no goal piece '" + goal.exitPiece + "'");
            else if (rules_.exit) exitReachable(raw, layout.pieces[p], shapes[p]);
        }
        if (goal.kind == ir::BlockGoal::Kind::Place)
            for (const auto& pl : goal.placements)
                if (find(pl.piece) < 0) error(raw.where, "the level has no goal piece '" + pl.piece + "'");
        if (rules_.moveNames != ir::BlockRules::MoveNames::Blank) return;
        if (layout.empties != 1)
            error(raw.where, "'moves blank' needs exactly one empty cell; the level has " + std::to_string(layout.empties));
        for (size_t i = 0; i < shapes.size(); ++i)
            if (shapes[i].size() != 1) {
                error(raw.where, "'moves blank' needs every piece 1 x 1; piece '" + layout.pieces[i].name + "' is " +
                                     ir::extentText(shapes[i]));
                break;
            }
    }

    void exitReachable(const RawLevel& raw, const ir::BlockPiece& piece, const std::vector<BlockCell>& shape) {
        using S = ir::BlockRules::Exit::Side;
        const auto& exit = *rules_.exit;
        const bool rows = exit.side == S::Left || exit.side == S::Right;
        bool spans = false;
        for (const auto& c : shape) spans = spans || (rows ? piece.anchor.y + c.y : piece.anchor.x + c.x) == exit.offset;
        if (!spans)
            error(raw.where, "goal piece '" + piece.name + "' is not in " + (rows ? "row " : "column ") +
                                 std::to_string(exit.offset) + ", so it can never reach the exit on the " +
                                 ir::sideName(exit.side));
    }

private:
    void error(SourceRange where, std::string message) { diags_.error(file_, where, std::move(message)); }
    std::string dims() const { return std::to_string(rules_.width) + " x " + std::to_string(rules_.height); }

    std::string file_;
    const ir::BlockRules& rules_;
    DiagnosticEngine& diags_;
    std::vector<LevelCell> cells_;  // an empty board
    int errorsBefore_ = diags_.errorCount();
};

// Text only: UTF-8 without control bytes other than tab and line ends.
bool plainText(const std::string& file, const std::string& text, DiagnosticEngine& diags) {
    if (!checkUtf8(file, text, SourceRange{}, diags)) return false;
    for (size_t i = 0; i < text.size(); ++i) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
            size_t lineStart = text.rfind('\n', i);
            int col = (int)(i - (lineStart == std::string::npos ? 0 : lineStart + 1)) + 1;
            int line = 1 + (int)std::count(text.begin(), text.begin() + i, '\n');
            diags.error(file, SourceRange::at(line, col), "control character " + quoteChar((char)c) + " in a level file");
            return false;
        }
    }
    return true;
}

}  // namespace

std::optional<std::vector<ir::BlockLayout>> parseBlockLevelText(const std::string& file, const std::string& text,
                                                                const ir::BlockRules& rules, DiagnosticEngine& diags) {
    if (!diags.sourceText(file)) diags.addSource(file, text);
    if (!plainText(file, text, diags)) return std::nullopt;
    if (rules.width < 1 || rules.height < 1 || (int)rules.wall.size() != rules.width * rules.height) {
        diags.error(file, SourceRange{}, "the definition has no board size to read levels with");
        return std::nullopt;
    }
    return LevelReader(file, rules, diags).read(text);
}

std::optional<std::vector<ir::BlockLayout>> readBlockLevelFile(const std::string& path, const ir::BlockRules& rules,
                                                               DiagnosticEngine& diags) {
    std::string text;
    if (!readFile(path, text, diags, /*bounded=*/true)) return std::nullopt;
    diags.addSource(path, text);
    return parseBlockLevelText(path, text, rules, diags);
}

std::optional<ir::BlockLayout> parseBlockState(const std::string& text, const ir::BlockRules& rules,
                                               const std::string& what, DiagnosticEngine& diags) {
    if (!diags.sourceText(what)) diags.addSource(what, text);
    const int before = diags.errorCount();
    if (!rules.board) {
        diags.error(what, SourceRange{}, "a state string needs the definition's board (its tiles)");
        return std::nullopt;
    }
    const auto& board = *rules.board;
    for (const auto& p : board.pieces)
        if (rules.types[p.type].shape.size() != 1) {
            diags.error(what, SourceRange{}, "a state string is for boards of 1 x 1 tiles; piece '" + p.name + "' is " +
                                                 ir::extentText(rules.types[p.type].shape));
            return std::nullopt;
        }
    // The tokens with their places (the text may span lines).
    std::vector<std::pair<std::string, SourceRange>> tokens;
    int lineNo = 1;
    for (size_t pos = 0; pos <= text.size(); ++lineNo) {
        size_t end = text.find('\n', pos);
        std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        for (const auto& t : splitTokens(line, /*commas=*/true))
            tokens.push_back({t.text, SourceRange::at(lineNo, t.col, (int)t.text.size())});
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    std::vector<int> open;  // the cells that are not walls, row by row
    for (int i = 0; i < rules.width * rules.height; ++i)
        if (!rules.wall[i]) open.push_back(i);
    if (tokens.size() != open.size()) {
        diags.error(what, tokens.empty() ? SourceRange::at(1, 1) : tokens.back().second,
                    "the state has " + std::to_string(tokens.size()) + " cells; the board has " +
                        std::to_string(open.size()) + " (row by row, 0 for the blank)");
        return std::nullopt;
    }
    ir::BlockLayout layout;
    layout.name = what;
    layout.file = what;
    layout.types = rules.types;
    layout.wall = rules.wall;
    std::map<std::string, SourceRange> seen;
    for (size_t i = 0; i < tokens.size(); ++i) {
        const std::string& name = tokens[i].first;  // not a structured binding: the lambda below captures it
        const SourceRange& where = tokens[i].second;
        BlockCell cell{open[i] % rules.width, open[i] / rules.width};
        if (name == "0" || name == ".") {
            ++layout.empties;
            continue;
        }
        auto it = std::find_if(board.pieces.begin(), board.pieces.end(), [&](const ir::BlockPiece& p) { return p.name == name; });
        if (it == board.pieces.end()) {
            diags.error(what, where, "unknown tile '" + name + "': the board has no such piece");
            continue;
        }
        if (!seen.emplace(name, where).second) {
            diags.error(what, where, "tile '" + name + "' is given twice");
            continue;
        }
        layout.pieces.push_back({name, it->type, cell});
    }
    for (const auto& p : board.pieces)
        if (!seen.count(p.name))
            diags.error(what, SourceRange::at(1, 1), "tile '" + p.name + "' is missing from the state");
    if (diags.errorCount() == before && layout.empties != board.empties)
        diags.error(what, SourceRange::at(1, 1), "the state has " + std::to_string(layout.empties) +
                                                     " blanks; the board has " + std::to_string(board.empties));
    if (diags.errorCount() > before) return std::nullopt;
    return layout;
}

}  // namespace pz
