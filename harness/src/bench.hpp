// One timed configuration: verification first, then Google Benchmark with the
// simulator's own clock as manual time, one repetition at a time until the stopping rule
// says enough, then the final state checked where that is cheap. The result follows
// harness/results.schema.json.
#pragma once

#include "lifebench/configuration.hpp"
#include "lifebench/experiment.hpp"
#include "lifebench/result_record.hpp"
#include "verification.hpp"

#include <memory>

namespace lifebench::harness {

/// Measures one configuration; never throws for a failure of the experiment
/// itself (it becomes status "failed" with the reason).
/// `params`: the configuration's, resolved against the experiment's axes. `pattern`: the
/// configuration's pattern, read and found to fit its grid, which starts both runs in place
/// of soups; null for soups.
ResultRecord bench(const ExperimentInfo& info, const Params& params, const Configuration& config,
                   const std::shared_ptr<const PatternInput>& pattern);

} // namespace lifebench::harness
