// Rule strings, shapes and boundaries: Golly's forms, the canonical form, and
// every refusal naming the offending text.
#include "lifebench/error.hpp"
#include "lifebench/problem.hpp"

#include <gtest/gtest.h>
#include <string>

namespace lifebench {
namespace {

/// The message of the Error that parsing `text` throws.
std::string rule_error(const std::string& text) {
  try {
    parse_rule_spec(text);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for " << text;
  return {};
}

TEST(Rule, ConwayIsMooreB3S23) {
  const RuleSpec spec = parse_rule_spec("B3/S23");
  EXPECT_EQ(spec.rule.topology, Topology::square);
  EXPECT_EQ(spec.rule.birth, 1U << 3U);
  EXPECT_EQ(spec.rule.survive, (1U << 2U) | (1U << 3U));
  EXPECT_EQ(spec.rule.neighbours(), 8);
  EXPECT_TRUE(spec.rule.born(3));
  EXPECT_FALSE(spec.rule.born(2));
  EXPECT_TRUE(spec.rule.survives(2));
  EXPECT_FALSE(spec.rule.survives(4));
  EXPECT_FALSE(spec.shape.has_value());
  EXPECT_EQ(spec.rule.to_string(), "B3/S23");
}

TEST(Rule, HexAndCube) {
  const Rule hex = parse_rule_spec("B2/S34H").rule;
  EXPECT_EQ(hex.topology, Topology::hex);
  EXPECT_EQ(hex.neighbours(), 6);
  EXPECT_EQ(hex.birth, 1U << 2U);
  EXPECT_EQ(hex.survive, (1U << 3U) | (1U << 4U));
  EXPECT_EQ(hex.to_string(), "B2/S34H");

  const Rule cube = parse_rule_spec("B6/S567/3D").rule;
  EXPECT_EQ(cube.topology, Topology::cube);
  EXPECT_EQ(cube.neighbours(), 26);
  EXPECT_EQ(cube.birth, 1U << 6U);
  EXPECT_EQ(cube.survive, (1U << 5U) | (1U << 6U) | (1U << 7U));
  EXPECT_EQ(cube.to_string(), "B6/S567/3D");
}

TEST(Rule, CommaSeparatedCounts) {
  const Rule rule = parse_rule_spec("B6,13/S5,6,7,12/3D").rule;
  EXPECT_EQ(rule.birth, (1U << 6U) | (1U << 13U));
  EXPECT_EQ(rule.survive, (1U << 5U) | (1U << 6U) | (1U << 7U) | (1U << 12U));
  EXPECT_EQ(rule.to_string(), "B6,13/S5,6,7,12/3D");
  // A set with a comma is read comma-separated whatever its counts.
  EXPECT_EQ(parse_rule_spec("B2,3/S23").rule, parse_rule_spec("B23/S23").rule);
  EXPECT_EQ(parse_rule_spec("B26/S0,26/3D").rule.to_string(), "B26/S0,26/3D");
  EXPECT_EQ(parse_rule_spec("B2,6/S5/3D").rule.to_string(), "B26/S5/3D");
  // A lone count above 9 takes a trailing comma: "13" reads as 1 and 3. Found by fuzzing:
  // "B6,13/S22,22/3D" was written "B6,13/S22/3D", which reads as survival on 2.
  const Rule lone = parse_rule_spec("B6,13/S22,22/3D").rule;
  EXPECT_EQ(lone.survive, 1U << 22U);
  EXPECT_EQ(lone.to_string(), "B6,13/S22,/3D");
  EXPECT_EQ(parse_rule_spec(lone.to_string()).rule, lone);
  EXPECT_EQ(parse_rule_spec("B13,/S/3D").rule.birth, 1U << 13U);
  EXPECT_EQ(parse_rule_spec("B13/S/3D").rule.birth, (1U << 1U) | (1U << 3U));
  for (const char* text : {"B6,13,/S5/3D", "B6,,13/S5/3D", "B,/S5/3D", "B6,/S5/3D"}) {
    EXPECT_THROW(parse_rule_spec(text), Error) << text;
  }
}

TEST(Rule, GollyVariantsReadToTheCanonicalForm) {
  const std::pair<const char*, const char*> cases[] = {
      {"b3/s23", "B3/S23"},         {"S23/B3", "B3/S23"},   {"23/3", "B3/S23"},
      {"B32/S32", "B23/S23"},       {"b2/s34h", "B2/S34H"}, {"34/2H", "B2/S34H"},
      {"B6/S567/3d", "B6/S567/3D"}, {"B3/S", "B3/S"},       {"B/S012345678", "B/S012345678"},
      {"B36/S23", "B36/S23"},       {"B0/S8", "B0/S8"},
  };
  for (const auto& [text, canonical] : cases) {
    EXPECT_EQ(parse_rule_spec(text).rule.to_string(), canonical) << text;
  }
}

TEST(Rule, GollyNamesReadToTheirRules) {
  const std::pair<const char*, const char*> cases[] = {
      {"Life", "B3/S23"},
      {"life", "B3/S23"},
      {"LIFE", "B3/S23"},
      {"HighLife", "B36/S23"},
      {"DayAndNight", "B3678/S34678"},
      {"Day-and-Night", "B3678/S34678"},
      {"Day&Night", "B3678/S34678"},
      {"Seeds", "B2/S"},
      {"LifeWithoutDeath", "B3/S012345678"},
      {"Morley", "B368/S245"},
      {"2x2", "B36/S125"},
      {"34Life", "B34/S34"},
      {"3-4Life", "B34/S34"},
      {"Maze", "B3/S12345"},
      {"Diamoeba", "B35678/S5678"},
      {"Replicator", "B1357/S1357"},
      {"Fredkin", "B1357/S02468"},
      {"LongLife", "B345/S5"},
      {"PersianRug", "B234/S"},
      {"AntiLife", "B0123478/S01234678"},
      {"PlowWorld", "B378/S012345678"},
  };
  for (const auto& [name, rule] : cases) {
    EXPECT_EQ(parse_rule_spec(name).rule, parse_rule_spec(rule).rule) << name;
    EXPECT_EQ(parse_rule_spec(name).rule.to_string(), rule) << name;
  }
  // A name takes a bounded grid as any rule does.
  const RuleSpec bounded = parse_rule_spec("HighLife:T64,32");
  EXPECT_EQ(bounded.rule.to_string(), "B36/S23");
  EXPECT_EQ(*bounded.shape, (Shape{64, 32, 1}));
}

TEST(Rule, GollyFormsWithoutASlash) {
  EXPECT_EQ(parse_rule_spec("B3S23").rule.to_string(), "B3/S23");
  EXPECT_EQ(parse_rule_spec("b36s23").rule.to_string(), "B36/S23");
  EXPECT_EQ(parse_rule_spec("S23B3").rule.to_string(), "B3/S23");
  // Golly reads a lone birth part as no survival (Life-Like/persian-rugs.lif: "#R B234").
  EXPECT_EQ(parse_rule_spec("B234").rule.to_string(), "B234/S");
  EXPECT_EQ(parse_rule_spec("B2S34H").rule.to_string(), "B2/S34H");
  // Golly writes an underscore in non-totalistic rules only, but means a slash by it.
  EXPECT_EQ(parse_rule_spec("B3_S23").rule.to_string(), "B3/S23");
}

TEST(Rule, GollysZeroSizedGridIsTheUnboundedPlane) {
  for (const char* text : {"B3/S23:T0", "B3/S23:T0,0", "B3/S23:P0,0"}) {
    const RuleSpec spec = parse_rule_spec(text);
    EXPECT_FALSE(spec.shape.has_value()) << text;
    EXPECT_EQ(spec.rule.to_string(), "B3/S23");
  }
}

TEST(Rule, BoundedGrids) {
  const RuleSpec torus = parse_rule_spec("B3/S23:T64,32");
  ASSERT_TRUE(torus.shape.has_value());
  EXPECT_EQ(*torus.shape, (Shape{64, 32, 1}));
  EXPECT_EQ(torus.boundary, Boundary::torus);

  const RuleSpec plane = parse_rule_spec("B2/S34H:P10,20");
  ASSERT_TRUE(plane.shape.has_value());
  EXPECT_EQ(*plane.shape, (Shape{10, 20, 1}));
  EXPECT_EQ(plane.boundary, Boundary::dead);

  const RuleSpec cube = parse_rule_spec("B6/S567/3D:T64,32,16");
  ASSERT_TRUE(cube.shape.has_value());
  EXPECT_EQ(*cube.shape, (Shape{64, 32, 16}));

  // One size stands for all, as in Golly's ":T100".
  EXPECT_EQ(*parse_rule_spec("B3/S23:t100").shape, (Shape{100, 100, 1}));
  EXPECT_EQ(*parse_rule_spec("B6/S567/3D:P8").shape, (Shape{8, 8, 8}));
  EXPECT_EQ(parse_rule_spec("B3/S23:p5,6").boundary, Boundary::dead);
}

TEST(Rule, ProblemToStringRoundTrips) {
  const Problem square{parse_rule_spec("B3/S23").rule, Shape{64, 64, 1}, Boundary::torus};
  EXPECT_EQ(square.to_string(), "B3/S23:T64,64");
  const Problem hex{parse_rule_spec("B2/S34H").rule, Shape{30, 20, 1}, Boundary::dead};
  EXPECT_EQ(hex.to_string(), "B2/S34H:P30,20");
  const Problem cube{parse_rule_spec("B6/S567/3D").rule, Shape{4, 5, 6}, Boundary::torus};
  EXPECT_EQ(cube.to_string(), "B6/S567/3D:T4,5,6");

  for (const Problem& problem : {square, hex, cube}) {
    const RuleSpec spec = parse_rule_spec(problem.to_string());
    ASSERT_TRUE(spec.shape.has_value());
    EXPECT_EQ((Problem{spec.rule, *spec.shape, spec.boundary}), problem);
  }
}

TEST(Rule, ErrorsNameTheText) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "expected B<counts>/S<counts>"},
      {"B3/S23/x", "expected B<counts>/S<counts>"},
      {"B3/S23/1", "expected B<counts>/S<counts>"},
      {"B3/S23/2/1", "expected B<counts>/S<counts>"},
      {"B2/S/C3", "multi-state rules are not supported (a Generations rule of 3 states)"},
      {"/2/3", "multi-state rules are not supported"},
      {"345/3/6", "multi-state rules are not supported (a Generations rule of 6 states)"},
      {"LifeHistory", "multi-state rules are not supported (Golly's LifeHistory has more"},
      {"LifeHistory:T30,20", "multi-state rules are not supported"},
      {"JvN29", "multi-state rules are not supported"},
      {"WireWorld", "multi-state rules are not supported"},
      {"Worm-1040512", "multi-state rules are not supported"},
      {"Turmite_121181121020", "multi-state rules are not supported"},
      {"Banks-I", "Golly's rule table Banks-I is not a B/S rule"},
      {"HighLive", "unknown rule name; lifebench runs B/S rules (B3/S23, B2/S34H) and their "
                   "names in Golly and the LifeWiki (Life, HighLife, DayAndNight, Seeds, 34Life, "
                   "...)"},
      {"W110", "Wolfram's one-dimensional rules are not supported"},
      {"B3_S23-a4ei6", "'-' in the survival counts is not a neighbour count (only totalistic"},
      {"Lifes", "unknown rule name"},
      {"B3S23X", "unknown rule name"},
      {"Worm-", "unknown rule name"},
      {"R5,C0,M1,S34..58,B34..45,NM", "Larger than Life rules are not supported"},
      {"B3/S23:P0,10", "a zero size"},
      {"B6/S567/3D:T0", "a zero size"},
      {"B3/B23", "one B part and one S part"},
      {"B3/23", "one B part and one S part"},
      {"B9/S23", "birth count 9 exceeds the 8 neighbours of a square rule"},
      {"B3/S239", "survival count 9 exceeds the 8 neighbours"},
      {"B7/S34H", "birth count 7 exceeds the 6 neighbours of a hex rule"},
      {"B6,27/S5/3D", "birth count 27 exceeds the 26 neighbours of a 3d rule"},
      {"B2a/S23", "'a' in the birth counts is not a neighbour count"},
      {"B3/S2-3", "'-' in the survival counts"},
      {"B6,/S5/3D", "\"\" in the birth counts is not a number"},
      {"B6,x/S5/3D", "\"x\" in the birth counts is not a number"},
      {"B2/S3V", "von Neumann rules (V) are not supported"},
      {"B3/S23H/3D", "'H' in the survival counts"},
      {"B3/S23:", "':' must be followed by"},
      {"B3/S23:T", "has no sizes"},
      {"B3/S23:T10+2,10", "shifted or twisted bounded grids are not supported"},
      {"B3/S23:T10,10-1", "shifted or twisted"},
      {"B3/S23:K10*,10", "Klein bottles (:K) are not supported"},
      {"B3/S23:C10,10", "cross-surfaces (:C) are not supported"},
      {"B3/S23:S10", "spheres (:S) are not supported"},
      {"B3/S23:X10,10", "unknown bounded grid 'X'"},
      {"B3/S23:T0,10", "a zero size"},
      {"B3/S23:T10,0", "a zero size"},
      {"B3/S23:T10,10,10", "a 2D bounded grid takes two sizes"},
      {"B6/S567/3D:T10,10", "a 3D bounded grid takes three sizes"},
      {"B3/S23:T10,a", "\"a\" is not a size"},
      {"B3/S23:T10,", "\"\" is not a size"},
      {"B3/S23:T2000000,2000000", "more than 2^40 cells"},
      {"B3/S23:T99999999999999999999,1", "is not a size"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = rule_error(text);
    EXPECT_NE(message.find(expected), std::string::npos) << text << " gave: " << message;
    EXPECT_EQ(message.rfind(std::string("rule \"") + text + "\": ", 0), 0U)
        << text << " gave: " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(Shape, ParseAndFormat) {
  EXPECT_EQ(parse_shape("1024x1024"), (Shape{1024, 1024, 1}));
  EXPECT_EQ(parse_shape("64x32x16"), (Shape{64, 32, 16}));
  EXPECT_EQ(parse_shape("1024x1024").to_string(), "1024x1024");
  EXPECT_EQ(parse_shape("64x32x16").to_string(), "64x32x16");
  EXPECT_EQ(parse_shape("64x32x16").cells(), 64 * 32 * 16);
}

TEST(Shape, Errors) {
  for (const char* text :
       {"", "64", "64x", "x64", "64x64x64x64", "0x64", "64x0", "64x64x0", "-1x64", "+1x64",
        " 64x64", "64x64 ", "64X64", "64x6.4", "2000000x2000000", "99999999999999999999x1"}) {
    try {
      parse_shape(text);
      ADD_FAILURE() << "no error for \"" << text << "\"";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(std::string("shape \"") + text + "\": ", 0), 0U)
          << e.what();
    }
  }
}

TEST(Shape, InvalidReason) {
  EXPECT_FALSE(invalid_shape_reason(Shape{1, 1, 1}));
  EXPECT_FALSE(invalid_shape_reason(Shape{std::int64_t{1} << 20, std::int64_t{1} << 20, 1}));
  EXPECT_TRUE(invalid_shape_reason(Shape{0, 1, 1}));
  EXPECT_TRUE(invalid_shape_reason(Shape{1, -1, 1}));
  EXPECT_TRUE(invalid_shape_reason(Shape{std::int64_t{1} << 20, std::int64_t{1} << 20, 2}));
  EXPECT_TRUE(invalid_shape_reason(Shape{std::int64_t{1} << 62, std::int64_t{1} << 62, 1 << 30}));
}

TEST(Boundary, ParseAndFormat) {
  EXPECT_EQ(parse_boundary("torus"), Boundary::torus);
  EXPECT_EQ(parse_boundary("dead"), Boundary::dead);
  EXPECT_EQ(to_string(Boundary::torus), "torus");
  EXPECT_EQ(to_string(Boundary::dead), "dead");
  EXPECT_THROW(parse_boundary("Torus"), Error);
  try {
    parse_boundary("wrap");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "boundary \"wrap\": expected torus or dead");
  }
}

TEST(Topology, Names) {
  EXPECT_EQ(to_string(Topology::square), "square");
  EXPECT_EQ(to_string(Topology::hex), "hex");
  EXPECT_EQ(to_string(Topology::cube), "3d");
}

} // namespace
} // namespace lifebench
