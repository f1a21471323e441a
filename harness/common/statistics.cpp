#include "lifebench/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace lifebench::statistics {
namespace {

/// P(B = i) for B ~ Binomial(n, 1/2), through logarithms so that no factor overflows.
double half_binomial_pmf(std::size_t n, std::size_t i) {
  const auto nd = double(n);
  const auto id = double(i);
  return std::exp(std::lgamma(nd + 1) - std::lgamma(id + 1) - std::lgamma(nd - id + 1) -
                  nd * std::log(2.0));
}

/// Ranks of a's and b's values among both (ties get the mean of their ranks): the sum
/// of a's ranks, and the sizes of the groups of equal values.
struct Ranks {
  double sum_a = 0;
  std::vector<std::size_t> ties;
};

Ranks rank(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<std::pair<double, bool>> all; // value, from a
  all.reserve(a.size() + b.size());
  for (double v : a)
    all.emplace_back(v, true);
  for (double v : b)
    all.emplace_back(v, false);
  std::sort(all.begin(), all.end());
  Ranks ranks;
  for (std::size_t start = 0; start < all.size();) {
    std::size_t end = start;
    while (end < all.size() && all[end].first == all[start].first)
      ++end;
    const double mean_rank = double(start + 1 + end) / 2; // ranks start + 1 ... end
    for (std::size_t i = start; i < end; ++i) {
      if (all[i].second) ranks.sum_a += mean_rank;
    }
    ranks.ties.push_back(end - start);
    start = end;
  }
  return ranks;
}

/// P(U >= u) for samples of m and n distinct values, from U's exact distribution: of all
/// orders of the m + n values, the largest is one of m's with probability m / (m + n) and
/// then exceeds all n of the others, adding n to U.
double exact_upper_tail(std::size_t m, std::size_t n, std::size_t u) {
  if (m > n) std::swap(m, n); // U's distribution is symmetric in the two sizes
  // column[i][k] = P(U = k) for sizes (i, j), for the current j.
  std::vector<std::vector<double>> column(m + 1);
  for (std::size_t i = 0; i <= m; ++i)
    column[i] = {1.0}; // j = 0: U = 0
  for (std::size_t j = 1; j <= n; ++j) {
    std::vector<std::vector<double>> next(m + 1);
    next[0] = {1.0};
    for (std::size_t i = 1; i <= m; ++i) {
      next[i].assign(i * j + 1, 0.0);
      const double from_a = double(i) / double(i + j);
      const double from_b = double(j) / double(i + j);
      for (std::size_t k = 0; k < next[i - 1].size(); ++k)
        next[i][k + j] += from_a * next[i - 1][k];
      for (std::size_t k = 0; k < column[i].size(); ++k)
        next[i][k] += from_b * column[i][k];
    }
    column = std::move(next);
  }
  const std::vector<double>& distribution = column[m];
  double tail = 0;
  for (std::size_t k = u; k < distribution.size(); ++k)
    tail += distribution[k];
  return tail;
}

} // namespace

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double mean(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

double stddev(const std::vector<double>& values) {
  if (values.size() < 2) return 0;
  const double m = mean(values);
  double sum = 0;
  for (double v : values)
    sum += (v - m) * (v - m);
  return std::sqrt(sum / double(values.size() - 1));
}

double cv(const std::vector<double>& values) {
  const double m = mean(values);
  return m > 0 ? stddev(values) / m : 0.0;
}

Interval median_interval(std::vector<double> values, double level) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  // [x(k), x(n+1-k)] misses the median when k-1 or fewer values lie below it, or above.
  std::size_t k = 1;
  double below = half_binomial_pmf(n, 0); // P(B <= k - 1)
  double coverage = 1 - 2 * below;
  while (2 * (k + 1) <= n + 1) {
    const double wider_below = below + half_binomial_pmf(n, k);
    if (1 - 2 * wider_below < level) break;
    below = wider_below;
    coverage = 1 - 2 * below;
    ++k;
  }
  return {values[k - 1], values[n - k], std::max(0.0, coverage)};
}

double relative_half_width(const Interval& interval, double median) {
  return (interval.high - interval.low) / 2 / median;
}

Ratio median_ratio(const std::vector<double>& numerator, const std::vector<double>& denominator,
                   double level) {
  const Interval top = median_interval(numerator, level);
  const Interval bottom = median_interval(denominator, level);
  return {median(numerator) / median(denominator),
          {top.low / bottom.high, top.high / bottom.low, top.level * bottom.level}};
}

UTest mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  const auto n1 = static_cast<double>(a.size());
  const auto n2 = static_cast<double>(b.size());
  const Ranks ranks = rank(a, b);
  const double u1 = ranks.sum_a - n1 * (n1 + 1) / 2;
  const double u = std::max(u1, n1 * n2 - u1);
  const bool tied =
      std::any_of(ranks.ties.begin(), ranks.ties.end(), [](std::size_t size) { return size > 1; });
  UTest test;
  if ((a.size() <= 8 || b.size() <= 8) && !tied) {
    test.exact = true;
    test.p = 2 * exact_upper_tail(a.size(), b.size(), static_cast<std::size_t>(std::lround(u)));
  } else {
    const double n = n1 + n2;
    double tie_term = 0;
    for (std::size_t t : ranks.ties)
      tie_term += double(t) * double(t) * double(t) - double(t);
    const double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
    // Every value equal: no evidence of a difference.
    test.p = variance > 0
                 ? std::erfc((u - n1 * n2 / 2 - 0.5) / std::sqrt(variance) / std::sqrt(2.0))
                 : 1.0;
  }
  test.p = std::clamp(test.p, 0.0, 1.0);
  return test;
}

double smallest_p(std::size_t n1, std::size_t n2) {
  // 1 / C(n1 + n2, n1), as a product that stays within double's range.
  double orders = 1;
  for (std::size_t i = 1; i <= std::min(n1, n2); ++i)
    orders = orders * double(std::max(n1, n2) + i) / double(i);
  return std::min(1.0, 2 / orders);
}

std::string to_string(Stop stop) {
  switch (stop) {
  case Stop::converged:
    return "converged";
  case Stop::max_repetitions:
    return "max_repetitions";
  case Stop::time_budget:
    return "time_budget";
  }
  return "time_budget";
}

std::optional<Stop> should_stop(const StoppingRule& rule, const std::vector<double>& seconds,
                                double elapsed_s) {
  const auto n = static_cast<int>(seconds.size());
  if (n < rule.min_repetitions) return std::nullopt;
  const Interval interval = median_interval(seconds);
  if (interval.level >= kLevel &&
      relative_half_width(interval, median(seconds)) <= rule.target_rel_ci) {
    return Stop::converged;
  }
  if (n >= rule.max_repetitions) return Stop::max_repetitions;
  const double next_s = elapsed_s / double(n);
  if (elapsed_s + next_s > rule.budget_s) return Stop::time_budget;
  return std::nullopt;
}

} // namespace lifebench::statistics
