// The 4x4 table and its index arithmetic against the reference, on the host.
#include "common/lut4x4.hpp"
#include "lifebench/grid.hpp"
#include "lifebench/problem.hpp"
#include "lifebench/reference.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>

namespace lifebench {
namespace {

// Every entry against one reference generation of its 4x4 on a dead boundary: the
// centre cells' neighbours all lie inside, so the boundary does not matter to them.
void expect_table_matches_reference(const std::string& rule_text) {
  const Rule rule = parse_rule_spec(rule_text).rule;
  const auto table = lut4x4::build_table(rule.birth, rule.survive);
  const Problem problem{rule, {4, 4, 1}, Boundary::dead};
  for (std::uint32_t index = 0; index < lut4x4::entries; ++index) {
    Grid grid(problem.shape);
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) {
        grid.set(c, r, static_cast<std::uint8_t>((index >> (4 * r + c)) & 1U));
      }
    }
    const Grid next = reference_advance(problem, grid, 1);
    std::uint32_t expected = 0;
    for (int r = 0; r < 2; ++r) {
      for (int c = 0; c < 2; ++c) {
        expected |= std::uint32_t{next.at(c + 1, r + 1)} << (2 * r + c);
      }
    }
    ASSERT_EQ(table[index], expected) << rule_text << ", index " << index;
  }
}

TEST(Lut4x4, TableMatchesReference) {
  for (const char* rule : {"B3/S23", "B36/S23", "B0123478/S01234678", "B2/S"}) {
    expect_table_matches_reference(rule);
  }
}

TEST(Lut4x4, IndexFromByteCells) {
  // Byte cells 1, 0, 1, 1 (columns 0 .. 3), little-endian: bits 0, 2 and 3.
  EXPECT_EQ(lut4x4::row_bits(0x01010001U), 0xDU);
  EXPECT_EQ(lut4x4::row_bits(0x01010101U), 0xFU);
  EXPECT_EQ(lut4x4::row_bits(0U), 0U);
  EXPECT_EQ(lut4x4::index_from_rows(0x1U, 0x2U, 0x4U, 0x8U), 0x8421U);
  // Entry bits 2r + c to byte c of centre row r.
  EXPECT_EQ(lut4x4::centre_row_cells(0x9U, 0), 0x0001U);
  EXPECT_EQ(lut4x4::centre_row_cells(0x9U, 1), 0x0100U);
}

} // namespace
} // namespace lifebench
