// simd-hwy's kernel (step_rows-inl.hpp) on every SIMD target Highway compiles it for that
// this CPU runs (Highway's per-target test skeleton), against the reference: rows whose
// word count takes every vector width (8, 4, 2 and 1 words), torus and dead boundary,
// the rows in one share and in three, as the workers split them.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "test_step_rows.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep
#include <hwy/highway.h>
// The kernel, for each target foreach_target.h re-includes this file for.
#include "cpu/copy_ceiling.hpp"
#include "cpu/packed_grids.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"
#include "step_rows-inl.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <hwy/tests/hwy_gtest.h>

HWY_BEFORE_NAMESPACE();
namespace lifebench::simd_hwy::HWY_NAMESPACE {

/// One generation of a soup of `shape` by StepRows, its rows cut into `shares`.
void CheckGeneration(const Shape& shape, Boundary boundary, std::int64_t shares) {
  const Problem problem{parse_rule_spec("B3/S23").rule, shape, boundary};
  const Grid start = make_soup({shape, 0.4, 3});
  simd::PackedGrids grids(shape);
  grids.upload(start);
  const auto zero_row = simd::allocate_words(grids.row_words());
  for (std::int64_t share = 0; share < shares; ++share) {
    StepRows({grids.cells(), grids.next(), zero_row.get(), grids.row_words(), shape.height,
              boundary == Boundary::torus, shape.height * share / shares,
              shape.height * (share + 1) / shares});
  }
  grids.swap();
  const auto difference = first_difference(reference_advance(problem, start, 1), grids.download());
  EXPECT_FALSE(difference) << hwy::TargetName(HWY_TARGET) << ": " << problem.to_string() << " in "
                           << shares << " shares: " << difference->to_string();
}

void TestStepRowsMatchesTheReference() {
  // 8, 12, 6 and 3 words a row: the widest vector whose lanes divide the row.
  for (const std::int64_t words : {8, 12, 6, 3}) {
    for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
      for (const std::int64_t shares : {1, 3}) {
        CheckGeneration({64 * words, 29, 1}, boundary, shares);
      }
    }
  }
}

} // namespace lifebench::simd_hwy::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace lifebench::simd_hwy {
HWY_BEFORE_TEST(StepRowsOnTarget);
HWY_EXPORT_AND_TEST_P(StepRowsOnTarget, TestStepRowsMatchesTheReference);

// The memory ceiling device() records: a copy by two workers, of a size that leaves one
// worker a share of an odd length, at a plausible rate (100 MB/s to 10 TB/s).
TEST(CopyCeiling, TwoWorkersCopyAtAPlausibleRate) {
  pool::ThreadPool pool(2);
  const double rate = pool::measure_copy_bandwidth(pool, (std::size_t{1} << 24) + 3);
  EXPECT_GT(rate, 1e8);
  EXPECT_LT(rate, 1e13);
}
} // namespace lifebench::simd_hwy
#endif
