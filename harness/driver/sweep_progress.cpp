#include "sweep_progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <utility>

namespace lifebench::driver {

std::string format_duration(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
  const long long hours = total / 3600;
  const long long minutes = total / 60 % 60;
  const long long secs = total % 60;
  char text[32];
  if (hours > 0) {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", hours, minutes, secs);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld", minutes, secs);
  }
  return text;
}

SweepProgress::SweepProgress(std::vector<bool> to_run, std::vector<std::optional<double>> earlier_s,
                             std::vector<double> shares, std::vector<std::string> experiments)
    : to_run_(std::move(to_run)), earlier_s_(std::move(earlier_s)), shares_(std::move(shares)),
      experiments_(std::move(experiments)), done_(to_run_.size()) {}

std::string SweepProgress::position(std::size_t i) const {
  return "[" + std::to_string(i + 1) + "/" + std::to_string(to_run_.size()) + " " +
         format_duration(elapsed_s()) + "] ";
}

void SweepProgress::measured(std::size_t i, double wall_s) {
  done_[i] = true;
  measured_s_.push_back(wall_s);
  by_experiment_[experiments_[i]].push_back(wall_s);
}

namespace {

std::optional<double> median_of(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

double mean_of(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

} // namespace

std::optional<double> SweepProgress::seconds_left() const {
  std::vector<double> earlier;
  for (const auto& s : earlier_s_) {
    if (s) earlier.push_back(*s);
  }
  const std::optional<double> typical =
      measured_s_.empty() ? median_of(earlier) : median_of(measured_s_);
  double left = 0;
  for (std::size_t j = 0; j < to_run_.size(); ++j) {
    if (!to_run_[j] || done_[j]) continue;
    const auto same = by_experiment_.find(experiments_[j]);
    if (earlier_s_[j]) {
      left += shares_[j] * *earlier_s_[j];
    } else if (same != by_experiment_.end()) {
      left += shares_[j] * mean_of(same->second);
    } else if (typical) {
      left += shares_[j] * *typical;
    } else {
      return std::nullopt;
    }
  }
  return left;
}

std::string SweepProgress::left() const {
  const auto left = seconds_left();
  // Under half a second reads "0:00": nothing worth saying.
  return left && *left >= 0.5 ? "about " + format_duration(*left) + " left" : std::string();
}

double SweepProgress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

} // namespace lifebench::driver
