// The harness side of the wide kernels (cuda/life_wide.cuh): their parameters, which
// cuda-life-wide, cuda-multigpu and cuda-outofcore share, and cuda-life-wide's simulator,
// the kernels' launches on a whole grid, a torus (shared by the experiment and its GPU
// test).
#pragma once

#include "cuda/life_wide.cuh"
#include "cuda/packed_simulator.cuh"
#include "lifebench/error.hpp"
#include "lifebench/experiment.hpp"

#include <algorithm>
#include <cstdint>
#include <cuda_runtime.h>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lifebench::cuda::life_wide {

/// The launch configuration an experiment's parameters give.
inline Config config_of(const Params& params) {
  const std::string how = params.get("shifts");
  const std::string launch = params.has("launch") ? params.get("launch") : "per_pass";
  return {params.get("schedule") == "wavefront" ? Schedule::wavefront : Schedule::registers,
          static_cast<int>(params.get_int("rows_per_thread")),
          static_cast<int>(params.get_int("steps_per_launch")),
          how == "multiply" ? Shifts::multiply
          : how == "mixed"  ? Shifts::mixed
                            : Shifts::funnel,
          launch == "pipelined"    ? Launch::pipelined
          : launch == "persistent" ? Launch::persistent
                                   : Launch::per_pass};
}

/// Whether `params` leave the rows a lane writes to be chosen for each grid the kernels run on
/// (rows_per_thread=auto, schedule=wavefront only: the registers schedule's rows are compiled
/// in). Throws Error for auto with another schedule.
inline bool fitted_rows(const Params& params) {
  if (params.get("rows_per_thread") != "auto") return false;
  if (params.get("schedule") != "wavefront") {
    throw Error("rows_per_thread=auto needs schedule=wavefront (registers holds 64, 128 or 192 "
                "rows, compiled in)");
  }
  return true;
}

/// config_of(), with rows_per_thread=auto taken as cuda-life-wide's 512 rows until they are
/// chosen for a grid (config_for_grid).
inline Config config_before_fitting(const Params& params) {
  if (!fitted_rows(params)) return config_of(params);
  auto values = params.values();
  values["rows_per_thread"] = "512";
  return config_of(Params(values));
}

/// The configuration that launches on grids of `words_per_row` 32-bit words by `height` rows:
/// with rows_per_thread=auto, the rows that make the cheapest launch on this device
/// (rows_for_launch). Throws Error.
inline Config config_for_grid(const Params& params, std::int64_t words_per_row,
                              std::int64_t height) {
  Config config = config_before_fitting(params);
  if (fitted_rows(params)) {
    config.rows = config.launch == Launch::pipelined
                      ? static_cast<int>(pipelined_rows(height, config.steps))
                      : rows_for_launch(config, words_per_row, height);
  }
  return config;
}

/// `axes` with `auto` among rows_per_thread's values, chosen for each `what` (fitted_rows()).
inline std::vector<Axis> with_fitted_rows(std::vector<Axis> axes, const std::string& what) {
  for (auto& axis : axes) {
    if (axis.name != "rows_per_thread") continue;
    axis.allowed.emplace_back("auto");
    axis.description += "; auto (schedule=wavefront): the rows that make the cheapest launch "
                        "on this device's SMs, for " +
                        what;
  }
  return axes;
}

/// The parameters of Config, with their defaults.
inline std::vector<Axis> axes() {
  // Name, default, allowed values (none: any that unsupported() accepts), description.
  return {{"schedule",
           "registers",
           {"registers", "wavefront"},
           "registers: a lane holds rows_per_thread rows and updates them all each generation; "
           "wavefront: a lane streams its column through steps_per_launch generations held at "
           "once"},
          {"rows_per_thread",
           "128",
           {"64", "128", "192", "512", "1024"},
           "registers: rows a lane holds (64, 128, 192); wavefront: rows a lane writes per "
           "launch"},
          {"steps_per_launch",
           "8",
           {},
           "generations per launch; registers: 1 to 32 and below rows_per_thread / 2; "
           "wavefront: 4, 8 or 16",
           AxisRole::steps_per_launch},
          {"shifts",
           "funnel",
           {"funnel", "multiply", "mixed"},
           "west and east neighbour words by funnel shifts (ALU pipe, as LOP3), by multiply-adds "
           "(FMA pipe), or west by a funnel shift and east by multiply-adds"}};
}

/// cuda-life-wide's axes: axes(), `launch` (its whole grid in one persistent launch or one a
/// pass) and rows_per_thread=auto.
inline std::vector<Axis> whole_grid_axes() {
  auto all = axes();
  all.push_back({"launch",
                 "per_pass",
                 {"per_pass", "persistent", "pipelined"},
                 "per_pass: a launch each steps_per_launch generations; persistent "
                 "(schedule=wavefront): one launch for them all, its warps taking tile after "
                 "tile, pass after pass, each once the tiles around it wrote the pass before; "
                 "pipelined: as persistent, each pass's tiles steps_per_launch rows below the "
                 "pass before's, each started once the pass before has written its first rows "
                 "(rows_per_thread dividing the height)"});
  return with_fitted_rows(std::move(all), "the grid");
}

/// `before`, then axes() with cuda-life-wide's fastest configuration as the defaults
/// (wavefront, 512 rows), for the experiments that run these kernels on parts of a universe.
inline std::vector<Axis> fastest_axes(std::vector<Axis> before = {}) {
  for (auto axis : axes()) {
    if (axis.name == "schedule") axis.default_value = "wavefront";
    if (axis.name == "rows_per_thread") axis.default_value = "512";
    before.push_back(std::move(axis));
  }
  return before;
}

/// The axes of the experiments that split a universe into bands across GPUs (cuda-multigpu,
/// cuda-nccl): `gpus`, described as `gpus` says, and halo_steps, before fastest_axes().
inline std::vector<Axis> band_axes(std::string gpus) {
  return with_fitted_rows(
      fastest_axes({{.name = "gpus",
                     .default_value = "all",
                     .allowed = {},
                     .description = std::move(gpus),
                     .role = AxisRole::gpu_count},
                    halo_steps_axis("64", "generations between halo exchanges, and each "
                                          "band's halo rows above and below, 1 ... 4096")}),
      "its band and halos");
}

/// Why the kernels with `params` cannot run on a torus of `words_per_row` 32-bit words by
/// `height` rows (with rows_per_thread=auto, in the rows chosen for it), or nothing.
inline std::optional<std::string> grid_unsupported(const Params& params, std::int64_t words_per_row,
                                                   std::int64_t height) {
  try {
    return unsupported(config_for_grid(params, words_per_row, height), words_per_row, height);
  } catch (const Error& error) {
    return error.what();
  }
}

/// Why the kernels with `params` cannot run a band of `problem` `band_rows` tall (halos
/// included) on each GPU, or nothing: the bands of cuda-multigpu and cuda-nccl.
inline std::optional<std::string> band_unsupported(const Problem& problem, const Params& params,
                                                   std::int64_t band_rows) {
  const std::int64_t words_per_row = problem.shape.width / 32;
  if (auto reason = grid_unsupported(params, words_per_row, band_rows)) return reason;
  return cuda::beyond_free_memory(2 * static_cast<std::size_t>(problem.shape.width / 8 * band_rows),
                                  "each GPU's two grids of a band of " + std::to_string(band_rows) +
                                      " rows at a bit a cell");
}

/// cuda-life-wide: the kernels on a whole grid, a torus.
class WideSimulator final : public cuda_packed::PackedSimulator {
public:
  WideSimulator(const Problem& problem, const Config& config)
      : PackedSimulator(problem, config.instructions_per_cell(),
                        // each word read and written once per launch
                        2.0 * static_cast<double>(problem.shape.cells()) / 8.0 / config.steps),
        config_(config),
        progress_(config.one_launch() ? progress_words(config, words_per_row(), height()) : 0) {}
  WideSimulator(const Problem& problem, const Params& params)
      : WideSimulator(problem,
                      config_for_grid(params, problem.shape.width / 32, problem.shape.height)) {
    fitted_ = fitted_rows(params);
  }

  /// Why the kernels with `params` cannot run on the grid of `problem`, or nothing.
  static std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
    if (auto reason = cuda_packed::common_unsupported(problem)) return reason;
    if (auto reason = cuda_packed::torus_only(problem)) return reason;
    if (auto reason = grid_unsupported(params, problem.shape.width / 32, problem.shape.height)) {
      return reason;
    }
    return cuda_packed::beyond_device_memory(problem);
  }

protected:
  [[nodiscard]] std::map<std::string, std::string> device_extras() const override {
    auto info = PackedSimulator::device_extras();
    if (fitted_) info["rows_per_thread_chosen"] = std::to_string(config_.rows);
    return info;
  }

private:
  void launch(std::uint64_t generations) override {
    if (config_.one_launch()) generations -= persistent_launch(generations);
    launches(generations, [&](const std::uint32_t* in, std::uint32_t* out, std::uint64_t left) {
      return life_wide::launch(config_, in, out, words_per_row(), height(), left, stream());
    });
  }

  /// Enqueues the whole passes of config_.steps generations in `generations` (as many as an
  /// unsigned counts: a launch each for the rest) in one persistent launch; returns the
  /// generations it does.
  std::uint64_t persistent_launch(std::uint64_t generations) {
    const std::uint64_t passes =
        std::min<std::uint64_t>(generations / config_.steps, std::numeric_limits<unsigned>::max());
    if (passes == 0) return 0;
    life_wide::launch_persistent(config_, in(), out(), words_per_row(), height(),
                                 static_cast<unsigned>(passes), progress_.data(), stream());
    if (passes % 2 == 1) swap(); // the result in out(), as a launch a pass leaves it
    return passes * static_cast<std::uint64_t>(config_.steps);
  }

  Config config_;
  DeviceBuffer<unsigned> progress_; ///< launch=persistent: its warps' shared progress
  bool fitted_ = false;             ///< rows_per_thread=auto: config_.rows chosen for this grid
};

/// This host's CUDA devices (none where CUDA cannot start).
inline int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  (void)cudaGetLastError();
  return count;
}

/// The `gpus` parameter of the experiments that split a universe across GPUs (cuda-multigpu,
/// cuda-nccl): a count, or all of this host's. Throws Error.
inline int gpus_of(const Params& params) {
  const std::string& text = params.get("gpus");
  if (text == "all") return device_count();
  const std::int64_t count = params.get_int("gpus");
  if (count < 1 || count > 4096) throw Error("gpus must be all or 1 ... 4096");
  return static_cast<int>(count);
}

} // namespace lifebench::cuda::life_wide
