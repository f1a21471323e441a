// Golly's placement of a pattern into a bounded grid. Golly puts the grid's
// top-left cell at (-(W/2), -(H/2)) (lifealgo::setgridsize) and, when the file
// gives no position, a pattern's top-left cell at (-(x/2), -(y/2))
// (readpattern.cpp, readrle); both divisions truncate.
#include "lifebench/error.hpp"
#include "lifebench/rle.hpp"

namespace lifebench {
namespace {

void require_2d(const Shape& shape, const char* what) {
  if (shape.depth != 1) {
    throw Error(std::string("only 2D patterns can be placed, but the ") + what + " is " +
                shape.to_string());
  }
}

} // namespace

Grid place_in_grid(const Grid& pattern, Shape grid_shape) {
  const Shape& size = pattern.shape();
  require_2d(size, "pattern");
  if (size.width > grid_shape.width || size.height > grid_shape.height) {
    throw Error("the " + size.to_string() + " pattern is larger than the " +
                grid_shape.to_string() + " grid");
  }
  return place_in_grid(pattern, grid_shape, Position{-(size.width / 2), -(size.height / 2)});
}

Grid place_in_grid(const Grid& pattern, Shape grid_shape, Position top_left) {
  const Shape& size = pattern.shape();
  require_2d(size, "pattern");
  require_2d(grid_shape, "grid");
  const std::int64_t left = top_left.x + grid_shape.width / 2;
  const std::int64_t top = top_left.y + grid_shape.height / 2;
  if (left < 0 || top < 0 || left + size.width > grid_shape.width ||
      top + size.height > grid_shape.height) {
    throw Error("the " + size.to_string() + " pattern at Pos=" + std::to_string(top_left.x) + "," +
                std::to_string(top_left.y) + " does not fit into the " + grid_shape.to_string() +
                " grid");
  }
  Grid grid(grid_shape);
  for (std::int64_t y = 0; y < size.height; ++y) {
    for (std::int64_t x = 0; x < size.width; ++x)
      grid.set(left + x, top + y, pattern.at(x, y));
  }
  return grid;
}

} // namespace lifebench
