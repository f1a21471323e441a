// The uint16 block layout, window and quadrant arithmetic against the reference, on
// the host: one generation of blocks as the kernel makes it, thread by thread.
#include "blocks.hpp"
#include "lifebench/grid.hpp"
#include "lifebench/problem.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"

#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

namespace lifebench {
namespace {

std::vector<std::uint16_t> next_blocks(const Problem& problem,
                                       const std::vector<std::uint16_t>& blocks_in,
                                       const std::vector<std::uint8_t>& table) {
  const auto blocks_x = static_cast<int>(problem.shape.width / blocks::side);
  const auto blocks_y = static_cast<int>(problem.shape.height / blocks::side);
  const bool torus = problem.boundary == Boundary::torus;
  const auto at = [&](int x, int y) -> std::uint32_t {
    if (torus) {
      x = (x + blocks_x) % blocks_x;
      y = (y + blocks_y) % blocks_y;
    } else if (x < 0 || x >= blocks_x || y < 0 || y >= blocks_y) {
      return 0;
    }
    return blocks_in[static_cast<std::size_t>(y) * static_cast<std::size_t>(blocks_x) +
                     static_cast<std::size_t>(x)];
  };
  std::vector<std::uint16_t> out(blocks_in.size());
  for (int y = 0; y < blocks_y; ++y) {
    for (int x = 0; x < blocks_x; ++x) {
      std::uint32_t around[3][3];
      for (int dy = 0; dy < 3; ++dy) {
        for (int dx = 0; dx < 3; ++dx) {
          around[dy][dx] = at(x + dx - 1, y + dy - 1);
        }
      }
      const blocks::Window window = blocks::window(around);
      std::uint32_t next = 0;
      for (int qr = 0; qr < 2; ++qr) {
        for (int qc = 0; qc < 2; ++qc) {
          next |= blocks::place_quadrant(table[blocks::quadrant_index(window, qr, qc)], qr, qc);
        }
      }
      out[static_cast<std::size_t>(y) * static_cast<std::size_t>(blocks_x) +
          static_cast<std::size_t>(x)] = static_cast<std::uint16_t>(next);
    }
  }
  return out;
}

TEST(Uint16Blocks, PackUnpackRoundTrip) {
  const Grid grid = make_soup(SoupSpec{{36, 20, 1}, 0.5, 3});
  const auto packed = blocks::pack(grid);
  ASSERT_EQ(packed.size(), std::size_t{45});
  Grid back(grid.shape());
  blocks::unpack(packed, back);
  EXPECT_EQ(back, grid);
  // Cell (row r, column c) of a block at bit 4r + c.
  Grid one({4, 4, 1});
  one.set(1, 2, 1);
  EXPECT_EQ(blocks::pack(one)[0], 1U << 9);
}

TEST(Uint16Blocks, GenerationsMatchReference) {
  for (const char* rule : {"B3/S23", "B36/S23", "B0123478/S01234678"}) {
    for (const Shape shape : {Shape{16, 8, 1}, Shape{128, 256, 1}, Shape{8, 4, 1}}) {
      for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
        const Problem problem{parse_rule_spec(rule).rule, shape, boundary};
        const auto table = lut4x4::build_table(problem.rule.birth, problem.rule.survive);
        Grid expected = make_soup(SoupSpec{shape, 0.4, 5});
        auto packed = blocks::pack(expected);
        for (int generation = 1; generation <= 4; ++generation) {
          expected = reference_advance(problem, expected, 1);
          packed = next_blocks(problem, packed, table);
          Grid actual(shape);
          blocks::unpack(packed, actual);
          const auto difference = first_difference(expected, actual);
          ASSERT_FALSE(difference) << problem.to_string() << ", generation " << generation << ": "
                                   << difference->to_string();
        }
      }
    }
  }
}

} // namespace
} // namespace lifebench
