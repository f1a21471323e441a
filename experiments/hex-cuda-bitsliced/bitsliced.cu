// Bit-sliced hexagonal automaton (ours): 64 cells per word, the six-neighbour
// count in three bit-planes by bit-sliced adders and the rule as bitwise logic
// (kernels/common/hex.hpp), several generations per launch in registers.
//
// A warp holds a strip 32 words (2048 cells) wide and kRows rows high, one
// 64-bit column of kRows words per lane. Neighbour words across lanes come by
// warp shuffle; the outer lanes and the top and bottom `steps` rows are halo
// recomputed by the neighbouring warps, so after `steps` generations lanes
// 1..30 and rows steps .. kRows-1-steps are exact and are written back.
//
// Two forms of the generation (`logic`): `tree` steps 64-bit words by the full count
// and the multiplexer tree (hex::step_word); `sums` steps each word's two 32-bit halves
// by funnel shifts and the rule read from the two full adders' sums
// (hex::step_word_sums), and `sums-trim` also leaves out, generation by generation,
// the halo rows whose results no later generation reads.
#include "common/hex.hpp"
#include "cuda/buffered_simulator.cuh"
#include "lifebench/experiment.hpp"
#include "lifebench/packed.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

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
  unsigned two;   // 2, unknown to the compiler: x * two stays a multiply-add (shifts=madd)
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

// ---------------------------------------------------------------------------
// `tree`: 64-bit words, the full count and the multiplexer tree.

template <bool Torus, class Rule>
__global__ void __launch_bounds__(kWarpsPerBlock* kLanes)
    tree_steps(const Word* __restrict__ in, Word* __restrict__ out, Geometry g, Rule rule) {
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

// ---------------------------------------------------------------------------
// `sums`: each word as two 32-bit halves (lo = cells 0..31, hi = 32..63), so that a
// shift with the neighbour's edge bit is one funnel shift a half, and the rule read
// from the adders' sums.

using Half = std::uint32_t;

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
  Half lo[kRows];
  Half hi[kRows];
  Plane plane{0, static_cast<Half>(col_mask), static_cast<Half>(col_mask >> 32), g.two,
              g.two << 30};
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    Word word = 0;
    if constexpr (Torus) {
      word = in[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.columns) +
                static_cast<std::size_t>(col)];
      y = y + 1 == g.height ? 0 : y + 1;
    } else {
      const bool inside = y >= 0 && y < g.height;
      plane.rows_inside |= static_cast<std::uint64_t>(inside) << j;
      if (inside && col_mask != 0) {
        word = in[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.columns) +
                  static_cast<std::size_t>(col)];
      }
      ++y;
    }
    lo[j] = static_cast<Half>(word);
    hi[j] = static_cast<Half>(word >> 32);
  }

  if constexpr (Steps == 0) {
    for (int s = 0; s < g.steps; ++s) {
      generation<1, kRows - 2, Torus, Madd>(lo, hi, rule, plane);
    }
  } else {
    trimmed_generations<0, Steps, Torus, Madd>(lo, hi, rule, plane);
  }

  if (lane == 0 || lane == kLanes - 1 || column >= g.columns) return;
  y = Torus ? ((first_row % g.height) + g.height) % g.height : first_row;
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    // Unrolled with a run-time test so that the rows stay in registers.
    const int r = j - g.steps; // row first_row + r
    if (r >= 0 && r < out_rows && first_row + r < g.height) {
      out[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.columns) +
          static_cast<std::size_t>(col)] = (static_cast<Word>(hi[j]) << 32) | lo[j];
      y = Torus && y + 1 == g.height ? 0 : y + 1;
    }
  }
}

/// The generation's form (the `logic` parameter).
enum class Logic { tree, sums, sums_trim };

Logic logic_of(const Params& params) {
  const std::string& logic = params.get("logic");
  return logic == "tree" ? Logic::tree : logic == "sums" ? Logic::sums : Logic::sums_trim;
}

/// Warps across a row of `columns` words, and warps of a launch of `steps` generations over
/// `height` rows: each writes 30 words of 40 - 2 steps rows.
std::int64_t warps_across(std::int64_t columns) {
  return (columns + kOutLanes - 1) / kOutLanes;
}
std::int64_t launch_warps(std::int64_t columns, std::int64_t height, std::int64_t steps) {
  const std::int64_t out_rows = kRows - 2 * steps;
  return warps_across(columns) * ((height + out_rows - 1) / out_rows);
}

/// LOP3s a row update takes for 32 cells, as counted in the loop of the sm_90 SASS (README,
/// Expected figures): the compiled rules' circuits, or the run-time rule's leaves and
/// multiplexers, after the count; the sums' kernels share one row update.
double lop3_per_row_update(Logic logic, const Rule& rule) {
  const auto is = [&](auto compiled) {
    return rule.birth == decltype(compiled)::birth && rule.survive == decltype(compiled)::survive;
  };
  const bool tree = logic == Logic::tree;
  if (is(B2S34{})) return tree ? 14.0 : 8.0;
  if (is(B245S3{})) return tree ? 13.0 : 8.0;
  if (is(B2S{})) return tree ? 10.0 : 7.0;
  return tree ? 29.0 : 14.0;
}

class HexBitslicedSimulator final : public cuda::BufferedSimulator<cuda::PackedRows<Word>> {
public:
  HexBitslicedSimulator(const Problem& problem, const Params& params)
      : BufferedSimulator(problem),
        steps_per_launch_(static_cast<int>(params.get_int("steps_per_launch"))),
        logic_(logic_of(params)), madd_shifts_(params.get("shifts") == "madd") {}

private:
  /// LOP3 per cell update, for the report's fraction of bound: every lane of a launch's
  /// warps (those past the grid's words and rows too) updates 38 rows of two 32-bit halves
  /// a generation (sums-trim: 38 - 2s in generation s). Shifts, shuffles and multiply-adds
  /// come on top.
  [[nodiscard]] std::map<std::string, std::string> device_extras() const override {
    const Shape& shape = problem().shape;
    const int steps = steps_per_launch_;
    const double row_updates = logic_ == Logic::sums_trim
                                   ? (kRows - 2) * steps - steps * (steps - 1)
                                   : (kRows - 2) * steps;
    const auto warps =
        static_cast<double>(launch_warps(words_per_row<Word>(shape.width), shape.height, steps));
    const double lop3 =
        warps * kLanes * 2 * row_updates * lop3_per_row_update(logic_, problem().rule);
    const double per_cell = lop3 / (static_cast<double>(shape.cells()) * steps);
    return {{"instructions_per_cell_update", std::to_string(per_cell)}};
  }

  void launch(std::uint64_t generations) override {
    launches(generations, [&](const Word* in, Word* out, std::uint64_t left) {
      auto steps = std::min(left, static_cast<std::uint64_t>(steps_per_launch_));
      // sums-trim has kernels of 1, 2, 4 and 8 generations: a shorter rest goes in
      // launches of the powers of two it is made of.
      if (logic_ == Logic::sums_trim) steps = std::bit_floor(steps);
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
    g.warps_x = static_cast<int>(warps_across(g.columns));
    const auto tail = static_cast<unsigned>(shape.width % 64);
    g.last_mask = tail == 0 ? ~Word{0} : (Word{1} << tail) - 1;
    g.two = 2;
    g.steps = static_cast<int>(generations);
    g.warps = static_cast<int>(launch_warps(g.columns, g.height, g.steps));
    const unsigned blocks = (static_cast<unsigned>(g.warps) + kWarpsPerBlock - 1) / kWarpsPerBlock;
    const unsigned threads = kWarpsPerBlock * kLanes;
    if (logic_ == Logic::tree) {
      tree_steps<Torus><<<blocks, threads, 0, stream>>>(in, out, g, rule);
      return;
    }
    // The sums' kernels step 32-bit halves: the run-time rule's leaves as 32-bit words.
    const auto half_rule = [&] {
      if constexpr (std::is_same_v<RuleLogic, hex::RuntimeRule<Word>>) {
        const Rule& r = problem().rule;
        return hex::RuntimeRule<Half>::make(r.birth, r.survive);
      } else {
        return rule;
      }
    }();
    using HalfRule = std::remove_const_t<decltype(half_rule)>;
    if (madd_shifts_) {
      sums<Torus, true>(in, out, g, half_rule, blocks, threads, stream);
    } else {
      sums<Torus, false>(in, out, g, half_rule, blocks, threads, stream);
    }
  }

  /// The sums' kernel for the launch: a loop over g.steps, or unrolled over the rows needed.
  template <bool Torus, bool Madd, class HalfRule>
  void sums(const Word* in, Word* out, const Geometry& g, const HalfRule& rule, unsigned blocks,
            unsigned threads, cudaStream_t stream) const {
    if (logic_ == Logic::sums) {
      sums_steps<Torus, Madd, HalfRule, 0><<<blocks, threads, 0, stream>>>(in, out, g, rule);
      return;
    }
    switch (g.steps) {
    case 1:
      sums_steps<Torus, Madd, HalfRule, 1><<<blocks, threads, 0, stream>>>(in, out, g, rule);
      break;
    case 2:
      sums_steps<Torus, Madd, HalfRule, 2><<<blocks, threads, 0, stream>>>(in, out, g, rule);
      break;
    case 4:
      sums_steps<Torus, Madd, HalfRule, 4><<<blocks, threads, 0, stream>>>(in, out, g, rule);
      break;
    default:
      sums_steps<Torus, Madd, HalfRule, 8><<<blocks, threads, 0, stream>>>(in, out, g, rule);
      break;
    }
  }

  int steps_per_launch_;
  Logic logic_;
  bool madd_shifts_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  const Shape& shape = problem.shape;
  if (problem.boundary == Boundary::torus && shape.width % 64 != 0) {
    return std::string("on a torus the width must be a multiple of 64 (64-bit words wrap "
                       "around whole)");
  }
  const std::int64_t steps = params.get_int("steps_per_launch");
  const std::int64_t warps = launch_warps(words_per_row<Word>(shape.width), shape.height, steps);
  if (shape.height >= (std::int64_t{1} << 30) || warps >= (std::int64_t{1} << 31)) {
    return std::string("grid too large for 32-bit warp and row indices");
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"hex-cuda-bitsliced", "hex", "cuda", "ours (seed 004's problem)",
              "64 cells per word, 6-neighbour count by bit-sliced adders, rule as bitwise "
              "logic (from the adders' sums where compiled in), 40 rows per lane in "
              "registers, warp shuffles across words, steps_per_launch generations per launch"},
    .axes = {lifebench::steps_per_launch_axis(
                 "4", {"1", "2", "4", "8"},
                 "generations per launch; each costs 2 of a lane's 40 rows as halo"),
             {.name = "logic",
              .default_value = "sums",
              .allowed = {"sums-trim", "sums", "tree"},
              .description = "tree: 64-bit words, full count and multiplexer tree (the first "
                             "form); sums: 32-bit halves, funnel shifts, the rule from the "
                             "adders' sums; sums-trim: sums over only the rows later "
                             "generations read"},
             {.name = "shifts",
              .default_value = "funnel",
              .allowed = {"madd", "funnel"},
              .description = "sums: a row's one-cell shifts as funnel shifts (logic unit) or "
                             "as integer multiply-adds (FMA pipe); tree ignores it"}},
    .unavailable =
        lifebench::cuda::unavailable_for<&lifebench::sums_steps<true, true, lifebench::B2S34, 4>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::HexBitslicedSimulator>})
