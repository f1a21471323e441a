// The statistics of repetition times, one module for the experiment executables (how long
// to go on timing, what a result records) and the driver (benchmarks.json's aggregates,
// `lifebench compare`'s verdicts).
//
// Times of a benchmark are skewed and carry outliers (an interrupt, a clock step), so the
// summary is the median and its interval comes from order statistics, with no assumption on
// the distribution: [x(k), x(n+1-k)] of the sorted sample holds the true median with
// probability 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2). The Mann-Whitney U test is written here
// rather than taken from scipy: `lifebench compare` must run where lifebench runs, including
// GPU machines with no scipy and no network, and no C++ library of the distribution
// (Boost.Math, GSL) offers the test. tests/unit/test_statistics.cpp checks every function
// against scipy's values.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::statistics {

/// The middle value, or the mean of the two middle ones; `values` must not be empty.
double median(std::vector<double> values);
double mean(const std::vector<double>& values);
/// The sample standard deviation (divided by n - 1), as Google Benchmark's stddev; 0 for one.
double stddev(const std::vector<double>& values);
/// stddev over mean; 0 when the mean is not positive.
double cv(const std::vector<double>& values);

/// An interval and the probability that it holds the quantity it bounds.
struct Interval {
  double low = 0;
  double high = 0;
  double level = 0; ///< the actual coverage, which order statistics make a step function of n
};

/// The confidence level intervals are asked for.
inline constexpr double kLevel = 0.95;

/// The distribution-free interval of the median: the narrowest [x(k), x(n+1-k)] whose
/// coverage reaches `level`; where none does (fewer than 6 values for 0.95), the widest,
/// [min, max], with its own lower coverage (0.75 for 3 values, 0 for one).
Interval median_interval(std::vector<double> values, double level = kLevel);

/// The interval's half-width relative to its median: (high - low) / 2 / median.
double relative_half_width(const Interval& interval, double median);

/// median(numerator) / median(denominator), bounded by the two medians' intervals:
/// [low_n / high_d, high_n / low_d], which holds the true ratio whenever both intervals hold
/// their medians, so that its level is at least the product of theirs. Each sample must be
/// non-empty and positive.
struct Ratio {
  double value = 1;
  Interval interval;
};
Ratio median_ratio(const std::vector<double>& numerator, const std::vector<double>& denominator,
                   double level = kLevel);

struct UTest {
  double p = 1;       ///< two-sided p-value
  bool exact = false; ///< from U's exact distribution (else the normal approximation)
};

/// Two-sided Mann-Whitney U test of `a` against `b` (each non-empty), as scipy.stats.
/// mannwhitneyu's method "auto": U's exact distribution when one sample has at most 8 values
/// and no value occurs twice; otherwise the normal approximation with the tie correction and
/// a continuity correction of 0.5.
UTest mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

/// The smallest two-sided p-value samples of `n1` and `n2` values can give (the samples
/// wholly apart): 2 / C(n1 + n2, n1), at most 1. With 3 and 3 it is 0.1, so that no
/// difference is significant at 0.05; 4 and 4 give 0.029, 5 and 5 0.0079.
double smallest_p(std::size_t n1, std::size_t n2);

/// When a benchmark stops adding repetitions (after nvbench's stopping criterion): at least
/// `min_repetitions`, then until the median's interval at kLevel is within `target_rel_ci` of
/// it (relative half-width), at most `max_repetitions`, and no repetition is begun that would
/// end past `budget_s` seconds of timing (judged by the mean repetition so far).
struct StoppingRule {
  int min_repetitions = 5;
  int max_repetitions = 100;
  double target_rel_ci = 0.01;
  double budget_s = 5;
};

/// Why repetitions stopped, as the results record it: "converged", "max_repetitions" or
/// "time_budget".
enum class Stop { converged, max_repetitions, time_budget };
std::string to_string(Stop stop);

/// Whether to stop after the repetitions `seconds` (each one's time), which took `elapsed_s`
/// of timing in all (their sum, or more where each repetition has a cost of its own); none:
/// time one more.
std::optional<Stop> should_stop(const StoppingRule& rule, const std::vector<double>& seconds,
                                double elapsed_s);

} // namespace lifebench::statistics
