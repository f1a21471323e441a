// The harness side of the cuda-bpbc experiments (seed 003): the multi-step experiments'
// parameters and what they refuse, and their simulator, the tiles of cuda/bpbc_tile.cuh
// on the column-major layout, ceil(generations / t) launches.
#pragma once

#include "cuda/bpbc_tile.cuh"
#include "cuda/buffered_simulator.cuh"
#include "cuda/error.cuh"
#include "cuda/grid_limits.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/experiment.hpp"

#include <algorithm>
#include <cstdint>
#include <cuda_runtime.h>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::bpbc_tile {

/// The parameters of the multi-step experiments, spelled as in the paper.
struct MultistepParams {
  int tile;         ///< d
  int steps;        ///< t
  bool double_word; ///< DOUBLE-WORD, else SINGLE-WORD

  static MultistepParams of(const Params& params) {
    return {static_cast<int>(params.get_int("tile")),
            static_cast<int>(params.get_int("steps_per_launch")), params.get("words") == "double"};
  }
};

/// The axes the multi-step experiments share, then `more` of one of them.
inline std::vector<Axis> multistep_axes(std::vector<Axis> more = {}) {
  // Name, default, allowed values, description.
  std::vector<Axis> axes{
      {"tile", "64", {"32", "64"}, "d: 32x32 tiles of 32-bit words or 64x64 tiles of 64-bit words"},
      {"words",
       "double",
       {"single", "double"},
       "SINGLE-WORD (34 operations a word) or DOUBLE-WORD (59 operations for two words; "
       "tile=64 only)"},
      {"steps_per_launch",
       "8",
       {"1", "2", "4", "8", "16"},
       "t, generations per launch; patches are (d-2t) x (d-2t)",
       AxisRole::steps_per_launch}};
  for (auto& axis : more)
    axes.push_back(std::move(axis));
  return axes;
}

/// Refusals of the multi-step kernels, beyond unsupported_layout().
inline std::optional<std::string> unsupported_multistep(const Problem& problem,
                                                        const Params& params) {
  const auto [tile, steps, double_word] = MultistepParams::of(params);
  if (auto reason = unsupported_layout(problem, tile)) return reason;
  if (problem.boundary != Boundary::torus) {
    return std::string("torus only (the paper's wrapped-around universe): tiles read their "
                       "margins across the edges");
  }
  if (2 * steps >= tile) {
    return "steps_per_launch must be below tile/2 = " + std::to_string(tile / 2) +
           " (the clean patch has d - 2t = " + std::to_string(tile - 2 * steps) + " cells)";
  }
  if (double_word && tile == 32) {
    return std::string("words=double needs tile=64: a lane of a 32x32 tile holds one 32-bit "
                       "word (the paper runs SINGLE-WORD there)");
  }
  const std::int64_t patch = tile - 2 * steps;
  return cuda::beyond_grid_yz("height", problem.shape.height, patch,
                              "one block row per patch of " + std::to_string(patch) + " rows");
}

/// The multi-step simulator: ceil(generations / t) launches, the last one of the remaining
/// generations (fewer steps on the same tiles leave a larger clean part). Each launch first
/// zeroes the output, which its blocks OR their patches into.
template <class W, bool Double, class Exchange>
class MultistepSimulator final : public cuda::BufferedSimulator<ColumnWords<W>> {
  using Base = cuda::BufferedSimulator<ColumnWords<W>>;

public:
  MultistepSimulator(const Problem& problem, int steps) : Base(problem), steps_(steps) {}

  /// A launch moves the state once for up to t generations: no fixed traffic per generation.
  [[nodiscard]] std::optional<double> bytes_per_generation() const override { return std::nullopt; }

private:
  /// LOP3 per cell update, for the report's fraction of bound: each block steps its whole
  /// d x d tile every generation for the patch it writes, at the LOP3s a lane's step takes
  /// in the step loop of the sm_90 SASS (experiments/cuda-bpbc-shared/README.md): 22 for 32
  /// cells of SINGLE-WORD, 74 for the 128 cells of DOUBLE-WORD's two 64-bit rows. Shifts and
  /// the exchange come on top.
  [[nodiscard]] std::map<std::string, std::string> device_extras() const override {
    const Multistep<W> geometry = this->geometry();
    const double per_cell_step = Double ? 74.0 / 128.0 : 22.0 / 32.0;
    const double stepped = static_cast<double>(geometry.patches_x()) * geometry.patches_y() *
                           Multistep<W>::d * Multistep<W>::d;
    const double per_update =
        per_cell_step * stepped / static_cast<double>(this->problem().shape.cells());
    return {{"instructions_per_cell_update", std::to_string(per_update)}};
  }

  /// The patches of t = steps_per_launch generations that every launch steps.
  [[nodiscard]] Multistep<W> geometry() const {
    return {columns_of<W>(this->problem().shape), steps_};
  }

  void launch(std::uint64_t generations) override {
    const Multistep<W> geometry = this->geometry();
    const dim3 grid(static_cast<unsigned>(geometry.patches_x()),
                    static_cast<unsigned>(geometry.patches_y()));
    this->launches(generations, [&](const W* in, W* out, std::uint64_t left) {
      const auto steps = std::min(left, static_cast<std::uint64_t>(steps_));
      LIFEBENCH_CUDA_CALL(cudaMemsetAsync(out, 0, this->state_bytes(), this->stream()));
      multistep_kernel<W, Double, Exchange>
          <<<grid, 32, 0, this->stream()>>>(in, out, geometry, static_cast<int>(steps));
      return steps;
    });
  }

  int steps_;
};

/// The simulator of the tile and words the parameters choose, its rows traded by Exchange<W>.
template <template <class W> class Exchange>
std::unique_ptr<Simulator> make_multistep(const Problem& problem, const Params& params) {
  const auto [tile, steps, double_word] = MultistepParams::of(params);
  if (tile == 32) {
    return std::make_unique<MultistepSimulator<std::uint32_t, false, Exchange<std::uint32_t>>>(
        problem, steps);
  }
  if (double_word) {
    return std::make_unique<MultistepSimulator<std::uint64_t, true, Exchange<std::uint64_t>>>(
        problem, steps);
  }
  return std::make_unique<MultistepSimulator<std::uint64_t, false, Exchange<std::uint64_t>>>(
      problem, steps);
}

/// The registration of a multi-step experiment (cuda-bpbc-shared, -shuffle) whose rows trade
/// through Exchange<W>: `info` says what it is (About) and its axes (multistep_axes), and
/// `make` where the parameters choose the exchange (make_multistep<Exchange> if none).
template <template <class W> class Exchange>
ExperimentInfo multistep_experiment(ExperimentInfo info) {
  info.unavailable =
      cuda::unavailable_for<&multistep_kernel<std::uint64_t, true, Exchange<std::uint64_t>>>;
  info.unsupported = unsupported_multistep;
  if (!info.make) info.make = make_multistep<Exchange>;
  return info;
}

} // namespace lifebench::bpbc_tile
