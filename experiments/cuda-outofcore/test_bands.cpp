// The skewed bands' schedule (bands.hpp) run on the host with the reference as the
// kernel: a pass over every band count, pass length and launch size gives exactly the
// universe T generations on, whether the prelude is shorter or taller than the universe.
#include "bands.hpp"
#include "lifebench/grid.hpp"
#include "lifebench/problem.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"
#include "tiles.hpp"

#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace lifebench {
namespace {

namespace bands = outofcore_bands;

constexpr std::int64_t kWidth = 10;

Problem torus(std::int64_t height) {
  return {parse_rule_spec("B3/S23").rule, Shape{kWidth, height, 1}, Boundary::torus};
}

/// Two buffers of rows and a handoff, as the device holds them; step() runs the reference.
class HostDevice {
public:
  explicit HostDevice(const bands::Bands& b)
      : buffers_{Grid(Shape{kWidth, b.buffer_rows(), 1}), Grid(Shape{kWidth, b.buffer_rows(), 1})},
        handoff_(Shape{kWidth, b.handoff_rows(), 1}) {}

  Grid& current() { return buffers_[current_]; }
  void reset() { current_ = 0; }

  void to_handoff(std::int64_t buffer_row, std::int64_t handoff_row, std::int64_t rows) {
    copy_rows(current(), buffer_row, handoff_, handoff_row, rows);
  }
  void from_handoff(std::int64_t handoff_row, std::int64_t buffer_row, std::int64_t rows) {
    copy_rows(handoff_, handoff_row, current(), buffer_row, rows);
  }
  void step(std::int64_t first_row, std::int64_t rows, int generations) {
    Grid window(Shape{kWidth, rows, 1});
    copy_rows(current(), first_row, window, 0, rows);
    window = reference_advance(torus(rows), window, static_cast<std::uint64_t>(generations));
    current_ = 1 - current_;
    copy_rows(window, 0, current(), first_row, rows);
  }

  static void copy_rows(const Grid& from, std::int64_t from_row, Grid& to, std::int64_t to_row,
                        std::int64_t rows) {
    ASSERT_GE(from_row, 0);
    ASSERT_GE(to_row, 0);
    ASSERT_LE(from_row + rows, from.shape().height);
    ASSERT_LE(to_row + rows, to.shape().height);
    for (std::int64_t y = 0; y < rows; ++y) {
      for (std::int64_t x = 0; x < kWidth; ++x)
        to.set(x, to_row + y, from.at(x, from_row + y));
    }
  }

private:
  std::array<Grid, 2> buffers_;
  Grid handoff_;
  int current_ = 0;
};

using outofcore_tiles::wrap;

/// One pass of `b` over `universe` on `device`, item by item as cuda-outofcore runs it.
Grid pass(HostDevice& device, const bands::Bands& b, std::span<const int> launches,
          const Grid& universe) {
  const std::int64_t height = universe.shape().height;
  Grid next(universe.shape());
  for (int k = 0; k < b.items(); ++k) {
    device.reset(); // every item arrives in buffer 0, as on the GPU
    for (std::int64_t y = 0; y < b.input_rows(k); ++y) {
      const std::int64_t row = wrap(b.first_input_row(k) + y, height);
      for (std::int64_t x = 0; x < kWidth; ++x) {
        device.current().set(x, b.input_buffer_row(k) + y, universe.at(x, row));
      }
    }
    if (b.is_chunk(k)) {
      if (k + 1 == b.chunks()) bands::advance_prelude(b, launches, device);
      continue;
    }
    bands::advance_band(b, launches, device);
    for (std::int64_t y = 0; y < b.band_rows(); ++y) {
      const std::int64_t row = wrap(b.first_output_row(k) + y, height);
      for (std::int64_t x = 0; x < kWidth; ++x) {
        next.set(x, row, device.current().at(x, b.output_buffer_row() + y));
      }
    }
  }
  return next;
}

/// Launches as life_wide does them: `most` while that many remain, then the rest
/// (registers) or ones (wavefront).
std::vector<int> launches_of(int steps, int most, bool ones) {
  std::vector<int> launches;
  for (int left = steps; left > 0;) {
    const int g = left >= most ? most : ones ? 1 : left;
    launches.push_back(g);
    left -= g;
  }
  return launches;
}

TEST(OutOfCoreBands, APassIsExactForEveryBandCountPassAndLaunchLength) {
  int passes = 0;
  for (const std::int64_t height : {12, 18}) {
    const Grid universe = make_soup(SoupSpec{Shape{kWidth, height, 1}, 0.4, 7});
    for (int count = 1; count <= 6; ++count) {
      for (int steps = 1; steps <= 11; ++steps) { // 2T from below to past the height
        for (int most = 1; most <= 3; ++most) {
          const bands::Bands b{
              .height = height, .count = count, .steps = steps, .max_launch = most};
          if (b.unsupported()) continue;
          const Grid expected = reference_advance(torus(height), universe, steps);
          for (const bool ones : {false, true}) {
            const std::vector<int> launches = launches_of(steps, most, ones);
            HostDevice device(b);
            ASSERT_EQ(pass(device, b, launches, universe), expected)
                << height << " rows, " << count << " bands, T = " << steps << ", launches of "
                << most << (ones ? " then ones" : "");
            ++passes;
          }
        }
      }
    }
  }
  EXPECT_GT(passes, 200);
}

TEST(OutOfCoreBands, PassesInARowEndingShorterRunOnBuffersSizedForTheFullPass) {
  const Grid universe = make_soup(SoupSpec{Shape{kWidth, 24, 1}, 0.4, 11});
  const bands::Bands full{.height = 24, .count = 3, .steps = 7, .max_launch = 3};
  ASSERT_FALSE(full.unsupported());
  HostDevice device(full);
  Grid grid = universe;
  for (const int steps : {7, 7, 4}) {
    bands::Bands b = full;
    b.steps = steps;
    grid = pass(device, b, launches_of(steps, 3, true), grid);
  }
  EXPECT_EQ(grid, reference_advance(torus(24), universe, 18));
}

TEST(OutOfCoreBands, TheLayoutFitsItsBuffersAndCoversTheUniverse) {
  const bands::Bands b{.height = 64,
                       .count = 4,
                       .steps = 40,
                       .max_launch = 8}; // prelude of 80 rows: 5 chunks of a 16-row band
  ASSERT_FALSE(b.unsupported());
  EXPECT_EQ(b.chunks(), 5);
  EXPECT_EQ(b.items(), 9);
  EXPECT_EQ(b.first_input_row(0), 0);
  EXPECT_EQ(b.input_rows(4), 16);
  EXPECT_EQ(b.first_input_row(5), 48); // the last band first
  EXPECT_EQ(b.first_input_row(8), 0);
  EXPECT_EQ(b.first_output_row(5), 88);
  EXPECT_EQ(b.buffer_rows(), 80);
  EXPECT_EQ(b.output_buffer_row(), 40);
  EXPECT_EQ(b.device_words(1), 2 * 80 + 80); // two buffers and the handoff (2T rows)
  EXPECT_EQ(b.device_words(2), 4 * 80 + 80);
  const bands::Bands uneven{.height = 64,
                            .count = 4,
                            .steps = 10,
                            .max_launch = 8}; // prelude of 20 rows: chunks of 16 and 4
  EXPECT_EQ(uneven.chunks(), 2);
  EXPECT_EQ(uneven.input_rows(1), 4);
  EXPECT_EQ(uneven.buffer_rows(), 16 + 10 + 8);
}

TEST(OutOfCoreBands, BandsMustDivideTheUniverseAndHoldWhatTheyHandOn) {
  EXPECT_TRUE((bands::Bands{.height = 64, .count = 5, .steps = 8, .max_launch = 8}.unsupported()));
  EXPECT_TRUE((bands::Bands{.height = 64, .count = 8, .steps = 8, .max_launch = 8}
                   .unsupported())); // 8-row bands, 16 rows handed on
  EXPECT_FALSE((bands::Bands{.height = 64, .count = 4, .steps = 8, .max_launch = 8}.unsupported()));
}

} // namespace
} // namespace lifebench
