// Seed 004's table-driven kernels (hex-cuda-lut, hex-cuda-lut8): one bit per
// cell, eight cells per byte, one thread per byte, the next states of the byte
// read from a table indexed by its neighbourhood. The lookup (two 16-bit
// indices, or one 28-bit index) is a policy: Lookup::next(table, above, middle,
// below) maps the rows' windows (hex::lut_window) to the next byte.
#pragma once

#include "common/hex.hpp"
#include "cuda/hex_simulator.cuh"

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

/// Eight cells per byte on the device, advanced by lut_step<Lookup> with a table
/// of `table_entries` bytes that the derived class fills.
template <class Lookup> class LutSimulator : public DeviceGridSimulator<std::uint8_t, true> {
public:
  LutSimulator(const Problem& problem, std::size_t table_entries)
      : DeviceGridSimulator(problem), table_(table_entries) {
    const auto tail = static_cast<unsigned>(problem.shape.width % 8);
    last_mask_ = tail == 0 ? 0xFFU : (1U << tail) - 1U;
  }

protected:
  [[nodiscard]] cuda::DeviceBuffer<std::uint8_t>& table() { return table_; }

private:
  void launch(const std::uint8_t* in, std::uint8_t* out, std::uint64_t /*generations*/,
              cudaStream_t stream) override {
    const Shape& shape = problem().shape;
    const auto columns = static_cast<int>(words_per_row<std::uint8_t>(shape.width));
    const auto height = static_cast<int>(shape.height);
    const dim3 block(lut_block_x, lut_block_y);
    const dim3 grid((static_cast<unsigned>(columns) + lut_block_x - 1) / lut_block_x,
                    (static_cast<unsigned>(height) + lut_block_y - 1) / lut_block_y);
    const auto kernel =
        problem().boundary == Boundary::torus ? lut_step<true, Lookup> : lut_step<false, Lookup>;
    kernel<<<grid, block, 0, stream>>>(in, out, columns, height, table_.data(), last_mask_);
  }

  cuda::DeviceBuffer<std::uint8_t> table_;
  unsigned last_mask_ = 0xFFU;
};

/// What both table kernels refuse.
inline std::optional<std::string> lut_unsupported(const Problem& problem) {
  if (problem.boundary == Boundary::torus && problem.shape.width % 8 != 0) {
    return std::string("on a torus the width must be a multiple of 8 (8 cells per byte wrap "
                       "around whole)");
  }
  return block_rows_unsupported(problem, lut_block_y);
}

} // namespace lifebench::hex
