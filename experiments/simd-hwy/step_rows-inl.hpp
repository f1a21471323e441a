// simd-hwy's kernel, Highway code compiled once per SIMD target by each source that
// includes it after foreach_target.h (simd_hwy.cpp, and test_step_rows.cpp, which checks
// every target): one generation of a worker's rows of bit-packed 64-bit words, a vector
// of consecutive words at a time, the horizontal neighbours aligned by one-bit shifts
// whose carried bits cross lanes (a lane rotation, as the blog's shl_1), and the blog's
// bit adder counter (four full adders and one half adder) for the neighbour count.

#ifndef LIFEBENCH_SIMD_HWY_ROWS_JOB
#define LIFEBENCH_SIMD_HWY_ROWS_JOB
#include <cstdint>

namespace lifebench::simd_hwy {
/// One worker's share of a generation: rows [row_begin, row_end) of dst from src.
struct RowsJob {
  const std::uint64_t* src;
  std::uint64_t* dst;
  const std::uint64_t* zero_row; ///< a dead row, for rows outside a dead boundary
  std::int64_t words;            ///< words per row (width / 64)
  std::int64_t height;
  bool torus;
  std::int64_t row_begin;
  std::int64_t row_end;
};
} // namespace lifebench::simd_hwy
#endif // LIFEBENCH_SIMD_HWY_ROWS_JOB

// Per-target include guard: toggled by foreach_target.h for each target.
#if defined(LIFEBENCH_SIMD_HWY_STEP_ROWS_INL_HPP) == defined(HWY_TARGET_TOGGLE)
#ifdef LIFEBENCH_SIMD_HWY_STEP_ROWS_INL_HPP
#undef LIFEBENCH_SIMD_HWY_STEP_ROWS_INL_HPP
#else
#define LIFEBENCH_SIMD_HWY_STEP_ROWS_INL_HPP
#endif

#include <cstddef>
#include <cstdint>
#include <hwy/highway.h>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace lifebench::simd_hwy::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Lane j of the result is lane (j + shift) mod L of v. Precomputed indices: the
/// rotation is one permute.
template <class D> class Rotation {
public:
  Rotation(D d, std::size_t shift) {
    if constexpr (hn::MaxLanes(D()) > 1) {
      HWY_ALIGN std::int64_t index[hn::MaxLanes(D())];
      const std::size_t lanes = hn::Lanes(d);
      for (std::size_t j = 0; j < lanes; ++j) {
        index[j] = static_cast<std::int64_t>((j + shift) % lanes);
      }
      indices_ = hn::SetTableIndices(d, index);
    }
  }
  HWY_INLINE hn::Vec<D> operator()(hn::Vec<D> v) const {
    if constexpr (hn::MaxLanes(D()) > 1) {
      return hn::TableLookupLanes(v, indices_);
    } else {
      return v;
    }
  }

private:
  struct None {};
  std::conditional_t<(hn::MaxLanes(D()) > 1),
                     decltype(hn::SetTableIndices(D(), static_cast<const std::int64_t*>(nullptr))),
                     None>
      indices_{};
};

/// The blog's software adders: two-bit sum = sum + 2 * carry.
template <class V> struct Adder { V carry, sum; };
template <class V> HWY_INLINE Adder<V> HalfAdder(V a, V b) {
  return {hn::And(a, b), hn::Xor(a, b)};
}
template <class V> HWY_INLINE Adder<V> FullAdder(V a, V b, V c) {
  const V temp = hn::Xor(a, b);
  return {hn::OrAnd(hn::And(a, b), temp, c), hn::Xor(temp, c)};
}

template <class D> void StepRowsFor(D d, const RowsJob& job) {
  using V = hn::Vec<D>;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  const std::int64_t vectors = job.words / lanes;
  const auto first_lane = hn::FirstN(d, 1);
  const auto last_lane = hn::Not(hn::FirstN(d, static_cast<std::size_t>(lanes - 1)));
  const Rotation<D> lane_up(d, static_cast<std::size_t>(lanes - 1)); // lane j <- lane j - 1
  const Rotation<D> lane_down(d, 1);                                 // lane j <- lane j + 1

  // A row's vector k and its two horizontal neighbour vectors: each lane shifts by
  // one cell (LSB = leftmost cell) and takes the bit that crosses into it from the
  // next lane over; the first (last) lane takes it from the previous (next) vector.
  struct Aligned {
    V west, centre, east;
  };
  const auto align = [&](const std::uint64_t* row, std::int64_t k) {
    const std::int64_t before = k == 0 ? vectors - 1 : k - 1;
    const std::int64_t after = k == vectors - 1 ? 0 : k + 1;
    const V centre = hn::Load(d, row + k * lanes);
    const V prev = (k == 0 && !job.torus) ? hn::Zero(d) : hn::Load(d, row + before * lanes);
    const V next =
        (k == vectors - 1 && !job.torus) ? hn::Zero(d) : hn::Load(d, row + after * lanes);
    const V from_west = lane_up(hn::ShiftRight<63>(hn::IfThenElse(last_lane, prev, centre)));
    const V from_east = lane_down(hn::ShiftLeft<63>(hn::IfThenElse(first_lane, next, centre)));
    return Aligned{hn::Or(hn::ShiftLeft<1>(centre), from_west), centre,
                   hn::Or(hn::ShiftRight<1>(centre), from_east)};
  };
  const auto row_at = [&](std::int64_t y) {
    if (y < 0 || y >= job.height) {
      if (!job.torus) return job.zero_row;
      y = (y + job.height) % job.height;
    }
    return job.src + y * job.words;
  };

  for (std::int64_t y = job.row_begin; y < job.row_end; ++y) {
    const std::uint64_t* above = row_at(y - 1);
    const std::uint64_t* middle = row_at(y);
    const std::uint64_t* below = row_at(y + 1);
    std::uint64_t* out = job.dst + y * job.words;
    for (std::int64_t k = 0; k < vectors; ++k) {
      const Aligned a = align(above, k);
      const Aligned m = align(middle, k);
      const Aligned b = align(below, k);
      // Stage 0: the eight neighbours to three two-bit sums (l,i), (m,j), (n,k).
      const Adder<V> li = FullAdder(a.west, a.centre, a.east);
      const Adder<V> mj = FullAdder(m.west, m.east, b.west);
      const Adder<V> nk = HalfAdder(b.centre, b.east);
      // Stage 1: count = 4x + 2(y + z) + w.
      const Adder<V> yw = FullAdder(li.sum, mj.sum, nk.sum);
      const Adder<V> xz = FullAdder(li.carry, mj.carry, nk.carry);
      // Born with 1,3,5,7 (w), kept with 2,3,6,7 (y ^ z), and fewer than 4 (~x).
      const V next =
          hn::AndNot(xz.carry, hn::And(hn::Or(m.centre, yw.sum), hn::Xor(yw.carry, xz.sum)));
      hn::Store(next, d, out + k * lanes);
    }
  }
}

/// Runs one worker's rows with the widest vector whose lanes divide the row.
inline void StepRows(const RowsJob& job) {
  const hn::ScalableTag<std::uint64_t> d;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  if (job.words % lanes == 0) return StepRowsFor(d, job);
  if (lanes > 4 && job.words % 4 == 0) return StepRowsFor(hn::CappedTag<std::uint64_t, 4>(), job);
  if (lanes > 2 && job.words % 2 == 0) return StepRowsFor(hn::CappedTag<std::uint64_t, 2>(), job);
  return StepRowsFor(hn::CappedTag<std::uint64_t, 1>(), job);
}

} // namespace lifebench::simd_hwy::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif // per-target include guard
