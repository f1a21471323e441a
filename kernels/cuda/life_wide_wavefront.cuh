// The wavefront schedule of cuda/life_wide.cuh, for any rule of one bit a cell whose next
// state reads the rows above and below and the cells beside: cuda-life-wide's B3/S23
// (life_wide_kernels.cuh) and hex-cuda-bitsliced's hexagonal rules. A warp's 32 lanes hold
// 32 adjacent 32-bit words of a row (lanes 0 and 31 only feed their neighbours); each lane
// streams a column of `rows` + 2 S rows down through S generations held at once, generation
// k one row behind generation k - 1: each row is read once and each cell of generation S
// written once. What a generation keeps between rows, and how it completes one, is the
// Step's.
#pragma once

#include "cuda/life_lop3.cuh"
#include "cuda/life_wide.cuh"

#include <algorithm>
#include <cstdint>
#include <cuda_runtime.h>
#include <type_traits>

namespace lifebench::cuda::life_wide {

constexpr int kAhead = 4; // wavefront_steps: rows loaded ahead

/// The multipliers of Shifts::multiply, kernel arguments so that they stay multiplications.
struct Multipliers {
  std::uint32_t two;
  std::uint32_t half;
};

/// A row word's cells' west and east neighbours, the words beside it coming from the
/// adjacent lanes (lanes 0 and 31 get their own, wrong), shifted `How`.
struct Beside {
  std::uint32_t west;
  std::uint32_t east;
};

template <Shifts How> __device__ __forceinline__ Beside beside(std::uint32_t x, Multipliers m) {
  const std::uint32_t left = __shfl_up_sync(0xFFFFFFFFU, x, 1);
  const std::uint32_t right = __shfl_down_sync(0xFFFFFFFFU, x, 1);
  return {How == Shifts::multiply ? life::west_multiply(x, left, m.two) : life::west(x, left),
          How == Shifts::funnel ? life::east(x, right) : life::east_multiply(x, right, m.half)};
}

/// Row `row` of the column whose row-0 word `column` points at, rows `row_bytes` apart:
/// 64-bit (a universe may hold 2^32 words or more: 512K x 512K cells are 2^33) in one
/// IMAD.WIDE.U32, where a 32-bit word index took two instructions.
template <class Word>
__device__ __forceinline__ Word* at_row(Word* column, unsigned row, unsigned row_bytes) {
  using Byte = std::conditional_t<std::is_const_v<Word>, const char, char>;
  return reinterpret_cast<Word*>(reinterpret_cast<Byte*>(column) +
                                 static_cast<std::size_t>(row) * row_bytes);
}

/// Wavefront schedule: warp (blockIdx.x, blockIdx.y * kWarpsPerBlock + threadIdx.y) writes
/// words [c, c + 30) of rows [r, r + rows), its lanes streaming words c - 1 ... c + 30 of
/// rows r - S ... r + rows + S - 1, wrapped around (torus). `step(level, v)` takes row i + 1
/// of a generation and returns row i of the next, `level` (a Step::Level, zero at first)
/// keeping what row i + 1 needs when row i + 2 comes. As the rows and cells near the ends go
/// wrong, one more each generation, the first S and last S rows of a column are not written,
/// nor lanes 0 and 31 (right up to 32 generations), whatever the (zero) initial state.
/// `rows` is at most `height` (launch_wavefront), so the rows written do not wrap around
/// (life::first_output): only the rows read do.
template <int S, class Step>
__global__ void __launch_bounds__(kWarp* kWarpsPerBlock, 3)
    wavefront_steps(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                    unsigned words_per_row, unsigned height, unsigned tiles, unsigned rows,
                    Step step) {
  const unsigned tile = blockIdx.y * kWarpsPerBlock + threadIdx.y;
  if (tile >= tiles) return; // whole warps only
  const unsigned lane = threadIdx.x;
  const bool writes = lane - 1U < kWarp - 2U; // not lanes 0 and 31
  const unsigned column = life::wrap(
      static_cast<long long>(life::first_output(blockIdx.x, kOutputWords, words_per_row)) - 1 +
          lane,
      words_per_row);
  const unsigned first = life::first_output(tile, rows, height);
  unsigned load_row = life::wrap(static_cast<long long>(first) - S, height);
  const unsigned row_bytes = words_per_row * 4U;

  typename Step::Level level[S] = {};
  // Rows loaded kAhead ahead of their use: more loads in flight per warp.
  std::uint32_t ahead[kAhead];
  const auto load = [&] {
    const std::uint32_t v = __ldg(at_row(in + column, load_row, row_bytes));
    load_row = load_row + 1 == height ? 0 : load_row + 1;
    return v;
  };
#pragma unroll
  for (int a = 0; a < kAhead; ++a) {
    ahead[a] = load();
  }
  // The next row of generation 0 in, through every generation: row j of generation 0 in,
  // row j - S of generation S out, the j-th call.
  const auto next = [&] {
    std::uint32_t v = ahead[0];
#pragma unroll
    for (int a = 0; a + 1 < kAhead; ++a) {
      ahead[a] = ahead[a + 1];
    }
    ahead[kAhead - 1] = load();
#pragma unroll
    for (int k = 0; k < S; ++k) {
      v = step(level[k], v); // row j - k of generation k in, row j - k - 1 of k + 1 out
    }
    return v;
  };
  // The first 2 S rows out are above the rows written: in a loop of their own, the one
  // below tests neither that nor whether its row wraps around.
#pragma unroll 1
  for (unsigned j = 0; j < 2 * S; ++j) {
    next();
  }
#pragma unroll 3
  for (unsigned j = 0; j < rows; ++j) {
    const std::uint32_t v = next();
    if (writes) *at_row(out + column, first + j, row_bytes) = v;
  }
}

/// Enqueues wavefront_steps<S> on `stream` over a torus of `height` rows of `words_per_row`
/// words, `rows` rows a lane writes (`height` where `rows` is more: all of them, once).
template <int S, class Step>
void launch_wavefront(const std::uint32_t* in, std::uint32_t* out, unsigned words_per_row,
                      unsigned height, unsigned rows, const Step& step, cudaStream_t stream) {
  rows = std::min(rows, height);
  const LaunchGrid g = launch_grid(words_per_row, height, rows);
  const dim3 blocks(static_cast<unsigned>(g.groups), static_cast<unsigned>(g.block_rows()));
  wavefront_steps<S><<<blocks, dim3(kWarp, kWarpsPerBlock), 0, stream>>>(
      in, out, words_per_row, height, static_cast<unsigned>(g.tiles), rows, step);
}

} // namespace lifebench::cuda::life_wide
