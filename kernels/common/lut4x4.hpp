// The slides' 4x4 lookup table (seed 002, versions 2 and 3): its construction on
// the host and the index arithmetic shared by host checks and both CUDA kernels.
//
// Index: a 4x4 neighbourhood, cell (row r, column c) at bit 4r + c (the slides'
// state_idx, and the cell order of their uint16: bit 0 top left, bit 15 bottom right).
// Entry: the next states of the centre 2x2 cells (rows and columns 1 and 2), centre
// cell (r, c) at bit 2r + c; an entry needs 4 bits and is stored in one byte.
#pragma once

#include "common/host_device.hpp"

#include <cstdint>
#include <vector>

namespace lifebench::lut4x4 {

inline constexpr std::uint32_t entries = 1U << 16;

/// Next states of the centre 2x2 of neighbourhood `index` under the Moore rule with
/// these birth and survival masks (bit n: n live neighbours). All eight neighbours
/// of a centre cell lie in the 4x4.
inline std::uint32_t centre_next(std::uint32_t index, std::uint32_t birth, std::uint32_t survive) {
  const auto cell = [index](int r, int c) { return (index >> (4 * r + c)) & 1U; };
  std::uint32_t next = 0;
  for (int r = 1; r < 3; ++r) {
    for (int c = 1; c < 3; ++c) {
      const std::uint32_t sum = cell(r - 1, c - 1) + cell(r - 1, c) + cell(r - 1, c + 1) +
                                cell(r, c - 1) + cell(r, c + 1) + cell(r + 1, c - 1) +
                                cell(r + 1, c) + cell(r + 1, c + 1);
      const std::uint32_t mask = cell(r, c) != 0U ? survive : birth;
      next |= ((mask >> sum) & 1U) << (2 * (r - 1) + (c - 1));
    }
  }
  return next;
}

/// The whole table (64 KiB), built on the host for one rule.
inline std::vector<std::uint8_t> build_table(std::uint32_t birth, std::uint32_t survive) {
  std::vector<std::uint8_t> table(entries);
  for (std::uint32_t index = 0; index < entries; ++index) {
    table[index] = static_cast<std::uint8_t>(centre_next(index, birth, survive));
  }
  return table;
}

/// Four byte cells (0 or 1) read as one little-endian word, byte c = column c, to
/// the four index bits of their row.
LIFEBENCH_HOST_DEVICE std::uint32_t row_bits(std::uint32_t four_cells) {
  return (four_cells | (four_cells >> 7) | (four_cells >> 14) | (four_cells >> 21)) & 0xFU;
}

/// The index of the 4x4 whose rows (4 bits each, bit c = column c) are given, top first.
LIFEBENCH_HOST_DEVICE std::uint32_t index_from_rows(std::uint32_t r0, std::uint32_t r1,
                                                    std::uint32_t r2, std::uint32_t r3) {
  return r0 | (r1 << 4) | (r2 << 8) | (r3 << 12);
}

/// Centre row `r` (0 or 1) of `entry` as two byte cells in a little-endian 16-bit word.
LIFEBENCH_HOST_DEVICE std::uint16_t centre_row_cells(std::uint32_t entry, int r) {
  const std::uint32_t pair = entry >> (2 * r);
  return static_cast<std::uint16_t>((pair & 1U) | (((pair >> 1) & 1U) << 8));
}

} // namespace lifebench::lut4x4
