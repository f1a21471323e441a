// v2's byte-wise logic on the host (the same LIFEBENCH_HOST_DEVICE functions the kernel
// calls): x neighbours added across word boundaries, and the rule applied per byte.
#include "cuda/cube3d.cuh"

#include <cstdint>
#include <gtest/gtest.h>

namespace lifebench::cube {
namespace {

// Every byte value the kernel can produce before the x step (a 3 x 3 column: 0..9), with
// the bytes of the side words that must not leak set to 9.
TEST(SwarBytes, AddXNeighboursSumsEachByteWithItsTwoNeighbours) {
  for (std::uint32_t l = 0; l < 10; ++l) {
    for (std::uint32_t r = 0; r < 10; ++r) {
      for (std::uint32_t m = 0; m < 10000; ++m) {
        const std::uint32_t b[4] = {m % 10, m / 10 % 10, m / 100 % 10, m / 1000};
        const std::uint32_t left = l << 24 | 0x090909U;
        const std::uint32_t right = r | 0x09090900U;
        const std::uint32_t middle = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24;
        const std::uint32_t want = (l + b[0] + b[1]) | (b[0] + b[1] + b[2]) << 8 |
                                   (b[1] + b[2] + b[3]) << 16 | (b[2] + b[3] + r) << 24;
        ASSERT_EQ(add_x_neighbours(left, middle, right), want) << l << " " << m << " " << r;
      }
    }
  }
}

// Per byte, the same answer as the one-cell rule, for sums that count the cell itself.
TEST(SwarBytes, NextBytesMatchesTheMaskRule) {
  const MaskRule rules[] = {
      {1U << 6, 1U << 5 | 1U << 6 | 1U << 7},                         // B6/S567/3D
      {1U << 5 | 1U << 6, 1U << 4 | 1U << 5 | 1U << 6 | 1U << 7},     // B5,6/S4,5,6,7/3D
      {1U << 4 | 1U << 13 | 1U << 26, 1U << 0 | 1U << 1 | 1U << 26}}; // extremes
  for (const MaskRule& rule : rules) {
    for (std::uint32_t alive = 0; alive < 16; ++alive) {
      for (std::uint32_t n = 0; n <= 26; ++n) {
        std::uint32_t self = 0;
        std::uint32_t total = 0;
        std::uint32_t want = 0;
        for (std::uint32_t j = 0; j < 4; ++j) {
          const std::uint32_t a = alive >> j & 1U;
          const std::uint32_t neighbours = (n + 7 * j) % 27; // a different count per byte
          self |= a << (8 * j);
          total |= (neighbours + a) << (8 * j);
          want |= static_cast<std::uint32_t>(rule.next(a, neighbours)) << (8 * j);
        }
        ASSERT_EQ(next_bytes(total, self, rule.birth, rule.survive << 1U), want)
            << "alive " << alive << " n " << n;
      }
    }
  }
}

TEST(SwarBytes, NeighbourWrapsOnTheTorusAndLeavesTheDeadGrid) {
  EXPECT_EQ(neighbour<true>(0, -1, 8), 7U);
  EXPECT_EQ(neighbour<true>(7, 1, 8), 0U);
  EXPECT_EQ(neighbour<true>(3, 1, 8), 4U);
  EXPECT_EQ(neighbour<false>(0, -1, 8), 8U);
  EXPECT_EQ(neighbour<false>(7, 1, 8), 8U);
  EXPECT_EQ(neighbour<false>(3, -1, 8), 2U);
  EXPECT_EQ(neighbour<true>(0, 1, 1), 0U);
}

} // namespace
} // namespace lifebench::cube
