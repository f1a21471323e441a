// Seed 004's "multiple threads per cell" attempt: the naive kernel with each
// thread updating two horizontally adjacent cells instead of one.
#include "common/hex.hpp"
#include "cuda/hex_bytes.cuh"
#include "cuda/hex_grid.cuh"

#include <cstdint>

namespace lifebench {
namespace {

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
    hex::update_cell<Torus>(in, out, x, y, width, height);
  }
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::hex::byte_kernel_experiment(
    {"hex-cuda-2cells", "hex", "cuda",
     "seed 004 \"Design process\": multiple cells per thread (failed attempt)",
     "one byte per cell, two adjacent cells per thread (32x8 threads = 64x8 cells "
     "a block), rule table in constant memory, one generation per launch"},
    {&lifebench::two_cell_step<true>, &lifebench::two_cell_step<false>,
     dim3(lifebench::kBlockX, lifebench::kBlockY),
     dim3(lifebench::kBlockX* lifebench::kCells, lifebench::kBlockY)}))
