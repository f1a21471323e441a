// kernels/cuda/life_lop3.cuh on the host (nvcc, no GPU needed): the blog's two LOP3
// sequences (the SAT solver's also over shared row sums) and our row-sum rule on every
// 3x3 neighbourhood, the shifts in both forms, and the tile helpers.
#include "cuda/life_lop3.cuh"

#include <cstdint>
#include <gtest/gtest.h>
#include <random>

namespace lifebench::cuda::life {
namespace {

/// Word of all ones or all zeros: bit `cell` of the neighbourhood `m`.
std::uint32_t plane(unsigned m, int cell) {
  return ((m >> cell) & 1U) != 0 ? ~0U : 0U;
}

/// B3/S23 on neighbourhood `m` (bit 3 * row + column, centre bit 4), as a word.
std::uint32_t conway(unsigned m) {
  int neighbours = 0;
  for (int cell = 0; cell < 9; ++cell) {
    if (cell != 4) neighbours += static_cast<int>((m >> cell) & 1U);
  }
  const bool alive = ((m >> 4) & 1U) != 0;
  return neighbours == 3 || (alive && neighbours == 2) ? ~0U : 0U;
}

TEST(LifeLop3, SequencesOnEveryNeighbourhood) {
  for (unsigned m = 0; m < 512; ++m) {
    const Neighbours n{{plane(m, 0), plane(m, 1), plane(m, 2), plane(m, 3), plane(m, 5),
                        plane(m, 6), plane(m, 7), plane(m, 8)}};
    EXPECT_EQ(step_human11(n, plane(m, 4)), conway(m)) << m;
    EXPECT_EQ(step_sat10(n, plane(m, 4)), conway(m)) << m;
    const RowSum up = row_sum(plane(m, 0), plane(m, 1), plane(m, 2));
    const RowSum mid = row_sum(plane(m, 3), plane(m, 4), plane(m, 5));
    const RowSum down = row_sum(plane(m, 6), plane(m, 7), plane(m, 8));
    EXPECT_EQ(step_row_sums(up, mid, down, plane(m, 4)), conway(m)) << m;
    EXPECT_EQ(step_sat10_rows(up, plane(m, 3), plane(m, 5), down, plane(m, 4)), conway(m)) << m;
  }
}

TEST(LifeLop3, NeighbourWordsLineUp) {
  // Cell 0 (LSB) of a word has the left word's cell 31 as west neighbour.
  EXPECT_EQ(west(0x00000001U, 0x80000000U), 0x00000003U);
  EXPECT_EQ(east(0x80000000U, 0x00000001U), 0xC0000000U);
  std::mt19937 random(5);
  for (int i = 0; i < 100000; ++i) {
    const std::uint32_t x = random();
    const std::uint32_t left = random();
    const std::uint32_t right = random();
    ASSERT_EQ(west_multiply(x, left, 2U), west(x, left));
    ASSERT_EQ(east_multiply(x, right, 1U << 31), east(x, right));
  }
}

TEST(LifeLop3, TilesCoverTheAxis) {
  EXPECT_EQ(first_output(0, 30, 64), 0U);
  EXPECT_EQ(first_output(2, 30, 64), 34U); // moved back to end at 64
  EXPECT_EQ(first_output(0, 30, 20), 0U);  // shorter than a tile: tile 0, wrapped
  EXPECT_EQ(wrap(-3, 10), 7U);
  EXPECT_EQ(wrap(23, 10), 3U);
}

} // namespace
} // namespace lifebench::cuda::life
