// The slides' version 3 (seed 002, "uint16 (Bit-Packing)"): one uint16 holds 4x4
// cells, one thread per uint16, 32x32 threads per block (128x128 cells); each thread
// reads the 3x3 uint16 around its own and makes the next one with four lookups in the
// 4x4 table of version 2, one per 2x2 quadrant. One generation per launch.
#include "blocks.hpp"
#include "cuda/buffered_simulator.cuh"
#include "cuda/grid_limits.cuh"
#include "cuda/lut4x4_table.cuh"
#include "lifebench/experiment.hpp"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lifebench {
namespace {

constexpr int kThreads = 32;                   // 32x32 threads per block, one uint16 each
constexpr int kTile = kThreads * blocks::side; // 128x128 cells per block

/// uint16 (x, y), at most one outside the grid: wrapped (torus) or dead.
template <bool Torus>
__device__ std::uint32_t block_at(const std::uint16_t* in, int x, int y, int blocks_x,
                                  int blocks_y) {
  if constexpr (Torus) {
    x = x < 0 ? x + blocks_x : (x == blocks_x ? 0 : x);
    y = y < 0 ? y + blocks_y : (y == blocks_y ? 0 : y);
  } else if (x < 0 || x >= blocks_x || y < 0 || y >= blocks_y) {
    return 0;
  }
  return __ldg(in + static_cast<std::size_t>(y) * static_cast<std::size_t>(blocks_x) +
               static_cast<std::size_t>(x));
}

template <bool Torus>
__global__ void __launch_bounds__(kThreads* kThreads)
    uint16_step(const std::uint16_t* __restrict__ in, std::uint16_t* __restrict__ out,
                const std::uint8_t* __restrict__ lut, int blocks_x, int blocks_y) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  std::uint32_t around[3][3];
#pragma unroll
  for (int dy = -1; dy < 2; ++dy) {
#pragma unroll
    for (int dx = -1; dx < 2; ++dx) {
      around[dy + 1][dx + 1] = block_at<Torus>(in, x + dx, y + dy, blocks_x, blocks_y);
    }
  }
  const blocks::Window window = blocks::window(around);
  std::uint32_t next = 0;
#pragma unroll
  for (int qr = 0; qr < 2; ++qr) {
#pragma unroll
    for (int qc = 0; qc < 2; ++qc) {
      next |= blocks::place_quadrant(__ldg(lut + blocks::quadrant_index(window, qr, qc)), qr, qc);
    }
  }
  out[static_cast<std::size_t>(y) * static_cast<std::size_t>(blocks_x) +
      static_cast<std::size_t>(x)] = static_cast<std::uint16_t>(next);
}

/// One uint16 a 4x4 block of cells (blocks.hpp), as a cuda::BufferedSimulator layout.
struct BlockWords {
  using Word = std::uint16_t;
  static std::size_t words(const Shape& shape) {
    return static_cast<std::size_t>(shape.cells() / (blocks::side * blocks::side));
  }
  static std::vector<std::uint16_t> pack(const Grid& grid) { return blocks::pack(grid); }
  static void unpack(std::span<const std::uint16_t> words, Grid& grid) {
    blocks::unpack(words, grid);
  }
};

/// bytes_per_generation(): each uint16 read once and written once; re-reads of neighbours
/// and the table are left to the caches.
class Uint16LutSimulator final : public cuda::BufferedSimulator<BlockWords> {
public:
  explicit Uint16LutSimulator(const Problem& problem)
      : BufferedSimulator(problem), table_(problem.rule, stream()) {}

private:
  void launch(std::uint64_t generations) override {
    const Shape& shape = problem().shape;
    const auto blocks_x = static_cast<int>(shape.width / blocks::side);
    const auto blocks_y = static_cast<int>(shape.height / blocks::side);
    const dim3 grid(static_cast<unsigned>(blocks_x / kThreads),
                    static_cast<unsigned>(blocks_y / kThreads));
    const dim3 block(kThreads, kThreads);
    const auto kernel = torus() ? uint16_step<true> : uint16_step<false>;
    each_generation(generations, [&](const std::uint16_t* in, std::uint16_t* out) {
      kernel<<<grid, block, 0, stream()>>>(in, out, table_.data(), blocks_x, blocks_y);
    });
  }

  cuda::Lut4x4Table table_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& /*params*/) {
  return cuda::whole_tiles_unsupported(problem.shape, kTile,
                                       "a uint16 holds 4x4 cells and each block of 32x32 threads "
                                       "updates a whole 128x128 tile",
                                       32); // int uint16 coordinates
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda-uint16-lut", "square", "cuda", "seed 002 version 3 \"uint16 (Bit-Packing)\"",
              "one uint16 per 4x4 cells, one thread per uint16 reading its 3x3 neighbours, "
              "four lookups in the 65536-entry 4x4 table per uint16"},
    .unavailable = lifebench::cuda::unavailable_for<&lifebench::uint16_step<true>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::Uint16LutSimulator>})
