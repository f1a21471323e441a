// The bit logic of the three cuda-bpbc experiments, run on the host against the reference (no
// GPU needed): the one-generation kernels' word updates over the column-major layout, and the
// multi-step tiles (load, t steps lane by lane as a warp would, clean patch written back) over
// several launches, on shapes where the patches do and do not divide the grid.
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

/// What cuda-bpbc-global's kernels do per word: neighbour words wrapped or dead.
template <class W>
W word_at(const std::vector<W>& in, Columns grid, int wx, int y, Boundary boundary) {
  if (boundary == Boundary::torus) {
    wx = (wx + grid.words_per_row) % grid.words_per_row;
    y = (y + grid.height) % grid.height;
  } else if (wx < 0 || wx >= grid.words_per_row || y < 0 || y >= grid.height) {
    return 0;
  }
  return in[grid.index(wx, y)];
}

template <class W>
Row3<W> row_at(const std::vector<W>& in, Columns grid, int wx, int y, Boundary boundary) {
  return {word_at(in, grid, wx - 1, y, boundary), word_at(in, grid, wx, y, boundary),
          word_at(in, grid, wx + 1, y, boundary)};
}

void check_global(Shape shape, Boundary boundary, bool double_word, std::uint64_t generations) {
  using W = std::uint64_t;
  const Problem problem = conway(shape, boundary);
  const Grid start = make_soup({shape, 0.4, 7});
  std::vector<W> words = to_columns<W>(start);
  const Columns grid{static_cast<int>(shape.width / 64), static_cast<int>(shape.height)};
  for (std::uint64_t g = 0; g < generations; ++g) {
    std::vector<W> next(words.size());
    for (int wx = 0; wx < grid.words_per_row; ++wx) {
      for (int y = 0; y < grid.height; y += double_word ? 2 : 1) {
        const auto row = [&](int dy) { return row_at(words, grid, wx, y + dy, boundary); };
        if (double_word) {
          const bpbc::WordPair<W> pair = next_double(row(-1), row(0), row(1), row(2));
          next[grid.index(wx, y)] = pair.k;
          next[grid.index(wx, y + 1)] = pair.l;
        } else {
          next[grid.index(wx, y)] = next_single(row(-1), row(0), row(1));
        }
      }
    }
    words = std::move(next);
  }
  Grid got(shape);
  from_columns<W>(words, got);
  expect_reference(problem, start, got, generations, double_word ? "global double" : "global");
}

TEST(BpbcGlobal, MatchesReference) {
  for (const Shape shape : {Shape{64, 64, 1}, Shape{128, 40, 1}, Shape{256, 96, 1}, Shape{64, 2, 1},
                            Shape{192, 6, 1}}) {
    for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
      for (const bool double_word : {false, true}) {
        for (const std::uint64_t generations : {1, 5}) {
          check_global(shape, boundary, double_word, generations);
        }
      }
    }
  }
  check_global({64, 1, 1}, Boundary::torus, false, 3);
  check_global({192, 3, 1}, Boundary::dead, false, 3);
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
  const Multistep<W> geometry{
      Columns{static_cast<int>(shape.width / bits<W>), static_cast<int>(shape.height)}, steps};
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
