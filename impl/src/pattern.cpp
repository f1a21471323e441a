#include "lifebench/pattern.hpp"

#include "lifebench/error.hpp"
#include "lifebench/state_io.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>

namespace lifebench {
namespace {

/// A box of cells in a grid: its corner and extent.
struct Extent {
  Shape corner{0, 0, 0};
  Shape size{1, 1, 1};
};

/// The box of `grid`'s live cells (a 1x1 corner where none lives).
Extent live_extent(const Grid& grid) {
  const Shape& s = grid.shape();
  Shape low{s.width, s.height, s.depth};
  Shape high{-1, -1, -1};
  for (std::int64_t z = 0; z < s.depth; ++z) {
    for (std::int64_t y = 0; y < s.height; ++y) {
      for (std::int64_t x = 0; x < s.width; ++x) {
        if (grid.at(x, y, z) == 0) continue;
        low = Shape{std::min(low.width, x), std::min(low.height, y), std::min(low.depth, z)};
        high = Shape{std::max(high.width, x), std::max(high.height, y), std::max(high.depth, z)};
      }
    }
  }
  if (high.width < 0) return Extent{};
  return Extent{low, Shape{high.width - low.width + 1, high.height - low.height + 1,
                           high.depth - low.depth + 1}};
}

/// Copies `from`'s cells of `extent` into `to` from its cell `at`.
void copy_cells(const Grid& from, const Extent& extent, Grid& to, const Shape& at) {
  for (std::int64_t z = 0; z < extent.size.depth; ++z) {
    for (std::int64_t y = 0; y < extent.size.height; ++y) {
      for (std::int64_t x = 0; x < extent.size.width; ++x) {
        to.set(at.width + x, at.height + y, at.depth + z,
               from.at(extent.corner.width + x, extent.corner.height + y, extent.corner.depth + z));
      }
    }
  }
}

/// The pattern's top-left (front) cell on the run's grid, or why it has none.
std::optional<std::string> corner_on(const Workload& pattern, const Problem& problem,
                                     std::optional<Position> offset, Shape& corner) {
  const Shape& box = pattern.cells.shape();
  const Shape& grid = problem.shape;
  corner = offset ? Shape{offset->x, offset->y, 0}
                  : Shape{(grid.width - box.width) / 2, (grid.height - box.height) / 2,
                          (grid.depth - box.depth) / 2};
  const bool fits = corner.width >= 0 && corner.height >= 0 && corner.depth >= 0 &&
                    corner.width + box.width <= grid.width &&
                    corner.height + box.height <= grid.height &&
                    corner.depth + box.depth <= grid.depth;
  if (fits) return std::nullopt;
  return "pattern " + pattern.name + " (" + box.to_string() + " cells) does not fit the " +
         grid.to_string() + " grid " +
         (offset ? "at offset " + std::to_string(offset->x) + "," + std::to_string(offset->y)
                 : std::string("centred"));
}

} // namespace

Workload read_pattern(const std::filesystem::path& path) {
  // A pattern of the plane comes on exactly its box (no margin: nothing is run here).
  const State state = read_state(path, ReadOptions{});
  const Extent extent = live_extent(state.grid);
  Workload pattern{
      .name = path.filename().string(), .rule = state.problem.rule, .cells = Grid(extent.size)};
  pattern.name = pattern.name.substr(0, pattern.name.find('.'));
  copy_cells(state.grid, extent, pattern.cells, Shape{0, 0, 0});
  return pattern;
}

std::optional<std::string> placement_refusal(const Workload& pattern, const Problem& problem,
                                             std::optional<Position> offset) {
  if (pattern.rule != problem.rule) {
    return "pattern " + pattern.name + " runs " + pattern.rule.to_string() + ", the run " +
           problem.rule.to_string();
  }
  Shape corner;
  return corner_on(pattern, problem, offset, corner);
}

Grid place_pattern(const Workload& pattern, const Problem& problem,
                   std::optional<Position> offset) {
  if (auto refusal = placement_refusal(pattern, problem, offset)) throw Error(*refusal);
  Shape corner;
  corner_on(pattern, problem, offset, corner);
  Grid grid(problem.shape);
  copy_cells(pattern.cells, Extent{Shape{0, 0, 0}, pattern.cells.shape()}, grid, corner);
  return grid;
}

std::string pattern_hash(const Workload& pattern) {
  std::array<char, 19> text{};
  std::snprintf(text.data(), text.size(), "0x%016llx",
                static_cast<unsigned long long>(grid_hash(pattern.cells)));
  return text.data();
}

Position parse_offset(const std::string& text) {
  std::istringstream in(text);
  Position offset;
  char comma = 0;
  in >> offset.x >> comma >> offset.y;
  if (!in || comma != ',' || offset.x < 0 || offset.y < 0 || in.peek() != EOF) {
    throw Error("offset " + text + ": expected X,Y, two whole numbers of cells from 0");
  }
  return offset;
}

} // namespace lifebench
