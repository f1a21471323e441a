// The device side the hex-cuda-* experiments share: the six-neighbour count of a
// byte-per-cell grid (Golly's H neighbourhood, see common/hex.hpp), wrapped on a torus
// or zero outside a plane, the neighbourhood windows of a grid of 8 cells per byte, the
// rule table in constant memory, and the limits of their 32-bit coordinates.
#pragma once

#include "common/hex.hpp"
#include "cuda/error.cuh"
#include "cuda/grid_limits.cuh"
#include "lifebench/problem.hpp"

#include <cstdint>
#include <cuda_runtime.h>
#include <optional>
#include <string>

namespace lifebench::hex {

/// Rows and columns of a cell's neighbours, wrapped (torus) or -1 outside (plane).
template <bool Torus> struct Around {
  int left, right, up, down;
  __device__ Around(int x, int y, int width, int height) {
    if constexpr (Torus) {
      left = x == 0 ? width - 1 : x - 1;
      right = x + 1 == width ? 0 : x + 1;
      up = y == 0 ? height - 1 : y - 1;
      down = y + 1 == height ? 0 : y + 1;
    } else {
      left = x - 1;
      right = x + 1 == width ? -1 : x + 1;
      up = y - 1;
      down = y + 1 == height ? -1 : y + 1;
    }
  }
};

/// Cell (x, y) of a byte-per-cell grid; 0 where x or y is -1 (outside a plane).
__device__ __forceinline__ unsigned cell_at(const std::uint8_t* __restrict__ grid, int width, int x,
                                            int y) {
  if (x < 0 || y < 0) return 0;
  return grid[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
              static_cast<std::size_t>(x)];
}

/// Live neighbours of cell (x, y): (x-1, y-1), (x, y-1), (x-1, y), (x+1, y), (x, y+1), (x+1, y+1).
template <bool Torus>
__device__ __forceinline__ unsigned neighbour_count(const std::uint8_t* __restrict__ grid, int x,
                                                    int y, int width, int height) {
  const Around<Torus> n(x, y, width, height);
  return cell_at(grid, width, n.left, n.up) + cell_at(grid, width, x, n.up) +
         cell_at(grid, width, n.left, y) + cell_at(grid, width, n.right, y) +
         cell_at(grid, width, x, n.down) + cell_at(grid, width, n.right, n.down);
}

/// The 24-bit windows (hex::lut_window) of the rows above, at and below byte
/// (x, y) of a grid of 8 cells per byte: seven byte loads, as the row above
/// needs only its left neighbour byte and the row below only its right one.
template <bool Torus>
__device__ __forceinline__ void byte_windows(const std::uint8_t* __restrict__ grid, int x, int y,
                                             int columns, int height, std::uint32_t& above,
                                             std::uint32_t& middle, std::uint32_t& below) {
  const Around<Torus> n(x, y, columns, height);
  above = lut_window(cell_at(grid, columns, n.left, n.up), cell_at(grid, columns, x, n.up), 0);
  middle = lut_window(cell_at(grid, columns, n.left, y), cell_at(grid, columns, x, y),
                      cell_at(grid, columns, n.right, y));
  below = lut_window(0, cell_at(grid, columns, x, n.down), cell_at(grid, columns, n.right, n.down));
}

/// Why a byte-per-cell kernel with 32-bit int coordinates cannot take the problem, or nothing.
inline std::optional<std::string> byte_grid_unsupported(const Problem& problem) {
  if (problem.shape.width >= (std::int64_t{1} << 31) ||
      problem.shape.height >= (std::int64_t{1} << 31)) {
    return std::string("width and height must be below 2^31 (32-bit coordinates)");
  }
  return std::nullopt;
}

/// byte_grid_unsupported, and the height that blocks of `block_rows` cell rows, one
/// block row per gridDim.y, can cover.
inline std::optional<std::string> block_rows_unsupported(const Problem& problem,
                                                         std::int64_t block_rows) {
  if (auto reason = byte_grid_unsupported(problem)) return reason;
  return cuda::beyond_grid_yz("height", problem.shape.height, block_rows,
                              std::to_string(block_rows) + "-row blocks");
}

/// Why a kernel that skips `what` it takes for dead ("dead blocks") cannot take a rule with
/// birth on 0 neighbours, under which they would not stay dead; or nothing.
inline std::optional<std::string> birth_on_0_unsupported(const Problem& problem,
                                                         const std::string& what) {
  if (!problem.rule.born(0)) return std::nullopt;
  return "rules with birth on 0 neighbours (B0) are refused: " + what + " would not stay dead";
}

/// Copies the seed's 14-entry rule table (count + 7 * alive) into an experiment's
/// __constant__ array.
template <class Symbol> void copy_rule_table(const Symbol& symbol, const Rule& rule) {
  const auto table = next_state_table(rule.birth, rule.survive);
  static_assert(sizeof(Symbol) == sizeof(table));
  LIFEBENCH_CUDA_CALL(cudaMemcpyToSymbol(symbol, table.data(), table.size()));
}

} // namespace lifebench::hex
