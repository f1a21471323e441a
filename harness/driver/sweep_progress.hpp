// The clock of a sweep's progress lines: the time since the sweep started on every line,
// and the time left, estimated from the configurations measured so far and, when resuming,
// from how long an earlier run took over the same configurations.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::driver {

/// "0:07", "3:21", "1:02:03": a duration to the second.
std::string format_duration(double seconds);

class SweepProgress {
public:
  /// One entry per configuration, in sweep order: whether this run measures it, and how
  /// many seconds it took when an earlier run measured it (its result's wall_s), if known.
  SweepProgress(std::vector<bool> to_run, std::vector<std::optional<double>> earlier_s);

  /// "[12/203 3:21] ": the configuration's place and the time since the sweep started.
  [[nodiscard]] std::string position(std::size_t i) const;

  /// Records that a configuration ran for `wall_s` seconds.
  void measured(double wall_s);

  /// The seconds the configurations after `i` that this run measures should take: each
  /// its earlier time, else the mean of this run's measured ones (else of the earlier
  /// ones); none when nothing is known yet.
  [[nodiscard]] std::optional<double> seconds_left_after(std::optional<std::size_t> i) const;

  /// "about 14:05 left", or empty when nothing is known yet or nothing is left.
  [[nodiscard]] std::string left_after(std::optional<std::size_t> i) const;

  /// Seconds since the sweep started.
  [[nodiscard]] double elapsed_s() const;

private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::vector<bool> to_run_;
  std::vector<std::optional<double>> earlier_s_;
  double measured_s_ = 0;
  std::size_t measured_count_ = 0;
};

} // namespace lifebench::driver
