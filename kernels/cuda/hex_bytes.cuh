// The byte-per-cell kernels of seed 004's design process (hex-cuda-naive, -shared, -2cells,
// -skipdead, -activelist): the rule table in constant memory they read, a cell's update, and
// for the kernels launched once per generation with nothing else, their simulator and
// registration.
#pragma once

#include "cuda/buffered_simulator.cuh"
#include "cuda/error.cuh"
#include "cuda/hex_grid.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <memory>
#include <utility>

namespace lifebench::hex {
// Internal linkage for the table and all that fills or reads it: each file that includes this
// header has its own table and its own copies of these (`static` where a kernel names them as
// hex::..., which an unnamed namespace would leave behind common/hex.hpp's of the same name).
namespace {

/// The seed's 14-entry rule table, count + 7 * alive, filled by load_rule_table().
__constant__ std::uint8_t rule_table[14];

} // namespace

/// Fills rule_table for `rule`.
static void load_rule_table(const Rule& rule) {
  copy_rule_table(rule_table, rule);
}

/// The next state of a cell with `count` live neighbours.
static __device__ __forceinline__ std::uint8_t next_state(unsigned count, unsigned alive) {
  return rule_table[count + 7U * alive];
}

/// Writes the next state of cell (x, y) of a byte-per-cell grid into `out`.
template <bool Torus>
static __device__ __forceinline__ void update_cell(const std::uint8_t* __restrict__ in,
                                                   std::uint8_t* __restrict__ out, int x, int y,
                                                   int width, int height) {
  const unsigned count = neighbour_count<Torus>(in, x, y, width, height);
  const std::size_t index =
      static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
  out[index] = next_state(count, in[index]);
}

/// A byte-per-cell kernel(in, out, width, height) launched once per generation: its torus
/// and plane forms, the threads of a block and the cells (x, y) a block updates.
struct ByteKernel {
  using Step = void (*)(const std::uint8_t*, std::uint8_t*, int, int);
  Step torus;
  Step plane;
  dim3 threads;
  dim3 cells;
};

namespace {

class ByteKernelSimulator final : public cuda::BufferedSimulator<cuda::CellBytes> {
public:
  ByteKernelSimulator(const Problem& problem, const ByteKernel& kernel)
      : BufferedSimulator(problem),
        step_(problem.boundary == Boundary::torus ? kernel.torus : kernel.plane),
        block_(kernel.threads),
        grid_(static_cast<unsigned>((problem.shape.width + kernel.cells.x - 1) / kernel.cells.x),
              static_cast<unsigned>((problem.shape.height + kernel.cells.y - 1) / kernel.cells.y)) {
    load_rule_table(problem.rule);
  }

private:
  void launch(std::uint64_t generations) override {
    const auto width = static_cast<int>(problem().shape.width);
    const auto height = static_cast<int>(problem().shape.height);
    each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) {
      step_<<<grid_, block_, 0, stream()>>>(in, out, width, height);
    });
  }

  ByteKernel::Step step_;
  dim3 block_;
  dim3 grid_;
};

/// The registration of the ByteKernel experiment `about` (hex-cuda-naive, -shared, -2cells):
/// its availability, the heights its blocks cover and its simulator follow from the kernel.
ExperimentInfo byte_kernel_experiment(About about, const ByteKernel& kernel) {
  ExperimentInfo info{.about = std::move(about)};
  info.unavailable = [step = kernel.torus] { return cuda::unavailable_reason(step); };
  info.unsupported = [rows = kernel.cells.y](const Problem& problem, const Params&) {
    return block_rows_unsupported(problem, rows);
  };
  info.make = [kernel](const Problem& problem, const Params&) -> std::unique_ptr<Simulator> {
    return std::make_unique<ByteKernelSimulator>(problem, kernel);
  };
  return info;
}

} // namespace
} // namespace lifebench::hex
