// Life 1.05/1.06 and macrocell files: cells at Golly's coordinates, rules, and every refusal
// with its line. The macrocell files are bgolly's (HashLife, -o x.mc) for RLE patterns at
// known places, so that the root's place on the plane is Golly's.
#include "lifebench/error.hpp"
#include "lifebench/plane_pattern.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <string>
#include <utility>

namespace lifebench {
namespace {

using Cells = std::set<std::pair<std::int64_t, std::int64_t>>;

Cells cells_of(const PlanePattern& pattern) {
  Cells cells;
  pattern.runs([&](std::int64_t x, std::int64_t y, std::int64_t length) {
    for (std::int64_t i = 0; i < length; ++i)
      cells.emplace(x + i, y);
  });
  return cells;
}

PlanePattern life(const std::string& text) {
  std::istringstream in(text);
  return read_life(in, "p.lif");
}

PlanePattern macrocell(const std::string& text) {
  std::istringstream in(text);
  return read_macrocell(in, "p.mc");
}

/// Each text, read, is refused with a message that starts as given.
template <class Read, std::size_t N>
void expect_refusals(Read read, const std::pair<const char*, const char*> (&cases)[N]) {
  for (const auto& refused : cases) {
    const std::string message = testing::thrown_message([&] { read(refused.first); });
    EXPECT_EQ(message.rfind(refused.second, 0), 0U) << refused.first << " gave " << message;
  }
}

TEST(Life105, BlocksAtTheirCorners) {
  // Acorn as Golly's collection has it (Life/Methuselahs/acorn.lif), and a second block.
  const PlanePattern acorn = life("#Life 1.05\r\n#D Acorn\r\n#N\r\n#P -3 -1\r\n.*\r\n...*\r\n"
                                  "**..***\r\n#P 10 20\r\n*\r\n");
  EXPECT_EQ(cells_of(acorn),
            (Cells{{-2, -1}, {0, 0}, {-3, 1}, {-2, 1}, {1, 1}, {2, 1}, {3, 1}, {10, 20}}));
  EXPECT_EQ(acorn.box, (Box{-3, -1, 14, 22}));
  ASSERT_TRUE(acorn.rule.has_value());
  EXPECT_EQ(acorn.rule->rule.to_string(), "B3/S23");
  EXPECT_EQ(acorn.generation, 0U);
}

TEST(Life105, RulesAndDefaults) {
  // 1.05's S/B form, and Golly's lone birth part (Life-Like/persian-rugs.lif).
  EXPECT_EQ(life("#Life 1.05\n#R 23/36\n*\n").rule->rule.to_string(), "B36/S23");
  EXPECT_EQ(life("#Life 1.05\n#R B234\n**\n**\n").rule->rule.to_string(), "B234/S");
  // "#P" alone (Life/Methuselahs/acorn.lif) or none: rows from (0, 0); no rule line: none
  // named; blank lines start no row, as in Golly.
  const PlanePattern plain = life("\n#Life 1.05\n#P\n*.*\n\n.*\n");
  EXPECT_FALSE(plain.rule.has_value());
  EXPECT_EQ(cells_of(plain), (Cells{{0, 0}, {2, 0}, {1, 1}}));
  const PlanePattern empty = life("#Life 1.05\n#D nothing\n");
  EXPECT_EQ(empty.box.width, 0);
  EXPECT_TRUE(cells_of(empty).empty());
}

TEST(Life106, OneCellALine) {
  const PlanePattern glider = life("#Life 1.06\n0 -1\n1 0\n-1 1\n0 1\n1 1\n1 1\n");
  EXPECT_EQ(cells_of(glider), (Cells{{0, -1}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}));
  EXPECT_EQ(glider.box, (Box{-1, -1, 3, 3}));
}

TEST(Life106, CellsListedAgainAndAgainAreRunsOnce) {
  // Past the first 4096 runs, those listed before are dropped: a few distinct cells listed
  // 200000 times give those cells, in as many runs, not 200000.
  std::string text = "#Life 1.06\n";
  Cells expected;
  for (int i = 0; i < 200000; ++i) {
    const int x = i % 7;
    const int y = (i / 7) % 5 - 2;
    text += std::to_string(x) + " " + std::to_string(y) + "\n";
    expected.emplace(x, y);
  }
  const PlanePattern pattern = life(text);
  std::int64_t runs = 0;
  pattern.runs([&](std::int64_t, std::int64_t, std::int64_t) { ++runs; });
  EXPECT_EQ(cells_of(pattern), expected);
  EXPECT_LT(runs, 4096 + 35);
  EXPECT_EQ(pattern.box, (Box{0, -2, 7, 5}));
}

TEST(Life, ErrorsNameTheLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"", R"(p.lif:1:1: expected the header "#Life 1.05" or "#Life 1.06")"},
      {"x = 3, y = 3\n", "p.lif:1:1: expected the header"},
      {"#Life 1.05\n.*x\n", "p.lif:2:3: expected '.' (dead) or '*' (alive) in a row, found 'x'"},
      {"#Life 1.05\nooo\n", "p.lif:2:1: expected a row of '.' and '*', a cell \"x y\" or a '#'"},
      {"#Life 1.05\n#P 1\n", R"(p.lif:2:1: expected "#P x y" or "#P")"},
      {"#Life 1.05\n#P 1 y\n", "p.lif:2:6: expected a coordinate of at most 2^40, found \"y\""},
      {"#Life 1.06\n1 2 3\n", "p.lif:2:1: expected a cell \"x y\""},
      {"#Life 1.06\n1 99999999999999\n", "p.lif:2:3: expected a coordinate of at most 2^40"},
      {"#Life 1.06\n--1 2\n", "p.lif:2:1: expected a coordinate"},
      {"#Life 1.05\n#R B3/S23/C4\n*\n", "p.lif:2:4: rule \"B3/S23/C4\": multi-state rules are not"},
      {"#Life 1.05\n#R\n", "p.lif:2:1: expected \"#R <rule>\""},
  };
  expect_refusals(life, cases);
}

TEST(Macrocell, TheRootIsPlacedAsGollyPlacesIt) {
  // bgolly -a HashLife -o of "#CXRLE Pos=0,0" and "Pos=-1,-1" single cells.
  EXPECT_EQ(cells_of(macrocell("[M2] (golly 3.3)\n#R B3/S23\n$$$$$$$*$\n4 0 1 0 0\n")),
            (Cells{{0, 0}}));
  EXPECT_EQ(cells_of(macrocell("[M2] (golly 3.3)\n#R B3/S23\n$$$$$$.......*$\n4 1 0 0 0\n")),
            (Cells{{-1, -1}}));
  // A glider from an RLE without a position (top-left at (0, 0)), at generation 0.
  const PlanePattern glider =
      macrocell("[M2] (golly 3.3)\n#R B3/S23\n$$$$$$$.*$\n..*$***$\n4 0 1 0 2\n");
  EXPECT_EQ(cells_of(glider), (Cells{{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}));
  EXPECT_EQ(glider.box, (Box{0, 0, 3, 3}));
  // A level-6 root: bgolly's for the cells below, from an RLE at "#CXRLE Pos=-20,13".
  const PlanePattern far = macrocell("[M2] (golly 3.3)\n#R B3/S23\n#G 7\n"
                                     "$$$$....*.*$.....*$....**$\n4 0 0 0 1\n5 2 0 0 0\n"
                                     "$$$$.....*$$...**$\n4 0 0 4 0\n5 5 0 0 0\n6 0 0 3 6\n");
  EXPECT_EQ(
      cells_of(far),
      (Cells{{-20, 13}, {-18, 13}, {5, 13}, {-19, 14}, {-20, 15}, {-19, 15}, {3, 15}, {4, 15}}));
  EXPECT_EQ(far.box, (Box{-20, 13, 26, 3}));
  EXPECT_EQ(far.generation, 7U);
  EXPECT_EQ(far.rule->rule.to_string(), "B3/S23");
}

TEST(Macrocell, SharedNodesAndEmptyPatterns) {
  // One leaf four times: a 2x2 block in each quarter of a level-4 node.
  const PlanePattern four = macrocell("[M2]\n**$**$\n4 1 1 1 1\n");
  EXPECT_EQ(cells_of(four).size(), 16U);
  EXPECT_EQ(four.box, (Box{-8, -7, 10, 10}));
  EXPECT_FALSE(four.rule.has_value());
  // Leaves alone, or no node: Golly reads an empty pattern.
  EXPECT_EQ(macrocell("[M2]\n**$\n").box.width, 0);
  EXPECT_TRUE(cells_of(macrocell("[M2]\n#C nothing\n")).empty());
  EXPECT_TRUE(cells_of(macrocell("[M2]\n4 0 0 0 0\n")).empty());
}

TEST(Macrocell, BrokenTreesAreRefused) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "p.mc:1:1: expected the header \"[M2]\""},
      {"x = 1, y = 1\no!\n", "p.mc:1:1: expected the header \"[M2]\""},
      {"[M2]\n4 0 0 0 1\n", "p.mc:2:9: node \"1\" is not defined above (0 are)"},
      {"[M2]\n*$\n4 0 0 0 2\n", "p.mc:3:9: node \"2\" is not defined above (1 are)"},
      {"[M2]\n*$\n5 1 0 0 0\n", "p.mc:3:3: node 1 is of level 3, not 4 as a quarter of this one"},
      {"[M2]\n*$\n4 1 0 0 0\n4 2 0 0 0\n", "p.mc:4:3: node 2 is of level 4, not 3"},
      {"[M2]\n*$\n4 1 0 0\n", "p.mc:3:1: expected a leaf or a node \"level nw ne sw se\""},
      {"[M2]\n*$\n4 1 0 0 0 0\n", "p.mc:3:1: expected a leaf or a node"},
      {"[M2]\n*$\nx 1 0 0 0\n", "p.mc:3:1: expected a leaf or a node"},
      {"[M2]\n*$\n4 1 0 -1 0\n", "p.mc:3:7: node \"-1\" is not defined above"},
      {"[M2]\n.*x$\n", "p.mc:2:3: expected '.', '*' or '$' in a leaf, found 'x'"},
      {"[M2]\n.........*$\n", "p.mc:2:9: a leaf holds 8x8 cells"},
      {"[M2]\n$$$$$$$$*$\n", "p.mc:2:9: a leaf holds 8x8 cells"},
      {"[M2]\n1 0 0 0 1\n", "p.mc:2:1: a node of level 1 holds cell states: multi-state rules"},
      {"[M2]\n63 0 0 0 0\n", "p.mc:2:1: a node of level 63 (2^63 cells a side)"},
      {"[M2]\n#R JvN29\n", "p.mc:2:4: rule \"JvN29\": multi-state rules are not supported"},
      {"[M2]\n#R Bogus\n", "p.mc:2:4: rule \"Bogus\": unknown rule name"},
      {"[M2]\n#G -1\n", "p.mc:2:1: expected \"#G <generation>\", below 2^64"},
  };
  expect_refusals(macrocell, cases);
}

} // namespace
} // namespace lifebench
