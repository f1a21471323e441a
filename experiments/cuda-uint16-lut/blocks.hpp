// The slides' version 3 (seed 002, "uint16 (Bit-Packing)"): one uint16 holds a 4x4
// block of cells, cell (row r, column c) at bit 4r + c, the index order of the 4x4
// lookup table, so a block is itself an index for its own centre 2x2. The next
// block takes four lookups, one per 2x2 quadrant, each indexed by the 4x4 around
// that quadrant, gathered from the block and its eight neighbours.
#pragma once

#include "common/host_device.hpp"
#include "common/lut4x4.hpp"
#include "lifebench/grid.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lifebench::blocks {

inline constexpr int side = 4; // cells per block side

/// Cells -1 .. 4 of rows -1 .. 4 around a block (row k = cell row k - 1), bit j of a
/// row = cell column j - 1.
struct Window {
  std::uint32_t rows[6];
};

/// Row `r` of `block`, bit c = column c.
LIFEBENCH_HOST_DEVICE std::uint32_t block_row(std::uint32_t block, int r) {
  return (block >> (side * r)) & 0xFU;
}

/// Six cells of one window row: the last cell of `west`'s row, `centre`'s four and
/// the first of `east`'s (all three rows 4 bits, bit c = column c).
LIFEBENCH_HOST_DEVICE std::uint32_t window_row(std::uint32_t west, std::uint32_t centre,
                                               std::uint32_t east) {
  return (west >> 3) | (centre << 1) | ((east & 1U) << 5);
}

/// The window around block n[1][1] from its 3x3 neighbourhood of blocks, n[dy + 1][dx + 1].
LIFEBENCH_HOST_DEVICE Window window(const std::uint32_t (&n)[3][3]) {
  Window w{};
  w.rows[0] = window_row(block_row(n[0][0], 3), block_row(n[0][1], 3), block_row(n[0][2], 3));
  for (int r = 0; r < side; ++r) {
    w.rows[r + 1] = window_row(block_row(n[1][0], r), block_row(n[1][1], r), block_row(n[1][2], r));
  }
  w.rows[5] = window_row(block_row(n[2][0], 0), block_row(n[2][1], 0), block_row(n[2][2], 0));
  return w;
}

/// Table index of the 4x4 around quadrant (qr, qc) of the centre block: window rows
/// 2qr .. 2qr + 3, columns 2qc .. 2qc + 3.
LIFEBENCH_HOST_DEVICE std::uint32_t quadrant_index(const Window& w, int qr, int qc) {
  const int top = 2 * qr;
  const int shift = 2 * qc;
  return lut4x4::index_from_rows((w.rows[top] >> shift) & 0xFU, (w.rows[top + 1] >> shift) & 0xFU,
                                 (w.rows[top + 2] >> shift) & 0xFU,
                                 (w.rows[top + 3] >> shift) & 0xFU);
}

/// A table entry's 2x2 next states placed at quadrant (qr, qc) of a block.
LIFEBENCH_HOST_DEVICE std::uint32_t place_quadrant(std::uint32_t entry, int qr, int qc) {
  const int shift = 2 * side * qr + 2 * qc;
  return ((entry & 3U) << shift) | (((entry >> 2) & 3U) << (shift + side));
}

/// Grid to blocks, row-major by block; width and height multiples of 4.
inline std::vector<std::uint16_t> pack(const Grid& grid) {
  const auto width = static_cast<std::size_t>(grid.shape().width);
  const auto height = static_cast<std::size_t>(grid.shape().height);
  const std::size_t blocks_x = width / side;
  std::vector<std::uint16_t> blocks(blocks_x * (height / side));
  const std::uint8_t* cells = grid.data();
  for (std::size_t y = 0; y < height; ++y) {
    std::uint16_t* out = blocks.data() + (y / side) * blocks_x;
    const unsigned row_shift = side * static_cast<unsigned>(y % side);
    for (std::size_t x = 0; x < width; ++x) {
      out[x / side] = static_cast<std::uint16_t>(
          out[x / side] | (cells[y * width + x] << (row_shift + static_cast<unsigned>(x % side))));
    }
  }
  return blocks;
}

/// Blocks back to `grid`, whose shape gives the layout.
inline void unpack(std::span<const std::uint16_t> blocks, Grid& grid) {
  const auto width = static_cast<std::size_t>(grid.shape().width);
  const auto height = static_cast<std::size_t>(grid.shape().height);
  const std::size_t blocks_x = width / side;
  std::uint8_t* cells = grid.data();
  for (std::size_t y = 0; y < height; ++y) {
    const std::uint16_t* in = blocks.data() + (y / side) * blocks_x;
    const unsigned row_shift = side * static_cast<unsigned>(y % side);
    for (std::size_t x = 0; x < width; ++x) {
      cells[y * width + x] = static_cast<std::uint8_t>(
          (in[x / side] >> (row_shift + static_cast<unsigned>(x % side))) & 1U);
    }
  }
}

} // namespace lifebench::blocks
