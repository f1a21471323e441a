// The Mann–Whitney U test over two samples of repetition times, as Google Benchmark's
// tools/compare.py runs it (scipy.stats.mannwhitneyu, two-sided, its default method).
//
// Written here rather than taken from scipy: `lifebench compare` is a driver command that
// must run where lifebench runs, including the GPU machines whose images have no scipy
// and no network (README, "Machines without network"), and no C++ library of the
// distribution (Boost.Math, GSL) offers the test. The exact distribution is a short
// recurrence; tests/cli/test_compare.py checks the p-values against scipy's.
#pragma once

#include <cstddef>
#include <vector>

namespace lifebench::driver {

struct UTest {
  double p = 1;       ///< two-sided p-value
  bool exact = false; ///< from U's exact distribution (else the normal approximation)
};

/// Two-sided test of `a` against `b` (each non-empty). As scipy's method "auto": U's exact
/// distribution when one sample has at most 8 values and no value occurs twice; otherwise
/// the normal approximation with the tie correction and a continuity correction of 0.5.
UTest mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

/// The smallest two-sided p-value samples of `n1` and `n2` values can give (the samples
/// wholly apart): 2 / C(n1 + n2, n1), at most 1. With 3 and 3 it is 0.1, so that no
/// difference is significant at 0.05; 4 and 4 give 0.029, 5 and 5 0.0079.
double smallest_p(std::size_t n1, std::size_t n2);

} // namespace lifebench::driver
