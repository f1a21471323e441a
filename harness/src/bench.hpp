// One timed configuration: verification first, then Google Benchmark with the
// simulator's own clock as manual time. The result follows harness/results.schema.json.
#pragma once

#include "lifebench/experiment.hpp"
#include "lifebench/result_record.hpp"

#include <cstdint>
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
ResultRecord bench(const ExperimentInfo& info, const Params& params, const BenchRequest& request);

} // namespace lifebench::harness
