// Seed 004's shared-memory attempt: each block copies its tile of cells and a
// one-cell border into shared memory, one thread per cell of tile and border
// (the border threads only load), then the tile's threads count neighbours in
// shared memory.
#include "common/hex.hpp"
#include "cuda/hex_bytes.cuh"
#include "cuda/hex_grid.cuh"

#include <cstdint>

namespace lifebench {
namespace {

constexpr int kTileX = 32; // cells updated by a block
constexpr int kTileY = 8;
constexpr int kLoadX = kTileX + 2; // threads of a block: tile and border
constexpr int kLoadY = kTileY + 2;

/// Coordinate `c` (one outside the grid at most matters) wrapped on a torus; -1 outside a plane.
template <bool Torus> __device__ __forceinline__ int wrap(int c, int size) {
  if (c >= 0 && c < size) return c;
  if (!Torus || c < -1 || c > size) return -1;
  return c < 0 ? size - 1 : 0;
}

template <bool Torus>
__global__ void __launch_bounds__(kLoadX* kLoadY)
    shared_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                int height) {
  __shared__ std::uint8_t tile[kLoadY][kLoadX];
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int x = static_cast<int>(blockIdx.x) * kTileX + tx - 1; // this thread's cell
  const int y = static_cast<int>(blockIdx.y) * kTileY + ty - 1;
  tile[ty][tx] = static_cast<std::uint8_t>(
      hex::cell_at(in, width, wrap<Torus>(x, width), wrap<Torus>(y, height)));
  __syncthreads();
  if (tx == 0 || tx == kLoadX - 1 || ty == 0 || ty == kLoadY - 1) return; // border loaders
  if (x >= width || y >= height) return;
  const unsigned count = tile[ty - 1][tx - 1] + tile[ty - 1][tx] + tile[ty][tx - 1] +
                         tile[ty][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 1];
  out[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] =
      hex::next_state(count, tile[ty][tx]);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::hex::byte_kernel_experiment(
    {"hex-cuda-shared", "hex", "cuda",
     "seed 004 \"Design process\": shared memory (failed attempt)",
     "one byte per cell, 32x8-cell tiles copied with a one-cell border into shared "
     "memory by 34x10 threads (border threads only load), rule table in constant "
     "memory, one generation per launch"},
    {&lifebench::shared_step<true>, &lifebench::shared_step<false>,
     dim3(lifebench::kLoadX, lifebench::kLoadY), dim3(lifebench::kTileX, lifebench::kTileY)}))
