// hex-cuda-bitsliced's `wavefront` launch (logic=wavefront, torus only): cuda-life-wide's
// wavefront schedule (kernels/cuda/life_wide_wavefront.cuh) with the hexagonal step. Each
// lane streams a column of 32-bit words through the launch's generations at once; per row
// and generation its west and east words (a shuffle and a funnel shift each, or
// multiply-adds), two full adders and the rule from their sums (4 LOP3 for the rules
// compiled in): 8 LOP3 a row of 32 cells, the column's rows + 2 S rows for its rows written.
// Included by steps_kernels.cuh only.
#pragma once

#include "cuda/life_wide_wavefront.cuh"
#include "steps.cuh"

#include <cstdint>

namespace lifebench::hex_bitsliced {

/// The hexagonal step of the wavefront schedule: row i + 1 of a generation completes row i
/// of the next. Row i's neighbours (Golly's H) are row i - 1's cells and their west
/// neighbours, row i's west and east neighbours, row i + 1's cells and their east
/// neighbours: the first three's full adder is begun when row i arrives, the other three's
/// when row i + 1 does, and the rule reads its next state from the two adders' sums.
template <cuda::life_wide::Shifts How, class Rule> struct HexStep {
  /// What a generation keeps for the row it completes next, row i: its first full adder,
  /// its cells and their west and east neighbours.
  struct Level {
    hex::FullSum<Half> begun;
    Half center;
    Half west;
    Half east;
  };

  Rule rule;
  cuda::life_wide::Multipliers m; ///< from Geometry::two: multiply-add shifts stay so

  __device__ __forceinline__ Half operator()(Level& level, Half v) const {
    const cuda::life_wide::Beside below = cuda::life_wide::beside<How>(v, m);
    const hex::FullSum<Half> ended = hex::full_adder(level.east, v, below.east);
    const Half cells = hex::next_from_sums(
        rule, level.center, {level.begun.sum, level.begun.carry, ended.sum, ended.carry});
    level = {hex::full_adder(level.center, level.west, below.west), v, below.west, below.east};
    return cells;
  }
};

/// Enqueues `launch` (g.steps: 1, 2, 4 or 8 generations, g.rows rows a lane writes) with the
/// wavefront schedule on a torus, its shifts `How`.
template <cuda::life_wide::Shifts How, class HalfRule>
void enqueue_shifted_wavefront(const Launch& launch, const HalfRule& half_rule) {
  namespace wide = cuda::life_wide;
  const Geometry& g = launch.g;
  const auto* in = reinterpret_cast<const std::uint32_t*>(launch.in);
  auto* out = reinterpret_cast<std::uint32_t*>(launch.out);
  const auto words = static_cast<unsigned>(2 * g.columns);
  const auto height = static_cast<unsigned>(g.height);
  const auto rows = static_cast<unsigned>(g.rows);
  const HexStep<How, HalfRule> step{half_rule, {g.two, g.two << 30}};
  wide::with_steps<1, 2, 4, 8>(g.steps, [&]<int S>() {
    wide::launch_wavefront<S>(in, out, words, height, rows, step, launch.stream);
  });
}

/// enqueue_shifted_wavefront by launch.madd: multiply-adds or funnel shifts.
template <class HalfRule> void enqueue_wavefront(const Launch& launch, const HalfRule& half_rule) {
  using cuda::life_wide::Shifts;
  if (launch.madd) {
    enqueue_shifted_wavefront<Shifts::multiply>(launch, half_rule);
  } else {
    enqueue_shifted_wavefront<Shifts::funnel>(launch, half_rule);
  }
}

} // namespace lifebench::hex_bitsliced
