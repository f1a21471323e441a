// benchmarks.json: a results folder in Google Benchmark's JSON format, so that its tools
// (tools/compare.py) read our runs as they read Google Benchmark's own output.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

namespace lifebench::driver {

/// The Google Benchmark document of a run: a `context` from its manifest and, for every
/// result that is ok and verified, one `benchmarks` entry per repetition (run_type
/// "iteration", real_time in ms, and cpu_time where the experiment's own Google Benchmark
/// entries give it) followed by the mean, median, stddev and cv aggregates. A benchmark is
/// named by its result's config_id, which is the same in every run of that configuration
/// (no repetition count in it), so that runs with other repetition counts still match.
/// Results that failed, were not verified or timed nothing are left out.
nlohmann::json google_benchmark_json(const nlohmann::json& manifest,
                                     const std::vector<const nlohmann::json*>& results);

} // namespace lifebench::driver
