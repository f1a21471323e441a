// The canonical grid: construction, population, comparison and the hash.
#include "lifebench/error.hpp"
#include "lifebench/grid.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

namespace lifebench {
namespace {

using testing::grid_from_rows;

TEST(Grid, StartsDeadInZYXOrder) {
  Grid grid(Shape{4, 3, 2});
  EXPECT_EQ(grid.population(), 0);
  grid.set(3, 2, 1, 1);
  EXPECT_EQ(grid.index(3, 2, 1), (1 * 3 + 2) * 4 + 3);
  EXPECT_EQ(grid.data()[grid.index(3, 2, 1)], 1);
  EXPECT_EQ(grid.at(3, 2, 1), 1);
  EXPECT_EQ(grid.population(), 1);
}

TEST(Grid, RefusesBadShapes) {
  EXPECT_THROW(Grid(Shape{0, 4, 1}), Error);
  EXPECT_THROW(Grid(Shape{4, 4, 0}), Error);
  EXPECT_THROW(Grid(Shape{-4, 4, 1}), Error);
  EXPECT_THROW(Grid(Shape{std::int64_t{1} << 21, std::int64_t{1} << 21, 1}), Error);
}

TEST(Grid, RefusesMoreThanTheMachinesMemory) {
  // 2^40 cells is a valid problem (bit-packed on a GPU) but a 1 TiB host grid.
  try {
    Grid(Shape{std::int64_t{1} << 20, std::int64_t{1} << 20, 1});
    FAIL() << "a 1 TiB grid was allocated";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("MiB of host memory"), std::string::npos) << e.what();
  }
}

TEST(Grid, ARunIsRefusedWhereItsThreeCopiesDoNotFit) {
  const std::uint64_t memory = host_memory_bytes();
  ASSERT_NE(memory, 0U);
  // One copy of a grid of half the machine's memory fits, three do not.
  const std::int64_t width = 1 << 20;
  const auto height = static_cast<std::int64_t>(memory / 2 / width);
  const Shape half{width, height, 1};
  const auto cells = static_cast<std::uint64_t>(half.cells());
  EXPECT_EQ(testing::thrown_message([&] { require_run_fits_in_memory("the grid", half); }),
            "the grid, " + std::to_string(cells) +
                " cells; a run holds about three copies at a byte a cell: " +
                std::to_string(3 * cells >> 20) + " MiB, more than this machine's " +
                std::to_string(memory >> 20) + " MiB");
  // A third of it: its three copies take half the memory.
  require_run_fits_in_memory("a third", Shape{width, height / 3, 1});
}

TEST(Grid, FirstDifference) {
  const Grid a = grid_from_rows({"....", ".o..", "...."});
  Grid b = a;
  EXPECT_FALSE(first_difference(a, b));
  b.set(2, 1, 1);
  b.set(0, 2, 1);
  const auto diff = first_difference(a, b);
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->x, 2);
  EXPECT_EQ(diff->y, 1);
  EXPECT_EQ(diff->z, 0);
  EXPECT_EQ(diff->expected, 0);
  EXPECT_EQ(diff->actual, 1);
  EXPECT_EQ(diff->to_string(), "cell (2, 1): expected 0, got 1");
}

TEST(Grid, FirstDifferenceIn3DShowsZ) {
  Grid a(Shape{3, 3, 3});
  Grid b = a;
  a.set(1, 2, 2, 1);
  const auto diff = first_difference(a, b);
  ASSERT_TRUE(diff);
  EXPECT_EQ(diff->to_string(), "cell (1, 2, 2): expected 1, got 0");
}

TEST(Grid, FirstDifferenceRefusesOtherShapes) {
  EXPECT_THROW(first_difference(Grid(Shape{4, 4, 1}), Grid(Shape{4, 2, 1})), Error);
}

TEST(GridHash, SeesShapeAndEveryCell) {
  const Grid empty(Shape{8, 8, 1});
  EXPECT_EQ(grid_hash(empty), grid_hash(Grid(Shape{8, 8, 1})));
  EXPECT_NE(grid_hash(empty), grid_hash(Grid(Shape{4, 16, 1})));
  EXPECT_NE(grid_hash(empty), grid_hash(Grid(Shape{8, 4, 2})));
  // Every cell, including those of the zero-padded last word.
  Grid odd(Shape{7, 7, 1});
  const std::uint64_t base = grid_hash(odd);
  for (std::int64_t i = 0; i < 49; ++i) {
    odd.data()[i] = 1;
    EXPECT_NE(grid_hash(odd), base) << i;
    odd.data()[i] = 0;
  }
}

TEST(GridHash, IsPinned) {
  // The definition is part of the recorded results: these must never change.
  // The constants were checked against an independent implementation of the
  // definition in grid.cpp.
  EXPECT_EQ(grid_hash(Grid(Shape{1, 1, 1})), 7860459072949700694ULL);
  const Grid glider = grid_from_rows({".o...", "..o..", "ooo..", "....."});
  EXPECT_EQ(grid_hash(glider), 12759895070720430650ULL);
}

} // namespace
} // namespace lifebench
