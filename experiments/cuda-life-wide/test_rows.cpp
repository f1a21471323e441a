// rows_per_thread=auto's cost model (kernels/cuda/life_wide_rows.hpp) against what one
// H200 measured, and the rows a persistent launch needs, on the host.
#include "cuda/life_wide_rows.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using namespace lifebench::cuda::life_wide;

constexpr std::int64_t kH200Sms = 132;
constexpr int kSteps = 8;

struct Measured {
  std::int64_t side; ///< a side x side torus
  int rows;          ///< rows a lane writes, wavefront
  double rate;       ///< 10^12 cell updates/s, 1024 generations
};

// cuda-life-wide's README, Rows against grid size (one H200, 85d6ec8).
const std::vector<Measured> kRowsAgainstGridSize = {
    {8192, 64, 16.9},   {8192, 128, 12.2},   {8192, 147, 11.8},  {8192, 192, 9.4},
    {8192, 512, 3.8},   {8192, 1024, 2.0},   {16384, 64, 24.8},  {16384, 128, 23.0},
    {16384, 192, 24.1}, {16384, 512, 11.3},  {16384, 586, 10.4}, {16384, 1024, 6.2},
    {32768, 64, 29.3},  {32768, 128, 31.5},  {32768, 192, 30.3}, {32768, 512, 26.1},
    {32768, 547, 30.7}, {32768, 1024, 20.2}, {65536, 128, 34.0}, {65536, 512, 35.0},
    {65536, 781, 33.6},
};

std::int64_t cost(const Measured& m) {
  return launch_cost(m.side / 32, m.side, m.rows, kSteps, kH200Sms);
}

TEST(RowsForLaunch, OrdersWhatWasMeasuredAsItWasMeasured) {
  for (const Measured& faster : kRowsAgainstGridSize) {
    for (const Measured& slower : kRowsAgainstGridSize) {
      if (faster.side != slower.side || faster.rate <= 1.10 * slower.rate) continue;
      EXPECT_LT(cost(faster), cost(slower))
          << faster.side << "²: " << faster.rows << " rows measured " << faster.rate << ", "
          << slower.rows << " rows " << slower.rate;
    }
  }
}

TEST(RowsForLaunch, FewerRowsWhereFewerBlocksFillTheSms) {
  // 16384² with 586 rows (blocks spread evenly, one block an SM) ran at 0.42 x 64 rows.
  const int rows = rows_for_launch(16384 / 32, 16384, kSteps, kH200Sms);
  EXPECT_LE(rows, 64);
  EXPECT_GE(launch_grid(16384 / 32, 16384, rows).blocks(), 2 * kH200Sms);
  EXPECT_GT(rows_for_launch(65536 / 32, 65536, kSteps, kH200Sms), rows);
}

TEST(RowsForLaunch, ChoosesWhatTheReadmesSay) {
  // cuda-life-wide's README (whole grids) and cuda-outofcore's (its sweep's bands: 32-bit
  // words by the band's rows and the 16 it takes above), on 132 SMs.
  EXPECT_EQ(rows_for_launch(8192 / 32, 8192, kSteps, kH200Sms), 36);
  EXPECT_EQ(rows_for_launch(16384 / 32, 16384, kSteps, kH200Sms), 63);
  EXPECT_EQ(rows_for_launch(32768 / 32, 32768, kSteps, kH200Sms), 128);
  EXPECT_EQ(rows_for_launch(65536 / 32, 65536, kSteps, kH200Sms), 253);
  EXPECT_EQ(rows_for_launch(2048, 4096 + 16, kSteps, kH200Sms), 49);
  EXPECT_EQ(rows_for_launch(4096, 8192 + 16, kSteps, kH200Sms), 108);
  EXPECT_EQ(rows_for_launch(6144, 12288 + 16, kSteps, kH200Sms), 171);
}

TEST(RowsForLaunch, AtLeast32RowsEvenOnShortGrids) {
  EXPECT_EQ(rows_for_launch(64, 10, kSteps, kH200Sms), 32);
  EXPECT_EQ(rows_for_launch(64, 64, kSteps, 1), 32);
}

// launch=persistent: fewer rows a lane than generations a pass only on a column of one tile.
TEST(PersistentRows, FewerThanStepsOnlyOnOneTile) {
  EXPECT_FALSE(persistent_rows_unsupported(16, 1000, 16));
  EXPECT_FALSE(persistent_rows_unsupported(8, 8, 16)); // one tile, the whole height
  EXPECT_FALSE(persistent_rows_unsupported(8, 5, 16));
  const auto reason = persistent_rows_unsupported(8, 1000, 16);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("steps_per_launch (16)"), std::string::npos) << *reason;
}

// launch=pipelined: tiles that cover the height evenly, each at least 2 S + kAhead rows, unless
// one tile covers it.
TEST(PipelinedRows, TilesCoverTheHeightEvenly) {
  EXPECT_FALSE(pipelined_rows_unsupported(512, 16384, 8));
  EXPECT_FALSE(pipelined_rows_unsupported(20, 1000, 8));
  EXPECT_FALSE(pipelined_rows_unsupported(2000, 1000, 16)); // one tile, the whole height
  EXPECT_FALSE(pipelined_rows_unsupported(8, 8, 16));
  const auto uneven = pipelined_rows_unsupported(64, 1000, 8);
  ASSERT_TRUE(uneven);
  EXPECT_NE(uneven->find("divide the height (1000 rows)"), std::string::npos) << *uneven;
  const auto short_tiles = pipelined_rows_unsupported(10, 1000, 8);
  ASSERT_TRUE(short_tiles);
  EXPECT_NE(short_tiles->find("(20)"), std::string::npos) << *short_tiles;
}

TEST(PipelinedRows, AutoTakesTheLongestDividingTile) {
  EXPECT_EQ(pipelined_rows(16384, 8), 512);
  EXPECT_EQ(pipelined_rows(1000, 8), 500);
  EXPECT_EQ(pipelined_rows(1021, 8), 1021); // a prime: one tile
  EXPECT_EQ(pipelined_rows(30, 16), 30);
  for (const std::int64_t height : {64, 1000, 4096, 4128, 65536}) {
    for (const int steps : {4, 8, 16}) {
      const std::int64_t rows = pipelined_rows(height, steps);
      EXPECT_FALSE(pipelined_rows_unsupported(rows, height, steps)) << height << ", " << steps;
    }
  }
}
} // namespace
