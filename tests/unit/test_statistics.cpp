// The statistics of repetition times. Expected values are scipy 1.17's: numpy's median, mean
// and std (ddof=1), scipy.stats.binom for the coverage of order statistics,
// scipy.stats.quantile_test(...).confidence_interval(0.95) for the median's interval and
// scipy.stats.mannwhitneyu (two-sided, method "auto") for the U test.
#include "lifebench/statistics.hpp"

#include <gtest/gtest.h>
#include <vector>

namespace lifebench::statistics {
namespace {

const std::vector<double> kTen = {1.52, 1.49, 1.61, 1.55, 1.50, 1.58, 1.47, 1.53, 1.56, 1.51};

/// n values spaced evenly over [1, 2], shuffled so that nothing depends on their order.
std::vector<double> spaced(int n) {
  if (n == 1) return {1.0};
  std::vector<double> values;
  for (int i = n - 1; i >= 0; --i)
    values.push_back(1 + double(i) / double(n - 1));
  return values;
}

TEST(Statistics, Summaries) {
  EXPECT_DOUBLE_EQ(median(kTen), 1.525);
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(mean(kTen), 1.532);
  EXPECT_NEAR(stddev(kTen), 0.043153472887152725, 1e-15);
  EXPECT_NEAR(cv(kTen), 0.02816806324226679, 1e-15);
  EXPECT_DOUBLE_EQ(stddev({2.0}), 0.0);
  EXPECT_DOUBLE_EQ(cv({0.0, 0.0}), 0.0);
}

TEST(Statistics, MedianIntervalAsScipy) {
  const Interval ten = median_interval(kTen);
  EXPECT_DOUBLE_EQ(ten.low, 1.49); // quantile_test's interval: x(2), x(9)
  EXPECT_DOUBLE_EQ(ten.high, 1.58);
  EXPECT_NEAR(ten.level, 0.978515625, 1e-12);

  const auto twenty = spaced(20);
  const Interval wide = median_interval(twenty);
  EXPECT_DOUBLE_EQ(wide.low, 1 + 5.0 / 19); // x(6), x(15)
  EXPECT_DOUBLE_EQ(wide.high, 1 + 14.0 / 19);
  EXPECT_NEAR(wide.level, 0.9586105346679688, 1e-12);
}

TEST(Statistics, FewValuesGiveTheirRangeAtItsOwnLevel) {
  // 1 - 2 * binom.cdf(0, n, 0.5): below 0.95 for every n under 6.
  const std::vector<std::pair<int, double>> levels = {{1, 0.0},    {2, 0.5},     {3, 0.75},
                                                      {5, 0.9375}, {6, 0.96875}, {8, 0.9921875}};
  for (const auto& [n, level] : levels) {
    const Interval interval = median_interval(spaced(n));
    EXPECT_DOUBLE_EQ(interval.low, 1.0) << n;
    EXPECT_DOUBLE_EQ(interval.high, n == 1 ? 1.0 : 2.0) << n;
    EXPECT_NEAR(interval.level, level, 1e-12) << n;
  }
  // 50 values: x(18), x(33), 1 - 2 * binom.cdf(17, 50, 0.5).
  EXPECT_NEAR(median_interval(spaced(50)).level, 0.9671608624357315, 1e-12);
  // A million repetitions stay finite.
  EXPECT_GE(median_interval(std::vector<double>(1'000'000, 1.0)).level, 0.95);
}

TEST(Statistics, RatioOfMedians) {
  const std::vector<double> old_s = {1.0, 1.1, 1.2};
  const std::vector<double> new_s = {10.0, 11.0, 12.0};
  const Ratio ratio = median_ratio(new_s, old_s);
  EXPECT_DOUBLE_EQ(ratio.value, 10.0);
  EXPECT_DOUBLE_EQ(ratio.interval.low, 10.0 / 1.2);
  EXPECT_DOUBLE_EQ(ratio.interval.high, 12.0 / 1.0);
  EXPECT_DOUBLE_EQ(ratio.interval.level, 0.75 * 0.75);
  const Ratio same = median_ratio(old_s, old_s);
  EXPECT_DOUBLE_EQ(same.value, 1.0);
  EXPECT_LT(same.interval.low, 1.0);
  EXPECT_GT(same.interval.high, 1.0);
}

TEST(Statistics, MannWhitneyAsScipy) {
  EXPECT_NEAR(mann_whitney_u({1.0, 1.1, 1.2}, {2.0, 2.1, 2.2}).p, 0.1, 1e-12);
  const UTest apart = mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_TRUE(apart.exact);
  EXPECT_NEAR(apart.p, 0.007936507936507936, 1e-12);
  EXPECT_NEAR(mann_whitney_u({1, 3, 5, 7}, {2, 4, 6, 8, 9, 10}).p, 0.2571428571428571, 1e-12);
  // Ties: the normal approximation with the tie and continuity corrections.
  const UTest tied =
      mann_whitney_u({1, 2, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 4, 4, 5, 6, 7, 8, 9, 10, 11});
  EXPECT_FALSE(tied.exact);
  EXPECT_NEAR(tied.p, 0.13882114450720942, 1e-12);
  // Both samples above 8 values: the normal approximation too.
  std::vector<double> x;
  std::vector<double> y;
  for (int i = 1; i <= 10; ++i) {
    x.push_back(i);
    y.push_back(i + 3.5);
  }
  EXPECT_NEAR(mann_whitney_u(x, y).p, 0.031209012771740218, 1e-12);
  EXPECT_DOUBLE_EQ(mann_whitney_u({5, 5, 5}, {5, 5, 5}).p, 1.0);
}

TEST(Statistics, SmallestP) {
  EXPECT_NEAR(smallest_p(3, 3), 0.1, 1e-12);
  EXPECT_NEAR(smallest_p(4, 4), 2.0 / 70, 1e-12);
  EXPECT_NEAR(smallest_p(5, 5), 0.007936507936507936, 1e-12);
  EXPECT_DOUBLE_EQ(smallest_p(1, 1), 1.0);
}

TEST(Statistics, StopsAtTheMinimumOnlyWhenConverged) {
  const StoppingRule rule{
      .min_repetitions = 3, .max_repetitions = 100, .target_rel_ci = 0.01, .budget_s = 5};
  const std::vector<double> steady(6, 0.1);
  EXPECT_FALSE(should_stop(rule, {0.1, 0.1}, 0.2)); // below the minimum
  // Three equal values: a zero width, but only 75 % coverage; six reach 95 %.
  EXPECT_FALSE(should_stop(rule, {0.1, 0.1, 0.1}, 0.3));
  EXPECT_EQ(should_stop(rule, steady, 0.6), Stop::converged);
}

TEST(Statistics, StopsAtTheMaximumOrTheBudget) {
  const std::vector<double> noisy = {0.1, 0.2, 0.1, 0.2, 0.1, 0.2};
  EXPECT_FALSE(should_stop({3, 100, 0.01, 5}, noisy, 0.9));
  EXPECT_EQ(should_stop({3, 6, 0.01, 5}, noisy, 0.9), Stop::max_repetitions);
  // The next repetition (0.15 s on average) would end past one second.
  EXPECT_EQ(should_stop({3, 100, 0.01, 1}, noisy, 0.9), Stop::time_budget);
  // The minimum is timed whatever the budget.
  EXPECT_FALSE(should_stop({10, 100, 0.01, 0.1}, noisy, 0.9));
  EXPECT_EQ(to_string(Stop::time_budget), "time_budget");
}

} // namespace
} // namespace lifebench::statistics
