// Seeded soups: parsing, determinism across machines, density, and rows made one by one.
#include "lifebench/error.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/soup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

namespace lifebench {
namespace {

TEST(Soup, Parses) {
  const SoupSpec spec = parse_soup("1024x512,0.25,42");
  EXPECT_EQ(spec.shape, (Shape{1024, 512, 1}));
  EXPECT_DOUBLE_EQ(spec.density, 0.25);
  EXPECT_EQ(spec.seed, 42U);
  const SoupSpec cube = parse_soup("64x64x64,1,18446744073709551615");
  EXPECT_EQ(cube.shape, (Shape{64, 64, 64}));
  EXPECT_DOUBLE_EQ(cube.density, 1.0);
  EXPECT_EQ(cube.seed, 18446744073709551615ULL);
  EXPECT_DOUBLE_EQ(parse_soup("8x8,0,0").density, 0.0);
}

TEST(Soup, ParseErrors) {
  for (const char* text :
       {"", "64x64", "64x64,0.5", "64x64,0.5,1,2", "64,0.5,1", "64x64,,1", "64x64,1.5,1",
        "64x64,-0.1,1", "64x64,nan,1", "64x64,0.5x,1", "64x64,0.5,-1", "64x64,0.5,",
        "64x64,0.5,18446744073709551616", "64x64,0.5,1e3"}) {
    EXPECT_THROW(parse_soup(text), Error) << text;
  }
  try {
    parse_soup("64x64,2,1");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "soup \"64x64,2,1\": density \"2\" is not a number from 0 to 1");
  }
}

TEST(Soup, IsDeterministicAndPinned) {
  const SoupSpec spec = parse_soup("256x256,0.5,1");
  const Grid soup = make_soup(spec);
  EXPECT_EQ(soup, make_soup(spec));
  // Pinned, and checked against an independent implementation of the
  // definition: a change here means the soups differ between machines or builds.
  EXPECT_EQ(grid_hash(soup), 338801778141492841ULL);
  EXPECT_EQ(soup.population(), 32836);
  EXPECT_EQ(grid_hash(make_soup(parse_soup("16x16x16,0.2,7"))), 12942332385410380057ULL);
}

TEST(Soup, SeedsDiffer) {
  EXPECT_NE(make_soup(parse_soup("64x64,0.5,1")), make_soup(parse_soup("64x64,0.5,2")));
}

TEST(Soup, PopulationFollowsDensity) {
  for (const double density : {0.1, 0.3, 0.5, 0.9}) {
    const Grid soup = make_soup(SoupSpec{Shape{512, 512, 1}, density, 3});
    const double cells = 512.0 * 512.0;
    const double sigma = std::sqrt(cells * density * (1 - density));
    EXPECT_NEAR(static_cast<double>(soup.population()), cells * density, 5 * sigma) << density;
  }
  EXPECT_EQ(make_soup(SoupSpec{Shape{64, 64, 1}, 0.0, 3}).population(), 0);
  EXPECT_EQ(make_soup(SoupSpec{Shape{64, 64, 1}, 1.0, 3}).population(), 64 * 64);
}

TEST(Soup, OnlyZerosAndOnes) {
  const Grid soup = make_soup(SoupSpec{Shape{100, 10, 3}, 0.5, 9});
  for (std::int64_t i = 0; i < soup.shape().cells(); ++i)
    EXPECT_LE(soup.data()[i], 1);
}

TEST(Soup, RefusesBadDensityInSpec) {
  EXPECT_THROW(make_soup(SoupSpec{Shape{4, 4, 1}, 1.5, 1}), Error);
}

TEST(Soup, RowsAreThePackedRowsOfTheWholeSoup) {
  for (const char* text :
       {"1x1,0.5,3", "63x5,0.3,9", "64x3,0.5,1", "130x7,0.7,18446744073709551615", "200x4,0,2",
        "70x3,1,2", "65x3x4,0.5,11", "4096x2048,0.5,5"}) {
    const SoupSpec spec = parse_soup(text);
    const std::vector<std::uint64_t> whole = pack_rows<std::uint64_t>(make_soup(spec));
    const std::int64_t rows = spec.shape.height * spec.shape.depth;
    const std::int64_t row_words = words_per_row<std::uint64_t>(spec.shape.width);
    // All at once (on every core for the largest), and in bands of 1 and 3 rows.
    for (const std::int64_t band : {rows, std::int64_t{1}, std::int64_t{3}}) {
      for (std::int64_t first = 0; first < rows; first += band) {
        const std::int64_t count = std::min(band, rows - first);
        std::vector<std::uint64_t> words(static_cast<std::size_t>(count * row_words));
        soup_rows(spec, first, count, words);
        EXPECT_TRUE(std::equal(words.begin(), words.end(), whole.begin() + first * row_words))
            << text << ", rows " << first << " + " << count;
      }
    }
  }
}

TEST(Soup, RowsOutsideTheSoupOrOfTheWrongSizeAreRefused) {
  const SoupSpec spec = parse_soup("100x4,0.5,1");
  std::vector<std::uint64_t> two(2);
  EXPECT_THROW(soup_rows(spec, -1, 1, two), Error);
  EXPECT_THROW(soup_rows(spec, 4, 1, two), Error);
  EXPECT_THROW(soup_rows(spec, 3, 2, two), Error);
  std::vector<std::uint64_t> one(1);
  EXPECT_THROW(soup_rows(spec, 0, 1, one), Error);
  SoupSpec bad = spec;
  bad.density = 1.5;
  EXPECT_THROW(soup_rows(bad, 0, 1, two), Error);
}

} // namespace
} // namespace lifebench
