// One configuration's result as harness/results.schema.json describes it ($defs/result).
// The experiment executable's `bench` writes it, and the driver writes it for a configuration
// whose process gave none (unavailable, crashed, timed out), so that both write the same keys;
// the driver then adds what only it knows (config_id, ties, binary_hash, wall_s, stderr_tail).
#pragma once

#include "lifebench/problem.hpp"
#include "lifebench/statistics.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lifebench {

enum class ResultStatus { ok, failed, unsupported, unavailable };

[[nodiscard]] std::string to_string(ResultStatus status);
/// The status a result's "status" names, or none for any other text.
[[nodiscard]] std::optional<ResultStatus> parse_result_status(std::string_view text);

/// The timed simulator's state after timing, checked against the reference from the same
/// soup where the reference's work is small enough.
struct FinalStateCheck {
  enum class Status { passed, failed, not_run };
  Status status = Status::not_run;
  std::uint64_t generations = 0; ///< every generation the timed simulator advanced
  std::string reason;            ///< the first difference, or why it was not run; empty: passed
};

/// The check against the reference made before timing (a capped problem, a soup), and the
/// check of the timed problem's final state after timing.
struct ResultVerification {
  bool passed = false;
  Problem problem;
  std::uint64_t generations = 0;
  std::string soup;    ///< as `--soup` takes it: "WxH,density,seed"; empty: from `pattern`
  std::string pattern; ///< the pattern's name where it started from the run's pattern
  std::uint64_t reference_hash = 0;
  std::string first_difference; ///< "cell (x, y): expected 1, got 0"; empty when passed
  /// Whether the timed problem itself was checked (before timing, or its final state after),
  /// else only the smaller `problem`: "scope" timed_problem or smaller_problem.
  bool timed_problem = false;
  FinalStateCheck final_state{
      .status = FinalStateCheck::Status::not_run, .generations = 0, .reason = "nothing was timed"};
};

/// The timed repetitions, on the simulator's own clock.
struct ResultTiming {
  std::string clock; ///< Simulator::clock(): "steady_clock", "cuda_events", ...
  int warmup = 0;
  int repetitions = 0;         ///< as many as were timed
  std::vector<double> seconds; ///< each repetition's, in increasing order
  double median_s = 0;
  double min_s = 0;
  double max_s = 0;
  double cv = 0;                                       ///< standard deviation over mean
  statistics::Interval median_ci;                      ///< the median's distribution-free interval
  statistics::Stop stop = statistics::Stop::converged; ///< why no more repetitions were timed
  double target_rel_ci = 0;             ///< the relative half-width asked of median_ci
  std::map<std::string, double> phases; ///< each phase's median seconds; empty: none
};

struct ResultThroughput {
  double cell_updates_per_second = 0;
  double seconds_per_generation = 0;
  std::optional<double> bytes_per_generation; ///< for memory-bound techniques
  std::optional<double> bytes_per_second;
};

/// The pattern a run starts from in place of a soup (`bench --pattern`).
struct ResultPattern {
  std::string name;                                  ///< "acorn"
  std::string path;                                  ///< as the sweep gave it
  std::string hash;                                  ///< pattern_hash(): the cells' fingerprint
  std::optional<std::array<std::int64_t, 2>> offset; ///< x, y; none: centred
};

/// The host as the experiment executable sees it.
struct ResultHost {
  std::optional<std::string> hwy_target; ///< Highway's dispatch target; none without Highway
};

struct ResultRecord {
  // What was asked for.
  std::string experiment{};
  std::string backend{};
  std::string family{};
  std::map<std::string, std::string> params{};
  Problem problem{};
  std::uint64_t generations = 0;
  std::optional<double> density{};               ///< of the soups; none: not given (the family's)
  std::optional<ResultPattern> pattern{};        ///< none: the run starts from soups
  std::map<std::string, std::string> external{}; ///< an external program's; empty for ours
  // What came of it.
  ResultStatus status = ResultStatus::ok;
  std::string reason{};                             ///< one line; empty when ok
  std::optional<ResultVerification> verification{}; ///< none: not run
  std::optional<ResultHost> host{}; ///< the experiment executable's; none from the driver
  // A measurement, status ok only.
  std::optional<ResultTiming> timing{};
  std::optional<ResultThroughput> throughput{};
  std::optional<std::map<std::string, std::string>> device{}; ///< Simulator::device()
  std::optional<nlohmann::json> benchmark{}; ///< Google Benchmark's JSON "benchmarks" entries

  /// Marks the result as not measured: status (not ok) and the one-line reason.
  void fail(ResultStatus not_ok, std::string why);
  [[nodiscard]] nlohmann::json to_json() const;
};

} // namespace lifebench
