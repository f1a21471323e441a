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
// the halo rows whose results no later generation reads. `wavefront` (torus) streams each
// lane's column of 32-bit words through the launch's generations at once (wavefront.cuh).
#include "cuda/buffered_simulator.cuh"
#include "cuda/life_wide.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"
#include "lifebench/packed.hpp"
#include "steps.cuh"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace lifebench::hex_bitsliced {
namespace {

/// A kernel of this program: the device runs it where it runs the others, all of the
/// program's sources being compiled for one list of architectures.
__global__ void probe() {}

Logic logic_of(const Params& params) {
  const std::string& logic = params.get("logic");
  if (logic == "wavefront") return Logic::wavefront;
  return logic == "tree" ? Logic::tree : logic == "sums" ? Logic::sums : Logic::sums_trim;
}

/// rows_per_thread: the rows a lane writes (logic=wavefront), or 0 for auto.
int fixed_rows_of(const Params& params) {
  return params.get("rows_per_thread") == "auto"
             ? 0
             : static_cast<int>(params.get_int("rows_per_thread"));
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
        logic_(logic_of(params)), madd_shifts_(params.get("shifts") == "madd") {
    if (logic_ == Logic::wavefront) {
      const int fixed = fixed_rows_of(params);
      for (int i = 0; i < static_cast<int>(rows_.size()); ++i) {
        rows_[i] = fixed != 0 ? fixed : auto_rows(1 << i);
      }
    }
  }

private:
  /// LOP3 per cell update, for the report's fraction of bound: every lane of a launch's
  /// warps (those past the grid's words and rows too) updates 38 rows of two 32-bit halves
  /// a generation (sums-trim: 38 - 2s in generation s; wavefront: its rows + 2 steps of one
  /// 32-bit word, and the rows it writes, chosen for the grid). Shifts, shuffles and
  /// multiply-adds come on top.
  [[nodiscard]] std::map<std::string, std::string> device_extras() const override {
    const Shape& shape = problem().shape;
    const int steps = steps_per_launch_;
    if (logic_ == Logic::wavefront) {
      const std::int64_t rows =
          cuda::life_wide::clamped_rows<std::int64_t>(rows_for(steps), shape.height);
      const auto grid =
          cuda::life_wide::launch_grid(2 * words_per_row<Word>(shape.width), shape.height, rows);
      const double lop3 = static_cast<double>(grid.groups * grid.tiles) * kLanes *
                          static_cast<double>(rows + 2 * steps) * steps *
                          lop3_per_row_update(logic_, problem().rule);
      return {{"instructions_per_cell_update",
               std::to_string(lop3 / (static_cast<double>(shape.cells()) * steps))},
              {"rows_per_thread_chosen", std::to_string(rows)}};
    }
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
      // sums-trim and wavefront have kernels of 1, 2, 4 and 8 generations: a shorter rest
      // goes in launches of the powers of two it is made of.
      if (logic_ == Logic::sums_trim || logic_ == Logic::wavefront) steps = std::bit_floor(steps);
      step(in, out, steps, stream());
      return steps;
    });
  }

  /// One launch of `generations` (at most steps_per_launch), with the rule compiled in
  /// where it is one of the common ones.
  void step(const Word* in, Word* out, std::uint64_t generations, cudaStream_t stream) const {
    const Rule& rule = problem().rule;
    if (rule.birth == B2S34::birth && rule.survive == B2S34::survive) {
      run(in, out, generations, stream, B2S34{});
    } else if (rule.birth == B245S3::birth && rule.survive == B245S3::survive) {
      run(in, out, generations, stream, B245S3{});
    } else if (rule.birth == B2S::birth && rule.survive == B2S::survive) {
      run(in, out, generations, stream, B2S{});
    } else {
      run(in, out, generations, stream, hex::RuntimeRule<Word>::make(rule.birth, rule.survive));
    }
  }

  /// One launch of `generations` (at most steps_per_launch) generations.
  template <class RuleLogic>
  void run(const Word* in, Word* out, std::uint64_t generations, cudaStream_t stream,
           const RuleLogic& rule) const {
    const Shape& shape = problem().shape;
    Geometry g{};
    g.columns = static_cast<int>(words_per_row<Word>(shape.width));
    g.height = static_cast<int>(shape.height);
    g.warps_x = static_cast<int>(warps_across(g.columns));
    const auto tail = static_cast<unsigned>(shape.width % 64);
    g.last_mask = tail == 0 ? ~Word{0} : (Word{1} << tail) - 1;
    g.two = 2;
    g.steps = static_cast<int>(generations);
    if (logic_ == Logic::wavefront) g.rows = rows_for(g.steps);
    g.warps = static_cast<int>(launch_warps(g.columns, g.height, g.steps));
    const Launch launch{logic_, torus(), madd_shifts_, in, out, g, stream};
    // The sums' kernels step 32-bit halves: the run-time rule's leaves as 32-bit words.
    if constexpr (std::is_same_v<RuleLogic, hex::RuntimeRule<Word>>) {
      const Rule& r = problem().rule;
      enqueue(launch, rule, hex::RuntimeRule<Half>::make(r.birth, r.survive));
    } else {
      enqueue(launch, rule, rule);
    }
  }

  /// rows_per_thread=auto: the rows a lane writes in a wavefront launch of `steps`
  /// generations on this grid, the cheapest launch on this device by cuda-life-wide's model.
  [[nodiscard]] int auto_rows(int steps) const {
    const Shape& shape = problem().shape;
    return cuda::life_wide::rows_for_launch(2 * words_per_row<Word>(shape.width), shape.height,
                                            steps, cuda::sm_count());
  }

  /// The rows a lane writes in a wavefront launch of `steps` (1, 2, 4 or 8) generations.
  [[nodiscard]] int rows_for(int steps) const {
    return rows_[std::countr_zero(static_cast<unsigned>(steps))];
  }

  int steps_per_launch_;
  Logic logic_;
  bool madd_shifts_;
  std::array<int, 4> rows_{}; ///< logic=wavefront: rows_for(2^i), chosen once
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  const Shape& shape = problem.shape;
  if (problem.boundary == Boundary::torus && shape.width % 64 != 0) {
    return std::string("on a torus the width must be a multiple of 64 (64-bit words wrap "
                       "around whole)");
  }
  if (words_per_row<Word>(shape.width) >= (std::int64_t{1} << 30)) {
    return std::string("rows of fewer than 2^36 cells (32-bit word indices)");
  }
  const int fixed_rows = fixed_rows_of(params);
  if (logic_of(params) != Logic::wavefront) {
    if (fixed_rows != 0) {
      return std::string("rows_per_thread is for logic=wavefront (auto otherwise)");
    }
  } else {
    if (problem.boundary != Boundary::torus) {
      return std::string("logic=wavefront: torus only (a column streamed through several "
                         "generations would let cells outside a dead boundary come alive)");
    }
    if (auto reason = cuda::life_wide::row_unsupported(2 * words_per_row<Word>(shape.width))) {
      return reason;
    }
    // rows_per_thread, or at least 32 (auto: rows_for_launch) rows a lane.
    if (auto reason =
            cuda::life_wide::height_unsupported(shape.height, fixed_rows != 0 ? fixed_rows : 32)) {
      return reason;
    }
  }
  const std::int64_t steps = params.get_int("steps_per_launch");
  const std::int64_t warps = launch_warps(words_per_row<Word>(shape.width), shape.height, steps);
  if (shape.height >= (std::int64_t{1} << 30) || warps >= (std::int64_t{1} << 31)) {
    return std::string("grid too large for 32-bit warp and row indices");
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench::hex_bitsliced

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"hex-cuda-bitsliced", "hex", "cuda", "ours (seed 004's problem)",
              "64 cells per word, 6-neighbour count by bit-sliced adders, rule as bitwise "
              "logic (from the adders' sums where compiled in), 40 rows per lane in "
              "registers or (wavefront) a column streamed, warp shuffles across words, "
              "steps_per_launch generations per launch"},
    .axes = {lifebench::steps_per_launch_axis(
                 "4", {"1", "2", "4", "8"},
                 "generations per launch; each costs 2 of a lane's 40 rows (wavefront: "
                 "of its column's rows) as halo"),
             {.name = "logic",
              .default_value = "sums",
              .allowed = {"sums-trim", "sums", "tree", "wavefront"},
              .description = "tree: 64-bit words, full count and multiplexer tree (the first "
                             "form); sums: 32-bit halves, funnel shifts, the rule from the "
                             "adders' sums; sums-trim: sums over only the rows later "
                             "generations read; wavefront (torus): the sums on 32-bit words, "
                             "each lane streaming a column through the launch's generations "
                             "at once, rows_per_thread rows written a lane"},
             {.name = "shifts",
              .default_value = "funnel",
              .allowed = {"madd", "funnel"},
              .description = "sums and wavefront: a row's one-cell shifts as funnel shifts "
                             "(logic unit) or as integer multiply-adds (FMA pipe); tree "
                             "ignores it"},
             {.name = "rows_per_thread",
              .default_value = "auto",
              .allowed = {"auto", "64", "128", "256", "512"},
              .description = "logic=wavefront: the rows a lane writes a launch; auto: the "
                             "cheapest launch on this device by cuda-life-wide's model "
                             "(only auto with the other logics)"}},
    .unavailable = lifebench::cuda::unavailable_for<&lifebench::hex_bitsliced::probe>,
    .unsupported = lifebench::hex_bitsliced::unsupported,
    .make = lifebench::make_simulator<lifebench::hex_bitsliced::HexBitslicedSimulator>})
