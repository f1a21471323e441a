// Seed 004's table-driven kernel (hex-cuda-lut, hex-cuda-lut8): one bit per cell,
// eight cells per byte, one thread per byte, the next states of the byte read from a
// table indexed by its neighbourhood. The lookup (two 16-bit indices, or one 28-bit
// index) is a policy: Lookup::next(table, above, middle, below) maps the rows' windows
// (hex::lut_window) to the next byte. The simulator is hex::LutSimulator.
#pragma once

#include "common/hex.hpp"
#include "cuda/hex_grid.cuh"
#include "lifebench/problem.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace lifebench::hex {

inline constexpr unsigned lut_block_x = 32;
inline constexpr unsigned lut_block_y = 8;

template <bool Torus, class Lookup>
__global__ void __launch_bounds__(lut_block_x* lut_block_y)
    lut_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int columns,
             int height, const std::uint8_t* __restrict__ table, unsigned last_mask) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= columns || y >= height) return;
  std::uint32_t above = 0;
  std::uint32_t middle = 0;
  std::uint32_t below = 0;
  byte_windows<Torus>(in, x, y, columns, height, above, middle, below);
  unsigned next = Lookup::next(table, above, middle, below);
  // On a plane the cells past the width stay dead.
  if (x + 1 == columns) next &= last_mask;
  out[static_cast<std::size_t>(y) * static_cast<std::size_t>(columns) +
      static_cast<std::size_t>(x)] = static_cast<std::uint8_t>(next);
}

/// What both table kernels refuse.
inline std::optional<std::string> lut_unsupported(const Problem& problem) {
  if (problem.boundary == Boundary::torus && problem.shape.width % 8 != 0) {
    return std::string("on a torus the width must be a multiple of 8 (8 cells per byte wrap "
                       "around whole)");
  }
  return block_rows_unsupported(problem, lut_block_y);
}

} // namespace lifebench::hex
