// Patterns as workloads: read and cut to their box, placed on a run's grid, refused where
// they do not fit or run another rule.
#include "lifebench/error.hpp"
#include "lifebench/pattern.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

namespace lifebench {
namespace {

using testing::dataset;
using testing::grid_from_rows;

using PatternTest = testing::TempDirTest;

const Grid kAcorn = grid_from_rows({".o.....", "...o...", "oo..ooo"});

Problem conway(std::int64_t width, std::int64_t height) {
  return Problem{parse_rule_spec("B3/S23").rule, Shape{width, height, 1}, Boundary::torus};
}

TEST_F(PatternTest, ReadCutToItsBox) {
  const Workload acorn = read_pattern(dataset("acorn.rle"));
  EXPECT_EQ(acorn.name, "acorn");
  EXPECT_EQ(acorn.rule.to_string(), "B3/S23");
  EXPECT_EQ(acorn.cells, kAcorn);
  // A file that bounds its pattern on a grid (1024x1024) gives the box of its cells.
  EXPECT_EQ(read_pattern(dataset("r-pentomino.rle")).cells, grid_from_rows({".oo", "oo.", ".o."}));
}

TEST_F(PatternTest, SameHashInAnotherFormat) {
  write(file("acorn.lif"), "#Life 1.06\n1 0\n3 1\n0 2\n1 2\n4 2\n5 2\n6 2\n");
  const std::string hash = pattern_hash(read_pattern(dataset("acorn.rle")));
  EXPECT_EQ(pattern_hash(read_pattern(file("acorn.lif"))), hash);
  EXPECT_EQ(hash.size(), 18U);
  EXPECT_EQ(hash.substr(0, 2), "0x");
}

TEST_F(PatternTest, PlacedCentredOrAtOffset) {
  const Workload acorn = read_pattern(dataset("acorn.rle"));
  EXPECT_EQ(
      place_pattern(acorn, conway(11, 5), std::nullopt),
      grid_from_rows({"...........", "...o.......", ".....o.....", "..oo..ooo..", "..........."}));
  EXPECT_EQ(place_pattern(acorn, conway(8, 4), Position{1, 1}),
            grid_from_rows({"........", "..o.....", "....o...", ".oo..ooo"}));
}

TEST_F(PatternTest, RefusedWhereItDoesNotFitOrRunsAnotherRule) {
  const Workload acorn = read_pattern(dataset("acorn.rle"));
  EXPECT_EQ(placement_refusal(acorn, conway(7, 3), std::nullopt), std::nullopt);
  EXPECT_EQ(placement_refusal(acorn, conway(6, 64), std::nullopt),
            "pattern acorn (7x3 cells) does not fit the 6x64 grid centred");
  EXPECT_EQ(placement_refusal(acorn, conway(8, 4), Position{2, 0}),
            "pattern acorn (7x3 cells) does not fit the 8x4 grid at offset 2,0");
  Problem highlife = conway(64, 64);
  highlife.rule = parse_rule_spec("B36/S23").rule;
  EXPECT_EQ(placement_refusal(acorn, highlife, std::nullopt),
            "pattern acorn runs B3/S23, the run B36/S23");
  EXPECT_EQ(error_of([&] { (void)place_pattern(acorn, highlife, std::nullopt); }),
            "pattern acorn runs B3/S23, the run B36/S23");
}

TEST_F(PatternTest, MissingFileIsAnError) {
  EXPECT_NE(error_of([&] { (void)read_pattern(file("none.rle")); }).find("cannot read"),
            std::string::npos);
}

TEST_F(PatternTest, Offsets) {
  EXPECT_EQ(parse_offset("3,40"), (Position{3, 40}));
  for (const char* bad : {"3", "3,", "-1,2", "1,2,3", "a,b", "1;2"}) {
    EXPECT_NE(error_of([&] { (void)parse_offset(bad); }).find("expected X,Y"), std::string::npos)
        << bad;
  }
}

} // namespace
} // namespace lifebench
