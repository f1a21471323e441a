// Pieces shared by the CUDA reproductions of Fujita, Nakano and Ito's bit-per-cell Game of
// Life (seed 003, Sections 4-7): the alignment of neighbour words for Algorithms SINGLE-WORD
// and DOUBLE-WORD (kernels/common/bpbc.hpp), the column-major word layout of their Figure 3,
// the geometry of multi-step tiles (Section 6: a d x d tile, t steps, the clean m x m patch,
// m = d - 2t, written back) and the per-lane step of a one-warp tile. Everything but the
// kernel is LIFEBENCH_HOST_DEVICE, so it can be checked on the host against the reference.
// The simulators on that layout are in cuda/bpbc_simulator.cuh.
#pragma once

#include "common/bpbc.hpp"
#include "common/host_device.hpp"
#include "lifebench/grid.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/problem.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lifebench::bpbc_tile {

template <class W> inline constexpr int bits = static_cast<int>(sizeof(W) * 8);

/// A word of a row and the words on either side of it (0 where the row ends).
template <class W> struct Row3 {
  W left;
  W centre;
  W right;
};

template <class W> LIFEBENCH_HOST_DEVICE Row3<W> alone(W word) {
  return {W{0}, word, W{0}};
}

// Bit i of a word is cell i of its d cells (least significant bit leftmost), so the
// western neighbours move up one bit, with the last cell of the word on the left.
template <class W> LIFEBENCH_HOST_DEVICE W from_west(Row3<W> row) {
  return static_cast<W>(static_cast<W>(row.centre << 1) |
                        static_cast<W>(row.left >> (bits<W> - 1)));
}
template <class W> LIFEBENCH_HOST_DEVICE W from_east(Row3<W> row) {
  return static_cast<W>(static_cast<W>(row.centre >> 1) |
                        static_cast<W>(row.right << (bits<W> - 1)));
}

/// Next state of the centre word of `mid` (Algorithm SINGLE-WORD).
template <class W> LIFEBENCH_HOST_DEVICE W next_single(Row3<W> up, Row3<W> mid, Row3<W> down) {
  return bpbc::single_word(from_west(up), up.centre, from_east(up), from_west(mid), from_east(mid),
                           from_west(down), down.centre, from_east(down), mid.centre);
}

/// Next states of the centre words of `k` and of `l`, the row below it (Algorithm DOUBLE-WORD,
/// the paper's Figure 5 names).
template <class W>
LIFEBENCH_HOST_DEVICE bpbc::WordPair<W> next_double(Row3<W> up, Row3<W> k, Row3<W> l,
                                                    Row3<W> down) {
  return bpbc::double_word(from_west(up), up.centre, from_east(up), from_west(k), from_east(k),
                           from_west(down), down.centre, from_east(down), from_west(l),
                           from_east(l), k.centre, l.centre);
}

/// Rows one lane of a 32-thread warp holds in a tile of `bits<W>` rows: 1 (32x32 tile of
/// 32-bit words) or 2 (64x64 tile of 64-bit words: rows 2*lane and 2*lane+1, the paper's
/// Figure 8).
template <class W> inline constexpr int lane_rows = bits<W> / 32;

/// One generation of a lane's rows inside a tile, cells outside the tile taken as dead.
/// `above` and `below` are the rows just above and below the lane's (0 past the tile).
/// Double: one DOUBLE-WORD for the lane's two rows; otherwise SINGLE-WORD once per row.
template <bool Double, class W>
LIFEBENCH_HOST_DEVICE void lane_step(W above, W (&rows)[lane_rows<W>], W below) {
  if constexpr (lane_rows<W> == 1) {
    static_assert(!Double, "a lane holding one word runs SINGLE-WORD");
    rows[0] = next_single(alone(above), alone(rows[0]), alone(below));
  } else if constexpr (Double) {
    const bpbc::WordPair<W> next =
        next_double(alone(above), alone(rows[0]), alone(rows[1]), alone(below));
    rows[0] = next.k;
    rows[1] = next.l;
  } else {
    const W first = next_single(alone(above), alone(rows[0]), alone(rows[1]));
    rows[1] = next_single(alone(rows[0]), alone(rows[1]), alone(below));
    rows[0] = first;
  }
}

/// Figure 3 of the paper: the grid as columns of words, word column `wx` of row `y` at
/// wx * height + y, so that a tile's rows are consecutive words.
struct Columns {
  int words_per_row; ///< width / bits
  int height;

  [[nodiscard]] LIFEBENCH_HOST_DEVICE std::size_t index(int wx, int y) const {
    return static_cast<std::size_t>(wx) * static_cast<std::size_t>(height) +
           static_cast<std::size_t>(y);
  }
};

/// The column-major layout of a grid of `shape` in Ws.
template <class W> Columns columns_of(const Shape& shape) {
  return {static_cast<int>(words_per_row<W>(shape.width)), static_cast<int>(shape.height)};
}

/// Word (wx, y) of the grid, wx and y at most one past an edge: wrapped around on the torus,
/// dead (0) outside otherwise.
template <bool Torus, class W>
LIFEBENCH_HOST_DEVICE W word_at(const W* in, Columns grid, int wx, int y) {
  if constexpr (Torus) {
    wx = wx < 0 ? grid.words_per_row - 1 : (wx == grid.words_per_row ? 0 : wx);
    y = y < 0 ? grid.height - 1 : (y == grid.height ? 0 : y);
  } else if (wx < 0 || wx >= grid.words_per_row || y < 0 || y >= grid.height) {
    return 0;
  }
  return in[grid.index(wx, y)];
}

/// One generation of rows y ... y+R-1 (R = 1: SINGLE-WORD; R = 2: DOUBLE-WORD) in word columns
/// first ... first+strip-1, left to right, from the whole grid in `in`: the R+2 rows of the
/// columns on either side of the current one stay in registers, so each column after the
/// first loads R+2 words. strip = 1 is the paper's thread: all nine (twelve) words loaded.
template <bool Torus, bool Double, class W>
LIFEBENCH_HOST_DEVICE void update_strip(const W* __restrict__ in, W* __restrict__ out, Columns grid,
                                        int first, int strip, int y) {
  constexpr int r = Double ? 2 : 1;
  const int last = first + strip < grid.words_per_row ? first + strip : grid.words_per_row;
  W left[r + 2];
  W centre[r + 2];
  for (int i = 0; i < r + 2; ++i) {
    left[i] = word_at<Torus>(in, grid, first - 1, y - 1 + i);
    centre[i] = word_at<Torus>(in, grid, first, y - 1 + i);
  }
  for (int wx = first; wx < last; ++wx) {
    Row3<W> rows[r + 2];
    for (int i = 0; i < r + 2; ++i) {
      rows[i] = {left[i], centre[i], word_at<Torus>(in, grid, wx + 1, y - 1 + i)};
      left[i] = centre[i];
      centre[i] = rows[i].right;
    }
    if constexpr (Double) {
      const bpbc::WordPair<W> next = next_double(rows[0], rows[1], rows[2], rows[3]);
      out[grid.index(wx, y)] = next.k;
      out[grid.index(wx, y + 1)] = next.l;
    } else {
      out[grid.index(wx, y)] = next_single(rows[0], rows[1], rows[2]);
    }
  }
}

/// Up to two words of output, with the bits to OR into each.
template <class W> struct PatchWrites {
  int count;
  std::size_t index[2];
  W bits[2];
};

/// Section 6's geometry: the universe is cut into m x m patches (m = d - 2t; the last row
/// and column of patches are cut at the grid's edge); patch (px, py) is simulated as the
/// d x d tile that extends it by t cells on every side, whose cells outside the tile are
/// taken as dead, and after t steps (or fewer) only the patch, still clean, is written back.
template <class W> struct Multistep {
  Columns grid;
  int steps; ///< t, the tile's margin

  static constexpr int d = bits<W>;
  [[nodiscard]] LIFEBENCH_HOST_DEVICE int patch() const { return d - 2 * steps; }
  [[nodiscard]] LIFEBENCH_HOST_DEVICE int width() const { return grid.words_per_row * d; }

  /// Row r (0 <= r < d) of the tile of the patch at cells (x0, y0), read on the torus: d
  /// cells from x0 - t, so from one word or two.
  [[nodiscard]] LIFEBENCH_HOST_DEVICE W load(const W* in, int x0, int y0, int r) const {
    const int start = (x0 - steps + width()) % width(); // width >= d > t
    const int y = ((y0 - steps + r) % grid.height + grid.height) % grid.height;
    const int wx = start / d;
    const int offset = start % d;
    const W low = in[grid.index(wx, y)];
    if (offset == 0) return low;
    const W high = in[grid.index(wx + 1 == grid.words_per_row ? 0 : wx + 1, y)];
    return static_cast<W>(static_cast<W>(low >> offset) | static_cast<W>(high << (d - offset)));
  }

  /// Where the clean cells of tile row r go: ORed into one word of the output or two, which
  /// was zeroed before the launch (neighbouring patches share words, so each ORs in only its
  /// own cells). No write for the dirty rows and for rows past the grid's last.
  [[nodiscard]] LIFEBENCH_HOST_DEVICE PatchWrites<W> store(W row, int x0, int y0, int r) const {
    PatchWrites<W> writes{};
    const int y = y0 + r - steps;
    if (r < steps || r >= d - steps || y >= grid.height) return writes;
    const int cells = patch() < width() - x0 ? patch() : width() - x0; // < d
    const W clean =
        static_cast<W>(static_cast<W>(row >> steps) & static_cast<W>((W{1} << cells) - W{1}));
    const int wx = x0 / d;
    const int offset = x0 % d;
    writes.index[0] = grid.index(wx, y);
    writes.bits[0] = static_cast<W>(clean << offset);
    writes.count = 1;
    if (offset + cells > d) {
      writes.index[1] = grid.index(wx + 1, y);
      writes.bits[1] = static_cast<W>(clean >> (d - offset));
      writes.count = 2;
    }
    return writes;
  }

  [[nodiscard]] int patches_x() const { return (width() + patch() - 1) / patch(); }
  [[nodiscard]] int patches_y() const { return (grid.height + patch() - 1) / patch(); }
};

/// The grid's cells as words in the column-major layout, and back.
template <class W> std::vector<W> to_columns(const Grid& grid) {
  const std::vector<W> rows = pack_rows<W>(grid);
  const Columns columns = columns_of<W>(grid.shape());
  std::vector<W> out(rows.size());
  for (int y = 0; y < columns.height; ++y) {
    for (int wx = 0; wx < columns.words_per_row; ++wx) {
      out[columns.index(wx, y)] =
          rows[static_cast<std::size_t>(y) * static_cast<std::size_t>(columns.words_per_row) +
               static_cast<std::size_t>(wx)];
    }
  }
  return out;
}

template <class W> void from_columns(std::span<const W> words, Grid& grid) {
  const Columns columns = columns_of<W>(grid.shape());
  std::vector<W> rows(words.size());
  for (int y = 0; y < columns.height; ++y) {
    for (int wx = 0; wx < columns.words_per_row; ++wx) {
      rows[static_cast<std::size_t>(y) * static_cast<std::size_t>(columns.words_per_row) +
           static_cast<std::size_t>(wx)] = words[columns.index(wx, y)];
    }
  }
  unpack_rows<W>(rows, grid);
}

/// The column-major layout as a cuda::BufferedSimulator layout.
template <class W> struct ColumnWords {
  using Word = W;
  static std::size_t words(const Shape& shape) {
    const Columns columns = columns_of<W>(shape);
    return static_cast<std::size_t>(columns.words_per_row) *
           static_cast<std::size_t>(columns.height);
  }
  static std::vector<W> pack(const Grid& grid) { return to_columns<W>(grid); }
  static void unpack(std::span<const W> words, Grid& grid) { from_columns<W>(words, grid); }
};

/// What every bit-per-cell experiment refuses: another rule (the algorithms compute B3/S23),
/// a width that does not fill whole words, grids past 32-bit coordinates.
inline std::optional<std::string> unsupported_layout(const Problem& problem, int word_bits) {
  if (problem.rule.birth != (1U << 3) || problem.rule.survive != ((1U << 2) | (1U << 3))) {
    return "Algorithms SINGLE-WORD and DOUBLE-WORD compute B3/S23 only, not " +
           problem.rule.to_string();
  }
  if (problem.shape.width % word_bits != 0) {
    return "width must be a multiple of " + std::to_string(word_bits) + " (" +
           std::to_string(word_bits) + "-bit words, one cell per bit)";
  }
  if (problem.shape.width >= (std::int64_t{1} << 30) ||
      problem.shape.height >= (std::int64_t{1} << 30)) {
    return std::string("width and height must be below 2^30 (32-bit coordinates)");
  }
  return std::nullopt;
}

/// Adds `word`'s set bits to a word of global memory that other blocks also write.
__device__ inline void atomic_or(std::uint32_t* target, std::uint32_t word) {
  atomicOr(target, word);
}
__device__ inline void atomic_or(std::uint64_t* target, std::uint64_t word) {
  atomicOr(reinterpret_cast<unsigned long long*>(target), static_cast<unsigned long long>(word));
}

/// One warp per tile (Section 9: no __syncthreads()), one block per patch: load the tile,
/// `steps` generations in which `Exchange` hands each lane the rows just above and below its
/// own (through shared memory or warp shuffles), then write back the clean patch.
template <class W, bool Double, class Exchange>
__global__ void __launch_bounds__(32)
    multistep_kernel(const W* __restrict__ in, W* __restrict__ out, Multistep<W> geometry,
                     int steps) {
  constexpr int r = lane_rows<W>;
  const int lane = static_cast<int>(threadIdx.x);
  const int x0 = static_cast<int>(blockIdx.x) * geometry.patch();
  const int y0 = static_cast<int>(blockIdx.y) * geometry.patch();
  W rows[r];
#pragma unroll
  for (int j = 0; j < r; ++j)
    rows[j] = geometry.load(in, x0, y0, lane * r + j);
  for (int step = 0; step < steps; ++step) {
    W above;
    W below;
    Exchange{}(rows, above, below);
    lane_step<Double>(above, rows, below);
  }
#pragma unroll
  for (int j = 0; j < r; ++j) {
    const PatchWrites<W> writes = geometry.store(rows[j], x0, y0, lane * r + j);
    for (int w = 0; w < writes.count; ++w)
      atomic_or(out + writes.index[w], writes.bits[w]);
  }
}

} // namespace lifebench::bpbc_tile
