// The cell logic and the tile passes of blocked_tiles.hpp. Cell logic, bit per cell in
// 64-bit words, a Highway vector of words at a time, going down a column of vectors so
// that each row's horizontal sum is computed once and used by the rows it touches:
//   horizontal: west and east aligned by funnel shifts of the word and its neighbour
//   word (unaligned loads at -1 and +1 word), then the three-cell sum (lo, hi) by a
//   3-input XOR and a majority;
//   with 3-input logic (AVX-512's VPTERNLOGQ): seed 000's SAT-solver sequence over row
//   sums, as the blog's final CUDA kernel runs it: the row above's lo and the row's own
//   west and east neighbours by one full adder (2 instructions), then the row below's sum
//   and the cell decide in 4; 10 instructions per vector per generation on AVX3_DL, whose
//   funnel shifts are one VPSHLDQ or VPSHRDQ each;
//   without it: the nine-cell sum (including the cell) from three (lo, hi) pairs, and
//   next = (sum == 3) | (alive & sum == 4), which is B3/S23.
#include "cpu/blocked_tiles.hpp"

#include "common/sat10.hpp"
#include "cpu/logic_ceiling.hpp"
#include "cpu/packed_grids.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/blocked_tiles.cpp"
#include <hwy/aligned_allocator.h>
#include <hwy/cache_control.h>
#include <hwy/foreach_target.h> // IWYU pragma: keep
#include <hwy/highway.h>

#ifndef LIFEBENCH_CPU_BLOCKED_JOB
#define LIFEBENCH_CPU_BLOCKED_JOB
namespace lifebench::cpu_blocked {
/// Words before the first and after the last word of a tile row in a tile buffer:
/// the widest vector the kernel uses, so that the centre is aligned.
inline constexpr std::int64_t kPad = kWidestVectorWords;

/// A tile's place in the grid: words [x0, x0 + words) of rows [y0, y0 + rows).
struct Tile {
  std::int64_t x0;
  std::int64_t y0;
  std::int64_t words;
  std::int64_t rows;
};

/// One tile's pass: `steps` generations of `tile` from src into dst.
struct TileJob {
  const std::uint64_t* src; ///< whole grid, rows of `words` words
  std::uint64_t* dst;       ///< whole grid, `steps` generations later
  std::uint64_t* buffer[2]; ///< the worker's tile buffers, rows of `stride` words
  std::int64_t stride;
  std::int64_t words; ///< per grid row
  std::int64_t height;
  bool torus;
  std::int64_t steps;
  Tile tile;
  Tile next; ///< the worker's next tile (rows = 0: none), prefetched during this one
};

} // namespace lifebench::cpu_blocked
#endif

#include "cpu/ternary-inl.h"

HWY_BEFORE_NAMESPACE();
namespace lifebench::cpu_blocked::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// At least two of a, b, c: the carry of a full adder.
template <class V> HWY_INLINE V Majority(V a, V b, V c) {
#if LIFEBENCH_TERNLOG
  return Ternary<0xE8>(a, b, c);
#else
  return hn::OrAnd(hn::And(a, b), c, hn::Or(a, b));
#endif
}

/// Cells' west neighbours: the word shifted one cell towards higher bits, the bit
/// that enters from the previous word (LSB = leftmost cell).
template <class V> HWY_INLINE V FromWest(V centre, V previous) {
#if HWY_TARGET == HWY_AVX3_DL
  if constexpr (sizeof(centre.raw) == 64) {
    return V{_mm512_shldi_epi64(centre.raw, previous.raw, 1)};
  } else if constexpr (sizeof(centre.raw) == 32) {
    return V{_mm256_shldi_epi64(centre.raw, previous.raw, 1)};
  } else {
    return V{_mm_shldi_epi64(centre.raw, previous.raw, 1)};
  }
#else
  return hn::Or(hn::ShiftLeft<1>(centre), hn::ShiftRight<63>(previous));
#endif
}

/// Cells' east neighbours: the word shifted one cell towards lower bits, the bit that
/// enters from the next word.
template <class V> HWY_INLINE V FromEast(V centre, V next) {
#if HWY_TARGET == HWY_AVX3_DL
  if constexpr (sizeof(centre.raw) == 64) {
    return V{_mm512_shrdi_epi64(centre.raw, next.raw, 1)};
  } else if constexpr (sizeof(centre.raw) == 32) {
    return V{_mm256_shrdi_epi64(centre.raw, next.raw, 1)};
  } else {
    return V{_mm_shrdi_epi64(centre.raw, next.raw, 1)};
  }
#else
  return hn::Or(hn::ShiftRight<1>(centre), hn::ShiftLeft<63>(next));
#endif
}

/// Two-bit sum lo + 2 * hi of a cell and its west and east neighbours.
template <class V> struct RowSum { V lo, hi; };

/// A row's cells, their west and east neighbours and its row sum.
template <class V> struct Row {
  V alive, west, east;
  RowSum<V> sum;
};

template <class D> HWY_INLINE Row<hn::Vec<D>> LoadRow(D d, const std::uint64_t* at) {
  using V = hn::Vec<D>;
  const V alive = hn::LoadU(d, at);
  const V west = FromWest(alive, hn::LoadU(d, at - 1));
  const V east = FromEast(alive, hn::LoadU(d, at + 1));
  return {alive, west, east, {hn::Xor3(west, alive, east), Majority(west, alive, east)}};
}

#if LIFEBENCH_TERNLOG
/// One column of vectors walked down the rows, seed 000's SAT-solver sequence over row
/// sums (kernels/cuda/life_lop3.cuh: sat10_begin, sat10_end). The live-neighbour count of
/// the row here is aA + a9 + 2 (b0 + b1 + b2): (aA, b2) the full adder of the row above's
/// lo and the row's own west and east, b0 the row above's hi, (a9, b1) the row below's sum.
template <class D> struct ColumnWalk {
  using V = hn::Vec<D>;
  V alive;        ///< the row here
  RowSum<V> here; ///< its sum, for the row below's adder
  V aA, b0, b2;   ///< its adder with the row above

  /// Starts with `at` at the row above the first row to compute.
  HWY_INLINE ColumnWalk(D d, const std::uint64_t* at, std::int64_t stride) {
    const RowSum<V> above = LoadRow(d, at).sum;
    Begin(above, LoadRow(d, at + stride));
  }

  /// `above` by value: it may be `here`, which this replaces.
  HWY_INLINE void Begin(const RowSum<V> above, const Row<V>& row) {
    aA = hn::Xor3(above.lo, row.west, row.east);
    b0 = above.hi;
    b2 = Majority(above.lo, row.west, row.east);
    alive = row.alive;
    here = row.sum;
  }

  /// The next state of the row here, from the row below at `at`; then moves down a row.
  /// Each of the sequence's VPTERNLOGQ takes first an input at its last use (aA, b2, b0),
  /// which it overwrites: in the blog's order the compiler copied an input first.
  HWY_INLINE V Step(D d, const std::uint64_t* at) {
    const Row<V> below = LoadRow(d, at);
    const V magic0 = Ternary<Swapped(sat10::kMagic0, kA, kB)>(aA, below.sum.lo, alive);
    const V magic1 = Ternary<Swapped(sat10::kMagic1, kA, kC)>(b2, alive, magic0);
    const V magic2 = Ternary<Swapped(sat10::kMagic2, kA, kC)>(b0, below.sum.hi, magic1);
    const V next = Ternary<sat10::kNext>(magic2, magic0, magic1);
    Begin(here, below);
    return next;
  }
};
#else
/// B3/S23 from the row sums above, here and below (each including its centre
/// column), i.e. from the nine-cell sum s = lo + 2 * (t0 + 2 * t1 + carry):
/// s == 3 is lo & count2 == 1, s == 4 is ~lo & count2 == 2.
template <class V>
HWY_INLINE V NextState(const RowSum<V>& above, const RowSum<V>& here, const RowSum<V>& below,
                       V alive) {
  const V lo = hn::Xor3(above.lo, here.lo, below.lo);
  const V carry = Majority(above.lo, here.lo, below.lo);
  const V t0 = hn::Xor3(above.hi, here.hi, below.hi);
  const V t1 = Majority(above.hi, here.hi, below.hi);
  const V count2_is_1 = hn::AndNot(t1, hn::Xor(t0, carry));           // ~t1 & (t0 ^ carry)
  const V count2_is_2 = hn::And(hn::Xor(t0, t1), hn::Xor(carry, t1)); // (t0 ^ t1) & (carry ^ t1)
  return hn::Or(hn::And(lo, count2_is_1), hn::AndNot(lo, hn::And(alive, count2_is_2)));
}

/// One column of vectors walked down the rows: the row sums above and here and the cells
/// here, so that each row's sum is made once and serves the three rows it touches.
template <class D> struct ColumnWalk {
  using V = hn::Vec<D>;
  V alive;
  RowSum<V> above;
  RowSum<V> here;

  /// Starts with `at` at the row above the first row to compute.
  HWY_INLINE ColumnWalk(D d, const std::uint64_t* at, std::int64_t stride) {
    above = LoadRow(d, at).sum;
    const Row<V> row = LoadRow(d, at + stride);
    alive = row.alive;
    here = row.sum;
  }

  /// The next state of the row here, from the row below at `at`; then moves down a row.
  HWY_INLINE V Step(D d, const std::uint64_t* at) {
    const Row<V> below = LoadRow(d, at);
    const V next = NextState(above, here, below.sum, alive);
    above = here;
    here = below.sum;
    alive = below.alive;
    return next;
  }
};
#endif

/// Rows [r0, r1) one generation on from `src`, words [p0, p0 + n) of each row: src
/// row r word p is at src + r * src_stride + p; its next state goes to dst + (r - r0)
/// * dst_stride + (p - p0). Reads rows r0 - 1 .. r1 and words p0 - 1 .. p0 + n.
/// Walks down two columns of vectors at a time (then one, for an odd count): two
/// independent walks give the core twice the work between the loop's register moves,
/// about 15 % more cells a second on one core than one walk (experiments/cpu-blocked).
/// kRowsPerTurn rows a turn: what a walk carries to the next row changes registers from
/// row to row instead of being copied back each row (AVX3_DL, GCC 13: 3.8 register copies
/// a vector and row in the loop of two walks at three rows a turn, 5.75 at two, 11.5 at
/// one; with the inputs the sequence overwrites chosen, two rows a turn gave 15-19 % more
/// cells a second on the H100 host's Xeon). AVX2's loop is left at two: at three the
/// compiler shares instructions between rows, which the stated count would not match.
/// kStream: non-temporal stores (aligned dst), for the grid, which is not read again
/// in this pass: no read for ownership.
inline constexpr int kRowsPerTurn = LIFEBENCH_TERNLOG ? 3 : 2;

template <bool kStream, class D>
void Columns(D d, const std::uint64_t* src, std::int64_t src_stride, std::uint64_t* dst,
             std::int64_t dst_stride, std::int64_t r0, std::int64_t r1, std::int64_t p0,
             std::int64_t n) {
  using V = hn::Vec<D>;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  const auto store = [&](V next, std::uint64_t* out) {
    if constexpr (kStream) {
      hn::Stream(next, d, out);
    } else {
      hn::StoreU(next, d, out);
    }
  };
  std::int64_t k = 0;
  for (; k + 2 * lanes <= n; k += 2 * lanes) {
    const std::uint64_t* at = src + (r0 - 1) * src_stride + p0 + k;
    ColumnWalk<D> left(d, at, src_stride);
    ColumnWalk<D> right(d, at + lanes, src_stride);
    at += src_stride;
    std::uint64_t* out = dst + k;
    std::int64_t r = r0;
    for (; r + kRowsPerTurn <= r1; r += kRowsPerTurn) {
      for (int i = 1; i <= kRowsPerTurn; ++i) {
        store(left.Step(d, at + i * src_stride), out + (i - 1) * dst_stride);
        store(right.Step(d, at + i * src_stride + lanes), out + (i - 1) * dst_stride + lanes);
      }
      at += kRowsPerTurn * src_stride;
      out += kRowsPerTurn * dst_stride;
    }
    for (; r < r1; ++r) {
      at += src_stride;
      store(left.Step(d, at), out);
      store(right.Step(d, at + lanes), out + lanes);
      out += dst_stride;
    }
  }
  for (; k + lanes <= n; k += lanes) {
    const std::uint64_t* at = src + (r0 - 1) * src_stride + p0 + k;
    ColumnWalk<D> walk(d, at, src_stride);
    at += src_stride;
    std::uint64_t* out = dst + k;
    std::int64_t r = r0;
    for (; r + kRowsPerTurn <= r1; r += kRowsPerTurn) {
      for (int i = 1; i <= kRowsPerTurn; ++i)
        store(walk.Step(d, at + i * src_stride), out + (i - 1) * dst_stride);
      at += kRowsPerTurn * src_stride;
      out += kRowsPerTurn * dst_stride;
    }
    for (; r < r1; ++r) {
      at += src_stride;
      store(walk.Step(d, at), out);
      out += dst_stride;
    }
  }
}

/// Columns() over words [p0, p0 + n) with vectors of kLanes words at most, the rest
/// with narrower ones.
template <std::size_t kLanes = kPad, bool kStream = false>
void Generation(const std::uint64_t* src, std::int64_t src_stride, std::uint64_t* dst,
                std::int64_t dst_stride, std::int64_t r0, std::int64_t r1, std::int64_t p0,
                std::int64_t n) {
  const hn::CappedTag<std::uint64_t, kLanes> d;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  const std::int64_t vector_words = n / lanes * lanes;
  Columns<kStream && kLanes >= 2>(d, src, src_stride, dst, dst_stride, r0, r1, p0, vector_words);
  if constexpr (kLanes > 1) {
    if (vector_words < n) {
      Generation<kLanes / 2, kStream>(src, src_stride, dst + vector_words, dst_stride, r0, r1,
                                      p0 + vector_words, n - vector_words);
    }
  }
}

/// Asks for rows [r0, r1) of the next tile's copy (halo included) to be brought into
/// L2 while this tile computes, so that its copy-in does not wait for memory.
void PrefetchNext(const TileJob& job, std::int64_t r0, std::int64_t r1) {
  const Tile& next = job.next;
  const std::int64_t first = std::max<std::int64_t>(next.x0 - 1, 0);
  const std::int64_t last = std::min(next.x0 + next.words + 1, job.words);
  for (std::int64_t r = r0; r < r1; ++r) {
    std::int64_t y = next.y0 - job.steps + r;
    if (!job.torus && (y < 0 || y >= job.height)) continue;
    y = (y % job.height + job.height) % job.height;
    const std::uint64_t* row = job.src + y * job.words;
    for (std::int64_t x = first; x < last; x += kPad)
      __builtin_prefetch(row + x, 0, 2);
  }
}

/// Tile buffer row r holds grid row y0 - steps + r; word kPad + i holds grid word
/// x0 + i for i in [-1, tile_words]. Rows and words outside a dead boundary are zero
/// in both buffers and never computed.
void PassTile(const TileJob& job) {
  const std::int64_t rows = job.tile.rows + 2 * job.steps;
  const std::int64_t width = job.tile.words;
  const std::int64_t stride = job.stride;
  const bool dead_left = !job.torus && job.tile.x0 == 0;
  const bool dead_right = !job.torus && job.tile.x0 + width == job.words;
  std::uint64_t* from = job.buffer[0];
  std::uint64_t* to = job.buffer[1];

  std::int64_t live_begin = 0; // tile rows inside the grid
  std::int64_t live_end = rows;
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t y = job.tile.y0 - job.steps + r;
    std::uint64_t* row = from + r * stride + kPad;
    if (!job.torus && (y < 0 || y >= job.height)) {
      if (y < 0) {
        live_begin = r + 1;
      } else {
        live_end = std::min(live_end, r);
      }
      std::fill(row - 1, row + width + 1, std::uint64_t{0});
      std::fill(to + r * stride + kPad - 1, to + r * stride + kPad + width + 1, std::uint64_t{0});
      continue;
    }
    y = (y % job.height + job.height) % job.height;
    const std::uint64_t* grid_row = job.src + y * job.words;
    std::copy_n(grid_row + job.tile.x0, width, row);
    row[-1] = dead_left ? 0 : grid_row[(job.tile.x0 - 1 + job.words) % job.words];
    row[width] = dead_right ? 0 : grid_row[(job.tile.x0 + width) % job.words];
    if (dead_left) to[r * stride + kPad - 1] = 0;
    if (dead_right) to[r * stride + kPad + width] = 0;
  }

  // The next tile's rows, in equal parts before each generation.
  const std::int64_t next_rows = job.next.rows == 0 ? 0 : job.next.rows + 2 * job.steps;
  const auto prefetch = [&](std::int64_t g) {
    PrefetchNext(job, (g - 1) * next_rows / job.steps, g * next_rows / job.steps);
  };
  for (std::int64_t g = 1; g < job.steps; ++g) {
    prefetch(g);
    const std::int64_t r0 = std::max(g, live_begin);
    const std::int64_t r1 = std::min(rows - g, live_end);
    std::uint64_t* out = to + r0 * stride;
    Generation(from, stride, out + kPad, stride, r0, r1, kPad, width);
    if (!dead_left) Generation(from, stride, out + kPad - 1, stride, r0, r1, kPad - 1, 1);
    if (!dead_right) Generation(from, stride, out + kPad + width, stride, r0, r1, kPad + width, 1);
    std::swap(from, to);
  }
  // The last generation: the tile's own rows, straight into the grid.
  prefetch(job.steps);
  std::uint64_t* out = job.dst + job.tile.y0 * job.words + job.tile.x0;
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64 == 0; };
  if (aligned(out) && aligned(out + job.words)) {
    Generation<kPad, true>(from, stride, out, job.words, job.steps, job.steps + job.tile.rows, kPad,
                           width);
    hwy::FlushStream(); // the streamed rows are visible before the pass's barrier
  } else {
    Generation(from, stride, out, job.words, job.steps, job.steps + job.tile.rows, kPad, width);
  }
}

const char* TargetName() {
  return hwy::TargetName(HWY_TARGET);
}

} // namespace lifebench::cpu_blocked::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace lifebench::cpu_blocked {
HWY_EXPORT(PassTile);
HWY_EXPORT(TargetName);

const char* target_name() {
  return HWY_DYNAMIC_DISPATCH(TargetName)();
}

namespace {

/// Words per tile buffer row: the tile and its pads, whole 64-byte lines, an odd number
/// of them so that the rows of a column fall into every L1 set rather than half.
std::int64_t buffer_stride(std::int64_t tile_words) {
  const std::int64_t lines = (tile_words + kPad - 1) / kPad + 2;
  return (lines % 2 == 0 ? lines + 1 : lines) * kPad;
}

/// The tiles of rows [row_begin, row_end) of a grid, in row-major order, clipped to them.
struct TileRows {
  std::int64_t row_begin;
  std::int64_t row_end;
  std::int64_t words; ///< per grid row
  std::int64_t tile_words;
  std::int64_t tile_rows;

  [[nodiscard]] std::int64_t across() const { return (words + tile_words - 1) / tile_words; }
  [[nodiscard]] std::int64_t count() const {
    return (row_end - row_begin + tile_rows - 1) / tile_rows * across();
  }
  [[nodiscard]] Tile at(std::int64_t index) const {
    const std::int64_t x0 = index % across() * tile_words;
    const std::int64_t y0 = row_begin + index / across() * tile_rows;
    return {x0, y0, std::min(tile_words, words - x0), std::min(tile_rows, row_end - y0)};
  }
};

} // namespace

struct TilePasses::Buffers {
  std::int64_t stride = 0;
  std::vector<hwy::AlignedFreeUniquePtr<std::uint64_t[]>> words;
};

TilePasses::TilePasses(int threads, const Tiling& tiling)
    : tiling_(tiling), buffers_(std::make_unique<Buffers>()), pool_(threads) {
  // Two tile buffers per worker, zeroed so that the pads hold no garbage.
  buffers_->stride = buffer_stride(tiling.tile_words);
  for (int buffer = 0; buffer < 2 * threads; ++buffer) {
    buffers_->words.push_back(
        simd::allocate_words(buffers_->stride * (tiling.tile_rows + 2 * tiling.steps)));
  }
}

TilePasses::~TilePasses() = default;

void TilePasses::pass(const PassGrid& grid, std::int64_t steps, std::int64_t row_begin,
                      std::int64_t row_end, const std::function<void()>& between_tiles) {
  const TileRows tiles{row_begin, row_end, grid.words, tiling_.tile_words, tiling_.tile_rows};
  queue_.reset(tiles.count());
  // A worker's tiles come from the shared queue until none is left, each taken one ahead so
  // that its rows are prefetched while the current one computes.
  pool_.run([&](int worker) {
    const auto mine = 2 * static_cast<std::size_t>(worker);
    for (auto tile = queue_.take(); tile;) {
      const auto next = queue_.take();
      const TileJob job{grid.src,
                        grid.dst,
                        {buffers_->words[mine].get(), buffers_->words[mine + 1].get()},
                        buffers_->stride,
                        grid.words,
                        grid.height,
                        grid.torus,
                        steps,
                        tiles.at(*tile),
                        next ? tiles.at(*next) : Tile{0, 0, 0, 0}};
      HWY_DYNAMIC_DISPATCH(PassTile)(job);
      if (worker == 0 && between_tiles) between_tiles();
      tile = next;
    }
  });
}

std::optional<double> TilePasses::measure_logic_rate() {
  return logic_rate(pool_);
}

std::vector<Axis> tile_axes(std::vector<Axis> before) {
  before.push_back({"tile_words", "512", {}, "tile width in 64-bit words (clipped to the row)"});
  before.push_back({"tile_rows", "64", {}, "tile height in rows (clipped to the grid)"});
  return before;
}

std::optional<std::string> tiling_unsupported(const std::string& steps_axis, const Params& params) {
  const std::int64_t steps = params.get_int(steps_axis);
  if (steps < 1 || steps > kMaxSteps) {
    return steps_axis + " must be 1.." + std::to_string(kMaxSteps) +
           ": the one-word side halo goes wrong one cell per generation";
  }
  if (params.get_int("tile_words") < 1 || params.get_int("tile_rows") < 1) {
    return "tile_words and tile_rows must be positive";
  }
  return std::nullopt;
}

Tiling tiling_of(const Params& params, const std::string& steps_axis, std::int64_t row_words,
                 std::int64_t height) {
  return {params.get_int(steps_axis), std::min(params.get_int("tile_words"), row_words),
          std::min(params.get_int("tile_rows"), height)};
}

} // namespace lifebench::cpu_blocked
#endif // HWY_ONCE
