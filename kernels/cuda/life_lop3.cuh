// B3/S23 on 32 cells at once (one bit per cell, LSB = leftmost cell) as chains of
// LOP3 instructions: the two sequences of seed 000 ("LOP3": eleven found by hand,
// ten found by a SAT solver) over the eight neighbour words, and our per-row
// variant that sums each row horizontally once and combines three row sums.
// Every function here also runs on the host, so the logic is testable there.
#pragma once

#include "common/host_device.hpp"
#include "common/sat10.hpp"
#include "cuda/lop3.cuh"

#include <cstdint>

namespace lifebench::cuda::life {

// Truth tables in lop3's convention (a = 0xF0, b = 0xCC, c = 0xAA).
inline constexpr std::uint8_t xor3 = 0x96;     // a ^ b ^ c: sum bit of a full adder
inline constexpr std::uint8_t majority = 0xE8; // at least two of a, b, c: its carry

/// Cells' west neighbours: bit i of the result is bit i-1 of `x`, bit 0 is bit 31
/// of `left`, the word of the 32 cells to the left.
LIFEBENCH_HOST_DEVICE std::uint32_t west(std::uint32_t x, std::uint32_t left) {
#ifdef __CUDA_ARCH__
  return __funnelshift_l(left, x, 1);
#else
  return (x << 1) | (left >> 31);
#endif
}

/// Cells' east neighbours: bit i is bit i+1 of `x`, bit 31 is bit 0 of `right`.
LIFEBENCH_HOST_DEVICE std::uint32_t east(std::uint32_t x, std::uint32_t right) {
#ifdef __CUDA_ARCH__
  return __funnelshift_r(x, right, 1);
#else
  return (x >> 1) | (right << 31);
#endif
}

/// west() as multiply-adds, (x * 2) + hi32(left * 2), for the FMA pipe rather than
/// the ALU pipe that LOP3 and shifts share. The kernel passes `two` as an argument,
/// so that the compiler cannot fold the multiplications back into shifts.
LIFEBENCH_HOST_DEVICE std::uint32_t west_multiply(std::uint32_t x, std::uint32_t left,
                                                  std::uint32_t two) {
#ifdef __CUDA_ARCH__
  return x * two + __umulhi(left, two);
#else
  return x * two + static_cast<std::uint32_t>((std::uint64_t{left} * two) >> 32);
#endif
}

/// east() as multiply-adds, hi32(x * 2^31) + right * 2^31; `half` = 2^31.
LIFEBENCH_HOST_DEVICE std::uint32_t east_multiply(std::uint32_t x, std::uint32_t right,
                                                  std::uint32_t half) {
#ifdef __CUDA_ARCH__
  return __umulhi(x, half) + right * half;
#else
  return static_cast<std::uint32_t>((std::uint64_t{x} * half) >> 32) + right * half;
#endif
}

/// The eight neighbour words of 32 cells, in the blog's names a0 ... a7 (any order:
/// both sequences treat them alike).
struct Neighbours {
  std::uint32_t a[8];
};

/// The six instructions both of seed 000's sequences start with: two full adders
/// of a0..a2 and a3..a5, then one of the first's sum bit with a6, a7. The count of
/// live neighbours is a9 + aA + 2 * (b0 + b1 + b2).
struct Reduced {
  std::uint32_t a9, aA, b0, b1, b2;
};

LIFEBENCH_HOST_DEVICE Reduced reduce(const Neighbours& n) {
  const std::uint32_t a8 = lop3<xor3>(n.a[2], n.a[1], n.a[0]);
  return {lop3<xor3>(n.a[5], n.a[4], n.a[3]), lop3<xor3>(a8, n.a[7], n.a[6]),
          lop3<majority>(n.a[2], n.a[1], n.a[0]), lop3<majority>(n.a[5], n.a[4], n.a[3]),
          lop3<majority>(a8, n.a[7], n.a[6])};
}

/// Seed 000's hand-written sequence, 11 LOP3: after reduce(), a third full adder of
/// the b's gives count = a9 + aA + 2*b3 + 4*c0; then "odd count or alive", "count
/// is 2 or 3" and "count below 4" decide the cell.
LIFEBENCH_HOST_DEVICE std::uint32_t step_human11(const Neighbours& n, std::uint32_t center) {
  const Reduced r = reduce(n);
  const std::uint32_t b3 = lop3<xor3>(r.b2, r.b1, r.b0);
  const std::uint32_t c0 = lop3<majority>(r.b2, r.b1, r.b0);
  const std::uint32_t parity = lop3<0xF6>(center, r.aA, r.a9); // center | (aA ^ a9)
  const std::uint32_t two_three = lop3<0x78>(b3, r.aA, r.a9);  // b3 ^ (aA & a9)
  return lop3<0x40>(parity, two_three, c0);                    // parity & two_three & ~c0
}

/// The last four instructions of seed 000's SAT-solver sequence, whose tables the
/// blog gives without explanation: the cell's next state from reduce()'s bits.
LIFEBENCH_HOST_DEVICE std::uint32_t sat10_decide(const Reduced& r, std::uint32_t center) {
  const std::uint32_t magic0 = lop3<sat10::kMagic0>(r.a9, r.aA, center);
  const std::uint32_t magic1 = lop3<sat10::kMagic1>(magic0, center, r.b2);
  const std::uint32_t magic2 = lop3<sat10::kMagic2>(magic1, r.b1, r.b0);
  return lop3<sat10::kNext>(magic2, magic0, magic1);
}

/// Seed 000's SAT-solver sequence, 10 LOP3: reduce(), then sat10_decide().
LIFEBENCH_HOST_DEVICE std::uint32_t step_sat10(const Neighbours& n, std::uint32_t center) {
  return sat10_decide(reduce(n), center);
}

/// The neighbour words of the 32 cells `mid` from the three rows' words and the
/// words left and right of them (up = the row above).
LIFEBENCH_HOST_DEVICE Neighbours neighbours(std::uint32_t up_left, std::uint32_t up,
                                            std::uint32_t up_right, std::uint32_t left,
                                            std::uint32_t mid, std::uint32_t right,
                                            std::uint32_t down_left, std::uint32_t down,
                                            std::uint32_t down_right) {
  return {{west(up, up_left), up, east(up, up_right), west(mid, left), east(mid, right),
           west(down, down_left), down, east(down, down_right)}};
}

/// A row's horizontal three-cell sums (west + self + east, 0..3) as two bit planes.
struct RowSum {
  std::uint32_t ones;
  std::uint32_t twos;
};

/// 2 LOP3 once the west and east words are known.
LIFEBENCH_HOST_DEVICE RowSum row_sum(std::uint32_t west_word, std::uint32_t x,
                                     std::uint32_t east_word) {
  return {lop3<xor3>(west_word, x, east_word), lop3<majority>(west_word, x, east_word)};
}

/// The SAT-solver sequence as the blog's final kernel runs it, 8 LOP3 a word and row:
/// reduce()'s first two full adders take the row above and the row below (any order
/// of the eight neighbours gives the same cells), and those are the rows' three-cell
/// sums, row_sum(), which a kernel stepping consecutive rows computes once per row
/// and uses for the row below it and the row above it. In two halves, for a kernel
/// that holds a row until the row below it arrives: sat10_begin() takes the row above's
/// sums and the cells' own west and east words (2 LOP3), sat10_end() the row below's
/// sums (4 LOP3).
struct Sat10Begun {
  std::uint32_t aA, b0, b2;
};

LIFEBENCH_HOST_DEVICE Sat10Begun sat10_begin(RowSum up, std::uint32_t west_word,
                                             std::uint32_t east_word) {
  return {lop3<xor3>(up.ones, west_word, east_word), up.twos,
          lop3<majority>(up.ones, west_word, east_word)};
}

LIFEBENCH_HOST_DEVICE std::uint32_t sat10_end(Sat10Begun begun, RowSum down, std::uint32_t center) {
  return sat10_decide(
      {.a9 = down.ones, .aA = begun.aA, .b0 = begun.b0, .b1 = down.twos, .b2 = begun.b2}, center);
}

LIFEBENCH_HOST_DEVICE std::uint32_t step_sat10_rows(RowSum up, std::uint32_t west_word,
                                                    std::uint32_t east_word, RowSum down,
                                                    std::uint32_t center) {
  return sat10_end(sat10_begin(up, west_word, east_word), down, center);
}

/// Ours: the next state from the row sums of the rows above, at and below the
/// cells, 7 LOP3. The 3x3 total (centre included) is T = u0 + 2*(u1 + v0) + 4*v1
/// with (u0, u1) the full-adder sum of the ones planes and (v0, v1) that of the
/// twos planes; B3/S23 is T == 3, or T == 4 and alive. `one_of` = exactly one of
/// u0, u1, v1; `total` is then T == 3 when u0 is set and T == 4 (or T == 0) when it
/// is clear, and the cell lives if `total` and (u0 or alive). T == 0 with the cell
/// alive cannot happen (the cell is part of its own row's sum), which is what lets
/// three LOP3 decide instead of four. Found by exhaustive search over the last three.
LIFEBENCH_HOST_DEVICE std::uint32_t step_row_sums(RowSum up, RowSum mid, RowSum down,
                                                  std::uint32_t center) {
  const std::uint32_t u0 = lop3<xor3>(up.ones, mid.ones, down.ones);
  const std::uint32_t u1 = lop3<majority>(up.ones, mid.ones, down.ones);
  const std::uint32_t v0 = lop3<xor3>(up.twos, mid.twos, down.twos);
  const std::uint32_t v1 = lop3<majority>(up.twos, mid.twos, down.twos);
  constexpr std::uint8_t a = lop3_a;
  constexpr std::uint8_t b = lop3_b;
  constexpr std::uint8_t c = lop3_c;
  const std::uint32_t one_of = lop3<(a & ~b & ~c) | (~a & b & ~c) | (~a & ~b & c)>(u0, u1, v1);
  // (v0, v1, one_of) = (0, 0, 0), (0, 1, 1) or (1, 0, 1)
  const std::uint32_t total =
      lop3<((~a & ~b & ~c) | (~a & b & c) | (a & ~b & c)) & 0xFF>(v0, v1, one_of);
  return lop3<(a | b) & c>(u0, center, total);
}

/// First index that tile `tile` of tiles writing `count` consecutive rows (or
/// words) each writes, along an axis of `size`. The last tile is moved back to end
/// at the axis' end (its overlap with the one before is written twice, the same
/// values); an axis shorter than a tile is covered, wrapped around, by tile 0.
LIFEBENCH_HOST_DEVICE unsigned first_output(unsigned tile, unsigned count, unsigned size) {
  if (size <= count) return 0;
  const unsigned first = tile * count;
  return first + count > size ? size - count : first;
}

/// `index` (possibly negative or past the end) wrapped onto the torus axis of `size`.
LIFEBENCH_HOST_DEVICE unsigned wrap(long long index, unsigned size) {
  const long long n = size;
  return static_cast<unsigned>(((index % n) + n) % n);
}

} // namespace lifebench::cuda::life
