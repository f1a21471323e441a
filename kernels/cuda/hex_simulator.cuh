// The simulators several hex-cuda-* experiments share: a byte-per-cell kernel launched
// once per generation (hex-cuda-naive, -shared, -2cells), and seed 004's table kernel on
// eight cells per byte with its table on the device (hex-cuda-lut, -lut8).
#pragma once

#include "cuda/buffered_simulator.cuh"
#include "cuda/hex_lut.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

namespace lifebench::hex {

/// A byte-per-cell kernel(in, out, width, height), one launch per generation on a
/// grid of `cells_per_block` (x, y) cells per block of `block` threads.
template <class Kernel>
class ByteKernelSimulator final : public cuda::BufferedSimulator<cuda::CellBytes> {
public:
  ByteKernelSimulator(const Problem& problem, Kernel torus, Kernel dead, dim3 block,
                      dim3 cells_per_block)
      : BufferedSimulator(problem), kernel_(problem.boundary == Boundary::torus ? torus : dead),
        block_(block), grid_(static_cast<unsigned>((problem.shape.width + cells_per_block.x - 1) /
                                                   cells_per_block.x),
                             static_cast<unsigned>((problem.shape.height + cells_per_block.y - 1) /
                                                   cells_per_block.y)) {}

private:
  void launch(std::uint64_t generations) override {
    const auto width = static_cast<int>(problem().shape.width);
    const auto height = static_cast<int>(problem().shape.height);
    each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) {
      kernel_<<<grid_, block_, 0, stream()>>>(in, out, width, height);
    });
  }

  Kernel kernel_;
  dim3 block_;
  dim3 grid_;
};

/// Eight cells per byte on the device, advanced by lut_step<Lookup> with a table of
/// `table_entries` bytes that `fill(table, stream)` writes (on the host or the device).
template <class Lookup>
class LutSimulator final : public cuda::BufferedSimulator<cuda::PackedRows<std::uint8_t>> {
public:
  template <class Fill>
  LutSimulator(const Problem& problem, std::size_t table_entries, Fill fill)
      : BufferedSimulator(problem), table_(table_entries) {
    fill(table_, stream());
    synchronize();
    const auto tail = static_cast<unsigned>(problem.shape.width % 8);
    last_mask_ = tail == 0 ? 0xFFU : (1U << tail) - 1U;
  }

private:
  void launch(std::uint64_t generations) override {
    const Shape& shape = problem().shape;
    const auto columns = static_cast<int>(words_per_row<std::uint8_t>(shape.width));
    const auto height = static_cast<int>(shape.height);
    const dim3 block(lut_block_x, lut_block_y);
    const dim3 grid((static_cast<unsigned>(columns) + lut_block_x - 1) / lut_block_x,
                    (static_cast<unsigned>(height) + lut_block_y - 1) / lut_block_y);
    const auto kernel = torus() ? lut_step<true, Lookup> : lut_step<false, Lookup>;
    each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) {
      kernel<<<grid, block, 0, stream()>>>(in, out, columns, height, table_.data(), last_mask_);
    });
  }

  cuda::DeviceBuffer<std::uint8_t> table_;
  unsigned last_mask_ = 0xFFU;
};

} // namespace lifebench::hex
