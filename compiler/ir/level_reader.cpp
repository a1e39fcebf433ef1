#include "compiler/ir/level_reader.hpp"

#include "dsl/text_parsers.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <vector>

namespace pz {

namespace {

struct Line {
    int number;  // 1-based
    std::string text;
};

std::vector<Line> splitLines(const std::string& text) {
    std::vector<Line> lines;
    size_t pos = 0;
    int number = 1;
    while (pos <= text.size()) {
        size_t end = text.find('\n', pos);
        std::string s = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        if (!s.empty() && s.back() == '\r') s.pop_back();
        lines.push_back({number++, s});
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    // A final newline does not start a line of its own.
    if (lines.size() > 1 && lines.back().text.empty() && !text.empty() && text.back() == '\n')
        lines.pop_back();
    return lines;
}

struct Token {
    std::string text;
    int col;  // 1-based
};

std::vector<Token> splitTokens(const std::string& s) {
    std::vector<Token> tokens;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        if (i == s.size()) break;
        size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        tokens.push_back({s.substr(start, i - start), (int)start + 1});
    }
    return tokens;
}

std::optional<int> parseInt(const std::string& s) {
    if (s.empty() || s.size() > 9) return std::nullopt;
    size_t i = s[0] == '-' ? 1 : 0;
    if (i == s.size()) return std::nullopt;
    int v = 0;
    for (; i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') return std::nullopt;
        v = v * 10 + (s[i] - '0');
    }
    return s[0] == '-' ? -v : v;
}

int colourOfActorChar(const ir::GridRules& rules, char c) {
    for (size_t i = 0; i < rules.colours.size(); ++i)
        if (rules.colours[i].actorChar == c) return (int)i;
    return -1;
}

int colourOfGoalChar(const ir::GridRules& rules, char c) {
    for (size_t i = 0; i < rules.colours.size(); ++i)
        if (rules.colours[i].goalChar == c) return (int)i;
    return -1;
}

// A grid row that starts like "R 1 2" is an actor line: the blank line is missing.
bool looksLikeActorLine(const ir::GridRules& rules, const std::string& s) {
    auto tokens = splitTokens(s);
    return tokens.size() >= 3 && tokens[0].col == 1 && tokens[0].text.size() == 1 &&
           colourOfActorChar(rules, tokens[0].text[0]) >= 0 && parseInt(tokens[1].text) &&
           parseInt(tokens[2].text);
}

std::string quoteChar(char c) {
    if ((unsigned char)c < 32 || (unsigned char)c >= 127) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", (unsigned char)c);
        return std::string("'") + buf + "'";
    }
    return std::string("'") + c + "'";
}

std::string expectedActorChars(const ir::GridRules& rules) {
    std::string r;
    for (size_t i = 0; i < rules.colours.size(); ++i) {
        if (i) r += i + 1 == rules.colours.size() ? " or " : ", ";
        r += std::string(1, rules.colours[i].actorChar);
    }
    return r;
}

}  // namespace

std::optional<ir::Level> parseLevelText(const std::string& file, const std::string& text,
                                        const ir::GridRules& rules, DiagnosticEngine& diags) {
    const int errorsBefore = diags.errorCount();
    ir::Level level;
    level.file = file;
    level.name = std::filesystem::path(file).stem().string();
    // Text only: UTF-8 without control bytes (other than tab and line ends).
    // The first bad byte is reported, nothing else.
    if (!checkUtf8(file, text, SourceRange{}, diags)) return std::nullopt;
    for (size_t i = 0; i < text.size(); ++i) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
            size_t lineStart = text.rfind('\n', i);
            int col = (int)(i - (lineStart == std::string::npos ? 0 : lineStart + 1)) + 1;
            int line = 1 + (int)std::count(text.begin(), text.begin() + i, '\n');
            diags.error(file, SourceRange::at(line, col), "control character " + quoteChar((char)c) + " in a level file");
            return std::nullopt;
        }
    }
    auto lines = splitLines(text);

    // ---- the grid: every line up to the first empty one ----
    size_t next = 0;
    std::vector<const Line*> rows;
    bool blankFound = false;
    for (; next < lines.size(); ++next) {
        const Line& line = lines[next];
        if (line.text.empty()) {
            blankFound = true;
            ++next;
            break;
        }
        if (!rows.empty() && looksLikeActorLine(rules, line.text)) {
            diags.error(file, SourceRange::at(line.number, 1),
                        "expected an empty line between the grid and the actors");
            break;
        }
        rows.push_back(&line);
    }
    if (rows.empty()) {
        diags.error(file, SourceRange::at(1, 1), "expected the level's grid on the first line");
        return std::nullopt;
    }
    if (!blankFound && next >= lines.size()) {
        const Line& last = lines.back();
        diags.error(file, SourceRange::at(last.number, (int)last.text.size() + 1),
                    "expected an empty line and the actors after the grid");
    }

    level.width = (int)rows[0]->text.size();
    level.height = (int)rows.size();
    level.floor.assign((size_t)level.width * level.height, false);
    for (size_t r = 0; r < rows.size(); ++r) {
        const Line& line = *rows[r];
        const int y = level.height - 1 - (int)r;
        if ((int)line.text.size() != level.width) {
            int len = (int)line.text.size();
            diags.error(file, SourceRange::at(line.number, 1, len),
                        "row has " + std::to_string(len) + " columns but the first row has " +
                            std::to_string(level.width) + "; rows must be equally long");
        }
        for (int x = 0; x < (int)line.text.size(); ++x) {
            char c = line.text[x];
            if (c == ' ') continue;
            int goal = colourOfGoalChar(rules, c);
            if (c != '.' && goal < 0) {
                std::string expected = "'.' (floor), ' ' (wall)";
                for (const auto& colour : rules.colours)
                    expected += std::string(", '") + colour.goalChar + "' (" + colour.name + " goal)";
                diags.error(file, SourceRange::at(line.number, x + 1),
                            "unknown character " + quoteChar(c) + " in the grid; expected " + expected);
                break;  // one per row: a garbage row is one error, not one per byte
            }
            if (x >= level.width) continue;
            level.floor[(size_t)y * level.width + x] = true;
            if (goal >= 0) level.goals.push_back({goal, x, y});
        }
    }

    // ---- the actors: one per line, "C x y [ignored...]" ----
    std::map<std::pair<int, int>, SourceRange> occupied;
    for (; next < lines.size(); ++next) {
        const Line& line = lines[next];
        auto tokens = splitTokens(line.text);
        if (tokens.empty()) continue;
        const Token& colourToken = tokens[0];
        int colour = colourToken.text.size() == 1 ? colourOfActorChar(rules, colourToken.text[0]) : -1;
        bool ok = true;
        if (colour < 0) {
            diags.error(file, SourceRange::at(line.number, colourToken.col, (int)colourToken.text.size()),
                        "unknown actor colour '" + colourToken.text + "'; expected " +
                            expectedActorChars(rules));
            ok = false;
        }
        std::optional<int> coord[2];
        const char* axis[2] = {"x", "y"};
        for (int k = 0; k < 2; ++k) {
            if ((int)tokens.size() <= k + 1) {
                diags.error(file, SourceRange::at(line.number, (int)line.text.size() + 1),
                            std::string("expected the actor's ") + axis[k] + " coordinate");
                ok = false;
                break;
            }
            const Token& t = tokens[k + 1];
            coord[k] = parseInt(t.text);
            if (!coord[k]) {
                diags.error(file, SourceRange::at(line.number, t.col, (int)t.text.size()),
                            std::string("bad ") + axis[k] + " coordinate '" + t.text +
                                "'; expected a whole number");
                ok = false;
            }
        }
        if (!coord[0] || !coord[1]) continue;
        const int x = *coord[0], y = *coord[1];
        const Token& xt = tokens[1];
        const Token& yt = tokens[2];
        SourceRange where = SourceRange::at(line.number, xt.col, yt.col + (int)yt.text.size() - xt.col);
        std::string cell = "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
        if (x < 0 || y < 0 || x >= level.width || y >= level.height) {
            diags.error(file, where,
                        "actor at " + cell + " is off the board (" + std::to_string(level.width) + " x " +
                            std::to_string(level.height) + ", x 0.." + std::to_string(level.width - 1) +
                            ", y 0.." + std::to_string(level.height - 1) + " from the bottom row)");
            continue;
        }
        if (!level.isFloor(x, y)) {
            diags.error(file, where, "actor at " + cell + " is on a wall");
            continue;
        }
        auto [it, inserted] = occupied.emplace(std::make_pair(x, y), where);
        if (!inserted) {
            diags.error(file, where, "two actors on cell " + cell);
            diags.note(file, it->second, "the first actor on " + cell + " is here");
            continue;
        }
        if (ok) level.actors.push_back({colour, x, y});
    }
    if (diags.errorCount() > errorsBefore) return std::nullopt;
    return level;
}

std::optional<ir::Level> readLevelFile(const std::string& path, const ir::GridRules& rules,
                                       DiagnosticEngine& diags) {
    std::string text;
    if (!readFile(path, text, diags, /*bounded=*/true)) return std::nullopt;
    diags.addSource(path, text);
    return parseLevelText(path, text, rules, diags);
}

}  // namespace pz
