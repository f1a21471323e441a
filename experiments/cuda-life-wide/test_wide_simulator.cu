// cuda-life-wide on the GPU where the conformance matrix does not reach: a soup made
// band by band on the device (upload_soup), and a universe of more than 2^32 words,
// whose rows past word 2^32 only 64-bit offsets reach. A universe that large cannot be
// checked whole against the reference (a byte a cell on the host), so bands of rows are:
// after G generations a row depends only on the rows within G of it, so the reference
// run on the soup's rows first - G .. last + G gives rows first .. last exactly.
#include "cuda/life_wide_simulator.cuh"
#include "lifebench/packed.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace lifebench::cuda_life_wide {
namespace {

namespace wide = cuda::life_wide;
using wide::WideSimulator;

const Rule kConway = parse_rule_spec("B3/S23").rule;

wide::Config config_of(wide::Schedule schedule) {
  wide::Config config;
  config.schedule = schedule;
  config.rows = schedule == wide::Schedule::wavefront ? 512 : 128;
  return config;
}

/// Whether a CUDA device this binary runs on has `bytes` of memory free.
bool device_has(std::size_t bytes) {
  return !wide::unavailable() && !cuda::beyond_free_memory(bytes, "the test's grids");
}

TEST(WideSimulator, SoupUploadedBandByBandIsTheSoup) {
  if (!device_has(std::size_t{1} << 20)) GTEST_SKIP() << "no CUDA device";
  // 96 cells: a row of 64-bit soup words ends in a padding word. Bands of 3 rows: 40 rows
  // end in a short one.
  for (const Shape shape : {Shape{96, 40, 1}, Shape{1024, 256, 1}}) {
    for (const std::int64_t rows_per_band : {3, 1 << 20}) {
      const SoupSpec soup{shape, 0.4, 11};
      WideSimulator simulator(Problem{kConway, shape, Boundary::torus},
                              config_of(wide::Schedule::registers));
      simulator.upload_soup_in_bands(soup, rows_per_band);
      const auto difference = first_difference(make_soup(soup), simulator.download());
      EXPECT_FALSE(difference) << shape.to_string() << " in bands of " << rows_per_band
                               << " rows: " << difference->to_string();
    }
  }
  WideSimulator simulator(Problem{kConway, Shape{96, 40, 1}, Boundary::torus},
                          config_of(wide::Schedule::registers));
  EXPECT_THROW(simulator.upload_soup(SoupSpec{Shape{96, 41, 1}, 0.4, 11}), Error);
}

TEST(WideSimulator, RefusesWhatDoesNotFit) {
  if (!device_has(std::size_t{1} << 20)) GTEST_SKIP() << "no CUDA device";
  const Params params({{"schedule", "wavefront"},
                       {"rows_per_thread", "512"},
                       {"steps_per_launch", "8"},
                       {"shifts", "funnel"}});
  const auto reason_for = [&](Shape shape) {
    return WideSimulator::unsupported(Problem{kConway, shape, Boundary::torus}, params);
  };
  EXPECT_FALSE(reason_for(Shape{1024, 1024, 1}));
  // 2^40 cells: two grids of 128 GiB, more than any device has.
  const auto too_large = reason_for(Shape{std::int64_t{1} << 20, std::int64_t{1} << 20, 1});
  ASSERT_TRUE(too_large);
  EXPECT_NE(too_large->find("bytes of device memory"), std::string::npos) << *too_large;
  // A row of 2^35 cells: past the 32-bit byte stride between rows.
  const auto too_wide = reason_for(Shape{std::int64_t{1} << 35, 1, 1});
  ASSERT_TRUE(too_wide);
  EXPECT_NE(too_wide->find("2^35"), std::string::npos) << *too_wide;
}

TEST(WideSimulator, OneLaunchOfRegistersNamesItsLaunch) {
  for (const auto launch : {wide::Launch::persistent, wide::Launch::pipelined}) {
    wide::Config config = config_of(wide::Schedule::registers);
    config.launch = launch;
    const auto reason = wide::unsupported(config, 32, 1024);
    ASSERT_TRUE(reason);
    const std::string named =
        launch == wide::Launch::pipelined ? "launch=pipelined " : "launch=persistent ";
    EXPECT_EQ(reason->rfind(named, 0), 0U) << *reason;
  }
}

TEST(WideSimulator, WavefrontWritesAnyRowsPerLane) {
  if (!device_has(std::size_t{1} << 20)) GTEST_SKIP() << "no CUDA device";
  // The rows cuda-outofcore's rows_per_thread=auto chooses for its bands on 132 SMs (49,
  // 108, 171; 147 and 342 before), and one more that leaves a short last tile, none dividing
  // the heights; 19 generations are launches of 4 four times and 1 three times, of 8, 8, 1,
  // 1 and 1, or of 16, 1, 1 and 1.
  for (const Shape shape : {Shape{1024, 1000, 1}, Shape{2048, 700, 1}}) {
    for (const int steps : {4, 8, 16}) {
      for (const int rows : {33, 49, 108, 147, 171, 342}) {
        wide::Config config = config_of(wide::Schedule::wavefront);
        config.rows = rows;
        config.steps = steps;
        const Problem problem{kConway, shape, Boundary::torus};
        const Grid start = make_soup(SoupSpec{shape, 0.35, static_cast<std::uint64_t>(rows)});
        WideSimulator simulator(problem, config);
        simulator.upload(start);
        simulator.advance(19);
        const auto difference =
            first_difference(reference_advance(problem, Grid(start), 19), simulator.download());
        EXPECT_FALSE(difference) << shape.to_string() << ", " << steps << " steps, " << rows
                                 << " rows a lane: " << difference->to_string();
      }
    }
  }
}

/// 7 passes in one launch of `config` (persistent), then 3 single generations (the result in
/// the other buffer); 6 passes, the result in the first; with 4, 8 and 16 generations a pass and
/// each of `rows` that the launch takes on the shape.
void expect_one_launch_matches(wide::Config config, std::initializer_list<Shape> shapes,
                               std::initializer_list<int> rows) {
  for (const Shape shape : shapes) {
    for (const int steps : {4, 8, 16}) {
      for (const int passes : {7, 6}) {
        const Problem problem{kConway, shape, Boundary::torus};
        const Grid start = make_soup(SoupSpec{shape, 0.35, static_cast<std::uint64_t>(steps)});
        const int generations = passes * steps + (passes == 7 ? 3 : 0);
        const Grid expected = reference_advance(problem, Grid(start), generations);
        for (const int r : rows) {
          config.rows = r;
          config.steps = steps;
          if (wide::unsupported(config, shape.width / 32, shape.height)) continue;
          WideSimulator simulator(problem, config);
          simulator.upload(start);
          simulator.advance(static_cast<std::uint64_t>(generations));
          const auto difference = first_difference(expected, simulator.download());
          EXPECT_FALSE(difference)
              << shape.to_string() << ", " << generations << " generations, " << steps
              << " a pass, " << r << " rows a lane: " << difference->to_string();
        }
      }
    }
  }
}

TEST(WideSimulator, PersistentLaunchMatchesTheReference) {
  if (!device_has(std::size_t{1} << 22)) GTEST_SKIP() << "no CUDA device";
  // 64 x 64 is one tile a pass (2 with 33 rows); 4096 x 1024 has fewer tiles a pass than a device
  // holds warps, so that warps of several passes wait on each other.
  wide::Config config = config_of(wide::Schedule::wavefront);
  config.launch = wide::Launch::persistent;
  expect_one_launch_matches(config, {Shape{64, 64, 1}, Shape{1024, 1000, 1}, Shape{4096, 1024, 1}},
                            {33, 64, 171});
  // Fewer rows a lane than generations a pass: the tiles waited for would not hold every row
  // read.
  config.rows = 8;
  config.steps = 16;
  WideSimulator simulator(Problem{kConway, Shape{1024, 1000, 1}, Boundary::torus}, config);
  EXPECT_THROW(simulator.advance(16), Error);
}

TEST(WideSimulator, PipelinedLaunchMatchesTheReference) {
  if (!device_has(std::size_t{1} << 22)) GTEST_SKIP() << "no CUDA device";
  // One tile a column (64 rows on 64 x 64, 1000 on 1024 x 1000), two, and many: 25 tiles of 40
  // rows, whose loads past their own reach 2 S + 4 rows into the next (S = 8: 20 of 40); 4096 x
  // 1024 in 16 tiles of 64 rows, fewer a pass than a device holds warps, so that many passes run at
  // once.
  wide::Config config = config_of(wide::Schedule::wavefront);
  config.launch = wide::Launch::pipelined;
  expect_one_launch_matches(config, {Shape{64, 64, 1}, Shape{1024, 1000, 1}, Shape{4096, 1024, 1}},
                            {32, 40, 64, 500, 1000});
  // 40 passes of 4 generations: passes past the 16 slots of counts take the slots of earlier ones.
  for (const auto& [shape, rows] :
       {std::pair{Shape{4096, 1024, 1}, 64}, std::pair{Shape{1024, 1000, 1}, 40}}) {
    const Problem problem{kConway, shape, Boundary::torus};
    const Grid start = make_soup(SoupSpec{shape, 0.35, 40});
    config.rows = rows;
    config.steps = 4;
    WideSimulator simulator(problem, config);
    simulator.upload(start);
    simulator.advance(160);
    const auto difference =
        first_difference(reference_advance(problem, Grid(start), 160), simulator.download());
    EXPECT_FALSE(difference) << shape.to_string() << ", 40 passes of 4, " << rows
                             << " rows a lane: " << difference->to_string();
  }
  // Rows that do not divide the height.
  config.rows = 64;
  config.steps = 8;
  WideSimulator simulator(Problem{kConway, Shape{1024, 1000, 1}, Boundary::torus}, config);
  EXPECT_THROW(simulator.advance(16), Error);
}

/// Rows first .. first + count - 1 of `soup` advanced by `generations` on its torus.
std::vector<std::uint32_t> reference_rows(const SoupSpec& soup, std::int64_t first,
                                          std::int64_t count, std::int64_t generations) {
  const std::int64_t width = soup.shape.width;
  const std::int64_t height = soup.shape.height;
  const std::int64_t soup_words = words_per_row<std::uint64_t>(width);
  const std::int64_t rows = count + 2 * generations;
  std::vector<std::uint64_t> words(static_cast<std::size_t>(rows * soup_words));
  for (std::int64_t r = 0; r < rows; ++r) { // wrapped around the torus row by row
    const std::int64_t y = ((first - generations + r) % height + height) % height;
    soup_rows(soup, y, 1,
              std::span(words).subspan(static_cast<std::size_t>(r * soup_words),
                                       static_cast<std::size_t>(soup_words)));
  }
  Grid band(Shape{width, rows, 1});
  unpack_rows<std::uint64_t>(std::span<const std::uint64_t>(words), band);
  // The band's own torus is wrong only within `generations` rows of its ends.
  band = reference_advance(Problem{kConway, band.shape(), Boundary::torus}, std::move(band),
                           static_cast<std::uint64_t>(generations));
  Grid centre(Shape{width, count, 1});
  std::copy_n(band.data() + generations * width, count * width, centre.data());
  return pack_rows<std::uint32_t>(centre);
}

TEST(WideSimulator, RowsPastWord2To32MatchTheReference) {
  // 16384 words a row: row 262144 starts at word 2^32.
  const Shape shape{524288, 262144 + 4096, 1};
  const std::size_t bytes = 2 * static_cast<std::size_t>(shape.cells() / 8);
  if (!device_has(bytes + (std::size_t{1} << 30))) {
    GTEST_SKIP() << "needs a CUDA device with " << bytes << " bytes free";
  }
  // Registers launches 8, 8 and 3 generations, wavefront 8, 8 and three of 1. Each schedule
  // starts from its own soup, so that rows the second left unwritten cannot hold the
  // first's right answer (its buffers may be the first's memory again).
  constexpr std::int64_t kGenerations = 19;
  constexpr std::int64_t kCount = 8;
  const std::int64_t firsts[] = {0, 262144 - kCount / 2, shape.height - kCount};
  std::uint64_t seed = 3;
  for (const auto schedule : {wide::Schedule::registers, wide::Schedule::wavefront}) {
    const SoupSpec soup{shape, 0.35, seed++};
    WideSimulator simulator(Problem{kConway, shape, Boundary::torus}, config_of(schedule));
    simulator.upload_soup(soup);
    simulator.advance(kGenerations);
    for (const std::int64_t first : firsts) {
      const auto rows = simulator.download_rows(first, kCount);
      const auto expected = reference_rows(soup, first, kCount, kGenerations);
      ASSERT_EQ(rows.size(), expected.size());
      const auto [got, want] = std::mismatch(rows.begin(), rows.end(), expected.begin());
      EXPECT_TRUE(got == rows.end())
          << (schedule == wide::Schedule::wavefront ? "wavefront" : "registers") << ": rows "
          << first << "+" << kCount << " differ first at word " << (got - rows.begin());
    }
  }
}

} // namespace
} // namespace lifebench::cuda_life_wide
