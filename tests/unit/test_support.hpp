// Helpers shared by the unit tests: grids drawn as text, and dataset paths.
#pragma once

#include "lifebench/grid.hpp"

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace lifebench {

/// GoogleTest prints a failing grid as its rows, 'o' alive and '.' dead.
inline void PrintTo(const Grid& grid, std::ostream* out) {
  const Shape& s = grid.shape();
  *out << s.to_string();
  if (s.cells() > 4096) return;
  for (std::int64_t z = 0; z < s.depth; ++z) {
    for (std::int64_t y = 0; y < s.height; ++y) {
      *out << "\n  ";
      for (std::int64_t x = 0; x < s.width; ++x)
        *out << (grid.at(x, y, z) != 0 ? 'o' : '.');
    }
    if (z + 1 < s.depth) *out << "\n";
  }
}

namespace testing {

/// A 2D grid drawn one string per row, 'o' alive and '.' dead.
inline Grid grid_from_rows(const std::vector<std::string>& rows) {
  Grid grid(Shape{static_cast<std::int64_t>(rows.front().size()),
                  static_cast<std::int64_t>(rows.size()), 1});
  for (std::size_t y = 0; y < rows.size(); ++y) {
    for (std::size_t x = 0; x < rows[y].size(); ++x) {
      grid.set(static_cast<std::int64_t>(x), static_cast<std::int64_t>(y),
               rows[y][x] == 'o' ? 1 : 0);
    }
  }
  return grid;
}

/// A grid of `shape` with the given cells alive, each (x, y) or (x, y, z).
inline Grid grid_with(Shape shape, const std::vector<std::vector<std::int64_t>>& alive) {
  Grid grid(shape);
  for (const auto& cell : alive)
    grid.set(cell[0], cell[1], cell.size() > 2 ? cell[2] : 0, 1);
  return grid;
}

inline std::filesystem::path dataset(const std::string& name) {
  return std::filesystem::path(LIFEBENCH_DATASETS_DIR) / name;
}

} // namespace testing
} // namespace lifebench
