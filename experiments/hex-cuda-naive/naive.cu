// Seed 004's naive CUDA version: one byte per cell, one thread per cell, one
// launch per generation; each thread adds its six hexagonal neighbours and reads
// its next state from the 14-entry rule table (count + 7 * alive) in constant
// memory, as the seed's naive_kernel_single_iteration does.
#include "common/hex.hpp"
#include "cuda/hex_bytes.cuh"
#include "cuda/hex_grid.cuh"

#include <cstdint>

namespace lifebench {
namespace {

constexpr unsigned kBlockX = 32; // one warp along a row
constexpr unsigned kBlockY = 8;

template <bool Torus>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    naive_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
               int height) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= width || y >= height) return;
  hex::update_cell<Torus>(in, out, x, y, width, height);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::hex::byte_kernel_experiment(
    {"hex-cuda-naive", "hex", "cuda", "seed 004 \"Design process\": naive_kernel_single_iteration",
     "one byte per cell, one thread per cell (32x8 blocks), six neighbour loads, "
     "rule table in constant memory, one generation per launch"},
    {&lifebench::naive_step<true>, &lifebench::naive_step<false>,
     dim3(lifebench::kBlockX, lifebench::kBlockY), dim3(lifebench::kBlockX, lifebench::kBlockY)}))
