// The reference simulators. The grid is copied into a buffer with a one-cell
// halo on every side of every axis the topology uses; on a torus the halo holds
// the wrapped-around cells, on a dead boundary it stays dead. Every neighbour of
// an interior cell is then a fixed offset away, with no test and no modulo.
#include "lifebench/reference.hpp"

#include "lifebench/error.hpp"
#include "shares.hpp"

#include <array>
#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

namespace lifebench {
namespace {

/// (dx, dy, dz) of each neighbour of a cell.
using Neighbourhood = std::vector<std::array<int, 3>>;

Neighbourhood neighbourhood(Topology topology) {
  Neighbourhood cells;
  const int depth = topology == Topology::cube ? 1 : 0;
  for (int dz = -depth; dz <= depth; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        // Golly's hexagonal grid: the north-east (x+1, y-1) and south-west
        // (x-1, y+1) cells of the square array are not neighbours.
        if (topology == Topology::hex && dx == -dy) continue;
        cells.push_back({dx, dy, dz});
      }
    }
  }
  return cells;
}

/// Sizes and indexing of the haloed buffer.
struct Layout {
  explicit Layout(const Problem& problem)
      : width(problem.shape.width), height(problem.shape.height), depth(problem.shape.depth),
        halo_z(problem.rule.topology == Topology::cube ? 1 : 0), row(width + 2),
        plane(row * (height + 2)), size(plane * (depth + 2 * halo_z)) {}

  /// Index of interior cell (x, y, z), each counted from 0.
  [[nodiscard]] std::int64_t at(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return (z + halo_z) * plane + (y + 1) * row + x + 1;
  }

  std::int64_t width, height, depth, halo_z, row, plane, size;
};

/// Copies the opposite edges into the halo, one axis after the other, so that
/// the edges and corners of the halo are filled from already wrapped rows.
void wrap_halo(const Layout& l, std::vector<std::uint8_t>& cells) {
  std::uint8_t* c = cells.data();
  for (std::int64_t z = 0; z < l.depth; ++z) {
    for (std::int64_t y = 0; y < l.height; ++y) {
      std::uint8_t* row = c + l.at(-1, y, z);
      row[0] = row[l.width];
      row[l.width + 1] = row[1];
    }
    std::uint8_t* plane = c + l.at(-1, -1, z);
    std::memcpy(plane, plane + l.height * l.row, static_cast<std::size_t>(l.row));
    std::memcpy(plane + (l.height + 1) * l.row, plane + l.row, static_cast<std::size_t>(l.row));
  }
  if (l.halo_z == 1) {
    std::memcpy(c, c + l.depth * l.plane, static_cast<std::size_t>(l.plane));
    std::memcpy(c + (l.depth + 1) * l.plane, c + l.plane, static_cast<std::size_t>(l.plane));
  }
}

/// One generation of interior rows [first, last) of `from` into `to` (rows of every
/// plane in order); N neighbours at `offsets`. A row's counts are summed first, then
/// looked up: with no table lookup in it, the summing loop is vectorised by the compiler.
template <std::size_t N>
void step_rows(const Layout& l, const std::array<std::ptrdiff_t, N>& offsets,
               const std::array<std::array<std::uint8_t, 32>, 2>& next, const std::uint8_t* from,
               std::uint8_t* to, std::int64_t first, std::int64_t last) {
  // Local copies: a byte store could alias anything reached through a pointer (the
  // offsets, the table, a vector's own pointer), which would keep the compiler from
  // vectorising the sums.
  const std::array<std::ptrdiff_t, N> offset_of = offsets;
  std::vector<std::uint8_t> counts(static_cast<std::size_t>(l.width));
  std::uint8_t* count = counts.data();
  const std::int64_t width = l.width;
  for (std::int64_t r = first; r < last; ++r) {
    const std::int64_t y = r % l.height;
    const std::int64_t z = r / l.height;
    const std::uint8_t* in = from + l.at(0, y, z);
    for (std::int64_t x = 0; x < width; ++x) {
      unsigned sum = 0;
      for (const std::ptrdiff_t offset : offset_of)
        sum += in[x + offset];
      count[x] = static_cast<std::uint8_t>(sum); // at most 26
    }
    std::uint8_t* out = to + l.at(0, y, z);
    for (std::int64_t x = 0; x < width; ++x)
      out[x] = next[in[x]][count[x]];
  }
}

/// A generation is split over threads in shares of at least this many cells: the long
/// checks (thousands of generations of a few million cells) then take seconds, not a
/// minute, while a small grid stays in the calling thread.
constexpr std::int64_t kCellsPerShare = std::int64_t{1} << 18;

template <std::size_t N>
void run(const Problem& problem, const Layout& l, std::vector<std::uint8_t>& cells,
         std::uint64_t generations) {
  const Neighbourhood around = neighbourhood(problem.rule.topology);
  std::array<std::ptrdiff_t, N> offsets{};
  for (std::size_t k = 0; k < N; ++k) {
    const auto [dx, dy, dz] = around.at(k);
    offsets[k] = dz * l.plane + dy * l.row + dx;
  }
  // The next state, indexed by [alive][live neighbours].
  std::array<std::array<std::uint8_t, 32>, 2> next{};
  for (int n = 0; n <= problem.rule.neighbours(); ++n) {
    next[0][n] = problem.rule.born(n) ? 1 : 0;
    next[1][n] = problem.rule.survives(n) ? 1 : 0;
  }
  const bool torus = problem.boundary == Boundary::torus;
  std::vector<std::uint8_t> other(cells.size(), 0);
  for (std::uint64_t g = 0; g < generations; ++g) {
    if (torus) wrap_halo(l, cells);
    detail::in_shares(l.height * l.depth, l.width, kCellsPerShare,
                      [&](std::int64_t first, std::int64_t last) {
                        step_rows(l, offsets, next, cells.data(), other.data(), first, last);
                      });
    std::swap(cells, other);
  }
}

void check(const Problem& problem, const Grid& grid) {
  const Shape& shape = problem.shape;
  const std::string name = problem.to_string();
  if (auto reason = invalid_shape_reason(shape)) throw Error("problem " + name + ": " + *reason);
  if (problem.rule.topology != Topology::cube && shape.depth != 1) {
    throw Error("problem " + name + ": a 2D rule needs a WxH shape, not " + shape.to_string());
  }
  if (problem.rule.topology == Topology::cube && shape.depth == 1) {
    throw Error("problem " + name + ": a 3D rule needs a WxHxD shape, not " + shape.to_string());
  }
  if (grid.shape() != shape) {
    throw Error("the grid is " + grid.shape().to_string() + " but problem " + name + " is " +
                shape.to_string());
  }
}

} // namespace

Grid reference_advance(const Problem& problem, Grid grid, std::uint64_t generations) {
  check(problem, grid);
  if (generations == 0) return grid;
  const Layout l(problem);
  const Shape& shape = problem.shape;
  std::vector<std::uint8_t> cells(static_cast<std::size_t>(l.size), 0);
  for (std::int64_t z = 0; z < shape.depth; ++z) {
    for (std::int64_t y = 0; y < shape.height; ++y) {
      const std::uint8_t* row = grid.data() + grid.index(0, y, z);
      for (std::int64_t x = 0; x < shape.width; ++x) {
        if (row[x] > 1) {
          throw Error("cell (" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                      std::to_string(z) + ") holds " + std::to_string(row[x]) +
                      ": cells must be 0 or 1");
        }
      }
      std::memcpy(cells.data() + l.at(0, y, z), row, static_cast<std::size_t>(shape.width));
    }
  }
  switch (problem.rule.topology) {
  case Topology::square:
    run<8>(problem, l, cells, generations);
    break;
  case Topology::hex:
    run<6>(problem, l, cells, generations);
    break;
  case Topology::cube:
    run<26>(problem, l, cells, generations);
    break;
  }
  for (std::int64_t z = 0; z < shape.depth; ++z) {
    for (std::int64_t y = 0; y < shape.height; ++y) {
      std::memcpy(grid.data() + grid.index(0, y, z), cells.data() + l.at(0, y, z),
                  static_cast<std::size_t>(shape.width));
    }
  }
  return grid;
}

} // namespace lifebench
