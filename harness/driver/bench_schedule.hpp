// lifebench bench, once planned: each configuration the plan runs in its own process under
// its time limit, one at a time or, with --parallel-gpus, one-GPU ones several at once, each
// result recorded in the results folder as it comes.
#pragma once

#include "bench_plan.hpp"
#include "results.hpp"
#include "sweep.hpp"
#include "sweep_progress.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::driver {

/// The GPUs of --parallel-gpus n: the first n of CUDA_VISIBLE_DEVICES, else 0 ... n-1; none
/// for one (each configuration then sees the GPUs we see). Throws Error when
/// CUDA_VISIBLE_DEVICES names fewer.
std::vector<std::string> parallel_gpu_ids(int n);

/// What a run measures and how.
struct Schedule {
  const std::vector<SweepConfiguration>& configurations;
  const Plan& plan;
  const std::vector<std::string>& gpus; ///< of --parallel-gpus; empty: one at a time
  std::optional<double> time_limit_s;   ///< --time-limit-s, over each configuration's own
  bool show_stderr = false;             ///< --show-stderr

  /// Whether configuration i runs on one of the GPUs beside others.
  [[nodiscard]] bool shares_gpus(std::size_t i) const;
};

/// Runs what `schedule` runs, in sweep order, saying so on standard output and recording each
/// result in `folder` as it ends (the plan's kept results are said as their turn comes);
/// returns whether SIGINT, SIGTERM or SIGHUP interrupted it.
bool run_schedule(const Schedule& schedule, ResultsFolder& folder, SweepProgress& progress);

} // namespace lifebench::driver
