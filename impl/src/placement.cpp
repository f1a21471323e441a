// Golly's placement of a pattern into a bounded grid. Golly puts the grid's
// top-left cell at (-(W/2), -(H/2)) (lifealgo::setgridsize) and, when the file
// gives no position, a pattern's top-left cell at (-(x/2), -(y/2))
// (readpattern.cpp, readrle); both divisions truncate.
#include "lifebench/error.hpp"
#include "lifebench/rle.hpp"

#include <algorithm>

namespace lifebench {
namespace {

void require_2d(const Shape& shape, const char* what) {
  if (shape.depth != 1) {
    throw Error(std::string("only 2D patterns can be placed, but the ") + what + " is " +
                shape.to_string());
  }
}

/// A grid of `grid_shape` with the pattern's top-left cell at (left, top), where the
/// caller has checked that the pattern's size fits.
Grid grid_with_pattern(const Pattern& pattern, Shape grid_shape, std::int64_t left,
                       std::int64_t top) {
  const Shape& size = pattern.size;
  for (const LiveRun& run : pattern.alive) {
    LIFEBENCH_EXPECTS(run.y >= 0 && run.y < size.height && run.x >= 0 && run.length >= 0 &&
                          run.length <= size.width - run.x,
                      "a run of live cells outside the " + size.to_string() + " pattern");
  }
  Grid grid(grid_shape);
  for (const LiveRun& run : pattern.alive) {
    std::uint8_t* row = grid.data() + grid.index(left + run.x, top + run.y);
    std::fill(row, row + run.length, std::uint8_t{1});
  }
  return grid;
}

} // namespace

Grid Pattern::cells() const {
  require_2d(size, "pattern");
  return grid_with_pattern(*this, size, 0, 0);
}

Grid place_in_grid(const Pattern& pattern, Shape grid_shape) {
  const Shape& size = pattern.size;
  require_2d(size, "pattern");
  if (size.width > grid_shape.width || size.height > grid_shape.height) {
    throw Error("the " + size.to_string() + " pattern is larger than the " +
                grid_shape.to_string() + " grid");
  }
  return place_in_grid(pattern, grid_shape, Position{-(size.width / 2), -(size.height / 2)});
}

Grid place_in_grid(const Pattern& pattern, Shape grid_shape, Position top_left) {
  const Shape& size = pattern.size;
  require_2d(size, "pattern");
  require_2d(grid_shape, "grid");
  // Positions are at most 2^40 from the origin and sizes at most 2^40, so no sum overflows.
  const std::int64_t left = top_left.x + grid_shape.width / 2;
  const std::int64_t top = top_left.y + grid_shape.height / 2;
  if (left < 0 || top < 0 || left + size.width > grid_shape.width ||
      top + size.height > grid_shape.height) {
    throw Error("the " + size.to_string() + " pattern at Pos=" + std::to_string(top_left.x) + "," +
                std::to_string(top_left.y) + " does not fit into the " + grid_shape.to_string() +
                " grid");
  }
  return grid_with_pattern(pattern, grid_shape, left, top);
}

} // namespace lifebench
