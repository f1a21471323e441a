// Bit-sliced hexagonal automaton (ours): 64 cells per word, the six-neighbour
// count in three bit-planes by bit-sliced adders and the rule as bitwise logic
// (kernels/common/hex.hpp), several generations per launch in registers.
//
// A warp holds a strip 32 words (2048 cells) wide and kRows rows high, one
// 64-bit column of kRows words per lane. Neighbour words across lanes come by
// warp shuffle; the outer lanes and the top and bottom `steps` rows are halo
// recomputed by the neighbouring warps, so after `steps` generations lanes
// 1..30 and rows steps .. kRows-1-steps are exact and are written back.
#include "common/hex.hpp"
#include "cuda/buffered_simulator.cuh"
#include "lifebench/experiment.hpp"
#include "lifebench/packed.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

using Word = std::uint64_t;
constexpr int kRows = 40;  // a lane's rows, in registers (48 spills with a dead boundary)
constexpr int kLanes = 32; // one warp across
constexpr int kOutLanes = kLanes - 2; // lanes 0 and 31 are halo
constexpr unsigned kWarpsPerBlock = 2;
constexpr unsigned kFullMask = 0xFFFFFFFFU;

// Rules compiled into the kernel (others run through hex::RuntimeRule).
using B2S34 = hex::StaticRule<(1U << 2), (1U << 3) | (1U << 4)>;
using B245S3 = hex::StaticRule<(1U << 2) | (1U << 4) | (1U << 5), (1U << 3)>;
using B2S = hex::StaticRule<(1U << 2), 0U>;

struct Geometry {
  int columns;    // words per row
  int height;     // rows
  int steps;      // generations this launch
  int warps_x;    // warps across a row
  int warps;      // all warps
  Word last_mask; // the last word's cells inside the width (dead boundary)
};

/// The word to the left's top bit, at the top (what hex::from_left reads), by one shuffle.
__device__ __forceinline__ Word left_word(Word word) {
  return static_cast<Word>(__shfl_up_sync(kFullMask, static_cast<std::uint32_t>(word >> 32), 1))
         << 32;
}
/// The word to the right's bit 0 (what hex::from_right reads), by one shuffle.
__device__ __forceinline__ Word right_word(Word word) {
  return __shfl_down_sync(kFullMask, static_cast<std::uint32_t>(word), 1);
}

template <bool Torus, class Rule>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes)
    bitsliced_steps(const Word* __restrict__ in, Word* __restrict__ out, Geometry g, Rule rule) {
  const int warp = static_cast<int>(blockIdx.x * kWarpsPerBlock + threadIdx.x / kLanes);
  if (warp >= g.warps) return; // whole warps leave: the shuffles below see full warps
  const int lane = static_cast<int>(threadIdx.x % kLanes);
  const int out_rows = kRows - 2 * g.steps;
  const int column = (warp % g.warps_x) * kOutLanes + lane - 1; // may lie outside
  const int first_row = (warp / g.warps_x) * out_rows;          // first row written
  const int top = first_row - g.steps;                          // row of register 0

  // Torus: wrapped column and rows. Plane: what lies outside reads 0 and stays 0.
  int col = column;
  Word col_mask = 0;
  if constexpr (Torus) {
    col = ((column % g.columns) + g.columns) % g.columns;
  } else {
    if (column >= 0 && column < g.columns) {
      col_mask = column + 1 == g.columns ? g.last_mask : ~Word{0};
    }
  }
  int y = Torus ? ((top % g.height) + g.height) % g.height : top;
  Word row[kRows];
  std::uint64_t rows_inside = 0; // plane: bit j set when register row j is a grid row
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    if constexpr (Torus) {
      row[j] = in[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.columns) +
                  static_cast<std::size_t>(col)];
      y = y + 1 == g.height ? 0 : y + 1;
    } else {
      const bool inside = y >= 0 && y < g.height;
      rows_inside |= static_cast<std::uint64_t>(inside) << j;
      row[j] = inside && col_mask != 0
                   ? in[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.columns) +
                        static_cast<std::size_t>(col)]
                   : Word{0};
      ++y;
    }
  }

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
      if constexpr (!Torus) next &= ((rows_inside >> j) & 1U) != 0 ? col_mask : Word{0};
      above = middle;
      above_left = middle_left;
      middle = below;
      middle_left = below_left;
      middle_right = below_right;
      row[j] = next;
    }
  }

  if (lane == 0 || lane == kLanes - 1 || column >= g.columns) return;
  y = Torus ? ((first_row % g.height) + g.height) % g.height : first_row;
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    // Unrolled with a run-time test so that row[] stays in registers.
    const int r = j - g.steps; // row first_row + r
    if (r >= 0 && r < out_rows && first_row + r < g.height) {
      out[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.columns) +
          static_cast<std::size_t>(col)] = row[j];
      y = Torus && y + 1 == g.height ? 0 : y + 1;
    }
  }
}

class HexBitslicedSimulator final : public cuda::BufferedSimulator<cuda::PackedRows<Word>> {
public:
  HexBitslicedSimulator(const Problem& problem, int steps_per_launch)
      : BufferedSimulator(problem), steps_per_launch_(steps_per_launch) {}

private:
  void launch(std::uint64_t generations) override {
    launches(generations, [&](const Word* in, Word* out, std::uint64_t left) {
      const auto steps = std::min(left, static_cast<std::uint64_t>(steps_per_launch_));
      step(in, out, steps, stream());
      return steps;
    });
  }

  /// One launch of `generations` (at most steps_per_launch), with the rule compiled in
  /// where it is one of the common ones.
  void step(const Word* in, Word* out, std::uint64_t generations, cudaStream_t stream) const {
    const Rule& rule = problem().rule;
    const bool torus = this->torus();
    if (rule.birth == B2S34::birth && rule.survive == B2S34::survive) {
      torus ? run<true>(in, out, generations, stream, B2S34{})
            : run<false>(in, out, generations, stream, B2S34{});
    } else if (rule.birth == B245S3::birth && rule.survive == B245S3::survive) {
      torus ? run<true>(in, out, generations, stream, B245S3{})
            : run<false>(in, out, generations, stream, B245S3{});
    } else if (rule.birth == B2S::birth && rule.survive == B2S::survive) {
      torus ? run<true>(in, out, generations, stream, B2S{})
            : run<false>(in, out, generations, stream, B2S{});
    } else {
      const auto any = hex::RuntimeRule<Word>::make(rule.birth, rule.survive);
      torus ? run<true>(in, out, generations, stream, any)
            : run<false>(in, out, generations, stream, any);
    }
  }

  /// One launch of `generations` (at most steps_per_launch) generations.
  template <bool Torus, class RuleLogic>
  void run(const Word* in, Word* out, std::uint64_t generations, cudaStream_t stream,
           RuleLogic rule) const {
    const Shape& shape = problem().shape;
    Geometry g{};
    g.columns = static_cast<int>(words_per_row<Word>(shape.width));
    g.height = static_cast<int>(shape.height);
    g.warps_x = (g.columns + kOutLanes - 1) / kOutLanes;
    const auto tail = static_cast<unsigned>(shape.width % 64);
    g.last_mask = tail == 0 ? ~Word{0} : (Word{1} << tail) - 1;
    g.steps = static_cast<int>(generations);
    const int out_rows = kRows - 2 * g.steps;
    g.warps = g.warps_x * ((g.height + out_rows - 1) / out_rows);
    const unsigned blocks = (static_cast<unsigned>(g.warps) + kWarpsPerBlock - 1) / kWarpsPerBlock;
    bitsliced_steps<Torus><<<blocks, kWarpsPerBlock * kLanes, 0, stream>>>(in, out, g, rule);
  }

  int steps_per_launch_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  const Shape& shape = problem.shape;
  if (problem.boundary == Boundary::torus && shape.width % 64 != 0) {
    return std::string("on a torus the width must be a multiple of 64 (64-bit words wrap "
                       "around whole)");
  }
  const std::int64_t steps = params.get_int("steps_per_launch");
  const std::int64_t warps = (words_per_row<Word>(shape.width) + kOutLanes - 1) / kOutLanes *
                             ((shape.height + kRows - 2 * steps - 1) / (kRows - 2 * steps));
  if (shape.height >= (std::int64_t{1} << 30) || warps >= (std::int64_t{1} << 31)) {
    return std::string("grid too large for 32-bit warp and row indices");
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "hex-cuda-bitsliced",
    .family = "hex",
    .backend = "cuda",
    .source = "ours (seed 004's problem)",
    .technique = "64 cells per word, 6-neighbour count by bit-sliced adders, rule as bitwise "
                 "logic, 40 rows per lane in registers, warp shuffles across words, "
                 "steps_per_launch generations per launch",
    .axes = {{.name = "steps_per_launch",
              .default_value = "4",
              .allowed = {"1", "2", "4", "8"},
              .description = "generations per launch; each costs 2 of a lane's 40 rows as halo"}},
    .unavailable =
        [] {
          return lifebench::cuda::unavailable_reason(
              &lifebench::bitsliced_steps<true, lifebench::B2S34>);
        },
    .unsupported = lifebench::unsupported,
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params& params) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::HexBitslicedSimulator>(
          problem, static_cast<int>(params.get_int("steps_per_launch")));
    }})
