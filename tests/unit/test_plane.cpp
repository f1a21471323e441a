// The bounded grid that stands for Golly's unbounded plane: its margins, its place, the
// simulator's rounding, and the refusals, which give the sizes worked out.
#include "lifebench/error.hpp"
#include "lifebench/grid.hpp"
#include "lifebench/plane.hpp"
#include "lifebench/reference.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>
#include <string>

namespace lifebench {
namespace {

using testing::thrown_message;

const Rule conway = parse_rule_spec("B3/S23").rule;

TEST(Plane, TheBoxWithTheGenerationsOnEverySide) {
  const PlaneGrid plane = plane_grid("p.rle", Box{-1, 5, 3, 2}, conway, PlaneFit{10});
  EXPECT_EQ(plane.problem.to_string(), "B3/S23:P23,22");
  EXPECT_EQ(plane.origin, (Position{-11, -5}));
  // No margin for a conversion; a pattern with no live cell still takes one cell.
  EXPECT_EQ(plane_grid("p.rle", Box{4, 4, 3, 3}, conway, PlaneFit{}).problem.shape,
            (Shape{3, 3, 1}));
  const PlaneGrid empty = plane_grid("p.rle", Box{}, conway, PlaneFit{2});
  EXPECT_EQ(empty.problem.shape, (Shape{5, 5, 1}));
  EXPECT_EQ(empty.origin, (Position{-2, -2}));
}

TEST(Plane, TheSimulatorRoundsItUp) {
  const PlaneFit fit{3, [](const Rule& rule, Shape least) {
                       EXPECT_EQ(least, (Shape{9, 8, 1}));
                       return Problem{rule, Shape{64, 64, 1}, Boundary::torus};
                     }};
  const PlaneGrid plane = plane_grid("p.rle", Box{0, 0, 3, 2}, conway, fit);
  EXPECT_EQ(plane.problem.to_string(), "B3/S23:T64,64");
  EXPECT_EQ(plane.origin, (Position{-3, -3}));
  const PlaneFit smaller{3, [](const Rule& rule, Shape) {
                           return Problem{rule, Shape{8, 8, 1}, Boundary::dead};
                         }};
  EXPECT_THROW(plane_grid("p.rle", Box{0, 0, 3, 2}, conway, smaller), Error);
}

TEST(Plane, AMarginOfTheGenerationsGivesGollysCells) {
  // An R-pentomino for 60 generations on its plane of 3 + 120 cells a side, dead or torus,
  // against the same cells in the middle of a plane twice as large.
  const Grid r = testing::grid_from_rows({".oo", "oo.", ".o."});
  const auto advanced = [&](std::int64_t side, Boundary boundary, std::int64_t at) {
    Grid grid(Shape{side, side, 1});
    for (std::int64_t y = 0; y < 3; ++y)
      for (std::int64_t x = 0; x < 3; ++x)
        grid.set(at + x, at + y, r.at(x, y));
    return reference_advance(Problem{conway, grid.shape(), boundary}, grid, 60);
  };
  const Grid large = advanced(246, Boundary::dead, 121);
  for (const Boundary boundary : {Boundary::dead, Boundary::torus}) {
    const Grid plane = advanced(123, boundary, 60);
    for (std::int64_t y = 0; y < 246; ++y) {
      for (std::int64_t x = 0; x < 246; ++x) {
        const bool inside = x >= 61 && x < 61 + 123 && y >= 61 && y < 61 + 123;
        ASSERT_EQ(large.at(x, y), inside ? plane.at(x - 61, y - 61) : 0)
            << to_string(boundary) << " (" << x << ", " << y << ")";
      }
    }
  }
}

TEST(Plane, RefusalsGiveTheArithmetic) {
  EXPECT_EQ(thrown_message([] {
              plane_grid("p.rle", Box{0, 0, 3, 3}, conway, PlaneFit{500000});
            }),
            "p.rle: the 3x3 pattern with a margin of 500000 generations on every side needs a "
            "1000003x1000003 plane, 1000006000009 cells; a run holds about three copies at a "
            "byte a cell: 2861040 MiB, more than this machine's " +
                std::to_string(host_memory_bytes() >> 20) + " MiB");
  EXPECT_EQ(thrown_message([] {
              plane_grid("p.rle", Box{0, 0, 3, 3}, conway, PlaneFit{600000});
            }),
            "p.rle: the 3x3 pattern with a margin of 600000 generations on every side needs a "
            "1200003x1200003 plane: more than 2^40 cells");
  EXPECT_EQ(thrown_message([] {
              plane_grid("p.rle", Box{0, 0, 3, 3}, conway, PlaneFit{std::uint64_t{1} << 50});
            }),
            "p.rle: the 3x3 pattern with a margin of 1125899906842624 generations on every side "
            "is more than 2^40 cells wide");
  // Every cell of the plane has a 64-bit coordinate, so that its place is written and read.
  EXPECT_EQ(thrown_message([] {
              plane_grid("p.mc", Box{INT64_MIN + 5, 0, 3, 3}, conway, PlaneFit{10});
            }),
            "p.mc: the 3x3 pattern with a margin of 10 generations on every side needs a 23x23 "
            "plane that reaches past 64-bit coordinates");
  EXPECT_EQ(
      plane_grid("p.mc", Box{INT64_MIN + 10, INT64_MAX - 13, 3, 3}, conway, PlaneFit{10}).origin,
      (Position{INT64_MIN, INT64_MAX - 23}));
  EXPECT_EQ(thrown_message([] {
              plane_grid("p.rle", Box{0, 0, 3, 3}, parse_rule_spec("B013568/S01").rule, PlaneFit{});
            }),
            "p.rle: rule B013568/S01 has births on 0 live neighbours, which fill Golly's "
            "unbounded plane: give it a bounded grid, e.g. B013568/S01:P1024,1024");
}

} // namespace
} // namespace lifebench
