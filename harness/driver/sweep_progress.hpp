// The clock of a sweep's progress lines: the time since the sweep started on every line,
// and the time left, estimated from the configurations measured so far (those of the same
// experiment first: an out-of-core configuration takes a minute where a small kernel's takes
// seconds) and, when resuming, from how long an earlier run took over the same
// configurations; configurations run several at once count for their share.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::driver {

/// "0:07", "3:21", "1:02:03": a duration to the second.
std::string format_duration(double seconds);

class SweepProgress {
public:
  /// One entry per configuration, in sweep order: whether this run measures it, how many
  /// seconds it took when an earlier run measured it (its result's wall_s), if known, the
  /// share of its time the sweep waits for (1 for one run alone, 1 / N for one of N run at
  /// once, --parallel-gpus) and its experiment.
  SweepProgress(std::vector<bool> to_run, std::vector<std::optional<double>> earlier_s,
                std::vector<double> shares, std::vector<std::string> experiments);

  /// "[12/203 3:21] ": the configuration's place and the time since the sweep started.
  [[nodiscard]] std::string position(std::size_t i) const;

  /// Records that configuration i ran for `wall_s` seconds.
  void measured(std::size_t i, double wall_s);

  /// The seconds the configurations this run measures and has not measured yet should
  /// take, each times its share: its earlier time, else the mean of this run's measured
  /// configurations of its experiment, else the median of all this run's measured ones
  /// (else of the earlier ones: a median, as a few long ones would skew a mean); none
  /// when nothing is known yet.
  [[nodiscard]] std::optional<double> seconds_left() const;

  /// "about 14:05 left", or empty when nothing is known yet or nothing is left.
  [[nodiscard]] std::string left() const;

  /// Seconds since the sweep started.
  [[nodiscard]] double elapsed_s() const;

private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::vector<bool> to_run_;
  std::vector<std::optional<double>> earlier_s_;
  std::vector<double> shares_;
  std::vector<std::string> experiments_;
  std::vector<bool> done_;
  std::vector<double> measured_s_;                           ///< each measured configuration's
  std::map<std::string, std::vector<double>> by_experiment_; ///< the same, by experiment
};

} // namespace lifebench::driver
