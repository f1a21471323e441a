// One timed configuration: verification first, then Google Benchmark with the
// simulator's own clock as manual time. The result follows harness/RESULTS.md.
#pragma once

#include "lifebench/experiment.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

namespace lifebench::harness {

struct BenchRequest {
  Problem problem;
  std::uint64_t generations = 0;
  int repetitions = 5;
  int warmup = 1;
  std::optional<double> density; ///< of both soups; none: the family's soup density
};

/// Measures one configuration; never throws for a failure of the experiment
/// itself (it becomes status "failed" with the reason).
nlohmann::json bench(const ExperimentInfo& info, const Params& params, const BenchRequest& request);

} // namespace lifebench::harness
