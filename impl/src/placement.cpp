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

/// The grid cell of the pattern's top-left cell when that cell is at Golly's `top_left`;
/// throws Error if the pattern does not fit.
Cell corner_at(Shape size, Shape grid_shape, Position top_left) {
  require_2d(size, "pattern");
  require_2d(grid_shape, "grid");
  // Positions take any 64-bit value, sizes at most 2^40: compared before anything is added.
  const std::int64_t half_width = grid_shape.width / 2;
  const std::int64_t half_height = grid_shape.height / 2;
  if (top_left.x < -half_width || top_left.y < -half_height ||
      top_left.x > grid_shape.width - half_width - size.width ||
      top_left.y > grid_shape.height - half_height - size.height) {
    throw Error("the " + size.to_string() + " pattern at Pos=" + std::to_string(top_left.x) + "," +
                std::to_string(top_left.y) + " does not fit into the " + grid_shape.to_string() +
                " grid");
  }
  return Cell{top_left.x + half_width, top_left.y + half_height};
}

/// The grid cell of the pattern's top-left cell when the pattern is centred.
Cell centred_corner(Shape size, Shape grid_shape) {
  require_2d(size, "pattern");
  if (size.width > grid_shape.width || size.height > grid_shape.height) {
    throw Error("the " + size.to_string() + " pattern is larger than the " +
                grid_shape.to_string() + " grid");
  }
  return corner_at(size, grid_shape, Position{-(size.width / 2), -(size.height / 2)});
}

/// A grid of `grid_shape` with the pattern's top-left cell at `corner`, where the pattern
/// fits.
Grid grid_with_pattern(const Pattern& pattern, Shape grid_shape, Cell corner) {
  const Shape& size = pattern.size;
  for (const LiveRun& run : pattern.alive) {
    LIFEBENCH_EXPECTS(run.y >= 0 && run.y < size.height && run.x >= 0 && run.length >= 0 &&
                          run.length <= size.width - run.x,
                      "a run of live cells outside the " + size.to_string() + " pattern");
  }
  Grid grid(grid_shape);
  for (const LiveRun& run : pattern.alive) {
    std::uint8_t* row = grid.data() + grid.index(corner.x + run.x, corner.y + run.y);
    std::fill(row, row + run.length, std::uint8_t{1});
  }
  return grid;
}

} // namespace

Grid Pattern::cells() const {
  require_2d(size, "pattern");
  return grid_with_pattern(*this, size, Cell{0, 0});
}

Cell corner_in_grid(const Pattern& pattern, Shape grid_shape) {
  return pattern.position ? corner_at(pattern.size, grid_shape, *pattern.position)
                          : centred_corner(pattern.size, grid_shape);
}

Grid place_in_grid(const Pattern& pattern, Shape grid_shape) {
  return grid_with_pattern(pattern, grid_shape, centred_corner(pattern.size, grid_shape));
}

Grid place_in_grid(const Pattern& pattern, Shape grid_shape, Position top_left) {
  return grid_with_pattern(pattern, grid_shape, corner_at(pattern.size, grid_shape, top_left));
}

} // namespace lifebench
