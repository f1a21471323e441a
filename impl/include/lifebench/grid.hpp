// The canonical host grid: one byte per cell (0 dead, 1 alive), row-major in
// (z, y, x) order, x fastest. Every simulator converts from and to it.
#pragma once

#include "lifebench/problem.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lifebench {

class Grid {
public:
  Grid() = default;
  explicit Grid(Shape shape); ///< all cells dead; throws Error if a size is not positive

  [[nodiscard]] const Shape& shape() const { return shape_; }
  [[nodiscard]] std::int64_t index(std::int64_t x, std::int64_t y, std::int64_t z = 0) const {
    return (z * shape_.height + y) * shape_.width + x;
  }
  [[nodiscard]] std::uint8_t at(std::int64_t x, std::int64_t y, std::int64_t z = 0) const {
    return cells_[static_cast<std::size_t>(index(x, y, z))];
  }
  void set(std::int64_t x, std::int64_t y, std::uint8_t alive) { set(x, y, 0, alive); }
  void set(std::int64_t x, std::int64_t y, std::int64_t z, std::uint8_t alive) {
    cells_[static_cast<std::size_t>(index(x, y, z))] = alive;
  }
  [[nodiscard]] std::uint8_t* data() { return cells_.data(); }
  [[nodiscard]] const std::uint8_t* data() const { return cells_.data(); }
  [[nodiscard]] std::int64_t population() const;
  friend bool operator==(const Grid&, const Grid&) = default;

private:
  Shape shape_;
  std::vector<std::uint8_t> cells_;
};

/// Physical memory of this machine in bytes, or 0 where it cannot be told: no grid larger
/// than it is made.
std::uint64_t host_memory_bytes();

/// Throws Error where a run on a grid of `shape` (a valid one) would not fit in this machine's
/// memory: it holds about three copies of the grid at a byte a cell (the grid read or made, and a
/// simpler simulator's two generations, or its last one and the grid downloaded from it). The
/// message is `what` followed by ", N cells; a run holds about three copies at a byte a cell: X
/// MiB, more than this machine's Y MiB". For a caller to refuse before any copy is made, rather
/// than be killed by the kernel when one is filled.
void require_run_fits_in_memory(const std::string& what, const Shape& shape);

/// The first cell (in memory order) where two grids of one shape differ.
struct Mismatch {
  std::int64_t x = 0, y = 0, z = 0;
  int expected = 0, actual = 0;
  bool three_dimensional = false;              ///< the grids have depth, so z is shown
  [[nodiscard]] std::string to_string() const; ///< "cell (x, y[, z]): expected 1, got 0"
};
/// Throws Error if the shapes differ.
std::optional<Mismatch> first_difference(const Grid& expected, const Grid& actual);

/// A 64-bit fingerprint of shape and cells, identical on every machine (the
/// definition is in grid.cpp; changing it changes every recorded hash).
std::uint64_t grid_hash(const Grid& grid);

} // namespace lifebench
