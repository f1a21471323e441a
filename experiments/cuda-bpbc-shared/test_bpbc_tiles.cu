// The bit logic of the three cuda-bpbc experiments, run on the host against the reference (no
// GPU needed): the one-generation kernels' word updates over the column-major layout, and the
// multi-step tiles (load, t steps lane by lane as a warp would, clean patch written back) over
// several launches, on shapes where the patches do and do not divide the grid.
#include "cuda/bpbc_simulator.cuh"
#include "cuda/bpbc_tile.cuh"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

namespace lifebench::bpbc_tile {
namespace {

Problem conway(Shape shape, Boundary boundary) {
  return {parse_rule_spec("B3/S23").rule, shape, boundary};
}

void expect_reference(const Problem& problem, const Grid& start, const Grid& got,
                      std::uint64_t generations, const std::string& what) {
  const Grid want = reference_advance(problem, start, generations);
  EXPECT_FALSE(first_difference(want, got).has_value())
      << what << " " << problem.to_string() << " after " << generations << " generations";
}

/// cuda-bpbc-global's kernel on the host: every thread of every block.
void check_global(Shape shape, Boundary boundary, bool double_word, int strip,
                  std::uint64_t generations) {
  using W = std::uint64_t;
  const Problem problem = conway(shape, boundary);
  const Grid start = make_soup({shape, 0.4, 7});
  std::vector<W> words = to_columns<W>(start);
  const Columns grid{static_cast<int>(shape.width / 64), static_cast<int>(shape.height)};
  for (std::uint64_t g = 0; g < generations; ++g) {
    std::vector<W> next(words.size());
    for (int first = 0; first < grid.words_per_row; first += strip) {
      for (int y = 0; y < grid.height; y += double_word ? 2 : 1) {
        const bool torus = boundary == Boundary::torus;
        if (double_word) {
          torus ? update_strip<true, true>(words.data(), next.data(), grid, first, strip, y)
                : update_strip<false, true>(words.data(), next.data(), grid, first, strip, y);
        } else {
          torus ? update_strip<true, false>(words.data(), next.data(), grid, first, strip, y)
                : update_strip<false, false>(words.data(), next.data(), grid, first, strip, y);
        }
      }
    }
    words = std::move(next);
  }
  Grid got(shape);
  from_columns<W>(words, got);
  expect_reference(problem, start, got, generations,
                   std::string(double_word ? "global double" : "global single") +
                       " strip=" + std::to_string(strip));
}

TEST(BpbcGlobal, MatchesReference) {
  for (const Shape shape : {Shape{64, 64, 1}, Shape{128, 40, 1}, Shape{256, 96, 1}, Shape{64, 2, 1},
                            Shape{448, 6, 1}}) {
    for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
      for (const bool double_word : {false, true}) {
        for (const int strip : {1, 4}) {
          for (const std::uint64_t generations : {1, 5}) {
            check_global(shape, boundary, double_word, strip, generations);
          }
        }
      }
    }
  }
  check_global({64, 1, 1}, Boundary::torus, false, 1, 3);
  check_global({192, 3, 1}, Boundary::dead, false, 16, 3);
}

/// multistep_kernel on the host: every block, its 32 lanes in step.
template <class W, bool Double>
void check_multistep(Shape shape, int steps, std::uint64_t generations) {
  constexpr int r = lane_rows<W>;
  const Problem problem = conway(shape, Boundary::torus);
  const Params params(
      std::map<std::string, std::string>{{"tile", std::to_string(bits<W>)},
                                         {"steps_per_launch", std::to_string(steps)},
                                         {"words", Double ? "double" : "single"}});
  ASSERT_FALSE(unsupported_multistep(problem, params).has_value());
  const Grid start = make_soup({shape, 0.4, 11});
  std::vector<W> words = to_columns<W>(start);
  const Multistep<W> geometry{columns_of<W>(shape), steps};
  for (std::uint64_t done = 0; done < generations; done += static_cast<std::uint64_t>(steps)) {
    const auto launch_steps = static_cast<int>(
        std::min<std::uint64_t>(static_cast<std::uint64_t>(steps), generations - done));
    std::vector<W> out(words.size(), W{0});
    for (int py = 0; py < geometry.patches_y(); ++py) {
      for (int px = 0; px < geometry.patches_x(); ++px) {
        const int x0 = px * geometry.patch();
        const int y0 = py * geometry.patch();
        W rows[32][r];
        for (int lane = 0; lane < 32; ++lane) {
          for (int j = 0; j < r; ++j)
            rows[lane][j] = geometry.load(words.data(), x0, y0, lane * r + j);
        }
        for (int step = 0; step < launch_steps; ++step) {
          W above[32];
          W below[32];
          for (int lane = 0; lane < 32; ++lane) {
            above[lane] = lane == 0 ? W{0} : rows[lane - 1][r - 1];
            below[lane] = lane == 31 ? W{0} : rows[lane + 1][0];
          }
          for (int lane = 0; lane < 32; ++lane)
            lane_step<Double>(above[lane], rows[lane], below[lane]);
        }
        for (int lane = 0; lane < 32; ++lane) {
          for (int j = 0; j < r; ++j) {
            const PatchWrites<W> writes = geometry.store(rows[lane][j], x0, y0, lane * r + j);
            for (int w = 0; w < writes.count; ++w) {
              ASSERT_LT(writes.index[w], out.size());
              EXPECT_EQ(out[writes.index[w]] & writes.bits[w], W{0}) << "patches overlap";
              out[writes.index[w]] |= writes.bits[w];
            }
          }
        }
      }
    }
    words = std::move(out);
  }
  Grid got(shape);
  from_columns<W>(words, got);
  expect_reference(problem, start, got, generations,
                   "tile " + std::to_string(bits<W>) + (Double ? " double" : " single") +
                       " t=" + std::to_string(steps));
}

TEST(BpbcMultistep, Tile32MatchesReference) {
  for (const Shape shape : {Shape{64, 64, 1}, Shape{96, 40, 1}, Shape{1024, 256, 1},
                            Shape{32, 3, 1}, Shape{160, 7, 1}}) {
    for (const int steps : {1, 2, 4, 8}) {
      for (const auto generations : {std::uint64_t{1}, std::uint64_t(2 * steps + 1)}) {
        check_multistep<std::uint32_t, false>(shape, steps, generations);
      }
    }
  }
}

TEST(BpbcMultistep, Tile64MatchesReference) {
  for (const Shape shape : {Shape{64, 64, 1}, Shape{128, 40, 1}, Shape{1024, 256, 1},
                            Shape{64, 3, 1}, Shape{320, 7, 1}}) {
    for (const int steps : {1, 2, 4, 8, 16}) {
      for (const auto generations : {std::uint64_t{1}, std::uint64_t(2 * steps + 1)}) {
        check_multistep<std::uint64_t, false>(shape, steps, generations);
        check_multistep<std::uint64_t, true>(shape, steps, generations);
      }
    }
  }
}

} // namespace
} // namespace lifebench::bpbc_tile
