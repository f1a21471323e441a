// The reference simulators against known facts of Life, hexagonal Life worked
// out by hand, hand-computed 3D cases, and a modular-arithmetic recount.
#include "lifebench/error.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <array>
#include <gtest/gtest.h>

namespace lifebench {
namespace {

using testing::grid_from_rows;
using testing::grid_with;

Problem problem(const std::string& rule, Shape shape, Boundary boundary = Boundary::torus) {
  return Problem{parse_rule_spec(rule).rule, shape, boundary};
}

/// `pattern` copied into a grid of `shape` with its top-left cell at (left,
/// top), wrapping around the edges.
Grid placed(const Grid& pattern, Shape shape, std::int64_t left, std::int64_t top) {
  Grid grid(shape);
  for (std::int64_t y = 0; y < pattern.shape().height; ++y) {
    for (std::int64_t x = 0; x < pattern.shape().width; ++x) {
      grid.set((left + x) % shape.width, (top + y) % shape.height, pattern.at(x, y));
    }
  }
  return grid;
}

const std::vector<std::string> glider_rows = {".o.", "..o", "ooo"};

TEST(ReferenceSquare, BlinkerHasPeriodTwo) {
  const Grid horizontal = grid_from_rows({".....", ".....", ".ooo.", ".....", "....."});
  const Grid vertical = grid_from_rows({".....", "..o..", "..o..", "..o..", "....."});
  for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
    const Problem p = problem("B3/S23", Shape{5, 5, 1}, boundary);
    EXPECT_EQ(reference_advance(p, horizontal, 1), vertical);
    EXPECT_EQ(reference_advance(p, horizontal, 2), horizontal);
    EXPECT_EQ(reference_advance(p, horizontal, 101), vertical);
  }
}

TEST(ReferenceSquare, BlockAndBeehiveAreStill) {
  const Grid block = grid_from_rows({"....", ".oo.", ".oo.", "...."});
  const Grid beehive = grid_from_rows({"......", "..oo..", ".o..o.", "..oo..", "......"});
  for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
    EXPECT_EQ(reference_advance(problem("B3/S23", block.shape(), boundary), block, 7), block);
    EXPECT_EQ(reference_advance(problem("B3/S23", beehive.shape(), boundary), beehive, 7), beehive);
  }
}

TEST(ReferenceSquare, GliderMovesOneCellDiagonallyEveryFourGenerations) {
  const Grid glider = grid_from_rows(glider_rows);
  const Shape shape{16, 16, 1};
  const Problem p = problem("B3/S23", shape);
  Grid grid = placed(glider, shape, 2, 3);
  for (int k = 1; k <= 5; ++k) {
    grid = reference_advance(p, grid, 4);
    EXPECT_EQ(grid, placed(glider, shape, 2 + k, 3 + k)) << k;
  }
}

TEST(ReferenceSquare, GliderComesBackAroundTheTorus) {
  const Shape shape{64, 64, 1};
  const Grid start = placed(grid_from_rows(glider_rows), shape, 30, 30);
  const Problem p = problem("B3/S23", shape);
  EXPECT_NE(reference_advance(p, start, 128), start);
  EXPECT_EQ(reference_advance(p, start, 256), start);
  // Across the corner, wrapping on both axes at once.
  const Grid corner = placed(grid_from_rows(glider_rows), shape, 61, 61);
  const Grid wrapped = reference_advance(p, corner, 8);
  EXPECT_EQ(wrapped, placed(grid_from_rows(glider_rows), shape, 63, 63));
  EXPECT_EQ(reference_advance(p, wrapped, 256 - 8), corner);
}

TEST(ReferenceSquare, DeadBoundaryDiffersFromTorusAtTheEdge) {
  const Shape shape{8, 8, 1};
  const Grid start = placed(grid_from_rows(glider_rows), shape, 4, 4);
  const Grid torus = reference_advance(problem("B3/S23", shape, Boundary::torus), start, 12);
  const Grid dead = reference_advance(problem("B3/S23", shape, Boundary::dead), start, 12);
  EXPECT_EQ(torus, placed(grid_from_rows(glider_rows), shape, 7, 7));
  EXPECT_NE(dead, torus);
  // Against the corner of a plane the glider settles into a block.
  const Grid block = grid_from_rows({"........", "........", "........", "........", "........",
                                     "........", "......oo", "......oo"});
  EXPECT_EQ(dead, block);
}

TEST(ReferenceSquare, RPentominoSettlesAt116) {
  // Gliders leave the R-pentomino's debris; on a 1024x1024 plane none of them
  // reaches the edge by generation 1103, when the population settles at 116.
  const Shape shape{1024, 1024, 1};
  const Grid start = placed(grid_from_rows({".oo", "oo.", ".o."}), shape, 511, 511);
  const Problem p = problem("B3/S23", shape, Boundary::dead);
  const Grid settled = reference_advance(p, start, 1103);
  EXPECT_EQ(settled.population(), 116);
  // Gliders only move outward, so none has touched the edge before either.
  std::int64_t nearest_edge = shape.width;
  for (std::int64_t y = 0; y < shape.height; ++y) {
    for (std::int64_t x = 0; x < shape.width; ++x) {
      if (settled.at(x, y) == 0) continue;
      nearest_edge = std::min({nearest_edge, x, y, shape.width - 1 - x, shape.height - 1 - y});
    }
  }
  EXPECT_GT(nearest_edge, 100);
  EXPECT_EQ(reference_advance(p, settled, 1).population(), 116);
}

TEST(ReferenceHex, SingleCellDies) {
  const Grid single = grid_with(Shape{5, 5, 1}, {{2, 2}});
  for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
    const Grid next = reference_advance(problem("B2/S34H", single.shape(), boundary), single, 1);
    EXPECT_EQ(next.population(), 0);
  }
}

TEST(ReferenceHex, TwoNeighboursGiveBirthWhereTheyShareNeighbours) {
  // The hex neighbours of (x, y) are (x-1, y-1), (x, y-1), (x-1, y), (x+1, y),
  // (x, y+1), (x+1, y+1); those of (2, 2) and (3, 2) in common are (2, 1) and
  // (3, 3). Each of the pair has one live neighbour, so both die.
  const Shape shape{6, 6, 1};
  const Grid pair = grid_with(shape, {{2, 2}, {3, 2}});
  const Grid next = reference_advance(problem("B2/S34H", shape), pair, 1);
  EXPECT_EQ(next, grid_with(shape, {{2, 1}, {3, 3}}));
  // Under the square rule the same pair would give births above and below both cells.
  const Grid square = reference_advance(problem("B2/S34", shape), pair, 1);
  EXPECT_EQ(square, grid_with(shape, {{2, 1}, {3, 1}, {2, 3}, {3, 3}}));
}

TEST(ReferenceHex, PairAcrossBothWrapsOscillatesOnTheTorus) {
  // On B2/S34H:T48,40, (47, 0) and (0, 0) are neighbours across the left edge.
  // Each has one live neighbour and dies; the cells both touch are (47, 39)
  // (across the top edge too) and (0, 1), which are born. Those two share
  // exactly (47, 0) and (0, 0): period 2. Golly's mirror image (NE and SW
  // neighbours) would give (0, 39) and (47, 1) instead.
  const Problem p = problem("B2/S34H:T48,40", Shape{48, 40, 1});
  const Grid start = grid_with(p.shape, {{47, 0}, {0, 0}});
  const Grid next = reference_advance(p, start, 1);
  EXPECT_EQ(next, grid_with(p.shape, {{47, 39}, {0, 1}}));
  EXPECT_EQ(reference_advance(p, next, 1), start);
  // On a plane they are not neighbours and share none: both die, none is born.
  const Problem plane = problem("B2/S34H:P48,40", Shape{48, 40, 1}, Boundary::dead);
  EXPECT_EQ(reference_advance(plane, start, 1).population(), 0);
}

TEST(ReferenceHex, NorthEastAndSouthWestAreNotNeighbours) {
  // A cell whose only live neighbours sit at NE and SW: 0 under hex, 2 under square.
  const Shape shape{5, 5, 1};
  const Grid grid = grid_with(shape, {{2, 2}, {3, 1}, {1, 3}});
  EXPECT_EQ(reference_advance(problem("B/S0H", shape), grid, 1).at(2, 2), 1);
  EXPECT_EQ(reference_advance(problem("B/S2H", shape), grid, 1).at(2, 2), 0);
  EXPECT_EQ(reference_advance(problem("B/S2", shape), grid, 1).at(2, 2), 1);
  EXPECT_EQ(reference_advance(problem("B/S0", shape), grid, 1).at(2, 2), 0);
}

TEST(ReferenceHex, NeighbourCountsDirectionByDirection) {
  const Shape shape{5, 5, 1};
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      const bool hex_neighbour = !(dx == 1 && dy == -1) && !(dx == -1 && dy == 1);
      // A live cell with one live cell at (dx, dy): survives under S1 iff they are neighbours.
      const Grid pair = grid_with(shape, {{2, 2}, {2 + dx, 2 + dy}});
      EXPECT_EQ(reference_advance(problem("B/S1H", shape), pair, 1).at(2, 2), hex_neighbour)
          << dx << "," << dy;
      EXPECT_EQ(reference_advance(problem("B/S1", shape), pair, 1).at(2, 2), 1);
      // A dead cell with one live cell at (dx, dy): born under B1 iff they are neighbours.
      const Grid one = grid_with(shape, {{2 + dx, 2 + dy}});
      EXPECT_EQ(reference_advance(problem("B1/SH", shape), one, 1).at(2, 2), hex_neighbour)
          << dx << "," << dy;
    }
  }
  // All six at once.
  const Grid full = grid_with(shape, {{2, 2}, {1, 1}, {2, 1}, {1, 2}, {3, 2}, {2, 3}, {3, 3}});
  EXPECT_EQ(reference_advance(problem("B/S6H", shape), full, 1).at(2, 2), 1);
}

TEST(ReferenceCube, CubeOfEightIsStill) {
  // Each live cell of a 2x2x2 cube has 7 live neighbours and survives; a dead
  // cell touches at most 4 of them (through a face), so none is born.
  const Shape shape{6, 6, 6};
  Grid cube(shape);
  for (int z = 1; z <= 2; ++z) {
    for (int y = 1; y <= 2; ++y) {
      for (int x = 1; x <= 2; ++x)
        cube.set(x, y, z, 1);
    }
  }
  for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
    EXPECT_EQ(reference_advance(problem("B6/S567/3D", shape, boundary), cube, 5), cube);
  }
}

TEST(ReferenceCube, SlabTurnsIntoAColumn) {
  // A 2x3 slab in the plane z = 2 (x in {1, 2}, y in {1, 2, 3}). Its middle
  // cells have 5 live neighbours and survive; its corners have 3 and die. The
  // dead cells above and below the middle row see all 6 and are born; no other
  // dead cell sees more than 4.
  const Shape shape{6, 6, 6};
  const Grid slab =
      grid_with(shape, {{1, 1, 2}, {2, 1, 2}, {1, 2, 2}, {2, 2, 2}, {1, 3, 2}, {2, 3, 2}});
  const Grid column =
      grid_with(shape, {{1, 2, 1}, {2, 2, 1}, {1, 2, 2}, {2, 2, 2}, {1, 2, 3}, {2, 2, 3}});
  for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
    EXPECT_EQ(reference_advance(problem("B6/S567/3D", shape, boundary), slab, 1), column);
  }
}

TEST(ReferenceCube, WrapsOnEveryAxis) {
  // The same slab across the x and z edges of the torus: x in {5, 0}, z = 0.
  const Shape shape{6, 6, 6};
  const Grid slab =
      grid_with(shape, {{5, 1, 0}, {0, 1, 0}, {5, 2, 0}, {0, 2, 0}, {5, 3, 0}, {0, 3, 0}});
  const Grid column =
      grid_with(shape, {{5, 2, 5}, {0, 2, 5}, {5, 2, 0}, {0, 2, 0}, {5, 2, 1}, {0, 2, 1}});
  EXPECT_EQ(reference_advance(problem("B6/S567/3D", shape), slab, 1), column);
  // With dead outside, the two halves do not see each other: every cell dies.
  EXPECT_EQ(reference_advance(problem("B6/S567/3D", shape, Boundary::dead), slab, 1).population(),
            0);
}

TEST(ReferenceCube, CountsAllTwentySixNeighbours) {
  const Shape shape{3, 3, 3};
  Grid full(shape);
  for (std::int64_t i = 0; i < shape.cells(); ++i)
    full.data()[i] = 1;
  // On a plane the centre has 26 live neighbours, a face centre 17, an edge 11
  // and a corner 7. ("S26" alone would read as 2 and 6.)
  const Grid next = reference_advance(problem("B/S25,26/3D", shape, Boundary::dead), full, 1);
  EXPECT_EQ(next, grid_with(shape, {{1, 1, 1}}));
  const Grid corners = reference_advance(problem("B/S7/3D", shape, Boundary::dead), full, 1);
  EXPECT_EQ(corners.population(), 8);
  EXPECT_EQ(corners.at(0, 0, 0), 1);
  EXPECT_EQ(corners.at(2, 2, 2), 1);
}

/// Live neighbours of (x, y, z) by modular arithmetic, independent of the halo.
int count_modular(const Problem& p, const Grid& g, std::int64_t x, std::int64_t y, std::int64_t z) {
  const Shape& s = p.shape;
  const bool cube = p.rule.topology == Topology::cube;
  int count = 0;
  for (int dz = cube ? -1 : 0; dz <= (cube ? 1 : 0); ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0 && dz == 0) || (p.rule.topology == Topology::hex && dx == -dy)) {
          continue;
        }
        std::int64_t nx = x + dx;
        std::int64_t ny = y + dy;
        std::int64_t nz = z + dz;
        const bool outside =
            nx < 0 || ny < 0 || nz < 0 || nx >= s.width || ny >= s.height || nz >= s.depth;
        if (outside && p.boundary == Boundary::dead) continue;
        nx = (nx + s.width) % s.width;
        ny = (ny + s.height) % s.height;
        nz = (nz + s.depth) % s.depth;
        count += g.at(nx, ny, nz);
      }
    }
  }
  return count;
}

TEST(Reference, AgreesWithModularRecount) {
  // The last two are large enough for a generation to be split over threads (shares of
  // 2^18 cells), where the machine has two or more: rows of one plane and across planes.
  const std::array<std::pair<const char*, Shape>, 12> cases = {{
      {"B3/S23", Shape{1, 1, 1}},
      {"B3/S23", Shape{2, 3, 1}},
      {"B3/S23", Shape{17, 9, 1}},
      {"B36/S23", Shape{31, 33, 1}},
      {"B2/S34H", Shape{1, 5, 1}},
      {"B2/S34H", Shape{19, 23, 1}},
      {"B6/S567/3D", Shape{1, 2, 3}},
      {"B6/S567/3D", Shape{5, 6, 7}},
      {"B5,6,7/S4,5,6,13/3D", Shape{9, 8, 7}},
      {"B0/S8", Shape{7, 6, 1}},
      {"B3/S23", Shape{700, 769, 1}},
      {"B6/S567/3D", Shape{64, 63, 130}},
  }};
  for (const auto& [rule, shape] : cases) {
    for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
      const Problem p = problem(rule, shape, boundary);
      Grid grid = make_soup(SoupSpec{shape, 0.4, 11});
      for (int generation = 0; generation < 4; ++generation) {
        Grid expected(shape);
        for (std::int64_t z = 0; z < shape.depth; ++z) {
          for (std::int64_t y = 0; y < shape.height; ++y) {
            for (std::int64_t x = 0; x < shape.width; ++x) {
              const int n = count_modular(p, grid, x, y, z);
              const bool alive = grid.at(x, y, z) != 0 ? p.rule.survives(n) : p.rule.born(n);
              expected.set(x, y, z, alive ? 1 : 0);
            }
          }
        }
        grid = reference_advance(p, grid, 1);
        const auto diff = first_difference(expected, grid);
        ASSERT_FALSE(diff) << p.to_string() << " generation " << generation + 1 << ": "
                           << diff->to_string();
      }
    }
  }
}

TEST(Reference, ZeroGenerationsIsTheSameGrid) {
  const Grid soup = make_soup(SoupSpec{Shape{8, 8, 1}, 0.5, 1});
  EXPECT_EQ(reference_advance(problem("B3/S23", soup.shape()), soup, 0), soup);
}

TEST(Reference, RefusesMismatchedProblems) {
  EXPECT_THROW(reference_advance(problem("B3/S23", Shape{8, 8, 1}), Grid(Shape{8, 4, 1}), 1),
               Error);
  EXPECT_THROW(reference_advance(problem("B3/S23", Shape{8, 8, 8}), Grid(Shape{8, 8, 8}), 1),
               Error);
  EXPECT_THROW(reference_advance(problem("B6/S567/3D", Shape{8, 8, 1}), Grid(Shape{8, 8, 1}), 1),
               Error);
  Grid two(Shape{4, 4, 1});
  two.set(1, 1, 2);
  try {
    reference_advance(problem("B3/S23", two.shape()), two, 1);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cell (1, 1, 0) holds 2: cells must be 0 or 1");
  }
}

} // namespace
} // namespace lifebench
