// Several generations per pass over memory: the multi-step idea of seeds 000 and 003
// (a tile extended by a halo is advanced several generations, then its clean centre
// is written back) applied to the CPU caches. A tile of W words x R rows is copied
// with a halo of `steps` rows above and below and one word left and right into a
// worker's cache-resident buffer, advanced `steps` generations between two such
// buffers (the valid region shrinks by one row per generation at the top and the
// bottom; a halo word goes wrong from its outer edge one cell per generation, so one
// word covers up to 63 generations), and the last generation is written straight
// into the other whole-grid buffer. Memory traffic falls by `steps`; the logic then
// bounds the speed. The tile passes and their Highway cell logic (10 instructions per
// vector and generation on AVX3_DL) are kernels/cpu/blocked_tiles.cpp, which cpu-mpi's
// ranks run too.
#include "cpu/blocked_tiles.hpp"
#include "cpu/logic_ceiling.hpp"
#include "cpu/packed_grids.hpp"
#include "cpu/thread_pool.hpp"
#include "lifebench/experiment.hpp"
#include "lifebench/number_text.hpp"
#include "lifebench/packed.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lifebench::cpu_blocked {
namespace {

class BlockedSimulator final : public Simulator {
public:
  BlockedSimulator(const Problem& problem, const Params& params)
      : BlockedSimulator(problem, pool::threads_of(params),
                         tiling_of(params, "steps",
                                   words_per_row<std::uint64_t>(problem.shape.width),
                                   problem.shape.height)) {}
  BlockedSimulator(const Problem& problem, int threads, Tiling tiling)
      : problem_(problem), grids_(problem.shape), tiling_(tiling), passes_(threads, tiling) {}

  void upload(const Grid& grid) override { grids_.upload(grid); }
  Grid download() override { return grids_.download(); }

  void advance(std::uint64_t generations) override {
    const std::int64_t height = problem_.shape.height;
    while (generations > 0) {
      const auto steps =
          static_cast<std::int64_t>(std::min<std::uint64_t>(generations, tiling_.steps));
      passes_.pass({grids_.cells(), grids_.next(), grids_.row_words(), height,
                    problem_.boundary == Boundary::torus},
                   steps, 0, height);
      grids_.swap();
      generations -= static_cast<std::uint64_t>(steps);
    }
  }

  /// With the logic's ceiling and cost for the report's fraction of bound, where the
  /// target's kernel was counted: the ceiling is measured here, once the timing is done (as
  /// a GPU's ceilings are), not by every simulator that verify or run makes.
  [[nodiscard]] std::map<std::string, std::string> device() const override {
    std::map<std::string, std::string> device{{"hwy_target", target_name()},
                                              {"threads", std::to_string(passes_.threads())}};
    const auto per_cell = logic_per_cell_update(tiling_, grids_.row_words(), problem_.shape.height);
    const auto rate = per_cell ? passes_.measure_logic_rate() : std::nullopt;
    if (rate) {
      device["vector_logic_per_s_measured"] = std::to_string(*rate);
      // Every digit: about 0.02 here, which std::to_string would cut to four.
      device["instructions_per_cell_update"] = number_text(*per_cell);
    }
    return device;
  }

  /// One read and one write of the grid per pass of `steps` generations.
  [[nodiscard]] std::optional<double> bytes_per_generation() const override {
    return grids_.bytes_read_and_written() / static_cast<double>(tiling_.steps);
  }

private:
  Problem problem_;
  simd::PackedGrids grids_;
  Tiling tiling_;
  mutable TilePasses passes_; ///< device() measures the logic ceiling on its workers
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = simd::b3s23_bits_unsupported(problem)) return reason;
  if (auto reason = tiling_unsupported("steps", params)) return reason;
  return pool::threads_unsupported(params);
}

} // namespace
} // namespace lifebench::cpu_blocked

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cpu-blocked", "square", "simd",
              "ours (multi-step tiles of seeds 000 and 003 applied to the CPU caches)",
              "bit per cell, Highway vectors, ternary-logic adders, `steps` generations per "
              "cache-resident tile with a halo; tiles over a reused thread pool"},
    .axes = lifebench::cpu_blocked::tile_axes(
        {lifebench::pool::threads_axis("threads; tiles taken from a shared queue"),
         lifebench::steps_per_launch_axis(
             "8", {}, "generations per pass over memory (halo rows), 1..63", "steps")}),
    .unsupported = lifebench::cpu_blocked::unsupported,
    .make = lifebench::make_simulator<lifebench::cpu_blocked::BlockedSimulator>})
