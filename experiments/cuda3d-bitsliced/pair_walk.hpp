// The pair walk of cuda3d-bitsliced: the same separable 27-cell count as
// kernels/common/bitsliced3d.hpp (row sums along x, plane sums along y), but along z
// two outputs share one pair of plane sums. Output z is P(z - 1) + P(z) + P(z + 1)
// and output z + 1 is P(z) + P(z + 1) + P(z + 2): Q = P(z) + P(z + 1), half reduced
// (4 LOP3), serves both, and each output adds one plane sum to it (12 LOP3 to the
// 5-bit count; for B6/S567 8, with the rule fused into 8 more) instead of the
// three-plane compressor tree (16, then the rule's 6). Written for the host and the device: the
// host test (test_pair_walk.cpp) runs this walk against the reference.
#pragma once

#include "common/bitsliced3d.hpp"
#include "common/host_device.hpp"

namespace lifebench::bitsliced3d::pairs {

/// Two plane sums, 0..18, half reduced: ones_a + ones_b + 2 (twos_a + twos_b) + 4 four
/// + 8 eight.
struct Pair {
  Word ones_a, ones_b, twos_a, twos_b, four, eight;
};

/// P(z) + P(z + 1): one full adder on three of the four twos, one on the fours and its
/// carry. 4 LOP3.
LIFEBENCH_HOST_DEVICE Pair pair_sum(const Sum4& a, const Sum4& b) {
  Pair q{};
  Word to4 = 0;
  full_add(a.twos_a, a.twos_b, b.twos_a, q.twos_a, to4);
  full_add(a.fours, b.fours, to4, q.four, q.eight);
  q.ones_a = a.ones;
  q.ones_b = b.ones;
  q.twos_b = b.twos_b;
  return q;
}

/// Any function of three words as one LOP3: bit i of `Lut` is the result for the inputs
/// (a, b, c) = (i >> 2 & 1, i >> 1 & 1, i & 1). Written out on the device so that the
/// compiler keeps the hand-chosen groupings (its own take more operations here).
template <unsigned Lut> LIFEBENCH_HOST_DEVICE Word lop3(Word a, Word b, Word c) {
#if defined(__CUDA_ARCH__)
  Word r = 0;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(Lut));
  return r;
#else
  Word r = 0;
  for (unsigned i = 0; i < 8; ++i) {
    if (((Lut >> i) & 1U) != 0)
      r |= ((i & 4U) != 0 ? a : ~a) & ((i & 2U) != 0 ? b : ~b) & ((i & 1U) != 0 ? c : ~c);
  }
  return r;
#endif
}

/// The table of f for lop3(): f applied to the three inputs' truth-table columns.
LIFEBENCH_HOST_DEVICE constexpr unsigned lut(unsigned f) {
  return f & 0xffU;
}
inline constexpr unsigned kA = 0xf0U, kB = 0xccU, kC = 0xaaU;

/// A pair plus a plane sum, the 27-sum t, with its weight-4 level left as two bits
/// (y + four_b) and its weight-8 level as two more (eight_a + eight_b):
/// t = t0 + 2 t1 + 4 (y + four_b) + 8 (eight_a + eight_b). 8 LOP3.
struct Partial {
  Word t0, t1, y, four_b, eight_a, eight_b;
};

LIFEBENCH_HOST_DEVICE Partial pair_plus_partial(const Pair& q, const Sum4& p) {
  Partial s{};
  Word to2 = 0;
  full_add(q.ones_a, q.ones_b, p.ones, s.t0, to2);
  Word x = 0;
  Word to4a = 0;
  full_add(q.twos_a, q.twos_b, p.twos_a, x, to4a);
  full_add(x, p.twos_b, to2, s.t1, s.four_b);
  full_add(q.four, p.fours, to4a, s.y, s.eight_b);
  s.eight_a = q.eight;
  return s;
}

/// The 27-sum, 0..27, of a pair and a plane sum: 12 LOP3.
LIFEBENCH_HOST_DEVICE Sum5 pair_plus(const Pair& q, const Sum4& p) {
  const Partial s = pair_plus_partial(q, p);
  Sum5 t{s.t0, s.t1, s.y ^ s.four_b, 0, 0};
  full_add(s.eight_a, s.eight_b, s.y & s.four_b, t.b3, t.b4);
  return t;
}

/// Any rule: the 5-bit count, then the rule.
template <class RuleFn>
LIFEBENCH_HOST_DEVICE Word finish(const RuleFn& rule, const Pair& q, const Sum4& p, Word self) {
  return rule(pair_plus(q, p), self);
}

/// B6/S567 with the rule fused into the last adders: 8 + 8 LOP3 (12 + 6 through the
/// 5-bit count). With h = y + four_b + 2 (eight_a + eight_b), t = t0 + 2 t1 + 4 h; the
/// rule needs t = 6, 7 (h = 1, t1 = 1: born at t0 = 0, kept) and t = 8 (h = 2, t1 = t0
/// = 0: kept), so the weights 4 and 8 are never added up.
LIFEBENCH_HOST_DEVICE Word finish(const RuleB6S567& /*rule*/, const Pair& q, const Sum4& p,
                                  Word self) {
  const Partial s = pair_plus_partial(q, p);
  // h = 1: exactly one of y, four_b, and no eight.
  const Word odd = lop3<lut((kA ^ kB) & ~kC)>(s.y, s.four_b, s.eight_a);
  const Word six_or_seven = lop3<lut(kA & ~kB & kC)>(odd, s.eight_b, s.t1);
  // h = 2: y and four_b and no eight, or neither and exactly one eight.
  const Word both_no_a = lop3<lut((kA & kB & ~kC) | (~kA & ~kB & kC))>(s.y, s.four_b, s.eight_a);
  const Word none = lop3<lut(~kA & ~kB & ~kC)>(s.y, s.four_b, s.eight_a);
  const Word two = lop3<lut((kA & ~kC) | (kB & kC))>(both_no_a, none, s.eight_b);
  const Word eight = lop3<lut(kA & ~kB & ~kC)>(two, s.t1, s.t0);
  const Word kept_or_six = lop3<lut(kA & (~kB | kC))>(six_or_seven, s.t0, self);
  return lop3<lut(kA | (kB & kC))>(kept_or_six, eight, self);
}

/// base + words, one wide multiply-add on the device (IMAD.WIDE, FMA pipe).
template <class W> LIFEBENCH_HOST_DEVICE W* at(W* base, int words) {
#if defined(__CUDA_ARCH__)
  W* address = nullptr;
  asm("mad.wide.s32 %0, %1, 4, %2;" : "=l"(address) : "r"(words), "l"(base));
  return address;
#else
  return base + words;
#endif
}

/// A thread's column of Rows rows of word w: a pointer per row read (rows y0 - 1 ...
/// y0 + Rows, wrapped once: -side < y0 and y0 + Rows < 2 side) and per row written, all
/// in plane 0; a plane is reached by one wide multiply-add of its word offset (below 2^31:
/// side <= 4096), so that no address is recomputed per row and plane. With Shuffle (device only,
/// whole rows across a warp's lanes) the x - 1 and x + 1 words come from the lanes beside.
template <bool Torus, int Rows, bool Shuffle> class Column {
public:
  LIFEBENCH_HOST_DEVICE Column(const Word* in, Word* out, const Cube& cube, int w, int y0,
                               unsigned lanes)
      : plane_words_(static_cast<int>(cube.plane_words())), side_(cube.side),
        to_left_((w == 0 ? cube.words - 1 : w - 1) - w),
        to_right_((w + 1 == cube.words ? 0 : w + 1) - w), word_(w), words_(cube.words),
        lanes_(lanes), has_left_(Torus || w > 0), has_right_(Torus || w + 1 < cube.words) {
    for (int r = 0; r < Rows + 2; ++r) {
      const int y = y0 - 1 + r;
      has_row_[r] = Torus || (y >= 0 && y < cube.side);
      read_[r] = in + (static_cast<std::ptrdiff_t>(wrap(y)) * cube.words + w);
    }
    for (int r = 0; r < Rows; ++r) {
      write_[r] = out + (static_cast<std::ptrdiff_t>(wrap(y0 + r)) * cube.words + w);
    }
  }

  /// xy-sums of plane z, -side <= z < 2 side (wrapped on a torus, dead outside a dead cube).
  LIFEBENCH_HOST_DEVICE void sums(int z, PlaneSums<Rows>& s) const {
    if (!Torus && (z < 0 || z >= side_)) {
      for (int r = 0; r < Rows; ++r)
        s.sum[r] = Sum4{0, 0, 0, 0};
      return;
    }
    Word middle[Rows + 2];
    fetch(z, middle);
    sums(middle, wrap(z) * plane_words_, s);
  }

  /// The thread's own word of each row read in plane z (0 outside a dead cube): the loads
  /// of sums(), which a caller may issue ahead of the logic to hide their latency.
  LIFEBENCH_HOST_DEVICE void fetch(int z, Word (&middle)[Rows + 2]) const {
    const bool outside = !Torus && (z < 0 || z >= side_);
    const int offset = wrap(outside ? 0 : z) * plane_words_;
    for (int r = 0; r < Rows + 2; ++r)
      middle[r] = outside ? 0 : load(at(read_[r], offset));
  }

  /// xy-sums from the words fetch() read at plane offset `offset` (the x - 1 and x + 1
  /// words: from the lanes beside with Shuffle, else loaded there, so the words must be
  /// the grid's). With Shuffle, words of 0 give sums of 0.
  LIFEBENCH_HOST_DEVICE void sums(const Word (&middle)[Rows + 2], int offset,
                                  PlaneSums<Rows>& s) const {
    Sum2 rows[Rows + 2];
    for (int r = 0; r < Rows + 2; ++r) {
      Word before = 0;
      Word after = 0;
#if defined(__CUDA_ARCH__)
      if constexpr (Shuffle) {
        before = __shfl_sync(lanes_, middle[r], word_ - 1, words_);
        after = __shfl_sync(lanes_, middle[r], word_ + 1, words_);
      } else {
        before = load(at(read_[r], offset + to_left_));
        after = load(at(read_[r], offset + to_right_));
      }
#else
      before = load(at(read_[r], offset + to_left_));
      after = load(at(read_[r], offset + to_right_));
#endif
      if (!Torus) {
        before = has_left_ ? before : 0;
        after = has_right_ ? after : 0;
      }
      rows[r] = row_sum(before, middle[r], after);
      if (!Torus && !has_row_[r]) rows[r] = Sum2{0, 0};
      if (r >= 1 && r <= Rows) s.self[r - 1] = middle[r];
    }
    for (int r = 0; r < Rows; ++r)
      s.sum[r] = plane_sum(rows[r], rows[r + 1], rows[r + 2]);
  }

  /// xy-sums of any words of rows y0 - 1 ... y0 + Rows (another generation's too): with
  /// Shuffle nothing is loaded.
  LIFEBENCH_HOST_DEVICE void sums(const Word (&middle)[Rows + 2], PlaneSums<Rows>& s) const {
    static_assert(Shuffle, "without Shuffle the x neighbours are loaded from the grid");
    sums(middle, 0, s);
  }

  LIFEBENCH_HOST_DEVICE void store(int z, int r, Word value) const {
    *at(write_[r], z * plane_words_) = value;
  }

  /// Outputs z and z + 1 from P(z - 1) (lo) and P(z) (a), filling b with P(z + 1) and
  /// hi with P(z + 2).
  template <class RuleFn>
  LIFEBENCH_HOST_DEVICE void two(int z, const RuleFn& rule, const PlaneSums<Rows>& lo,
                                 const PlaneSums<Rows>& a, PlaneSums<Rows>& b,
                                 PlaneSums<Rows>& hi) const {
    sums(z + 1, b);
    sums(z + 2, hi);
    for (int r = 0; r < Rows; ++r) {
      const Pair q = pair_sum(a.sum[r], b.sum[r]);
      store(z, r, finish(rule, q, lo.sum[r], a.self[r]));
      store(z + 1, r, finish(rule, q, hi.sum[r], b.self[r]));
    }
  }

  /// Output z alone from lo and a, filling b with P(z + 1) (a walk's last odd plane).
  template <class RuleFn>
  LIFEBENCH_HOST_DEVICE void one(int z, const RuleFn& rule, const PlaneSums<Rows>& lo,
                                 const PlaneSums<Rows>& a, PlaneSums<Rows>& b) const {
    sums(z + 1, b);
    for (int r = 0; r < Rows; ++r)
      store(z, r, finish(rule, pair_sum(a.sum[r], b.sum[r]), lo.sum[r], a.self[r]));
  }

private:
  /// z (or y) on the torus, -side <= z < 2 side.
  [[nodiscard]] LIFEBENCH_HOST_DEVICE int wrap(int z) const {
    return z < 0 ? z + side_ : (z >= side_ ? z - side_ : z);
  }

  const Word* read_[Rows + 2];
  Word* write_[Rows];
  int plane_words_;
  int side_;
  int to_left_, to_right_; ///< word offsets of the x - 1 and x + 1 words (wrapped)
  int word_, words_;
  unsigned lanes_;
  bool has_left_, has_right_; ///< dead boundary: false at the cube's faces
  bool has_row_[Rows + 2]{};  ///< dead boundary: false outside the cube
};

/// The largest side the pair walk takes: plane offsets in 32-bit signed words.
inline constexpr int max_side = 4096;

/// Next state of word w of rows y0 ... y0 + Rows - 1 in planes z0 ... z1 - 1, as
/// bitsliced3d::column_walk, two planes per step. Four plane sums rotate by renaming
/// (the loop is unrolled by two steps); an odd last plane takes one step alone.
template <bool Torus, int Rows, bool Shuffle = false, class RuleFn>
LIFEBENCH_HOST_DEVICE void column_walk(const Word* in, Word* out, const Cube& cube, int w, int y0,
                                       int z0, int z1, const RuleFn& rule,
                                       unsigned lanes = 0xffffffffU) {
  const Column<Torus, Rows, Shuffle> column(in, out, cube, w, y0, lanes);
  PlaneSums<Rows> a{};
  PlaneSums<Rows> b{};
  PlaneSums<Rows> c{};
  PlaneSums<Rows> d{};
  column.sums(z0 - 1, a);
  column.sums(z0, b);
  int z = z0;
  for (; z + 4 <= z1; z += 4) {
    column.two(z, rule, a, b, c, d);
    column.two(z + 2, rule, c, d, a, b);
  }
  if (z + 2 <= z1) {
    column.two(z, rule, a, b, c, d);
    if (z + 3 == z1) column.one(z + 2, rule, c, d, a);
  } else if (z + 1 == z1) {
    column.one(z, rule, a, b, c);
  }
}

} // namespace lifebench::bitsliced3d::pairs
