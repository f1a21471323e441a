// RLE as Golly reads and writes it, the positions of every error, and Golly's
// placement of a pattern into a bounded grid.
#include "lifebench/error.hpp"
#include "lifebench/rle.hpp"
#include "lifebench/soup.hpp"
#include "test_support.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <sstream>
#include <tuple>

namespace lifebench {
namespace {

using testing::grid_from_rows;

/// A pattern drawn one string per row, 'o' alive and '.' dead.
Pattern pattern_from_rows(const std::vector<std::string>& rows) {
  Pattern pattern;
  pattern.size = grid_from_rows(rows).shape();
  for (std::size_t y = 0; y < rows.size(); ++y) {
    for (std::size_t x = 0; x < rows[y].size(); ++x) {
      if (rows[y][x] == 'o') {
        pattern.alive.push_back(
            LiveRun{static_cast<std::int64_t>(x), static_cast<std::int64_t>(y), 1});
      }
    }
  }
  return pattern;
}

Pattern read_text(const std::string& text) {
  std::istringstream in(text);
  return read_rle(in, "test.rle");
}

std::string write_text(const Grid& grid, const std::string& problem_text,
                       std::uint64_t generation) {
  const RuleSpec spec = parse_rule_spec(problem_text);
  std::ostringstream out;
  write_rle(out, grid, Problem{spec.rule, *spec.shape, spec.boundary}, generation);
  return out.str();
}

TEST(RleRead, GollyStyleFile) {
  const Pattern p = read_text("#N Glider\n"
                              "#O Richard K. Guy\n"
                              "#C The smallest, most common, and first discovered spaceship.\n"
                              "x = 3, y = 3, rule = B3/S23\n"
                              "bo$2bo$3o!\n");
  EXPECT_EQ(p.cells(), grid_from_rows({".o.", "..o", "ooo"}));
  ASSERT_TRUE(p.rule);
  EXPECT_EQ(p.rule->rule.to_string(), "B3/S23");
  EXPECT_FALSE(p.rule->shape);
  EXPECT_EQ(p.generation, 0U);
  EXPECT_FALSE(p.position);
}

TEST(RleRead, HeaderVariants) {
  const Pattern tight = read_text("x=3,y=1,rule=B2/S34H:P8,9\n3o!");
  ASSERT_TRUE(tight.rule);
  EXPECT_EQ(tight.rule->rule.to_string(), "B2/S34H");
  EXPECT_EQ(*tight.rule->shape, (Shape{8, 9, 1}));
  EXPECT_EQ(tight.rule->boundary, Boundary::dead);
  EXPECT_FALSE(read_text("x = 2, y = 2\n2o$2o!").rule);
  EXPECT_EQ(read_text("  x = 1, y = 1, rule = b3/s23,  \no!").rule->rule.to_string(), "B3/S23");
}

TEST(RleRead, BodyForms) {
  // Multi-line body, ".", "A", "3$" for empty rows, a comment line inside,
  // trailing dead cells left out, CRLF line ends, text after "!" ignored.
  const Pattern p = read_text("x = 5, y = 6, rule = B3/S23\r\n"
                              "o.A\r\n"
                              "  b\to$ 3$\r\n"
                              "#C a comment between rows\r\n"
                              "5o$\r\n"
                              "!ignored: xyz 3o\r\n");
  EXPECT_EQ(p.cells(), grid_from_rows({"o.o.o", ".....", ".....", ".....", "ooooo", "....."}));
}

TEST(RleRead, MissingBangAtEndOfFileIsTolerated) {
  EXPECT_EQ(read_text("x = 2, y = 2\no$bo").cells(), grid_from_rows({"o.", ".o"}));
  EXPECT_EQ(read_text("x = 2, y = 2\n").cells(), grid_from_rows({"..", ".."}));
  EXPECT_EQ(read_text("x = 2, y = 2").cells(), grid_from_rows({"..", ".."}));
}

TEST(RleRead, ExtendedHeader) {
  const Pattern p = read_text("#CXRLE Pos=-5,-3 Gen=42\nx = 1, y = 1, rule = B3/S23\no!\n");
  EXPECT_EQ(p.generation, 42U);
  ASSERT_TRUE(p.position);
  EXPECT_EQ(*p.position, (Position{-5, -3}));
  const Pattern gen_only = read_text("#CXRLE Gen=18446744073709551615\nx = 1, y = 1\no!");
  EXPECT_EQ(gen_only.generation, 18446744073709551615ULL);
  EXPECT_FALSE(gen_only.position);
  EXPECT_EQ(*read_text("#CXRLE Other=1 Pos=2,3\nx = 1, y = 1\no!").position, (Position{2, 3}));
}

TEST(RleRead, PositionsAsFarAsWritten) {
  // A plane run far from the origin is written with its place; every such place reads back.
  const Grid block = grid_from_rows({"oo", "oo"});
  for (const Position origin : {Position{1099511627776, -1099511627778},
                                Position{-(std::int64_t{1} << 61), (std::int64_t{1} << 61) - 8},
                                Position{INT64_MAX - 2, INT64_MIN}}) {
    std::ostringstream out;
    write_rle_plane(out, block, parse_rule_spec("B3/S23").rule, origin, 5);
    const Pattern back = read_text(out.str());
    ASSERT_TRUE(back.position) << out.str();
    EXPECT_EQ(*back.position, origin) << out.str();
    EXPECT_EQ(back.cells(), block);
  }
  // Past 64 bits, or cells past the last coordinate: refused with the place.
  EXPECT_THROW(read_text("#CXRLE Pos=9223372036854775808,0\nx = 1, y = 1\no!"), ParseError);
  EXPECT_THROW(read_text("#CXRLE Pos=0,-9223372036854775809\nx = 1, y = 1\no!"), ParseError);
  try {
    read_text("#CXRLE Pos=9223372036854775806,0\nx = 3, y = 1\n3o!");
    ADD_FAILURE() << "a pattern past coordinate 2^63 - 1 read";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("test.rle:2:1: the 3x1 pattern at "
                                         "Pos=9223372036854775806,0 reaches coordinate 2^63 - 1"),
              std::string::npos)
        << e.what();
  }
}

TEST(RleRead, LiveCellsAreRunsMergedWhereTheyAdjoin) {
  const Pattern p = read_text("x = 6, y = 3\n2o3o$3bA.o2$!");
  const std::vector<LiveRun> runs{{0, 0, 5}, {3, 1, 1}, {5, 1, 1}};
  EXPECT_EQ(p.alive, runs);
  EXPECT_EQ(p.size, (Shape{6, 3, 1}));
}

TEST(RleRead, AHeaderLargerThanTheFileTakesNoMemoryOfItsSize) {
  // 2^40 cells claimed by a few bytes: one run, refused as larger than its grid
  // before any grid is made.
  const Pattern p = read_text("x = 1099511627776, y = 1, rule = B3/S23:P1,70\n1099511627776o!");
  const std::vector<LiveRun> runs{{0, 0, std::int64_t{1} << 40}};
  EXPECT_EQ(p.alive, runs);
  try {
    place_in_grid(p, p.rule->shape.value());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "the 1099511627776x1 pattern is larger than the 1x70 grid");
  }
}

TEST(RleRead, StraightIntoTheGrid) {
  const auto read_into = [](const std::string& text, Shape grid, Pattern* header = nullptr) {
    std::istringstream in(text);
    return read_rle_into_grid(in, "test.rle", [&](const Pattern& pattern) {
      if (header != nullptr) *header = pattern;
      return grid;
    });
  };
  // Centred, or at its position, as place_in_grid() puts the runs read_rle() reads.
  for (const char* text : {"x = 3, y = 3, rule = B3/S23:T8,8\nbo$2bo$3o!",
                           "#CXRLE Pos=1,-4 Gen=9\nx = 3, y = 2\n2o$obo!"}) {
    std::istringstream in(text);
    const Pattern pattern = read_rle(in, "test.rle");
    Pattern header;
    const Grid grid = read_into(text, Shape{8, 8, 1}, &header);
    EXPECT_EQ(grid, pattern.position ? place_in_grid(pattern, Shape{8, 8, 1}, *pattern.position)
                                     : place_in_grid(pattern, Shape{8, 8, 1}))
        << text;
    EXPECT_TRUE(header.alive.empty());
    EXPECT_EQ(header.size, pattern.size);
    EXPECT_EQ(header.position, pattern.position);
    EXPECT_EQ(header.generation, pattern.generation);
  }
  // Refused before the grid is made; the body's own errors still name line and column.
  EXPECT_THROW(read_into("x = 1099511627776, y = 1\n1099511627776o!", Shape{1, 70, 1}), Error);
  try {
    read_into("x = 2, y = 2\noz!", Shape{4, 4, 1});
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 2);
  }
}

TEST(RleRead, ErrorsGiveLineAndColumn) {
  const std::tuple<std::string, int, int, std::string> cases[] = {
      {"", 1, 1, "no header line"},
      {"#C only a comment\n", 2, 1, "no header line"},
      {"y = 3, x = 3\n", 1, 1, "expected a # line or the header"},
      {"\n  3o!\n", 2, 3, "expected a # line or the header"},
      {"x 3, y = 3\n!", 1, 3, "expected '=', found '3'"},
      {"x = , y = 3\n", 1, 5, "expected a number, found ','"},
      {"x = 3 y = 3\n", 1, 7, "expected ',', found 'y'"},
      {"x = 3, y = \n", 1, 12, "expected a number, found the end of the line"},
      {"x = 0, y = 3\n!", 1, 5, "x must be positive"},
      {"x = 3, y = 0\n!", 1, 12, "y must be positive"},
      {"x = 2000000, y = 2000000\n!", 1, 5, "pattern 2000000x2000000: more than 2^40 cells"},
      {"x = 99999999999999999999, y = 1\n", 1, 17, "number too large"},
      {"x = 3, y = 3, rule = B9/S23\n", 1, 22, "rule \"B9/S23\": birth count 9 exceeds"},
      {"x = 3, y = 3, rules = B3/S23\n", 1, 19, "expected '=', found 's'"},
      {"x = 3, y = 3, size = 4\n", 1, 15, "expected \"rule\", found 's'"},
      {"x = 3, y = 3, rule = B3/S23 extra\n", 1, 29, "unexpected text after the rule"},
      {"x = 3, y = 2\nbo$2bo$3o!", 2, 9, "row 3 is beyond y = 2"},
      {"x = 2, y = 1\n3o!", 2, 2, "row 1 has more than x = 2 cells"},
      {"x = 2, y = 1\nbo\nbo!", 3, 1, "row 1 has more than x = 2 cells"},
      {"x = 2, y = 2\no3$o!", 2, 3, "more than y = 2 rows"},
      {"x = 2, y = 2\noz!", 2, 2, "unexpected character 'z'"},
      {"x = 2, y = 2\no\x01!", 2, 2, "unexpected character byte 0x01"},
      {"x = 2, y = 2\noB!", 2, 2, "state 'B' of a multi-state rule"},
      {"x = 2, y = 2\n2pA!", 2, 2, "state 'p' of a multi-state rule"},
      {"x = 2, y = 2\n2 o!", 2, 2, "a run count must be followed by b, o, $ or !"},
      {"x = 2, y = 2\no2\nbo!", 2, 3, "a run count must be followed by b, o, $ or !"},
      {"x = 2, y = 2\n02o!", 2, 1, "a run count cannot start with 0"},
      {"x = 2, y = 2\no\n$\n2", 4, 2, "the file ends after a run count"},
      {"x = 2, y = 2\n99999999999999o!", 2, 13, "run count too large"},
      {"x = 2, y = 2\r\no\r\nz", 3, 1, "unexpected character 'z'"},
      {"#CXRLE Pos=a,1\nx = 1, y = 1\no!", 1, 12, "expected a number, found 'a'"},
      {"#CXRLE Pos=1;1\nx = 1, y = 1\no!", 1, 13, "expected ',', found ';'"},
      {"#CXRLE Gen=-1\nx = 1, y = 1\no!", 1, 12, "expected a number, found '-'"},
  };
  for (const auto& [text, line, column, what] : cases) {
    try {
      read_text(text);
      ADD_FAILURE() << "no error for: " << text;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line(), line) << text << "\n" << e.what();
      EXPECT_EQ(e.column(), column) << text << "\n" << e.what();
      const std::string prefix =
          "test.rle:" + std::to_string(line) + ":" + std::to_string(column) + ": ";
      EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0U) << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << text << "\n" << e.what();
    }
  }
}

TEST(RleWrite, ExactText) {
  const Grid glider = grid_from_rows({".o...", "..o..", "ooo..", "....."});
  EXPECT_EQ(write_text(glider, "B3/S23:T5,4", 7), "#CXRLE Pos=-2,-2 Gen=7\n"
                                                  "x = 5, y = 4, rule = B3/S23:T5,4\n"
                                                  "bo$2bo$3o!\n");
  // Empty rows merge into the next "n$"; trailing empty rows vanish before "!".
  const Grid sparse = grid_from_rows({"o...", "....", "....", "....", ".o..", "...."});
  EXPECT_EQ(write_text(sparse, "B2/S34H:P4,6", 0), "#CXRLE Pos=-2,-3 Gen=0\n"
                                                   "x = 4, y = 6, rule = B2/S34H:P4,6\n"
                                                   "o4$bo!\n");
  EXPECT_EQ(write_text(Grid(Shape{3, 3, 1}), "B3/S23:T3,3", 0), "#CXRLE Pos=-1,-1 Gen=0\n"
                                                                "x = 3, y = 3, rule = B3/S23:T3,3\n"
                                                                "!\n");
}

TEST(RleWrite, LinesStayWithin70Characters) {
  Grid stripes(Shape{201, 3, 1});
  for (std::int64_t x = 0; x < 201; x += 2)
    stripes.set(x, 1, 1);
  const std::string text = write_text(stripes, "B3/S23:T201,3", 0);
  std::istringstream lines(text);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 70U) << line;
    ++count;
  }
  EXPECT_GE(count, 5);
  EXPECT_EQ(read_text(text).cells(), stripes);
}

TEST(RleWrite, RefusesWhatItCannotHold) {
  std::ostringstream out;
  const Problem cube{parse_rule_spec("B6/S567/3D").rule, Shape{2, 2, 2}, Boundary::torus};
  EXPECT_THROW(write_rle(out, Grid(cube.shape), cube, 0), Error);
  const Problem square{parse_rule_spec("B3/S23").rule, Shape{4, 4, 1}, Boundary::torus};
  EXPECT_THROW(write_rle(out, Grid(Shape{4, 3, 1}), square, 0), Error);
}

TEST(Rle, RoundTrips) {
  const std::pair<const char*, const char*> cases[] = {
      {"B3/S23:T64,48", "64x48,0.5,1"},      {"B2/S34H:P33,17", "33x17,0.3,2"},
      {"B36/S23:T300,200", "300x200,0.1,3"}, {"B3/S23:T1,1", "1x1,1,4"},
      {"B3/S23:T70,2", "70x2,1,5"},
  };
  for (const auto& [problem_text, soup_text] : cases) {
    const RuleSpec spec = parse_rule_spec(problem_text);
    const Problem problem{spec.rule, *spec.shape, spec.boundary};
    const Grid grid = make_soup(parse_soup(soup_text));
    std::ostringstream out;
    write_rle(out, grid, problem, 1234);
    const Pattern back = read_text(out.str());
    EXPECT_EQ(back.cells(), grid) << problem_text;
    ASSERT_TRUE(back.rule);
    ASSERT_TRUE(back.rule->shape);
    EXPECT_EQ((Problem{back.rule->rule, *back.rule->shape, back.rule->boundary}), problem);
    EXPECT_EQ(back.generation, 1234U);
    ASSERT_TRUE(back.position);
    EXPECT_EQ(place_in_grid(back, problem.shape, *back.position), grid);
    EXPECT_EQ(place_in_grid(back, problem.shape), grid);
  }
}

TEST(Placement, CentresAsGolly) {
  // Golly: grid top-left at (-(W/2), -(H/2)), pattern top-left at (-(x/2), -(y/2)).
  const Pattern dot = pattern_from_rows({"o"});
  const Pattern glider = pattern_from_rows({".o.", "..o", "ooo"});
  const Grid placed = place_in_grid(glider, Shape{8, 8, 1});
  EXPECT_EQ(placed.population(), 5);
  EXPECT_EQ(placed.at(4, 3), 1); // the glider's (1, 0) at (8/2 - 3/2 + 1, 8/2 - 3/2)
  EXPECT_EQ(placed.at(3, 5), 1);
  EXPECT_EQ(place_in_grid(dot, Shape{9, 7, 1}).at(4, 3), 1);
  const Pattern bar = pattern_from_rows({"oooo", "o..."});
  const Grid in_odd = place_in_grid(bar, Shape{9, 7, 1});
  EXPECT_EQ(in_odd.at(2, 2), 1); // (9/2 - 4/2, 7/2 - 2/2)
  EXPECT_EQ(in_odd.at(5, 2), 1);
  EXPECT_EQ(in_odd.at(2, 3), 1);
  EXPECT_EQ(in_odd.population(), 5);
  EXPECT_EQ(place_in_grid(glider, Shape{3, 3, 1}), glider.cells());
}

TEST(RleRead, GollysEmptyPattern) {
  const Pattern empty = read_text("x = 0, y = 0, rule = B3/S23:T4,4\n!\n");
  EXPECT_EQ(empty.size, (Shape{0, 0, 1}));
  EXPECT_TRUE(empty.alive.empty());
  EXPECT_EQ(place_in_grid(empty, Shape{4, 4, 1}).population(), 0);
  EXPECT_THROW(read_text("x = 0, y = 0\no!"), ParseError);
}

TEST(Placement, AtAGollyPosition) {
  const Pattern dot = pattern_from_rows({"o"});
  EXPECT_EQ(place_in_grid(dot, Shape{8, 8, 1}, Position{-4, -4}).at(0, 0), 1);
  EXPECT_EQ(place_in_grid(dot, Shape{8, 8, 1}, Position{3, 3}).at(7, 7), 1);
  EXPECT_EQ(place_in_grid(dot, Shape{9, 9, 1}, Position{0, 0}).at(4, 4), 1);
  EXPECT_THROW(place_in_grid(dot, Shape{8, 8, 1}, Position{4, 0}), Error);
  EXPECT_THROW(place_in_grid(dot, Shape{8, 8, 1}, Position{0, -5}), Error);
}

TEST(Placement, RefusesWhatDoesNotFit) {
  const Pattern glider = pattern_from_rows({".o.", "..o", "ooo"});
  try {
    place_in_grid(glider, Shape{2, 8, 1});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "the 3x3 pattern is larger than the 2x8 grid");
  }
  Pattern cube;
  cube.size = Shape{2, 2, 2};
  EXPECT_THROW(place_in_grid(cube, Shape{8, 8, 8}), Error);
  EXPECT_THROW(place_in_grid(glider, Shape{8, 8, 8}), Error);
  Pattern outside = glider;
  outside.alive.push_back(LiveRun{2, 2, 2});
  EXPECT_THROW(place_in_grid(outside, Shape{8, 8, 1}), Error);
}

} // namespace
} // namespace lifebench
