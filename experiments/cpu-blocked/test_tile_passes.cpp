// cpu-blocked's tile passes (kernels/cpu/blocked_tiles.cpp) on every SIMD target Highway
// compiled them for that this CPU runs, against the reference: tiles narrower and shorter
// than the grid, so that a pass crosses tile edges both ways (vectors and a scalar tail),
// on a torus and a dead boundary, over the whole grid and over a band of its rows.
#include "cpu/blocked_tiles.hpp"
#include "cpu/logic_ceiling.hpp"
#include "cpu/packed_grids.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <hwy/targets.h>
#include <hwy/tests/hwy_gtest.h>
#include <string>
#include <vector>

namespace lifebench::cpu_blocked {
namespace {

const Rule kConway = parse_rule_spec("B3/S23").rule;

/// One pass of tiling.steps generations over rows [first, last) of a soup, those rows
/// checked against the reference.
void check_pass(const Shape& shape, Boundary boundary, const Tiling& tiling, std::int64_t first,
                std::int64_t last) {
  const Problem problem{kConway, shape, boundary};
  const Grid start = make_soup({shape, 0.4, 7});
  simd::PackedGrids grids(shape);
  grids.upload(start);
  TilePasses passes(2, tiling);
  passes.pass(
      {grids.cells(), grids.next(), grids.row_words(), shape.height, boundary == Boundary::torus},
      tiling.steps, first, last);
  grids.swap();
  const Grid got = grids.download();
  const Grid want = reference_advance(problem, start, static_cast<std::uint64_t>(tiling.steps));
  for (std::int64_t y = first; y < last; ++y) {
    for (std::int64_t x = 0; x < shape.width; ++x) {
      if (got.at(x, y) != want.at(x, y)) {
        FAIL() << problem.to_string() << ", " << tiling.steps << " steps on tiles of "
               << tiling.tile_words << " words x " << tiling.tile_rows << " rows, rows " << first
               << " to " << last << ": cell (" << x << ", " << y << ") differs";
      }
    }
  }
}

class TilePassesOnTarget : public hwy::TestWithParamTarget {};
HWY_TARGET_INSTANTIATE_TEST_SUITE_P(TilePassesOnTarget);

TEST_P(TilePassesOnTarget, MatchTheReference) {
  // 11 and 24 words a row: vectors of 8, 4, 2 words and single words all run, and tiles
  // of 11 and 24 words walk columns of vectors in pairs and one alone.
  for (const Shape shape : {Shape{704, 37, 1}, Shape{1536, 50, 1}}) {
    for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
      for (const Tiling tiling :
           {Tiling{1, 3, 7}, Tiling{5, 3, 7}, Tiling{16, 8, 16}, Tiling{5, 24, 16}}) {
        check_pass(shape, boundary, tiling, 0, shape.height);
        check_pass(shape, boundary, tiling, 5, shape.height - 3);
      }
    }
  }
  // The passes ran on the target under test, not on the best one.
  EXPECT_EQ(std::string(target_name()), hwy::TargetName(GetParam()));
}

TEST_P(TilePassesOnTarget, CountTheirLogicAndItsCeiling) {
  const std::string target = hwy::TargetName(GetParam());
  const auto per_cell = [](std::int64_t steps, std::int64_t tile_words, std::int64_t tile_rows) {
    return logic_per_cell_update({steps, tile_words, tile_rows}, 64, 512);
  };
  TilePasses passes(2, {4, 16, 32});
  if (target != "AVX3_DL" && target != "AVX3" && target != "AVX2") { // not counted
    EXPECT_FALSE(per_cell(4, 16, 32));
    EXPECT_FALSE(passes.measure_logic_rate());
    return;
  }
  // One generation a pass over tiles as wide as the grid recomputes nothing: the least.
  const double least = *per_cell(1, 64, 512);
  EXPECT_GT(least, 0) << target;
  // More generations a pass recompute more halo rows, narrower and shorter tiles more halo
  // words and rows.
  EXPECT_GT(*per_cell(8, 64, 512), least) << target;
  EXPECT_GT(*per_cell(16, 64, 512), *per_cell(8, 64, 512)) << target;
  EXPECT_GT(*per_cell(8, 16, 512), *per_cell(8, 64, 512)) << target;
  EXPECT_GT(*per_cell(8, 64, 64), *per_cell(8, 64, 512)) << target;
  // The values, against the closed form of a pass over equal tiles of W words (whole vectors
  // of L) and R rows: generations 1 .. S-1 walk R + 2(S - g) rows over W / L + 2 columns (the
  // halo words), the last R rows over W / L; a walk of n rows costs T n + s (its start). T
  // and s come from two one-generation passes, which recompute nothing.
  const double lanes = target == "AVX2" ? 4 : 8;
  const double rows512 = *per_cell(1, 64, 512) * lanes * 64 * 512; // 512 T + s
  const double rows256 = *per_cell(1, 64, 256) * lanes * 64 * 256; // 256 T + s
  const double per_row = (rows512 - rows256) / 256;
  const double per_start = rows512 - 512 * per_row;
  EXPECT_NEAR(per_row, std::round(per_row), 1e-6) << target;
  for (const auto [steps, words, rows] :
       {std::array<double, 3>{8, 64, 512}, std::array<double, 3>{16, 16, 64},
        std::array<double, 3>{5, 32, 128}}) {
    const double columns = words / lanes;
    const double instructions =
        (columns + 2) * (steps - 1) * (per_row * (rows + steps) + per_start) +
        columns * (per_row * rows + per_start);
    const auto got = per_cell(static_cast<std::int64_t>(steps), static_cast<std::int64_t>(words),
                              static_cast<std::int64_t>(rows));
    EXPECT_NEAR(*got, instructions / (steps * rows * words * 64), 1e-12)
        << target << ", " << steps << " steps, tiles of " << words << " x " << rows;
  }
  const auto rate = passes.measure_logic_rate();
  ASSERT_TRUE(rate) << target;
  EXPECT_GT(*rate, 1e8) << target; // two workers, vectors of 4 or 8 words, at 100 MHz or more
}

TEST(TilePassesTargets, TheTargetChosenHereIsTested) {
  hwy::SetSupportedTargetsForTest(0);
  std::vector<std::string> tested;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    tested.emplace_back(hwy::TargetName(target));
  }
  EXPECT_NE(std::find(tested.begin(), tested.end(), target_name()), tested.end()) << target_name();
}

} // namespace
} // namespace lifebench::cpu_blocked
