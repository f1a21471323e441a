// Reading and writing states by extension, the datasets, and atomic writes.
#include "lifebench/error.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"
#include "lifebench/state_io.hpp"
#include "test_support.hpp"

#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <random>
#include <sstream>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

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

TEST_F(StateIo, UnboundedRleIsGollysPlane) {
  // No rule is Conway's, as in Golly; without "#CXRLE Pos" the top-left cell is at (0, 0).
  write(file("norule.rle"), "x = 3, y = 2\nobo$bo!\n");
  const State plain = read_state(file("norule.rle"), std::nullopt);
  EXPECT_EQ(plain.problem.to_string(), "B3/S23:P3,2");
  EXPECT_EQ(plain.origin, (Position{0, 0}));
  EXPECT_EQ(plain.grid, grid_with(Shape{3, 2, 1}, {{0, 0}, {2, 0}, {1, 1}}));

  write(file("placed.rle"), "#CXRLE Pos=-7,4 Gen=12\nx = 3, y = 1, rule = HighLife\n3o!\n");
  const State placed =
      read_state(file("placed.rle"), ReadOptions{.plane = PlaneFit{.generations = 5}});
  EXPECT_EQ(placed.problem.to_string(), "B36/S23:P13,11");
  EXPECT_EQ(placed.origin, (Position{-12, -1}));
  EXPECT_EQ(placed.generation, 12U);
  EXPECT_EQ(placed.grid, grid_with(Shape{13, 11, 1}, {{5, 5}, {6, 5}, {7, 5}}));
  // A bounded grid in the rule places the pattern as before, centred or at its Pos.
  EXPECT_FALSE(read_state(file("placed.rle"), "B3/S23:T16,16").origin.has_value());
}

TEST_F(StateIo, PlaneRoundTripKeepsGollysCoordinates) {
  // A blinker at Golly's (-1..1, 3) turns over, and is written as Golly writes its plane.
  write(file("blinker.rle"), "#CXRLE Pos=-1,3\nx = 3, y = 1, rule = B3/S23\n3o!\n");
  State state = read_state(file("blinker.rle"), ReadOptions{.plane = PlaneFit{.generations = 1}});
  state.grid = reference_advance(state.problem, state.grid, 1);
  state.generation = 1;
  write_state(file("out.rle"), state);
  EXPECT_EQ(contents(file("out.rle")),
            "#CXRLE Pos=0,2 Gen=1\nx = 1, y = 3, rule = B3/S23\no$o$o!\n");
  const State back = read_state(file("out.rle"), std::nullopt);
  EXPECT_EQ(back.origin, (Position{0, 2}));
  EXPECT_EQ(back.generation, 1U);
  // With no live cell, Golly's empty pattern.
  state.grid = Grid(state.grid.shape());
  write_state(file("empty.rle"), state);
  EXPECT_EQ(contents(file("empty.rle")), "#CXRLE Gen=1\nx = 0, y = 0, rule = B3/S23\n!\n");
  EXPECT_EQ(read_state(file("empty.rle"), std::nullopt).grid.population(), 0);
  // Only RLE keeps a place on the plane.
  EXPECT_NE(error_of([&] {
              write_state(file("out.lbu"), state);
            }).find("a pattern of Golly's unbounded plane is written as RLE (.rle)"),
            std::string::npos);
  EXPECT_THROW(require_writable(file("out.dat"), state.problem, true), Error);
  EXPECT_EQ(listing(), (std::vector<std::string>{"blinker.rle", "empty.rle", "out.rle"}));
}

TEST_F(StateIo, GollysOtherFormats) {
  write(file("acorn.LIF"), "#Life 1.05\n#P -3 -1\n.*\n...*\n**..***\n");
  const State acorn = read_state(file("acorn.LIF"), std::nullopt);
  EXPECT_EQ(acorn.problem.to_string(), "B3/S23:P7,3");
  EXPECT_EQ(acorn.origin, (Position{-3, -1}));
  EXPECT_EQ(acorn.grid.population(), 7);
  write(file("glider.life"), "#Life 1.06\n0 -1\n1 0\n-1 1\n0 1\n1 1\n");
  // Golly's bounded grid puts its top-left cell at (-(W/2), -(H/2)).
  EXPECT_EQ(read_state(file("glider.life"), "B3/S23:T8,8").grid,
            grid_with(Shape{8, 8, 1}, {{4, 3}, {5, 4}, {3, 5}, {4, 5}, {5, 5}}));
  EXPECT_NE(error_of([&] { read_state(file("glider.life"), "B3/S23:T2,2"); })
                .find("the live cells, from (-1, -1) to (1, 1), do not fit into the 2x2 grid, "
                      "from (-1, -1)"),
            std::string::npos);
  write(file("cell.mc"), "[M2] (golly 3.3)\n#R B36/S23\n#G 4\n$$$$$$.......*$\n4 1 0 0 0\n");
  const State cell = read_state(file("cell.mc"), std::nullopt);
  EXPECT_EQ(cell.problem.to_string(), "B36/S23:P1,1");
  EXPECT_EQ(cell.origin, (Position{-1, -1}));
  EXPECT_EQ(cell.generation, 4U);
}

TEST_F(StateIo, AGivenRuleThatDiffersWarns) {
  write(file("named.rle"), "x = 1, y = 1, rule = B3/S23:T8,8\no!\n");
  write(file("plane.rle"), "x = 1, y = 1, rule = B3/S23\no!\n");
  write(file("none.rle"), "x = 1, y = 1\no!\n");
  std::vector<std::string> warnings;
  const auto read = [&](const char* name, const char* rule) {
    return read_state(file(name), ReadOptions{.rule = rule, .warn = [&](const std::string& line) {
                                                warnings.push_back(line);
                                              }});
  };
  EXPECT_EQ(read("named.rle", "B36/S23:T8,8").problem.to_string(), "B36/S23:T8,8");
  EXPECT_EQ(read("named.rle", "B3/S23:P8,8").problem.to_string(), "B3/S23:P8,8");
  EXPECT_EQ(read("named.rle", "B3/S23:T8,8").problem.to_string(), "B3/S23:T8,8");
  // A bounded grid for a pattern of the plane, or a rule for a file that names none, changes
  // nothing the file says.
  EXPECT_EQ(read("plane.rle", "B3/S23:T8,8").problem.to_string(), "B3/S23:T8,8");
  EXPECT_EQ(read("none.rle", "B2/S:T8,8").problem.to_string(), "B2/S:T8,8");
  EXPECT_EQ(read("plane.rle", "Seeds").problem.to_string(), "B2/S:P1,1");
  EXPECT_EQ(warnings, (std::vector<std::string>{
                          file("named.rle").string() +
                              ": the rule given, B36/S23:T8,8, replaces the file's B3/S23:T8,8",
                          file("named.rle").string() +
                              ": the rule given, B3/S23:P8,8, replaces the file's B3/S23:T8,8",
                          file("plane.rle").string() +
                              ": the rule given, B2/S, replaces the file's B3/S23"}));
}

TEST_F(StateIo, EveryGridIsAskedForBeforeItIsMade) {
  // A few bytes may name a grid too large to run: the caller refuses it before it is made.
  write(file("bounded.rle"), "x = 1, y = 1, rule = B3/S23:T8,8\no!\n");
  write(file("plane.rle"), "x = 1, y = 1\no!\n");
  write(file("cell.lif"), "#Life 1.06\n0 0\n");
  write_state(file("small.lbu"),
              State{Problem{parse_rule_spec("B3/S23").rule, Shape{64, 4, 1}, Boundary::torus},
                    Grid(Shape{64, 4, 1})});
  std::vector<std::string> asked;
  const ReadOptions noted{.rule = std::nullopt, .before_grid = [&](const Problem& problem) {
                            asked.push_back(problem.to_string());
                          }};
  for (const char* name : {"bounded.rle", "plane.rle", "cell.lif", "small.lbu"})
    read_state(file(name), noted);
  EXPECT_EQ(asked, (std::vector<std::string>{"B3/S23:T8,8", "B3/S23:P1,1", "B3/S23:P1,1",
                                             "B3/S23:T64,4"}));
  const ReadOptions refused{.rule = "B3/S23:P64,4", .before_grid = [](const Problem& problem) {
                              throw Error("refused " + problem.to_string());
                            }};
  for (const char* name : {"bounded.rle", "plane.rle", "cell.lif", "small.lbu"}) {
    EXPECT_EQ(error_of([&] { read_state(file(name), refused); }), "refused B3/S23:P64,4");
  }
}

TEST_F(StateIo, GzipErrors) {
  // A file named .gz that is not gzip is read as it stands, as Golly reads it.
  write(file("plain.rle.gz"), "x = 1, y = 1\no!\n");
  EXPECT_EQ(read_state(file("plain.rle.gz"), std::nullopt).grid.population(), 1);
  write(file("text.rle.gz"), "not a pattern\n");
  EXPECT_EQ(error_of([&] { read_state(file("text.rle.gz"), std::nullopt); }),
            file("text.rle.gz").string() +
                ": not gzip data (no 1f 8b at its start), nor a pattern as it stands: " +
                file("text.rle.gz").string() +
                ":1:1: expected a # line or the header \"x = <width>, y = <height>[, rule = "
                "<rule>]\", found 'n'");
  // gzip's header alone: the deflate data is missing.
  write(file("cut.rle.gz"), std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10));
  EXPECT_EQ(error_of([&] { read_state(file("cut.rle.gz"), std::nullopt); }),
            file("cut.rle.gz").string() + ": the gzip data ends early (the file is cut short)");
  write(file("bad.rle.gz"), std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff", 12));
  EXPECT_NE(error_of([&] {
              read_state(file("bad.rle.gz"), std::nullopt);
            }).find(": damaged gzip data (zlib: "),
            std::string::npos);
  write(file("x.lbu.gz"), "");
  EXPECT_NE(error_of([&] {
              read_state(file("x.lbu.gz"), std::nullopt);
            }).find("unknown extension \".lbu.gz\""),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              require_writable(file("out.rle.gz"), Problem{});
            }).find("lifebench writes .rle (2D), .lbu (2D universe file) and .dat/.bin (3D)"),
            std::string::npos);
}

TEST_F(StateIo, RleErrors) {
  write(file("unbounded.rle"), "x = 1, y = 1, rule = B3/S23\no!\n");
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
  EXPECT_EQ(error_of([&] { read_state(file("pattern.txt"), std::nullopt); }),
            file("pattern.txt").string() +
                ": unknown extension \".txt\": use .rle (2D), .lif or .life (Life 1.05/1.06), "
                ".mc (macrocell), any of these gzipped (.rle.gz), .lbu (2D universe file) or "
                ".dat/.bin (3D)");
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

/// How many of `file`'s pages the page cache holds (mincore on a map of it).
std::size_t resident_pages(const std::filesystem::path& file) {
  const auto size = static_cast<std::size_t>(std::filesystem::file_size(file));
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error("cannot open " + file.string());
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) throw Error("cannot map " + file.string());
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core((size + page - 1) / page);
  const int status = ::mincore(map, size, in_core.data());
  ::munmap(map, size);
  if (status != 0) throw Error("mincore failed on " + file.string());
  return static_cast<std::size_t>(
      std::count_if(in_core.begin(), in_core.end(), [](unsigned char c) { return (c & 1) != 0; }));
}

TEST_F(StateIo, ASyncedFileDroppedFromThePageCacheLeavesNoPageThere) {
  struct statfs where {};
  ASSERT_EQ(::statfs(file("").c_str(), &where), 0);
  if (where.f_type == TMPFS_MAGIC) GTEST_SKIP() << "tmpfs keeps its files in memory";
  const std::filesystem::path path = file("pages.bin");
  {
    MappedFileWriter writer(path, std::int64_t{4} << 20);
    std::fill(writer.bytes().begin(), writer.bytes().end(), std::byte{0x5a});
    writer.commit(); // synced: every page clean, still cached
  }
  ASSERT_GT(resident_pages(path), 0U);
  drop_from_page_cache(path);
  EXPECT_EQ(resident_pages(path), 0U);
  EXPECT_THROW(drop_from_page_cache(file("missing.bin")), Error);
}

} // namespace
} // namespace lifebench
