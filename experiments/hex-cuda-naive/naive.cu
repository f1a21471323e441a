// Seed 004's naive CUDA version: one byte per cell, one thread per cell, one
// launch per generation; each thread adds its six hexagonal neighbours and reads
// its next state from the 14-entry rule table (count + 7 * alive) in constant
// memory, as the seed's naive_kernel_single_iteration does.
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

constexpr unsigned kBlockX = 32; // one warp along a row
constexpr unsigned kBlockY = 8;

template <bool Torus>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    naive_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
               int height) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= width || y >= height) return;
  const unsigned count = hex::neighbour_count<Torus>(in, x, y, width, height);
  const std::size_t index =
      static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
  out[index] = rule_table[count + 7U * in[index]];
}

std::unique_ptr<Simulator> make(const Problem& problem, const Params&) {
  hex::copy_rule_table(rule_table, problem.rule);
  return std::make_unique<hex::ByteKernelSimulator<decltype(&naive_step<true>)>>(
      problem, &naive_step<true>, &naive_step<false>, dim3(kBlockX, kBlockY),
      dim3(kBlockX, kBlockY));
}

std::optional<std::string> unsupported(const Problem& problem, const Params&) {
  return hex::block_rows_unsupported(problem, kBlockY);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "hex-cuda-naive",
    .family = "hex",
    .backend = "cuda",
    .source = "seed 004 \"Design process\": naive_kernel_single_iteration",
    .technique = "one byte per cell, one thread per cell (32x8 blocks), six neighbour loads, "
                 "rule table in constant memory, one generation per launch",
    .axes = {},
    .unavailable = [] { return lifebench::cuda::unavailable_reason(&lifebench::naive_step<true>); },
    .unsupported = lifebench::unsupported,
    .make = lifebench::make})
