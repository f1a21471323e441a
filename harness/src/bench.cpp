#include "bench.hpp"

#include "checks.hpp"
#include "lifebench/environment.hpp"
#include "lifebench/soup.hpp"
#include "verification.hpp"

#include <algorithm>
#include <array>
#include <benchmark/benchmark.h>
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
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

/// What the timed repetitions gave.
struct Timed {
  std::vector<double> seconds;                       ///< each repetition's, in order
  std::map<std::string, std::vector<double>> phases; ///< each phase's seconds per repetition
  nlohmann::json entries = nlohmann::json::array();  ///< Google Benchmark's, one a repetition
  statistics::Stop stop = statistics::Stop::converged;
};

/// Google Benchmark's entry of each repetition, numbered as the repetitions of one run.
void number_entries(nlohmann::json& entries) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    entries[i]["repetition_index"] = i;
    entries[i]["repetitions"] = entries.size();
  }
}

/// Unregisters the benchmarks on every way out of a timing, errors included.
struct Registration {
  Registration() = default;
  Registration(const Registration&) = delete;
  Registration& operator=(const Registration&) = delete;
  ~Registration() { benchmark::ClearRegisteredBenchmarks(); }
};

/// Times one repetition after another, each a run of Google Benchmark of its own, so that the
/// stopping rule decides after each whether to go on; `restart`, where given, puts the start
/// back before each (untimed: the time is the advance's own). Throws Error when a repetition
/// fails.
Timed time_repetitions(Simulator& simulator, const Configuration& config,
                       const std::function<void()>& restart) {
  Timed timed;
  std::string timing_error;
  // Named as the results name the configuration (its config_id).
  const std::string name = config.name();
  benchmark::RegisterBenchmark(name.c_str(),
                               [&](benchmark::State& state) {
                                 for (auto _ : state) {
                                   try {
                                     if (restart) restart();
                                     state.SetIterationTime(
                                         simulator.timed_advance(config.generations));
                                     for (const auto& [phase, s] : simulator.phase_seconds())
                                       timed.phases[phase].push_back(s);
                                   } catch (const std::exception& e) {
                                     timing_error = e.what();
                                     state.SkipWithError(e.what());
                                     break;
                                   }
                                 }
                               })
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  const Registration registration;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    CollectingReporter reporter;
    std::ostringstream json_out;
    std::ostringstream json_err;
    reporter.SetOutputStream(&json_out);
    reporter.SetErrorStream(&json_err);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    if (!timing_error.empty()) throw Error("error while timing: " + timing_error);
    if (reporter.seconds.empty()) throw Error("no repetition was timed");
    timed.seconds.push_back(reporter.seconds.front());
    const auto report = nlohmann::json::parse(json_out.str(), nullptr, false);
    if (!report.is_discarded() && report.contains("benchmarks")) {
      for (const auto& entry : report["benchmarks"])
        timed.entries.push_back(entry);
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (const auto stop = should_stop(config.stopping, timed.seconds, elapsed.count())) {
      timed.stop = *stop;
      break;
    }
  }
  number_entries(timed.entries);
  return timed;
}

ResultTiming timing_statistics(const Timed& timed, const std::string& clock,
                               const Configuration& config) {
  std::vector<double> seconds = timed.seconds;
  std::sort(seconds.begin(), seconds.end());
  ResultTiming timing{.clock = clock,
                      .warmup = config.warmup,
                      .repetitions = static_cast<int>(seconds.size()),
                      .seconds = {},
                      .median_s = statistics::median(seconds),
                      .min_s = seconds.front(),
                      .max_s = seconds.back(),
                      .cv = statistics::cv(seconds),
                      .median_ci = statistics::median_interval(seconds),
                      .stop = timed.stop,
                      .target_rel_ci = config.stopping.target_rel_ci,
                      .phases = {}};
  for (const auto& [phase, each] : timed.phases)
    timing.phases[phase] = statistics::median(each);
  timing.seconds = std::move(seconds);
  return timing;
}

double soup_density_of(const Configuration& config) {
  return config.density.value_or(soup_density(config.problem.rule.topology));
}

/// What a result records of the run's pattern, or nothing for soups.
std::optional<ResultPattern> pattern_of(const PatternInput* input) {
  if (input == nullptr) return std::nullopt;
  ResultPattern pattern{.name = input->pattern.name,
                        .path = input->path,
                        .hash = pattern_hash(input->pattern),
                        .offset = std::nullopt};
  if (input->offset) pattern.offset = std::array{input->offset->x, input->offset->y};
  return pattern;
}

ResultRecord base_result(const ExperimentInfo& info, const Params& params,
                         const Configuration& config,
                         const std::shared_ptr<const PatternInput>& pattern) {
  const auto simd = simd_targets();
  return ResultRecord{
      .experiment = info.about.name,
      .backend = info.about.backend,
      .family = info.about.family,
      .params = params.values(),
      .problem = config.problem,
      .generations = config.generations,
      .density = pattern ? std::nullopt : std::optional(soup_density_of(config)),
      .pattern = pattern_of(pattern.get()),
      .external = info.external,
      .host = ResultHost{simd.empty() ? std::nullopt : std::optional<std::string>(simd.front())}};
}

/// Verifies on a capped soup, or the run's pattern on a grid capped while it fits there;
/// returns the failure reason, or nothing.
std::optional<std::string> verify_before_timing(const ExperimentInfo& info, const Params& params,
                                                const Configuration& config,
                                                const std::shared_ptr<const PatternInput>& pattern,
                                                ResultRecord& result) {
  const auto pattern_fits = [&](const Problem& smaller) {
    return !pattern || !placement_refusal(pattern->pattern, smaller, pattern->offset);
  };
  const Problem problem =
      capped_problem(info, params, config.problem, kVerifyMaxCells, pattern_fits);
  const std::uint64_t generations = verify_generations(info, params);
  // Split unevenly over two advance() calls so that carried state is checked too.
  const VerificationCase check{problem, generations / 2,         generations - generations / 2,
                               1,       soup_density_of(config), pattern};
  const VerificationOutcome outcome = verify_case(info, params, check);
  result.verification = ResultVerification{.passed = outcome.passed,
                                           .problem = problem,
                                           .generations = generations,
                                           .soup = pattern ? "" : check.soup(),
                                           .pattern = pattern ? pattern->pattern.name : "",
                                           .reference_hash = outcome.reference_hash,
                                           .first_difference = outcome.passed ? "" : outcome.detail,
                                           .timed_problem = problem == config.problem};
  if (outcome.passed) return std::nullopt;
  return "verification failed: " + outcome.detail;
}

/// Checks the timed simulator's state after the `generations` it advanced from `start`;
/// returns the failure reason, or nothing.
std::optional<std::string> check_timed_final_state(Simulator& simulator,
                                                   const Configuration& config,
                                                   const std::function<Grid()>& start,
                                                   std::uint64_t generations,
                                                   ResultRecord& result) {
  ResultVerification& verification = *result.verification;
  verification.final_state = check_final_state(simulator, config.problem, start, generations);
  using Status = FinalStateCheck::Status;
  if (verification.final_state.status == Status::passed) verification.timed_problem = true;
  if (verification.final_state.status != Status::failed) return std::nullopt;
  return "final state after timing differs from the reference: " + verification.final_state.reason;
}

} // namespace

ResultRecord bench(const ExperimentInfo& info, const Params& params, const Configuration& config,
                   const std::shared_ptr<const PatternInput>& pattern) {
  ResultRecord result = base_result(info, params, config, pattern);
  const auto failed = [&](ResultStatus status, std::string reason) {
    result.fail(status, std::move(reason));
    return result;
  };
  try {
    // The backend's own queries may throw too (a driver that fails to load).
    if (auto reason = info.unavailable()) return failed(ResultStatus::unavailable, *reason);
    if (auto reason = unsupported_reason(info, config.problem, params)) {
      return failed(ResultStatus::unsupported, *reason);
    }
    if (auto reason = verify_before_timing(info, params, config, pattern, result)) {
      return failed(ResultStatus::failed, *reason);
    }
    // Progress on stderr: the driver keeps its tail, which places a crash or a hang.
    std::cerr << info.about.name << ": verified on " << result.verification->problem.to_string()
              << "; timing at least " << config.stopping.min_repetitions << " x "
              << config.generations << " generations on " << config.problem.to_string()
              << std::endl;
    auto simulator = info.make(config.problem, params);
    // The timed state: the pattern, or a soup of another seed than the verification's.
    const SoupSpec soup{config.problem.shape, soup_density_of(config), 2};
    const auto start = [&] { return pattern->on(config.problem); };
    if (pattern) {
      simulator->upload(start());
    } else {
      simulator->upload_soup(soup);
    }
    for (int i = 0; i < config.warmup; ++i)
      simulator->timed_advance(config.generations);

    // A pattern's repetitions each time its first generations (a pattern grows, settles or
    // fills the grid, and HashLife's pace follows), and so do a soup's where the pace follows
    // the state; other soups' continue one another.
    std::function<void()> restart;
    if (pattern) {
      restart = [&] { simulator->upload(start()); };
    } else if (simulator->pace_follows_state()) {
      restart = [&] { simulator->upload_soup(soup); };
    }
    const Timed timed = time_repetitions(*simulator, config, restart);
    const ResultTiming& timing =
        result.timing.emplace(timing_statistics(timed, simulator->clock(), config));
    const double median = timing.median_s;
    const double updates = double(config.problem.shape.cells()) * double(config.generations);
    const auto bytes = simulator->bytes_per_generation();
    result.throughput = ResultThroughput{
        .cell_updates_per_second = updates / median,
        .seconds_per_generation = median / double(config.generations),
        .bytes_per_generation = bytes,
        .bytes_per_second =
            bytes ? std::optional<double>(*bytes * double(config.generations) / median)
                  : std::nullopt};
    result.device = simulator->device();
    result.benchmark = timed.entries;
    const std::uint64_t advanced = restart ? config.generations
                                           : (static_cast<std::uint64_t>(config.warmup) +
                                              static_cast<std::uint64_t>(timing.repetitions)) *
                                                 config.generations;
    if (auto reason = check_timed_final_state(
            *simulator, config,
            pattern ? std::function<Grid()>(start) : [&] { return make_soup(soup); }, advanced,
            result)) {
      return failed(ResultStatus::failed, *reason);
    }
  } catch (const std::exception& e) {
    return failed(ResultStatus::failed, e.what());
  }
  return result;
}

} // namespace lifebench::harness
