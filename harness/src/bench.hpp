// One timed configuration: verification first, then Google Benchmark with the
// simulator's own clock as manual time, one repetition at a time until the stopping rule
// says enough, then the final state checked where that is cheap. The result follows
// harness/results.schema.json.
#pragma once

#include "lifebench/experiment.hpp"
#include "lifebench/result_record.hpp"
#include "lifebench/statistics.hpp"
#include "verification.hpp"

#include <cstdint>
#include <memory>
#include <optional>

namespace lifebench::harness {

struct BenchRequest {
  Problem problem;
  std::uint64_t generations = 0;
  statistics::StoppingRule stopping; ///< its min_repetitions: the sweep's `repetitions`
  int warmup = 1;
  std::optional<double> density;               ///< of both soups; none: the family's soup density
  std::shared_ptr<const PatternInput> pattern; ///< starts both runs in place of soups; none: soups
};

/// Measures one configuration; never throws for a failure of the experiment
/// itself (it becomes status "failed" with the reason).
ResultRecord bench(const ExperimentInfo& info, const Params& params, const BenchRequest& request);

} // namespace lifebench::harness
