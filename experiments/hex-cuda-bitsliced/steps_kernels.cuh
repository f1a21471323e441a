// hex-cuda-bitsliced's kernels (the two forms of a generation, bitsliced.cu describes them)
// and enqueue_on(), included only by the sources that instantiate it (steps.cuh lists them).
#pragma once

#include "steps.cuh"
#include "wavefront.cuh"

#include <cstddef>
#include <cstdint>

namespace lifebench::hex_bitsliced {

constexpr unsigned kFullMask = 0xFFFFFFFFU;

/// The word to the left's top bit, at the top (what hex::from_left reads), by one shuffle.
__device__ __forceinline__ Word left_word(Word word) {
  return static_cast<Word>(__shfl_up_sync(kFullMask, static_cast<std::uint32_t>(word >> 32), 1))
         << 32;
}
/// The word to the right's bit 0 (what hex::from_right reads), by one shuffle.
__device__ __forceinline__ Word right_word(Word word) {
  return __shfl_down_sync(kFullMask, static_cast<std::uint32_t>(word), 1);
}

/// Where a lane of warp `warp` works: the word column it holds (lanes 0 and 31, and columns
/// past the grid's words, only feed their neighbours), the rows it writes and the grid row
/// of its register row 0.
struct LanePlace {
  int lane;
  int column;    // may lie outside the grid's words
  int col;       // the column read: wrapped on the torus
  Word col_mask; // plane: the column's cells inside the width; 0 outside it
  int out_rows;  // rows written
  int first_row; // first row written
  int top;       // grid row of register row 0, wrapped on the torus
};

template <bool Torus> __device__ __forceinline__ LanePlace lane_place(int warp, const Geometry& g) {
  LanePlace p{};
  p.lane = static_cast<int>(threadIdx.x % kLanes);
  p.out_rows = kRows - 2 * g.steps;
  p.column = (warp % g.warps_x) * kOutLanes + p.lane - 1;
  p.first_row = (warp / g.warps_x) * p.out_rows;
  const int top = p.first_row - g.steps;
  // Torus: wrapped column and rows. Plane: what lies outside reads 0 and stays 0.
  p.col = p.column;
  if constexpr (Torus) {
    p.col = ((p.column % g.columns) + g.columns) % g.columns;
  } else {
    if (p.column >= 0 && p.column < g.columns) {
      p.col_mask = p.column + 1 == g.columns ? g.last_mask : ~Word{0};
    }
  }
  p.top = Torus ? ((top % g.height) + g.height) % g.height : top;
  return p;
}

/// Reads the lane's kRows words down its column from row p.top, giving register row j's to
/// `take(j, word)`; returns which register rows are grid rows (a plane's: bit j for row j).
template <bool Torus, class Take>
__device__ __forceinline__ std::uint64_t read_rows(const Word* __restrict__ in, const Geometry& g,
                                                   const LanePlace& p, Take take) {
  std::uint64_t rows_inside = 0;
  int y = p.top;
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    Word word = 0;
    if constexpr (Torus) {
      word = in[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.columns) +
                static_cast<std::size_t>(p.col)];
      y = y + 1 == g.height ? 0 : y + 1;
    } else {
      const bool inside = y >= 0 && y < g.height;
      rows_inside |= static_cast<std::uint64_t>(inside) << j;
      if (inside && p.col_mask != 0) {
        word = in[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.columns) +
                  static_cast<std::size_t>(p.col)];
      }
      ++y;
    }
    take(j, word);
  }
  return rows_inside;
}

/// Writes the lane's exact rows, register row j's word being `word_of(j)`, back to its
/// column; lanes 0 and 31 and columns past the grid's words write nothing.
template <bool Torus, class WordOf>
__device__ __forceinline__ void write_rows(Word* __restrict__ out, const Geometry& g,
                                           const LanePlace& p, WordOf word_of) {
  if (p.lane == 0 || p.lane == kLanes - 1 || p.column >= g.columns) return;
  int y = Torus ? ((p.first_row % g.height) + g.height) % g.height : p.first_row;
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    // Unrolled with a run-time test so that the rows stay in registers.
    const int r = j - g.steps; // row first_row + r
    if (r >= 0 && r < p.out_rows && p.first_row + r < g.height) {
      out[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.columns) +
          static_cast<std::size_t>(p.col)] = word_of(j);
      y = Torus && y + 1 == g.height ? 0 : y + 1;
    }
  }
}

// ---------------------------------------------------------------------------
// `tree`: 64-bit words, the full count and the multiplexer tree.

template <bool Torus, class Rule>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes)
    tree_steps(const Word* __restrict__ in, Word* __restrict__ out, Geometry g, Rule rule) {
  const int warp = static_cast<int>(blockIdx.x * kWarpsPerBlock + threadIdx.x / kLanes);
  if (warp >= g.warps) return; // whole warps leave: the shuffles below see full warps
  const LanePlace p = lane_place<Torus>(warp, g);
  Word row[kRows];
  const std::uint64_t rows_inside =
      read_rows<Torus>(in, g, p, [&](int j, Word word) { row[j] = word; });

  for (int s = 0; s < g.steps; ++s) {
    // Rows roll through (above, middle, below) with their cells' left and right
    // neighbours aligned; row 0 and row kRows-1 are not updated (halo).
    Word above = row[0];
    Word above_left = hex::from_left(above, left_word(above));
    Word middle = row[1];
    Word middle_left = hex::from_left(middle, left_word(middle));
    Word middle_right = hex::from_right(middle, right_word(middle));
#pragma unroll
    for (int j = 1; j < kRows - 1; ++j) {
      const Word below = row[j + 1];
      const Word below_left = hex::from_left(below, left_word(below));
      const Word below_right = hex::from_right(below, right_word(below));
      Word next = hex::step_word(rule, middle, above, above_left, middle_left, middle_right, below,
                                 below_right);
      if constexpr (!Torus) next &= ((rows_inside >> j) & 1U) != 0 ? p.col_mask : Word{0};
      above = middle;
      above_left = middle_left;
      middle = below;
      middle_left = below_left;
      middle_right = below_right;
      row[j] = next;
    }
  }

  write_rows<Torus>(out, g, p, [&](int j) { return row[j]; });
}

// ---------------------------------------------------------------------------
// `sums`: each word as two 32-bit halves (lo = cells 0..31, hi = 32..63), so that a
// shift with the neighbour's edge bit is one funnel shift a half, and the rule read
// from the adders' sums.

/// What a generation needs beside the rows: on a plane, which register rows are grid
/// rows (bit j for row j) and the lane's column mask; `two` (Geometry::two).
struct Plane {
  std::uint64_t rows_inside;
  Half mask_lo;
  Half mask_hi;
  Half two;
  Half top; // 2^31, from two
};

/// The halves with every cell's left neighbour in the cell's bit (hex::from_left): the
/// word to the left's top bit comes by one shuffle. Funnel shifts run on the logic
/// unit, which the count and rule keep busy; with Madd each half is instead
/// x * 2 + hi32(y * 2), two integer multiply-adds on the otherwise idle FMA pipe (a
/// literal 2 would be turned back into shifts and LEAs, hence plane.two).
template <bool Madd>
__device__ __forceinline__ void from_left(Half lo, Half hi, const Plane& plane, Half& left_lo,
                                          Half& left_hi) {
  const Half previous = __shfl_up_sync(kFullMask, hi, 1);
  if constexpr (Madd) {
    left_lo = lo * plane.two + __umulhi(previous, plane.two);
    left_hi = hi * plane.two + __umulhi(lo, plane.two);
  } else {
    left_lo = __funnelshift_l(previous, lo, 1);
    left_hi = __funnelshift_l(lo, hi, 1);
  }
}
/// The halves with every cell's right neighbour in the cell's bit (hex::from_right);
/// with Madd, hi32(x * 2^31) + y * 2^31 (2^31 = plane.top, for the same reason).
template <bool Madd>
__device__ __forceinline__ void from_right(Half lo, Half hi, const Plane& plane, Half& right_lo,
                                           Half& right_hi) {
  const Half next = __shfl_down_sync(kFullMask, lo, 1);
  if constexpr (Madd) {
    right_lo = __umulhi(lo, plane.top) + hi * plane.top;
    right_hi = __umulhi(hi, plane.top) + next * plane.top;
  } else {
    right_lo = __funnelshift_r(lo, hi, 1);
    right_hi = __funnelshift_r(hi, next, 1);
  }
}

/// One generation of register rows First..Last from rows First-1 .. Last+1; rows
/// (above, middle, below) roll through with their cells' left and right neighbours.
template <int First, int Last, bool Torus, bool Madd, class Rule>
__device__ __forceinline__ void generation(Half (&lo)[kRows], Half (&hi)[kRows], const Rule& rule,
                                           const Plane& plane) {
  static_assert(First >= 1 && Last <= kRows - 2 && First <= Last);
  Half above_lo = lo[First - 1];
  Half above_hi = hi[First - 1];
  Half above_left_lo;
  Half above_left_hi;
  from_left<Madd>(above_lo, above_hi, plane, above_left_lo, above_left_hi);
  Half middle_lo = lo[First];
  Half middle_hi = hi[First];
  Half middle_left_lo;
  Half middle_left_hi;
  Half middle_right_lo;
  Half middle_right_hi;
  from_left<Madd>(middle_lo, middle_hi, plane, middle_left_lo, middle_left_hi);
  from_right<Madd>(middle_lo, middle_hi, plane, middle_right_lo, middle_right_hi);
#pragma unroll
  for (int j = First; j <= Last; ++j) {
    const Half below_lo = lo[j + 1];
    const Half below_hi = hi[j + 1];
    Half below_left_lo = 0;
    Half below_left_hi = 0;
    if (j < Last) from_left<Madd>(below_lo, below_hi, plane, below_left_lo, below_left_hi);
    Half below_right_lo;
    Half below_right_hi;
    from_right<Madd>(below_lo, below_hi, plane, below_right_lo, below_right_hi);
    Half next_lo = hex::step_word_sums(rule, middle_lo, above_lo, above_left_lo, middle_left_lo,
                                       middle_right_lo, below_lo, below_right_lo);
    Half next_hi = hex::step_word_sums(rule, middle_hi, above_hi, above_left_hi, middle_left_hi,
                                       middle_right_hi, below_hi, below_right_hi);
    if constexpr (!Torus) {
      const bool inside = ((plane.rows_inside >> j) & 1U) != 0;
      next_lo &= inside ? plane.mask_lo : Half{0};
      next_hi &= inside ? plane.mask_hi : Half{0};
    }
    above_lo = middle_lo;
    above_hi = middle_hi;
    above_left_lo = middle_left_lo;
    above_left_hi = middle_left_hi;
    middle_lo = below_lo;
    middle_hi = below_hi;
    middle_left_lo = below_left_lo;
    middle_left_hi = below_left_hi;
    middle_right_lo = below_right_lo;
    middle_right_hi = below_right_hi;
    lo[j] = next_lo;
    hi[j] = next_hi;
  }
}

/// Generations Step .. Steps-1 of a launch of Steps, each over only the rows a later
/// one reads: after generation s rows s+1 .. kRows-2-s are exact, and only they are
/// read by generation s+1 (whose results within rows s+2 .. kRows-3-s are exact).
template <int Step, int Steps, bool Torus, bool Madd, class Rule>
__device__ __forceinline__ void trimmed_generations(Half (&lo)[kRows], Half (&hi)[kRows],
                                                    const Rule& rule, const Plane& plane) {
  if constexpr (Step < Steps) {
    generation<Step + 1, kRows - 2 - Step, Torus, Madd>(lo, hi, rule, plane);
    trimmed_generations<Step + 1, Steps, Torus, Madd>(lo, hi, rule, plane);
  }
}

/// Steps = 0: g.steps generations over all rows 1..kRows-2 in a loop; Steps > 0 (then
/// g.steps == Steps): unrolled generations over the rows they need (`sums-trim`).
template <bool Torus, bool Madd, class Rule, int Steps>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes)
    sums_steps(const Word* __restrict__ in, Word* __restrict__ out, Geometry g, Rule rule) {
  const int warp = static_cast<int>(blockIdx.x * kWarpsPerBlock + threadIdx.x / kLanes);
  if (warp >= g.warps) return; // whole warps leave: the shuffles below see full warps
  const LanePlace p = lane_place<Torus>(warp, g);
  Half lo[kRows];
  Half hi[kRows];
  Plane plane{0, static_cast<Half>(p.col_mask), static_cast<Half>(p.col_mask >> 32), g.two,
              g.two << 30};
  plane.rows_inside = read_rows<Torus>(in, g, p, [&](int j, Word word) {
    lo[j] = static_cast<Half>(word);
    hi[j] = static_cast<Half>(word >> 32);
  });

  if constexpr (Steps == 0) {
    for (int s = 0; s < g.steps; ++s) {
      generation<1, kRows - 2, Torus, Madd>(lo, hi, rule, plane);
    }
  } else {
    trimmed_generations<0, Steps, Torus, Madd>(lo, hi, rule, plane);
  }

  write_rows<Torus>(out, g, p, [&](int j) { return (static_cast<Word>(hi[j]) << 32) | lo[j]; });
}

/// The sums' kernel of a launch: a loop over g.steps (sums), or unrolled over the rows each
/// generation needs, a kernel for each count (sums-trim).
template <bool Torus, bool Madd, class HalfRule> auto sums_kernel(const Launch& launch) {
  if (launch.logic == Logic::sums) return sums_steps<Torus, Madd, HalfRule, 0>;
  switch (launch.g.steps) {
  case 1:
    return sums_steps<Torus, Madd, HalfRule, 1>;
  case 2:
    return sums_steps<Torus, Madd, HalfRule, 2>;
  case 4:
    return sums_steps<Torus, Madd, HalfRule, 4>;
  default:
    return sums_steps<Torus, Madd, HalfRule, 8>;
  }
}

template <bool Torus, class Rule, class HalfRule>
void enqueue_on(const Launch& launch, const Rule& rule, const HalfRule& half_rule) {
  if (launch.logic == Logic::wavefront) {
    if constexpr (Torus) enqueue_wavefront(launch, half_rule); // bitsliced.cu: torus only
    return;
  }
  const unsigned blocks =
      (static_cast<unsigned>(launch.g.warps) + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const unsigned threads = kWarpsPerBlock * kLanes;
  if (launch.logic == Logic::tree) {
    tree_steps<Torus><<<blocks, threads, 0, launch.stream>>>(launch.in, launch.out, launch.g, rule);
    return;
  }
  const auto kernel = launch.madd ? sums_kernel<Torus, true, HalfRule>(launch)
                                  : sums_kernel<Torus, false, HalfRule>(launch);
  kernel<<<blocks, threads, 0, launch.stream>>>(launch.in, launch.out, launch.g, half_rule);
}

} // namespace lifebench::hex_bitsliced
