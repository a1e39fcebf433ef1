// Pictures of puzzle states for pzc draw.
//
// note [drawing]
// pzc draw FILE [--scramble|--state|--level] [--solution] writes one
// standalone SVG: the position, or with --solution a strip of frames (the
// start, then the state after each move, captioned with that move). The
// command reads the options and writes -o; the back end of the puzzle's
// family (Backend::draw) works out the states with its interpreter; this
// folder turns them into SVG:
//   permutation  drawSchematic: a labelled schematic, one row per orbit
//                (wrapped when long), one cell per position showing and
//                coloured by the piece there, its orientation as a badge,
//                solved cells with a thick border. Cell ids
//                "<orbit>-l<position>-o<orientation>", data-orbit,
//                data-position, data-piece (solved position, or label when
//                pieces are identical), data-orientation, data-solved.
//   permutation with a `layout` section: drawNet, each sticker a cell of
//                the net or a polygon in the face colour of the piece
//                sticker there now (note [sticker slots] in
//                compiler/ir/puzzle.hpp). Sticker ids
//                "<orbit>-l<position>-o<slot>" (as cubing.js: the slot, not
//                the piece's orientation), data-orbit, data-position,
//                data-sticker (the slot), data-piece, data-orientation,
//                data-face; fixed stickers "fixed-N" with data-face.
//   grid-actor   drawGridLevel: the board (ids "cell-x-y", class floor or
//                wall), goals ("goal-N", outlined in the colour that must
//                reach them), actors ("actor-N", circles of their colour),
//                data-x/data-y with y counted up from the bottom row, as in
//                level files.
//   sliding-block drawBlocks: the board (ids "cell-x-y", class floor or
//                wall), each piece a group "piece-NAME" (data-piece,
//                data-type, data-x/data-y its anchor, y from the top row)
//                of its cells in its type's colour, the goal's places dashed.
// In a strip every id is prefixed with its frame, "f<K>-" (K = 0 for the
// start), so ids stay unique in the document. Output is a pure function of
// the states (fixed palette, fixed number formatting): byte-identical runs.
#pragma once

#include <string>
#include <vector>

#include "compiler/interp/blocks_interp.hpp"
#include "compiler/interp/grid_interp.hpp"
#include "compiler/interp/interpreter.hpp"

namespace pz::render {

// What the document says about itself.
struct DrawingInfo {
    std::string title;   // <title>: the puzzle and the position
    std::string source;  // the definition file, for the header comment
};

struct PermFrame {
    interp::State state;  // a piece state (Interpreter::solved() and moves), not labels
    std::string caption;  // the move just made; empty for a lone picture
};

struct GridFrame {
    interp::GridState state;
    std::string caption;
};

struct BlocksFrame {
    interp::BlockBoard board;
    std::string caption;
};

std::string drawSchematic(const interp::Interpreter& interpreter, const std::vector<PermFrame>& frames,
                          const DrawingInfo& info);
// The puzzle's layout (interpreter.puzzle().layout) drawn with its colours.
std::string drawNet(const interp::Interpreter& interpreter, const ir::Layout& layout,
                    const std::vector<PermFrame>& frames, const DrawingInfo& info);
std::string drawGridLevel(const interp::GridBoard& board, const std::vector<GridFrame>& frames,
                          const DrawingInfo& info);
// `layout` is the position the frames' boards started from (their pieces and types).
std::string drawBlocks(const ir::BlockRules& rules, const ir::BlockLayout& layout, const std::vector<BlocksFrame>& frames,
                       const DrawingInfo& info);

}  // namespace pz::render
