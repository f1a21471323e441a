// Bit-sliced 3D life (26 neighbours, any totalistic B/S rule) on 32-bit words:
// one bit per cell, 32 cells of a row per word along x, the least significant
// bit the leftmost cell (lifebench/packed.hpp). Written once for the host and the
// device: cuda3d-bitsliced runs column_walk() in one CUDA thread, cpu3d-threads
// runs the same function on CPU threads, so the CPU conformance test checks the
// GPU's bit logic.
//
// The count is taken over the 27 cells of the 3x3x3 block (the cell included)
// and is separable: a 3-sum along x of each input row (2 bit-planes, 0..3),
// three of those along y (4 bit-planes, 0..9: the plane's "xy-sum"), three
// xy-sums along z (5 bit-planes, 0..27). A walk along z keeps the xy-sums of
// three planes, so each is computed once and used by three outputs.
#pragma once

#include "common/host_device.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace lifebench::bitsliced3d {

using Word = std::uint32_t;
inline constexpr int word_bits = 32;

/// A count of 0..3 (the row's 3-sum along x), bit k of every cell in bk.
struct Sum2 {
  Word b0, b1;
};
/// A count of 0..9 (a plane's 3x3 sum) in carry-save form: ones + 2 (twos_a + twos_b) + 4 fours.
struct Sum4 {
  Word ones, twos_a, twos_b, fours;
};
/// A count of 0..27 (the 3x3x3 sum, the cell included).
struct Sum5 {
  Word b0, b1, b2, b3, b4;
};

/// Each cell's left neighbour (x - 1) moved into its bit; `before` is the word to the left.
LIFEBENCH_HOST_DEVICE Word from_left(Word before, Word word) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_l(before, word, 1);
#else
  return (word << 1U) | (before >> 31U);
#endif
}

/// Each cell's right neighbour (x + 1) moved into its bit; `after` is the word to the right.
LIFEBENCH_HOST_DEVICE Word from_right(Word word, Word after) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(word, after, 1);
#else
  return (word >> 1U) | (after << 31U);
#endif
}

/// Full adder of three bit-planes: one LOP3 for the sum, one for the carry.
LIFEBENCH_HOST_DEVICE void full_add(Word a, Word b, Word c, Word& sum, Word& carry) {
  sum = a ^ b ^ c;
  carry = (a & b) | (c & (a ^ b));
}

/// Cells x - 1, x, x + 1 of one row: 2 funnel shifts, 2 LOP3.
LIFEBENCH_HOST_DEVICE Sum2 row_sum(Word before, Word word, Word after) {
  Sum2 s{};
  full_add(from_left(before, word), word, from_right(word, after), s.b0, s.b1);
  return s;
}

/// Three row sums (rows y - 1, y, y + 1), 0..9, left in carry-save form: two full
/// adders, 4 LOP3. Resolving the carries here would cost 4 more for each plane sum,
/// while cube_sum() absorbs them for 1 more per output.
LIFEBENCH_HOST_DEVICE Sum4 plane_sum(const Sum2& a, const Sum2& b, const Sum2& c) {
  Sum4 s{};
  full_add(a.b0, b.b0, c.b0, s.ones, s.twos_a);
  full_add(a.b1, b.b1, c.b1, s.twos_b, s.fours);
  return s;
}

/// Three plane sums (planes z - 1, z, z + 1): 0..27, a compressor tree of seven full
/// adders and one half adder, 16 LOP3.
LIFEBENCH_HOST_DEVICE Sum5 cube_sum(const Sum4& a, const Sum4& b, const Sum4& c) {
  Sum5 s{};
  // Weight 1: three bits.
  Word to2 = 0;
  full_add(a.ones, b.ones, c.ones, s.b0, to2);
  // Weight 2: six bits and the carry.
  Word x1 = 0;
  Word x2 = 0;
  Word to4a = 0;
  Word to4b = 0;
  Word to4c = 0;
  full_add(a.twos_a, a.twos_b, b.twos_a, x1, to4a);
  full_add(b.twos_b, c.twos_a, c.twos_b, x2, to4b);
  full_add(x1, x2, to2, s.b1, to4c);
  // Weight 4: three bits and three carries.
  Word y1 = 0;
  Word y2 = 0;
  Word to8a = 0;
  Word to8b = 0;
  full_add(a.fours, b.fours, c.fours, y1, to8a);
  full_add(to4a, to4b, to4c, y2, to8b);
  s.b2 = y1 ^ y2;
  const Word to8c = y1 & y2;
  // Weight 8: three carries; their carry is weight 16 (the sum is below 32).
  full_add(to8a, to8b, to8c, s.b3, s.b4);
  return s;
}

/// `one` where `bit` is set, else `zero`: one LOP3.
LIFEBENCH_HOST_DEVICE Word mux(Word bit, Word zero, Word one) {
  return (zero & ~bit) | (one & bit);
}

/// Cells for which bit t of `table` is set, t the 5-bit count: a Shannon expansion
/// on b0 (constant leaves) then b1 ... b4, 31 multiplexers at most. With `table`
/// a compile-time constant the compiler folds the constant leaves away.
LIFEBENCH_HOST_DEVICE Word select(std::uint32_t table, const Sum5& t) {
  Word level[16];
  for (std::size_t i = 0; i < 16; ++i) {
    const Word even = Word{0} - ((table >> (2 * i)) & 1U);
    const Word odd = Word{0} - ((table >> (2 * i + 1)) & 1U);
    level[i] = mux(t.b0, even, odd);
  }
  for (std::size_t i = 0; i < 8; ++i)
    level[i] = mux(t.b1, level[2 * i], level[2 * i + 1]);
  for (std::size_t i = 0; i < 4; ++i)
    level[i] = mux(t.b2, level[2 * i], level[2 * i + 1]);
  for (std::size_t i = 0; i < 2; ++i)
    level[i] = mux(t.b3, level[2 * i], level[2 * i + 1]);
  return mux(t.b4, level[0], level[1]);
}

/// Any 3D B/S rule compiled into tables over the 27-sum t = neighbours + self:
/// a dead cell with n neighbours has t = n, a live one t = n + 1.
struct AnyRule {
  std::uint32_t born;  ///< bit t: a dead cell with count t is born
  std::uint32_t keeps; ///< bit t: a live cell with count t survives

  static constexpr AnyRule from(std::uint32_t birth, std::uint32_t survive) {
    constexpr std::uint32_t counts = (1U << 27) - 1; // 0..26 neighbours
    return {birth & counts, (survive & counts) << 1};
  }
  LIFEBENCH_HOST_DEVICE Word operator()(const Sum5& t, Word self) const {
    return (self & select(keeps, t)) | (~self & select(born, t));
  }
};

/// B6/S567 by hand: born at t = 6, kept at t = 6, 7, 8 (00110, 00111, 01000). 6 LOP3.
struct RuleB6S567 {
  static constexpr std::uint32_t birth = 1U << 6;
  static constexpr std::uint32_t survive = (1U << 5) | (1U << 6) | (1U << 7);
  LIFEBENCH_HOST_DEVICE Word operator()(const Sum5& t, Word self) const {
    const Word six_or_seven = ~t.b4 & ~t.b3 & t.b2 & t.b1;
    const Word eight = ~t.b4 & t.b3 & ~t.b2 & ~t.b1 & ~t.b0;
    return (six_or_seven & (~t.b0 | self)) | (eight & self);
  }
};

/// A cube of side `side` (a multiple of 32), packed as lifebench::pack_rows packs
/// it: word w of row y of plane z at (z * side + y) * words + w.
struct Cube {
  int side;
  int words; ///< side / 32
  [[nodiscard]] LIFEBENCH_HOST_DEVICE std::size_t plane_words() const {
    return static_cast<std::size_t>(side) * static_cast<std::size_t>(words);
  }
  /// Rows of 1, 2, 4 ... 32 words (sides 32, 64 ... 1024): whole rows fill a warp's lanes,
  /// so that a thread takes its x neighbours from the lanes beside it.
  [[nodiscard]] LIFEBENCH_HOST_DEVICE bool whole_rows_in_warp() const {
    return words <= 32 && 32 % words == 0;
  }
};

/// Why a width x height x depth grid cannot be a Cube, or nullptr.
inline const char* unsupported_shape(std::int64_t width, std::int64_t height, std::int64_t depth) {
  if (width != height || width != depth) return "the grid must be a cube (M x M x M)";
  if (width % word_bits != 0) {
    return "the side M must be a multiple of 32 (32 cells per 32-bit word along x)";
  }
  return nullptr;
}

/// One plane's xy-sums for a strip of Rows rows, and the strip's own words.
template <int Rows> struct PlaneSums {
  Sum4 sum[Rows];
  Word self[Rows];
};

/// base + words, forced on the device into one wide multiply-add (IMAD.WIDE, on the
/// FMA pipe): left to itself the compiler hoists the sign extension of every offset
/// out of the walk and spends four integer instructions on each address.
template <class W> LIFEBENCH_HOST_DEVICE W* offset(W* base, int words) {
#if defined(__CUDA_ARCH__)
  W* address = nullptr;
  asm("mad.wide.s32 %0, %1, 4, %2;" : "=l"(address) : "r"(words), "l"(base));
  return address;
#else
  return base + words;
#endif
}

/// A read-only load (LDG.CONSTANT on the device: an address from offset() has lost its
/// address space).
LIFEBENCH_HOST_DEVICE Word load(const Word* word) {
#if defined(__CUDA_ARCH__)
  return __ldg(word);
#else
  return *word;
#endif
}

/// The fixed part of a column walk: the words it reads in every plane. With Shuffle
/// (device only; rows of 1, 2, 4 ... 32 words, a warp's lanes on consecutive words of
/// whole rows) a thread loads only its own words and takes its x - 1 and x + 1
/// neighbours from the lanes beside it (wrapped within the row): one load and one
/// address per row instead of three. On the host Shuffle changes nothing.
template <bool Torus, int Rows, bool Shuffle = false> struct Strip {
  /// Word offset within a plane of the thread's first word read (row y0 - 1, word w).
  unsigned origin = 0;
  /// Word offsets from there of rows y0 - 1 ... y0 + Rows, words w - 1, w, w + 1 (wrapped
  /// on a torus): from a per-thread origin pointer each address is one wide multiply-add,
  /// from the plane pointer (uniform, in uniform registers) it costs three instructions.
  int at[Rows + 2][3]{};
  bool has_left, has_right; ///< dead boundary: false at the cube's faces
  bool has_row[Rows + 2]{}; ///< dead boundary: false outside the cube
  int word;                 ///< w, the lane's index within its row's group of lanes
  int words;                ///< words per row, the width of a group of lanes
  unsigned lanes;           ///< the warp's lanes that take part in the shuffles

  LIFEBENCH_HOST_DEVICE Strip(const Cube& cube, int w, int y0, unsigned warp_lanes)
      : has_left(Torus || w > 0), has_right(Torus || w + 1 < cube.words), word(w),
        words(cube.words), lanes(warp_lanes) {
    const int left = w == 0 ? cube.words - 1 : w - 1;
    const int right = w + 1 == cube.words ? 0 : w + 1;
    const int first = y0 == 0 ? cube.side - 1 : y0 - 1;
    origin = static_cast<unsigned>(first * cube.words + w);
    for (int r = 0; r < Rows + 2; ++r) {
      int y = y0 - 1 + r;
      has_row[r] = Torus || (y >= 0 && y < cube.side);
      y = y < 0 ? y + cube.side : (y >= cube.side ? y - cube.side : y);
      at[r][0] = y * cube.words + left - static_cast<int>(origin);
      at[r][1] = y * cube.words + w - static_cast<int>(origin);
      at[r][2] = y * cube.words + right - static_cast<int>(origin);
    }
  }

  /// xy-sums of plane `plane` (its first word); nullptr: a dead plane outside the cube.
  /// Words outside a dead boundary are read at wrapped offsets and replaced by 0,
  /// which costs a select instead of a divergent branch.
  LIFEBENCH_HOST_DEVICE void sums(const Word* plane, PlaneSums<Rows>& out) const {
    if (!Torus && plane == nullptr) {
      for (int r = 0; r < Rows; ++r)
        out.sum[r] = Sum4{0, 0, 0, 0};
      return;
    }
    const Word* from = plane + origin;
    Sum2 rows[Rows + 2];
    for (int r = 0; r < Rows + 2; ++r) {
      const Word middle = load(offset(from, at[r][1]));
      Word before = 0;
      Word after = 0;
#if defined(__CUDA_ARCH__)
      if constexpr (Shuffle) {
        before = __shfl_sync(lanes, middle, word - 1, words);
        after = __shfl_sync(lanes, middle, word + 1, words);
      } else {
        before = load(offset(from, at[r][0]));
        after = load(offset(from, at[r][2]));
      }
#else
      before = load(offset(from, at[r][0]));
      after = load(offset(from, at[r][2]));
#endif
      if (!Torus) {
        before = has_left ? before : 0;
        after = has_right ? after : 0;
      }
      rows[r] = row_sum(before, middle, after);
      if (!Torus && !has_row[r]) rows[r] = Sum2{0, 0};
      if (r >= 1 && r <= Rows) out.self[r - 1] = middle;
    }
    for (int r = 0; r < Rows; ++r)
      out.sum[r] = plane_sum(rows[r], rows[r + 1], rows[r + 2]);
  }
};

/// One output plane z from the xy-sums of planes z - 1 (lo), z (mid), z + 1 (hi),
/// after filling `hi` from plane z + 1 of `in`.
template <bool Torus, int Rows, bool Shuffle, class RuleFn>
LIFEBENCH_HOST_DEVICE void walk_step(const Word* in, Word* out, const Cube& cube,
                                     const Strip<Torus, Rows, Shuffle>& strip, int z,
                                     const RuleFn& rule, const PlaneSums<Rows>& lo,
                                     const PlaneSums<Rows>& mid, PlaneSums<Rows>& hi) {
  int above = z + 1;
  const bool inside = Torus || above < cube.side;
  if (above == cube.side) above = 0;
  strip.sums(inside ? in + static_cast<std::size_t>(above) * cube.plane_words() : nullptr, hi);
  Word* to = out + static_cast<std::size_t>(z) * cube.plane_words() + strip.origin;
  for (int r = 0; r < Rows; ++r) {
    *offset(to, strip.at[r + 1][1]) = rule(cube_sum(lo.sum[r], mid.sum[r], hi.sum[r]), mid.self[r]);
  }
}

/// Next state of word w of rows y0 ... y0 + Rows - 1 in planes z0 ... z1 - 1:
/// the work of one CUDA thread. y0 + Rows <= side and 0 <= z0 < z1 <= side. With
/// Shuffle, `lanes` are the lanes of the warp running walks of the same planes.
template <bool Torus, int Rows, bool Shuffle = false, class RuleFn>
LIFEBENCH_HOST_DEVICE void column_walk(const Word* in, Word* out, const Cube& cube, int w, int y0,
                                       int z0, int z1, const RuleFn& rule,
                                       unsigned lanes = 0xffffffffU) {
  const Strip<Torus, Rows, Shuffle> strip(cube, w, y0, lanes);
  // Three rotating windows, unrolled by three so that no sums are copied.
  PlaneSums<Rows> a{};
  PlaneSums<Rows> b{};
  PlaneSums<Rows> c{};
  const int below = z0 == 0 ? cube.side - 1 : z0 - 1;
  strip.sums(Torus || z0 > 0 ? in + static_cast<std::size_t>(below) * cube.plane_words() : nullptr,
             a);
  strip.sums(in + static_cast<std::size_t>(z0) * cube.plane_words(), b);
  int z = z0;
  for (; z + 3 <= z1; z += 3) {
    walk_step(in, out, cube, strip, z, rule, a, b, c);
    walk_step(in, out, cube, strip, z + 1, rule, b, c, a);
    walk_step(in, out, cube, strip, z + 2, rule, c, a, b);
  }
  if (z < z1) walk_step(in, out, cube, strip, z, rule, a, b, c);
  if (z + 1 < z1) walk_step(in, out, cube, strip, z + 1, rule, b, c, a);
}

/// Calls f(std::bool_constant<Torus>{}, std::integral_constant<int, Rows>{}, rule) with the
/// compiled variant for the problem: B6/S567 by hand, any other rule through AnyRule; rows 1,
/// 2 or 4 (anything else is 4: the callers' axes allow only these).
template <class F>
void with_variant(bool torus, int rows, std::uint32_t birth, std::uint32_t survive, F&& f) {
  const auto with_rows = [&](auto torus_c, auto rule) {
    if (rows == 1) {
      f(torus_c, std::integral_constant<int, 1>{}, rule);
    } else if (rows == 2) {
      f(torus_c, std::integral_constant<int, 2>{}, rule);
    } else {
      f(torus_c, std::integral_constant<int, 4>{}, rule);
    }
  };
  const auto with_torus = [&](auto rule) {
    if (torus) {
      with_rows(std::true_type{}, rule);
    } else {
      with_rows(std::false_type{}, rule);
    }
  };
  if (birth == RuleB6S567::birth && survive == RuleB6S567::survive) {
    with_torus(RuleB6S567{});
  } else {
    with_torus(AnyRule::from(birth, survive));
  }
}

} // namespace lifebench::bitsliced3d
