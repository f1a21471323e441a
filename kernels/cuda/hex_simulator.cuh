// Seed 004's table kernel on eight cells per byte with its table on the device, and the
// registration of its experiments (hex-cuda-lut, -lut8).
#pragma once

#include "cuda/buffered_simulator.cuh"
#include "cuda/hex_lut.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <memory>
#include <utility>

namespace lifebench::hex {

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

/// Writes a table of a LutSimulator for `rule` on `stream` (on the host or the device).
using FillTable = void (*)(cuda::DeviceBuffer<std::uint8_t>& table, const Rule& rule,
                           cudaStream_t stream);

/// The registration of the table experiment `about` (hex-cuda-lut, -lut8), whose table has
/// 2^`index_bits` entries, which `fill` writes.
template <class Lookup> ExperimentInfo lut_experiment(About about, int index_bits, FillTable fill) {
  ExperimentInfo info{.about = std::move(about)};
  info.unavailable = cuda::unavailable_for<&lut_step<true, Lookup>>;
  info.unsupported = [](const Problem& problem, const Params&) { return lut_unsupported(problem); };
  info.make = [index_bits, fill](const Problem& problem,
                                 const Params&) -> std::unique_ptr<Simulator> {
    return std::make_unique<LutSimulator<Lookup>>(
        problem, std::size_t{1} << index_bits,
        [&](auto& table, cudaStream_t stream) { fill(table, problem.rule, stream); });
  };
  return info;
}

} // namespace lifebench::hex
