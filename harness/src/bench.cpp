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

nlohmann::json timing_statistics(std::vector<double> seconds, const std::string& clock,
                                 const BenchRequest& request) {
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  const double median = median_of(seconds);
  const double mean = std::accumulate(seconds.begin(), seconds.end(), 0.0) / double(n);
  double variance = 0;
  for (double s : seconds)
    variance += (s - mean) * (s - mean);
  variance = n > 1 ? variance / double(n - 1) : 0.0;
  return {{"clock", clock},
          {"warmup", request.warmup},
          {"repetitions", request.repetitions},
          {"seconds", seconds},
          {"median_s", median},
          {"min_s", seconds.front()},
          {"max_s", seconds.back()},
          {"cv", mean > 0 ? std::sqrt(variance) / mean : 0.0}};
}

double soup_density_of(const BenchRequest& request) {
  return request.density.value_or(soup_density(request.problem.rule.topology));
}

nlohmann::json base_result(const ExperimentInfo& info, const Params& params,
                           const BenchRequest& request) {
  const Problem& p = request.problem;
  const auto simd = simd_targets();
  nlohmann::json result = {
      {"experiment", info.name},
      {"backend", info.backend},
      {"family", info.family},
      {"params", params.values()},
      {"problem", p.to_string()},
      {"rule", p.rule.to_string()},
      {"shape", p.shape.to_string()},
      {"boundary", to_string(p.boundary)},
      {"cells", p.shape.cells()},
      {"generations", request.generations},
      {"density", soup_density_of(request)},
      {"status", "ok"},
      {"reason", nullptr},
      {"verification", {{"status", "not_run"}}},
      {"host",
       {{"hwy_target", simd.empty() ? nlohmann::json(nullptr) : nlohmann::json(simd.front())}}}};
  if (!info.external.empty()) result["external"] = info.external;
  return result;
}

nlohmann::json failed(nlohmann::json result, const std::string& status, const std::string& reason) {
  result["status"] = status;
  result["reason"] = reason;
  return result;
}

/// Verifies on a capped soup; returns the failure reason, or nothing.
std::optional<std::string> verify_before_timing(const ExperimentInfo& info, const Params& params,
                                                const BenchRequest& request,
                                                nlohmann::json& result) {
  const Problem problem = capped_problem(info, params, request.problem, kVerifyMaxCells);
  const std::uint64_t generations = verify_generations(info, params);
  // Split unevenly over two advance() calls so that carried state is checked too.
  const VerificationCase check{problem, generations / 2, generations - generations / 2, 1,
                               soup_density_of(request)};
  const VerificationOutcome outcome = verify_case(info, params, check);
  std::ostringstream hash;
  hash << "0x" << std::hex << outcome.reference_hash;
  result["verification"] = {{"status", outcome.passed ? "passed" : "failed"},
                            {"problem", problem.to_string()},
                            {"generations", generations},
                            {"soup", check.soup()},
                            {"reference_hash", hash.str()},
                            {"first_difference", outcome.passed ? nlohmann::json(nullptr)
                                                                : nlohmann::json(outcome.detail)}};
  if (outcome.passed) return std::nullopt;
  return "verification failed: " + outcome.detail;
}

} // namespace

nlohmann::json bench(const ExperimentInfo& info, const Params& params,
                     const BenchRequest& request) {
  nlohmann::json result = base_result(info, params, request);
  try {
    // The backend's own queries may throw too (a driver that fails to load).
    if (auto reason = info.unavailable()) return failed(result, "unavailable", *reason);
    if (auto reason = unsupported_reason(info, request.problem, params)) {
      return failed(result, "unsupported", *reason);
    }
    if (auto reason = verify_before_timing(info, params, request, result)) {
      return failed(result, "failed", *reason);
    }
    // Progress on stderr: the driver keeps its tail, which places a crash or a hang.
    std::cerr << info.name << ": verified on "
              << result["verification"]["problem"].get<std::string>() << "; timing "
              << request.repetitions << " x " << request.generations << " generations on "
              << request.problem.to_string() << std::endl;
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
    if (!timing_error.empty())
      return failed(result, "failed", "error while timing: " + timing_error);
    if (reporter.seconds.empty()) return failed(result, "failed", "no repetition was timed");

    result["timing"] = timing_statistics(reporter.seconds, simulator->clock(), request);
    for (const auto& [phase, seconds] : phases)
      result["timing"]["phases"][phase] = median_of(seconds);
    const double median = result["timing"]["median_s"].get<double>();
    const double updates = double(request.problem.shape.cells()) * double(request.generations);
    const auto bytes = simulator->bytes_per_generation();
    result["throughput"] = {
        {"cell_updates_per_second", updates / median},
        {"seconds_per_generation", median / double(request.generations)},
        {"bytes_per_generation", bytes ? nlohmann::json(*bytes) : nlohmann::json(nullptr)},
        {"bytes_per_second", bytes ? nlohmann::json(*bytes * double(request.generations) / median)
                                   : nlohmann::json(nullptr)}};
    result["device"] = simulator->device();
    const auto report = nlohmann::json::parse(json_out.str(), nullptr, false);
    if (!report.is_discarded() && report.contains("benchmarks")) {
      result["benchmark"] = report["benchmarks"];
    }
  } catch (const std::exception& e) {
    return failed(result, "failed", e.what());
  }
  return result;
}

} // namespace lifebench::harness
