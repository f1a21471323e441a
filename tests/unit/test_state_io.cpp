// Reading and writing states by extension, the datasets, and atomic writes.
#include "lifebench/error.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"
#include "lifebench/state_io.hpp"
#include "test_support.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

namespace lifebench {
namespace {

using testing::dataset;
using testing::grid_with;

using StateIo = testing::TempDirTest;

TEST_F(StateIo, GliderDataset) {
  const State state = read_state(dataset("glider.rle"), std::nullopt);
  EXPECT_EQ(state.problem.to_string(), "B3/S23:T64,64");
  EXPECT_EQ(state.generation, 0U);
  // Centred as Golly does: the 3x3 pattern's top-left at (32 - 1, 32 - 1).
  EXPECT_EQ(state.grid,
            grid_with(Shape{64, 64, 1}, {{32, 31}, {33, 32}, {31, 33}, {32, 33}, {33, 33}}));
  EXPECT_EQ(reference_advance(state.problem, state.grid, 256), state.grid);
}

TEST_F(StateIo, OtherDatasets) {
  const State blinker = read_state(dataset("blinker.rle"), std::nullopt);
  EXPECT_EQ(blinker.problem.to_string(), "B3/S23:T16,16");
  EXPECT_EQ(blinker.grid, grid_with(Shape{16, 16, 1}, {{7, 8}, {8, 8}, {9, 8}}));
  EXPECT_EQ(reference_advance(blinker.problem, blinker.grid, 2), blinker.grid);

  const State r = read_state(dataset("r-pentomino.rle"), std::nullopt);
  EXPECT_EQ(r.problem.to_string(), "B3/S23:P1024,1024");
  EXPECT_EQ(r.grid, grid_with(Shape{1024, 1024, 1},
                              {{512, 511}, {513, 511}, {511, 512}, {512, 512}, {512, 513}}));
}

TEST_F(StateIo, HexRingDataset) {
  const State ring = read_state(dataset("hex-ring.rle"), std::nullopt);
  EXPECT_EQ(ring.problem.to_string(), "B2/S34H:T16,16");
  const Shape shape{16, 16, 1};
  // The six hex neighbours of (8, 8): all but its NE (9, 7) and SW (7, 9).
  EXPECT_EQ(ring.grid, grid_with(shape, {{7, 7}, {8, 7}, {7, 8}, {9, 8}, {8, 9}, {9, 9}}));
  // Each ring cell sees two ring cells and dies; the centre sees six and stays
  // dead; each outer cell touching two ring cells is born (worked out by hand).
  EXPECT_EQ(reference_advance(ring.problem, ring.grid, 1),
            grid_with(shape, {{7, 6}, {6, 7}, {9, 7}, {7, 9}, {10, 9}, {9, 10}}));
  EXPECT_NE(reference_advance(ring.problem, ring.grid, 2), ring.grid);
  EXPECT_EQ(reference_advance(ring.problem, ring.grid, 3), ring.grid);
}

TEST_F(StateIo, RuleOverride) {
  const State state = read_state(dataset("glider.rle"), "B3/S23:P16,16");
  EXPECT_EQ(state.problem.to_string(), "B3/S23:P16,16");
  EXPECT_EQ(state.grid.population(), 5);
  EXPECT_EQ(state.grid.at(8, 7), 1);
}

TEST_F(StateIo, GollyPositionIsHonoured) {
  write(file("corner.rle"), "#CXRLE Pos=-4,-4 Gen=9\nx = 1, y = 1, rule = B3/S23:T8,8\no!\n");
  const State state = read_state(file("corner.rle"), std::nullopt);
  EXPECT_EQ(state.grid, grid_with(Shape{8, 8, 1}, {{0, 0}}));
  EXPECT_EQ(state.generation, 9U);
}

TEST_F(StateIo, RleErrors) {
  write(file("norule.rle"), "x = 1, y = 1\no!\n");
  EXPECT_EQ(error_of([&] { read_state(file("norule.rle"), std::nullopt); }),
            file("norule.rle").string() +
                ": no rule: add \"rule = B3/S23:T64,64\" (for example) to the header or pass "
                "--rule");
  write(file("unbounded.rle"), "x = 1, y = 1, rule = B3/S23\no!\n");
  EXPECT_EQ(error_of([&] { read_state(file("unbounded.rle"), std::nullopt); }),
            file("unbounded.rle").string() +
                ": rule B3/S23 has no bounded grid: use e.g. B3/S23:T64,64");
  EXPECT_NE(error_of([&] {
              read_state(file("unbounded.rle"), "B6/S567/3D:T4,4,4");
            }).find("the 3D rule B6/S567/3D cannot run a 2D RLE pattern"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              read_state(dataset("glider.rle"), "B3/S23:T2,2");
            }).find("the 3x3 pattern is larger than the 2x2 grid"),
            std::string::npos);
  write(file("bad.rle"), "x = 1, y = 1\nz!\n");
  EXPECT_EQ(error_of([&] { read_state(file("bad.rle"), "B3/S23:T4,4"); }),
            file("bad.rle").string() + ":2:1: unexpected character 'z'");
}

TEST_F(StateIo, FileErrors) {
  EXPECT_EQ(error_of([&] { read_state(file("missing.rle"), std::nullopt); }),
            "cannot read " + file("missing.rle").string() + ": No such file or directory");
  write(file("pattern.txt"), "x = 1, y = 1\no!\n");
  EXPECT_EQ(
      error_of([&] { read_state(file("pattern.txt"), std::nullopt); }),
      file("pattern.txt").string() +
          ": unknown extension \".txt\": use .rle (2D), .lbu (2D universe file) or .dat/.bin (3D)");
  EXPECT_THROW(read_state(file("no-extension"), std::nullopt), Error);
}

TEST_F(StateIo, RleRoundTrip) {
  const RuleSpec spec = parse_rule_spec("B2/S34H:P40,30");
  const State state{Problem{spec.rule, *spec.shape, spec.boundary},
                    make_soup(SoupSpec{*spec.shape, 0.4, 8}), 77};
  write_state(file("out.RLE"), state);
  const State back = read_state(file("out.RLE"), std::nullopt);
  EXPECT_EQ(back.problem, state.problem);
  EXPECT_EQ(back.grid, state.grid);
  EXPECT_EQ(back.generation, 77U);
  EXPECT_EQ(listing(), std::vector<std::string>{"out.RLE"});
}

TEST_F(StateIo, CubeRoundTripAndDefaults) {
  const RuleSpec spec = parse_rule_spec("B6/S567/3D:T8,8,8");
  const State state{Problem{spec.rule, *spec.shape, spec.boundary},
                    make_soup(SoupSpec{*spec.shape, 0.2, 8}), 5};
  for (const char* name : {"out.dat", "out.bin"}) {
    write_state(file(name), state);
    const State back = read_state(file(name), std::nullopt);
    EXPECT_EQ(back.problem, state.problem);
    EXPECT_EQ(back.grid, state.grid);
    EXPECT_EQ(back.generation, 5U);
  }
  const State dead = read_state(file("out.dat"), "B5/S45/3D:P8,8,8");
  EXPECT_EQ(dead.problem.to_string(), "B5/S45/3D:P8,8,8");
  // An override without a bound takes the file's size.
  EXPECT_EQ(read_state(file("out.dat"), "B4/S4/3D").problem.to_string(), "B4/S4/3D:T8,8,8");
  EXPECT_NE(error_of([&] {
              read_state(file("out.dat"), "B6/S567/3D:T4,4,4");
            }).find("the rule's bounded grid 4x4x4 differs from the file's 8x8x8"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              read_state(file("out.dat"), "B3/S23:T8,8");
            }).find("the 2D rule B3/S23 cannot run a 3D universe"),
            std::string::npos);
}

TEST_F(StateIo, WrongFormatWritesNothing) {
  const State flat{Problem{parse_rule_spec("B3/S23").rule, Shape{4, 4, 1}, Boundary::torus},
                   Grid(Shape{4, 4, 1}), 0};
  EXPECT_THROW(write_state(file("flat.dat"), flat), Error);
  const State cube{Problem{parse_rule_spec("B6/S567/3D").rule, Shape{4, 4, 4}, Boundary::torus},
                   Grid(Shape{4, 4, 4}), 0};
  EXPECT_THROW(write_state(file("cube.rle"), cube), Error);
  EXPECT_THROW(write_state(file("cube.txt"), cube), Error);
  const State mismatched{flat.problem, Grid(Shape{4, 2, 1}), 0};
  EXPECT_THROW(write_state(file("mismatched.rle"), mismatched), Error);
  const State box{Problem{parse_rule_spec("B6/S567/3D").rule, Shape{4, 4, 2}, Boundary::torus},
                  Grid(Shape{4, 4, 2}), 0};
  EXPECT_THROW(write_state(file("box.dat"), box), Error);
  EXPECT_TRUE(listing().empty());
}

TEST_F(StateIo, AtomicWriteReplacesTheFile) {
  write(file("target"), "old");
  write_file_atomically(file("target"), [](std::ostream& out) { out << "new"; });
  EXPECT_EQ(contents(file("target")), "new");
  EXPECT_EQ(listing(), std::vector<std::string>{"target"});
}

TEST_F(StateIo, AtomicWriteLeavesTheOldFileWhenTheWriterThrows) {
  write(file("target"), "old");
  struct Failure {};
  EXPECT_THROW(write_file_atomically(file("target"),
                                     [](std::ostream& out) {
                                       out << "half of the new";
                                       out.flush();
                                       throw Failure{};
                                     }),
               Failure);
  EXPECT_EQ(contents(file("target")), "old");
  EXPECT_EQ(listing(), std::vector<std::string>{"target"});
}

TEST_F(StateIo, AtomicWriteReportsAStreamFailure) {
  EXPECT_THROW(write_file_atomically(file("target"),
                                     [](std::ostream& out) { out.setstate(std::ios::badbit); }),
               Error);
  EXPECT_TRUE(listing().empty());
}

TEST_F(StateIo, AtomicWriteIntoAMissingDirectory) {
  EXPECT_NE(error_of([&] {
              write_file_atomically(file("no/such/dir/target"), [](std::ostream&) {});
            }).find("No such file or directory"),
            std::string::npos);
}

} // namespace
} // namespace lifebench
