#include "mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace lifebench::driver {
namespace {

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

} // namespace lifebench::driver
