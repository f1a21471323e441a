// Bit-packed rows: bit order, padding, planes and the round trip.
#include "lifebench/error.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/soup.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

namespace lifebench {
namespace {

TEST(Packed, LeastSignificantBitIsTheLeftmostCell) {
  Grid grid(Shape{70, 2, 1});
  grid.set(0, 0, 1);
  grid.set(65, 0, 1);
  grid.set(69, 1, 1);
  const std::vector<std::uint64_t> words = pack_rows<std::uint64_t>(grid);
  ASSERT_EQ(words.size(), 4U);
  EXPECT_EQ(words[0], 1U);
  EXPECT_EQ(words[1], 2U);
  EXPECT_EQ(words[2], 0U);
  EXPECT_EQ(words[3], std::uint64_t{1} << 5);
}

TEST(Packed, RoundTripsEveryWordSizeAndPlanes) {
  const Shape shape{37, 5, 3};
  const Grid grid = make_soup({.shape = shape, .density = 0.5, .seed = 7});
  Grid back16(shape);
  unpack_rows<std::uint16_t>(pack_rows<std::uint16_t>(grid), back16);
  EXPECT_EQ(back16, grid);
  Grid back32(shape);
  unpack_rows<std::uint32_t>(pack_rows<std::uint32_t>(grid), back32);
  EXPECT_EQ(back32, grid);
  Grid back64(shape);
  unpack_rows<std::uint64_t>(pack_rows<std::uint64_t>(grid), back64);
  EXPECT_EQ(back64, grid);
}

TEST(Packed, RefusesAWrongWordCount) {
  Grid grid(Shape{64, 2, 1});
  const std::vector<std::uint64_t> words(3, 0);
  EXPECT_THROW(unpack_rows<std::uint64_t>(words, grid), Error);
}

} // namespace
} // namespace lifebench
