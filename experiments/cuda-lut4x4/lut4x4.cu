// The slides' version 2 (seed 002, "Lookup table 4x4"): one byte per cell, 32x32
// threads per block updating 64x64 cells from a 66x66 tile in shared memory, each
// thread its 2x2 cells with one lookup in a 65536-entry table indexed by their 4x4
// neighbourhood. One generation per launch.
#include "common/lut4x4.hpp"
#include "cuda/buffered_simulator.cuh"
#include "cuda/grid_limits.cuh"
#include "cuda/lut4x4_table.cuh"
#include "lifebench/experiment.hpp"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

constexpr int kThreads = 32;                        // 32x32 threads per block
constexpr int kTile = 2 * kThreads;                 // 64x64 cells per block
constexpr int kHalo = kTile + 2;                    // 66x66 cells in shared memory
constexpr int kBorderCells = 2 * kHalo + 2 * kTile; // the tile's outer ring: 260 cells
constexpr int kWordsPerRow = kTile / 4;             // interior rows loaded as 4-byte words
static_assert(kTile * kWordsPerRow == kThreads * kThreads, "one interior word per thread");
static_assert(kBorderCells <= kThreads * kThreads, "one border cell per thread at most");

/// Cell (x, y), at most one cell outside the grid: wrapped (torus) or dead.
template <bool Torus>
__device__ std::uint8_t cell_at(const std::uint8_t* in, int x, int y, int width, int height) {
  if constexpr (Torus) {
    x = x < 0 ? x + width : (x == width ? 0 : x);
    y = y < 0 ? y + height : (y == height ? 0 : y);
  } else if (x < 0 || x >= width || y < 0 || y >= height) {
    return 0;
  }
  return in[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
            static_cast<std::size_t>(x)];
}

template <bool Torus>
__global__ void __launch_bounds__(kThreads* kThreads)
    lut_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
             const std::uint8_t* __restrict__ lut, int width, int height) {
  // Byte j of row i is cell (x0 - 1 + j, y0 - 1 + i). Declared as 16-bit pairs so that a
  // thread reads its 4x4 (bytes 2tx .. 2tx + 3 of four rows) as eight aligned pairs;
  // filled bytewise through a byte pointer.
  __shared__ std::uint16_t tile[kHalo][kHalo / 2];
  auto* tile_bytes = reinterpret_cast<std::uint8_t*>(&tile[0][0]);
  const int x0 = static_cast<int>(blockIdx.x) * kTile;
  const int y0 = static_cast<int>(blockIdx.y) * kTile;
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int t = ty * kThreads + tx;
  const auto pitch = static_cast<std::size_t>(width);

  // Interior: 64 rows of 16 aligned 4-byte words (width and x0 are multiples of 64).
  {
    const int row = t / kWordsPerRow;
    const int word = t % kWordsPerRow;
    const std::uint32_t four = __ldg(reinterpret_cast<const std::uint32_t*>(
        in + static_cast<std::size_t>(y0 + row) * pitch + static_cast<std::size_t>(x0) +
        4 * static_cast<std::size_t>(word)));
    std::uint8_t* dst = tile_bytes + (row + 1) * kHalo + 1 + 4 * word;
#pragma unroll
    for (int b = 0; b < 4; ++b)
      dst[b] = static_cast<std::uint8_t>(four >> (8 * b));
  }
  // Ring: top row, bottom row, left column, right column, one cell per thread.
  if (t < kBorderCells) {
    int i = 0;
    int j = 0;
    if (t < kHalo) {
      j = t;
    } else if (t < 2 * kHalo) {
      i = kHalo - 1;
      j = t - kHalo;
    } else if (t < 2 * kHalo + kTile) {
      i = t - 2 * kHalo + 1;
    } else {
      i = t - 2 * kHalo - kTile + 1;
      j = kHalo - 1;
    }
    tile_bytes[i * kHalo + j] = cell_at<Torus>(in, x0 - 1 + j, y0 - 1 + i, width, height);
  }
  __syncthreads();

  std::uint32_t rows[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    rows[k] = lut4x4::row_bits(std::uint32_t{tile[2 * ty + k][tx]} |
                               (std::uint32_t{tile[2 * ty + k][tx + 1]} << 16));
  }
  const std::uint32_t entry =
      __ldg(lut + lut4x4::index_from_rows(rows[0], rows[1], rows[2], rows[3]));
  std::uint8_t* top =
      out + static_cast<std::size_t>(y0 + 2 * ty) * pitch + static_cast<std::size_t>(x0 + 2 * tx);
  *reinterpret_cast<std::uint16_t*>(top) = lut4x4::centre_row_cells(entry, 0);
  *reinterpret_cast<std::uint16_t*>(top + pitch) = lut4x4::centre_row_cells(entry, 1);
}

/// bytes_per_generation(): each cell read once and written once; re-reads of neighbours
/// and the table are left to the caches.
class Lut4x4Simulator final : public cuda::BufferedSimulator<cuda::CellBytes> {
public:
  explicit Lut4x4Simulator(const Problem& problem)
      : BufferedSimulator(problem), table_(problem.rule, stream()) {}

private:
  void launch(std::uint64_t generations) override {
    const Shape& shape = problem().shape;
    const dim3 grid(static_cast<unsigned>(shape.width / kTile),
                    static_cast<unsigned>(shape.height / kTile));
    const dim3 block(kThreads, kThreads);
    const auto width = static_cast<int>(shape.width);
    const auto height = static_cast<int>(shape.height);
    const auto kernel = torus() ? lut_step<true> : lut_step<false>;
    each_generation(generations, [&](const std::uint8_t* in, std::uint8_t* out) {
      kernel<<<grid, block, 0, stream()>>>(in, out, table_.data(), width, height);
    });
  }

  cuda::Lut4x4Table table_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& /*params*/) {
  return cuda::whole_tiles_unsupported(problem.shape, kTile,
                                       "each block of 32x32 threads updates a whole 64x64 tile",
                                       30); // int cell coordinates
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda-lut4x4", "square", "cuda", "seed 002 version 2 \"Lookup table 4x4\"",
              "one byte per cell, 66x66 shared-memory tile per 32x32 threads, each thread "
              "updates 2x2 cells with one lookup in a 65536-entry table of 4x4 neighbourhoods"},
    .unavailable = lifebench::cuda::unavailable_for<&lifebench::lut_step<true>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::Lut4x4Simulator>})
