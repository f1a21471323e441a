// The device side of life_wide.cuh: the kernels (wide_steps, rows in registers;
// wavefront_steps of life_wide_wavefront.cuh with B3/S23's step, rows streamed) and one
// launch of them. Included by life_wide_shifts.cu alone, which instantiates that launch for
// one way of shifting.
#pragma once

#include "cuda/life_lop3.cuh"
#include "cuda/life_wide.cuh"
#include "cuda/life_wide_wavefront.cuh"

#include <cstdint>
#include <cuda_runtime.h>

namespace lifebench::cuda::life_wide {

namespace life = cuda::life;

/// A row whose word this lane holds: its west and east neighbour words and its
/// horizontal three-cell sums.
struct Row {
  std::uint32_t west;
  std::uint32_t east;
  life::RowSum sum;
};

template <Shifts How> __device__ __forceinline__ Row row_of(std::uint32_t x, Multipliers m) {
  const Beside b = beside<How>(x, m);
  return {b.west, b.east, life::row_sum(b.west, x, b.east)};
}

/// Warp (blockIdx.x, blockIdx.y * kWarpsPerBlock + threadIdx.y): words [c, c + 30)
/// of rows [r, r + R - 2 * steps) are written, lanes holding words c - 1 ... c + 30
/// of rows r - steps ... r + R - steps - 1, wrapped around (torus).
template <int R, Shifts How>
__global__ void __launch_bounds__(kWarp* kWarpsPerBlock)
    wide_steps(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
               unsigned words_per_row, unsigned height, unsigned tiles, int steps, Multipliers m) {
  const unsigned tile = blockIdx.y * kWarpsPerBlock + threadIdx.y;
  if (tile >= tiles) return; // whole warps only
  const unsigned lane = threadIdx.x;
  const unsigned rows = static_cast<unsigned>(R - 2 * steps);
  const unsigned column = life::wrap(
      static_cast<long long>(life::first_output(blockIdx.x, kOutputWords, words_per_row)) - 1 +
          lane,
      words_per_row);
  const unsigned first_row =
      life::wrap(static_cast<long long>(life::first_output(tile, rows, height)) - steps, height);

  const unsigned row_bytes = words_per_row * 4U;
  std::uint32_t x[R];
  unsigned row = first_row;
#pragma unroll
  for (int i = 0; i < R; ++i) {
    x[i] = __ldg(at_row(in + column, row, row_bytes));
    row = row + 1 == height ? 0 : row + 1;
  }

  // Rows 0 and R - 1 are never updated: one more row at each end goes wrong per generation.
  for (int s = 0; s < steps; ++s) {
    // The rule on three row sums (7 LOP3), not the SAT solver's 6 of wavefront_steps:
    // with those, nvcc 13.0 gives this kernel 255 registers and spills at R = 64 and
    // above (80 and 168 registers with these at R = 64 and 128), and it ran 3.4 times
    // slower at R = 128.
    life::RowSum above = row_of<How>(x[0], m).sum;
    life::RowSum mid = row_of<How>(x[1], m).sum;
#pragma unroll
    for (int i = 1; i < R - 1; ++i) {
      const life::RowSum below = row_of<How>(x[i + 1], m).sum;
      x[i] = life::step_row_sums(above, mid, below, x[i]);
      above = mid;
      mid = below;
    }
  }

  if (lane == 0 || lane == kWarp - 1) return;
  // Opaque to the compiler: otherwise it keeps every load's address live through the
  // generations for the stores, two registers per row, or rebuilds the column's pointer
  // for each store (the stores then branch instead of being predicated).
  row = first_row;
  std::uint32_t* column_out = out + column;
  asm volatile("" : "+r"(row), "+l"(column_out));
  __builtin_assume(__isGlobal(column_out)); // STG, not a generic store
#pragma unroll
  for (int i = 0; i < R; ++i) {
    if (i >= steps && i < R - steps) *at_row(column_out, row, row_bytes) = x[i];
    row = row + 1 == height ? 0 : row + 1;
  }
}

/// B3/S23's step of the wavefront schedule (wavefront_steps): row i + 1 of a generation
/// completes row i of the next by the SAT solver's sequence on row sums, 6 LOP3 (2 as
/// soon as row i arrived, 4 when row i + 1 does) beside row i + 1's own sums (2 LOP3).
template <Shifts How> struct LifeStep {
  /// What a generation keeps for the row it completes next: the first half of its step
  /// (the row above's sums with the row's west and east words), its cells, and its sums
  /// (for the row after it).
  struct Level {
    life::Sat10Begun begun;
    std::uint32_t center;
    life::RowSum sum;
  };

  Multipliers m;

  __device__ __forceinline__ std::uint32_t operator()(Level& level, std::uint32_t v) const {
    const Row below = row_of<How>(v, m);
    const std::uint32_t cells = life::sat10_end(level.begun, below.sum, level.center);
    level = {life::sat10_begin(level.sum, below.west, below.east), v, below.sum};
    return cells;
  }
};

namespace detail {

template <Shifts How>
int launch(const Config& config, const std::uint32_t* in, std::uint32_t* out,
           unsigned words_per_row, unsigned height, std::uint64_t generations,
           cudaStream_t stream) {
  const dim3 block(kWarp, kWarpsPerBlock);
  const Multipliers m = kMultipliers;
  const auto grid = [&](unsigned rows) {
    const LaunchGrid g = launch_grid(words_per_row, height, rows);
    return std::pair{dim3(static_cast<unsigned>(g.groups), static_cast<unsigned>(g.block_rows())),
                     static_cast<unsigned>(g.tiles)};
  };
  const int steps = steps_of(config, generations);
  if (config.schedule == Schedule::wavefront) {
    const auto rows = static_cast<unsigned>(config.rows);
    const LifeStep<How> step{m};
    with_steps<1, 4, 8, 16>(steps, [&]<int S>() {
      launch_wavefront<S>(in, out, words_per_row, height, rows, step, stream);
    });
    return steps;
  }
  const auto [blocks, tiles] = grid(static_cast<unsigned>(config.rows - 2 * steps));
  switch (config.rows) {
  case 64:
    wide_steps<64, How>
        <<<blocks, block, 0, stream>>>(in, out, words_per_row, height, tiles, steps, m);
    break;
  case 128:
    wide_steps<128, How>
        <<<blocks, block, 0, stream>>>(in, out, words_per_row, height, tiles, steps, m);
    break;
  default:
    wide_steps<192, How>
        <<<blocks, block, 0, stream>>>(in, out, words_per_row, height, tiles, steps, m);
    break;
  }
  return steps;
}

template <Shifts How>
void launch_persistent(const Config& config, std::uint32_t* a, std::uint32_t* b,
                       unsigned words_per_row, unsigned height, unsigned passes, unsigned* progress,
                       cudaStream_t stream) {
  const LifeStep<How> step{kMultipliers};
  const auto rows = static_cast<unsigned>(config.rows);
  with_steps<4, 8, 16>(config.steps, [&]<int S>() {
    if (config.launch == Launch::pipelined) {
      launch_wavefront_pipelined<S>(a, b, words_per_row, height, rows, passes, progress, step,
                                    stream);
    } else {
      launch_wavefront_persistent<S>(a, b, words_per_row, height, rows, passes, progress, step,
                                     stream);
    }
  });
}

} // namespace detail

} // namespace lifebench::cuda::life_wide
