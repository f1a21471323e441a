#include "bench.hpp"

#include "checks.hpp"
#include "lifebench/environment.hpp"
#include "lifebench/soup.hpp"
#include "verification.hpp"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cmath>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>

namespace lifebench::harness {
namespace {

/// Google Benchmark's JSON reporter, keeping each repetition's time for our statistics.
/// (Errors are caught in the benchmark body: Run's error fields differ between 1.7 and 1.8.)
class CollectingReporter : public benchmark::JSONReporter {
public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      if (run.run_type == Run::RT_Iteration && run.iterations > 0) {
        // With manual time, real_accumulated_time holds the simulator's own clock.
        seconds.push_back(run.real_accumulated_time / static_cast<double>(run.iterations));
      }
    }
    JSONReporter::ReportRuns(runs);
  }
  std::vector<double> seconds;
};

/// The middle value, or the mean of the two middle ones; `values` must not be empty.
double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

ResultTiming timing_statistics(std::vector<double> seconds, const std::string& clock,
                               const BenchRequest& request) {
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  const double mean = std::accumulate(seconds.begin(), seconds.end(), 0.0) / double(n);
  double variance = 0;
  for (double s : seconds)
    variance += (s - mean) * (s - mean);
  variance = n > 1 ? variance / double(n - 1) : 0.0;
  ResultTiming timing{.clock = clock,
                      .warmup = request.warmup,
                      .repetitions = request.repetitions,
                      .seconds = {},
                      .median_s = median_of(seconds),
                      .min_s = seconds.front(),
                      .max_s = seconds.back(),
                      .cv = mean > 0 ? std::sqrt(variance) / mean : 0.0,
                      .phases = {}};
  timing.seconds = std::move(seconds);
  return timing;
}

double soup_density_of(const BenchRequest& request) {
  return request.density.value_or(soup_density(request.problem.rule.topology));
}

ResultRecord base_result(const ExperimentInfo& info, const Params& params,
                         const BenchRequest& request) {
  const auto simd = simd_targets();
  return ResultRecord{
      .experiment = info.name,
      .backend = info.backend,
      .family = info.family,
      .params = params.values(),
      .problem = request.problem,
      .generations = request.generations,
      .density = soup_density_of(request),
      .external = info.external,
      .host = ResultHost{simd.empty() ? std::nullopt : std::optional<std::string>(simd.front())}};
}

/// Verifies on a capped soup; returns the failure reason, or nothing.
std::optional<std::string> verify_before_timing(const ExperimentInfo& info, const Params& params,
                                                const BenchRequest& request, ResultRecord& result) {
  const Problem problem = capped_problem(info, params, request.problem, kVerifyMaxCells);
  const std::uint64_t generations = verify_generations(info, params);
  // Split unevenly over two advance() calls so that carried state is checked too.
  const VerificationCase check{problem, generations / 2, generations - generations / 2, 1,
                               soup_density_of(request)};
  const VerificationOutcome outcome = verify_case(info, params, check);
  result.verification =
      ResultVerification{.passed = outcome.passed,
                         .problem = problem,
                         .generations = generations,
                         .soup = check.soup(),
                         .reference_hash = outcome.reference_hash,
                         .first_difference = outcome.passed ? "" : outcome.detail};
  if (outcome.passed) return std::nullopt;
  return "verification failed: " + outcome.detail;
}

} // namespace

ResultRecord bench(const ExperimentInfo& info, const Params& params, const BenchRequest& request) {
  ResultRecord result = base_result(info, params, request);
  const auto failed = [&](ResultStatus status, std::string reason) {
    result.fail(status, std::move(reason));
    return result;
  };
  try {
    // The backend's own queries may throw too (a driver that fails to load).
    if (auto reason = info.unavailable()) return failed(ResultStatus::unavailable, *reason);
    if (auto reason = unsupported_reason(info, request.problem, params)) {
      return failed(ResultStatus::unsupported, *reason);
    }
    if (auto reason = verify_before_timing(info, params, request, result)) {
      return failed(ResultStatus::failed, *reason);
    }
    // Progress on stderr: the driver keeps its tail, which places a crash or a hang.
    std::cerr << info.name << ": verified on " << result.verification->problem.to_string()
              << "; timing " << request.repetitions << " x " << request.generations
              << " generations on " << request.problem.to_string() << std::endl;
    auto simulator = info.make(request.problem, params);
    simulator->upload_soup(SoupSpec{request.problem.shape, soup_density_of(request), 2});
    for (int i = 0; i < request.warmup; ++i)
      simulator->timed_advance(request.generations);

    const std::string name = info.name + "/" + request.problem.to_string() + "/g" +
                             std::to_string(request.generations) + "/" + params.to_string();
    std::string timing_error;
    std::map<std::string, std::vector<double>> phases; // each phase's seconds per repetition
    benchmark::RegisterBenchmark(name.c_str(),
                                 [&](benchmark::State& state) {
                                   for (auto _ : state) {
                                     try {
                                       state.SetIterationTime(
                                           simulator->timed_advance(request.generations));
                                       for (const auto& [phase, s] : simulator->phase_seconds())
                                         phases[phase].push_back(s);
                                     } catch (const std::exception& e) {
                                       timing_error = e.what();
                                       state.SkipWithError(e.what());
                                       break;
                                     }
                                   }
                                 })
        ->UseManualTime()
        ->Iterations(1)
        ->Repetitions(request.repetitions)
        ->Unit(benchmark::kMillisecond);
    CollectingReporter reporter;
    std::ostringstream json_out;
    std::ostringstream json_err;
    reporter.SetOutputStream(&json_out);
    reporter.SetErrorStream(&json_err);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::ClearRegisteredBenchmarks();
    if (!timing_error.empty()) {
      return failed(ResultStatus::failed, "error while timing: " + timing_error);
    }
    if (reporter.seconds.empty()) return failed(ResultStatus::failed, "no repetition was timed");

    ResultTiming& timing =
        result.timing.emplace(timing_statistics(reporter.seconds, simulator->clock(), request));
    for (const auto& [phase, seconds] : phases)
      timing.phases[phase] = median_of(seconds);
    const double median = timing.median_s;
    const double updates = double(request.problem.shape.cells()) * double(request.generations);
    const auto bytes = simulator->bytes_per_generation();
    result.throughput = ResultThroughput{
        .cell_updates_per_second = updates / median,
        .seconds_per_generation = median / double(request.generations),
        .bytes_per_generation = bytes,
        .bytes_per_second =
            bytes ? std::optional<double>(*bytes * double(request.generations) / median)
                  : std::nullopt};
    result.device = simulator->device();
    const auto report = nlohmann::json::parse(json_out.str(), nullptr, false);
    if (!report.is_discarded() && report.contains("benchmarks")) {
      result.benchmark = report["benchmarks"];
    }
  } catch (const std::exception& e) {
    return failed(ResultStatus::failed, e.what());
  }
  return result;
}

} // namespace lifebench::harness
