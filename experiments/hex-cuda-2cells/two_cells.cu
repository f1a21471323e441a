// Seed 004's "multiple threads per cell" attempt: the naive kernel with each
// thread updating two horizontally adjacent cells instead of one.
#include "common/hex.hpp"
#include "cuda/hex_grid.cuh"
#include "cuda/hex_simulator.cuh"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

__constant__ std::uint8_t rule_table[14];

constexpr unsigned kBlockX = 32; // threads; 64 cells along a row
constexpr unsigned kBlockY = 8;
constexpr unsigned kCells = 2; // per thread

template <bool Torus>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    two_cell_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                  int height) {
  const int first = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) * kCells);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (y >= height) return;
#pragma unroll
  for (int x = first; x < first + static_cast<int>(kCells); ++x) {
    if (x >= width) return;
    const unsigned count = hex::neighbour_count<Torus>(in, x, y, width, height);
    const std::size_t index =
        static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
    out[index] = rule_table[count + 7U * in[index]];
  }
}

std::unique_ptr<Simulator> make(const Problem& problem, const Params&) {
  hex::copy_rule_table(rule_table, problem.rule);
  return std::make_unique<hex::ByteKernelSimulator<decltype(&two_cell_step<true>)>>(
      problem, &two_cell_step<true>, &two_cell_step<false>, dim3(kBlockX, kBlockY),
      dim3(kBlockX * kCells, kBlockY));
}

std::optional<std::string> unsupported(const Problem& problem, const Params&) {
  return hex::block_rows_unsupported(problem, kBlockY);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "hex-cuda-2cells",
    .family = "hex",
    .backend = "cuda",
    .source = "seed 004 \"Design process\": multiple cells per thread (failed attempt)",
    .technique = "one byte per cell, two adjacent cells per thread (32x8 threads = 64x8 cells "
                 "a block), rule table in constant memory, one generation per launch",
    .axes = {},
    .unavailable =
        [] { return lifebench::cuda::unavailable_reason(&lifebench::two_cell_step<true>); },
    .unsupported = lifebench::unsupported,
    .make = lifebench::make})
