// Shapes of sliding-block pieces (note [blocks model] in blocks.hpp): what the
// lowering of a board and the level reader share -- connectivity, the
// normalised shape and anchor, axes, board symmetries.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/blocks.hpp"

namespace pz::ir {

// The cells of one piece split into 4-connected components, each in the
// order of `cells`; a piece is valid when there is one.
std::vector<std::vector<BlockCell>> blockComponents(const std::vector<BlockCell>& cells);

// The anchor (top-left of the bounding box) and the shape (cells relative to
// it, sorted by (y, x)) of a piece's cells.
std::pair<BlockCell, std::vector<BlockCell>> normaliseBlock(const std::vector<BlockCell>& cells);

// Width and height of a shape's bounding box.
std::pair<int, int> blockExtent(const std::vector<BlockCell>& shape);

// "2 x 1": a shape's bounding box, for messages.
std::string extentText(const std::vector<BlockCell>& shape);

// A shape is a line when it is 1 x k or k x 1 with k >= 2 (a car).
bool isLineShape(const std::vector<BlockCell>& shape);

const char* axisName(BlockAxis axis);
const char* symmetryName(BlockSymmetryKind kind);
const char* metricName(BlockMetric metric);
const char* sideName(BlockRules::Exit::Side side);

// Where a symmetry sends cell (x, y) of a width x height board (cells just
// outside the board, such as an exit's, are mapped by the same formula).
BlockCell mapBlockCell(BlockSymmetryKind kind, BlockCell c, int width, int height);

// The cell just outside the board in front of an exit, and back.
BlockCell exitCell(const BlockRules::Exit& exit, int width, int height);
bool exitOfCell(BlockCell c, int width, int height, BlockRules::Exit& out);

}  // namespace pz::ir
