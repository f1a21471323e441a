// Hexagonal (six-neighbour) bit logic shared by the hex-* experiments, for the
// host and the device. Golly's convention: on the square array the north-east
// (x+1, y-1) and south-west (x-1, y+1) cells are not neighbours, so cell (x, y)
// sees (x-1, y-1), (x, y-1), (x-1, y), (x+1, y), (x, y+1), (x+1, y+1).
// Bit layouts follow lifebench/packed.hpp: least significant bit = leftmost cell.
#pragma once

#include "common/host_device.hpp"

#include <array>
#include <cstdint>

namespace lifebench::hex {

/// Next state of one cell: bit `count` of the survival mask (alive) or birth mask (dead).
LIFEBENCH_HOST_DEVICE unsigned next_state(unsigned alive, unsigned count, std::uint32_t birth,
                                          std::uint32_t survive) {
  return ((alive != 0U ? survive : birth) >> count) & 1U;
}

/// The seed's rule table: next state by count + 7 * alive (14 entries).
inline std::array<std::uint8_t, 14> next_state_table(std::uint32_t birth, std::uint32_t survive) {
  std::array<std::uint8_t, 14> table{};
  for (unsigned alive = 0; alive < 2; ++alive) {
    for (unsigned count = 0; count < 7; ++count) {
      table[count + 7 * alive] =
          static_cast<std::uint8_t>(next_state(alive, count, birth, survive));
    }
  }
  return table;
}

// ---------------------------------------------------------------------------
// Four cells from a 16-bit neighbourhood index (hex-cuda-lut). For the cells at
// columns c .. c+3 of row y the index holds, least significant bit first,
//   bits  0..4   row y-1, columns c-1 .. c+3
//   bits  5..10  row y,   columns c-1 .. c+4
//   bits 11..15  row y+1, columns c   .. c+4
// so cell c+j has its centre at bit 6+j and its neighbours at bits j, j+1, 5+j,
// 7+j, 11+j and 12+j. Entry bit j is the next state of cell c+j.

inline constexpr int lut_index_bits = 16;

/// Table entry for `index` under the rule (built on the host, once per rule).
LIFEBENCH_HOST_DEVICE std::uint8_t lut4_entry(std::uint32_t index, std::uint32_t birth,
                                              std::uint32_t survive) {
  unsigned out = 0;
  for (unsigned j = 0; j < 4; ++j) {
    const std::uint32_t i = index >> j;
    const unsigned count = (i & 1U) + ((i >> 1) & 1U) + ((i >> 5) & 1U) + ((i >> 7) & 1U) +
                           ((i >> 11) & 1U) + ((i >> 12) & 1U);
    out |= next_state((i >> 6) & 1U, count, birth, survive) << j;
  }
  return static_cast<std::uint8_t>(out);
}

/// The two indices of a byte of 8 cells. Each window holds a row's left neighbour
/// byte in bits 0..7, the row's own byte (columns c .. c+7) in 8..15 and the right
/// neighbour byte in 16..23; `low` covers cells c .. c+3, `high` c+4 .. c+7.
struct LutIndices {
  std::uint32_t low;
  std::uint32_t high;
};
LIFEBENCH_HOST_DEVICE LutIndices lut_indices(std::uint32_t above, std::uint32_t middle,
                                             std::uint32_t below) {
  return {((above >> 7) & 0x1FU) | (((middle >> 7) & 0x3FU) << 5) | (((below >> 8) & 0x1FU) << 11),
          ((above >> 11) & 0x1FU) | (((middle >> 11) & 0x3FU) << 5) |
              (((below >> 12) & 0x1FU) << 11)};
}

/// A row's 24-bit window from its three bytes.
LIFEBENCH_HOST_DEVICE std::uint32_t lut_window(std::uint32_t left, std::uint32_t centre,
                                               std::uint32_t right) {
  return left | (centre << 8) | (right << 16);
}

// ---------------------------------------------------------------------------
// Eight cells from a 28-bit index (hex-cuda-lut8): for the cells at columns
// c .. c+7, bits 0..8 hold row y-1 columns c-1 .. c+7, bits 9..18 row y columns
// c-1 .. c+8, bits 19..27 row y+1 columns c .. c+8. Entry bit j: cell c+j.

inline constexpr int lut8_index_bits = 28;

/// The 28-bit index of a byte from its rows' windows (see lut_window).
LIFEBENCH_HOST_DEVICE std::uint32_t lut8_index(std::uint32_t above, std::uint32_t middle,
                                               std::uint32_t below) {
  return ((above >> 7) & 0x1FFU) | (((middle >> 7) & 0x3FFU) << 9) |
         (((below >> 8) & 0x1FFU) << 19);
}

/// Table entry for a 28-bit index: its two halves as 16-bit indices of lut4_entry.
LIFEBENCH_HOST_DEVICE std::uint8_t lut8_entry(std::uint32_t index, std::uint32_t birth,
                                              std::uint32_t survive) {
  const auto half = [index](unsigned first) {
    return ((index >> first) & 0x1FU) | (((index >> (9 + first)) & 0x3FU) << 5) |
           (((index >> (19 + first)) & 0x1FU) << 11);
  };
  return static_cast<std::uint8_t>(lut4_entry(half(0), birth, survive) |
                                   (lut4_entry(half(4), birth, survive) << 4));
}

// ---------------------------------------------------------------------------
// Bit-sliced words (hex-cuda-bitsliced): every bit of a word is one cell.

/// The word with every cell's left neighbour in the cell's bit: `previous` is the
/// word to the left (its last cell enters at bit 0).
template <class Word> LIFEBENCH_HOST_DEVICE Word from_left(Word word, Word previous) {
  return static_cast<Word>((word << 1) | (previous >> (sizeof(Word) * 8 - 1)));
}
/// The word with every cell's right neighbour in the cell's bit: `next` is the word
/// to the right (its first cell enters at the top bit).
template <class Word> LIFEBENCH_HOST_DEVICE Word from_right(Word word, Word next) {
  return static_cast<Word>((word >> 1) | (next << (sizeof(Word) * 8 - 1)));
}

/// Any hex rule at run time: the next state of count c is one of 0, 1, alive and
/// not alive, i.e. base[c] ^ (alive & flip[c]) with all-zero or all-one words.
template <class Word> struct RuntimeRule {
  Word base[7];
  Word flip[7];
  Word factor[7]; // 0 where flip is 0; else 1 (alive) or, where base is all ones, -1 (not alive)

  static RuntimeRule make(std::uint32_t birth, std::uint32_t survive) {
    RuntimeRule rule{};
    for (unsigned c = 0; c < 7; ++c) {
      const Word born = ((birth >> c) & 1U) != 0 ? static_cast<Word>(~Word{0}) : Word{0};
      const Word kept = ((survive >> c) & 1U) != 0 ? static_cast<Word>(~Word{0}) : Word{0};
      rule.base[c] = born;
      rule.flip[c] = static_cast<Word>(born ^ kept);
      rule.factor[c] = born == kept ? Word{0} : born != 0 ? static_cast<Word>(~Word{0}) : Word{1};
    }
    return rule;
  }
  [[nodiscard]] LIFEBENCH_HOST_DEVICE Word leaf(unsigned count, Word alive) const {
    return static_cast<Word>(base[count] ^ (alive & flip[count]));
  }
  /// The same leaf as a multiply-add, alive * factor + base with factor 0, 1 or -1
  /// (x * -1 - 1 = ~x): on a GPU an integer multiply-add runs beside the logic unit,
  /// which the count and the multiplexers keep busy.
  [[nodiscard]] LIFEBENCH_HOST_DEVICE Word leaf_madd(unsigned count, Word alive) const {
    return static_cast<Word>(alive * factor[count] + base[count]);
  }
};

/// One rule fixed at compile time (masks over counts 0..6): the same expression as
/// RuntimeRule with constant leaves, which the compiler folds into a few LOP3s.
template <std::uint32_t Birth, std::uint32_t Survive> struct StaticRule {
  static constexpr std::uint32_t birth = Birth;
  static constexpr std::uint32_t survive = Survive;
  template <class Word> LIFEBENCH_HOST_DEVICE static Word leaf(unsigned count, Word alive) {
    const bool born = ((Birth >> count) & 1U) != 0;
    const bool kept = ((Survive >> count) & 1U) != 0;
    if (born && kept) return static_cast<Word>(~Word{0});
    if (born) return static_cast<Word>(~alive);
    if (kept) return alive;
    return Word{0};
  }
};

template <class Word> LIFEBENCH_HOST_DEVICE Word mux(Word bit, Word if0, Word if1) {
  return static_cast<Word>(if0 ^ ((if0 ^ if1) & bit));
}

/// Next states of a word of cells from its six aligned neighbour words: the count
/// (0..6) in three bit-planes by two full adders, a half adder and a full adder,
/// then the rule as a multiplexer tree over the count's bits.
template <class Word, class Rule>
LIFEBENCH_HOST_DEVICE Word step_word(const Rule& rule, Word alive, Word n0, Word n1, Word n2,
                                     Word n3, Word n4, Word n5) {
  const Word s1 = n0 ^ n1 ^ n2;
  const Word c1 = (n0 & n1) | (n2 & (n0 ^ n1));
  const Word s2 = n3 ^ n4 ^ n5;
  const Word c2 = (n3 & n4) | (n5 & (n3 ^ n4));
  const Word b0 = s1 ^ s2;
  const Word c3 = s1 & s2;
  const Word b1 = c1 ^ c2 ^ c3;
  const Word b2 = (c1 & c2) | (c3 & (c1 ^ c2));
  // count = b0 + 2 b1 + 4 b2; 7 cannot occur, so its leaf repeats 6's.
  const Word l6 = rule.leaf(6, alive);
  const Word low = mux(b1, mux(b0, rule.leaf(0, alive), rule.leaf(1, alive)),
                       mux(b0, rule.leaf(2, alive), rule.leaf(3, alive)));
  const Word high = mux(b1, mux(b0, rule.leaf(4, alive), rule.leaf(5, alive)), l6);
  return mux(b2, low, high);
}

// ---------------------------------------------------------------------------
// The count only as far as the rule needs it. Two full adders of three neighbours
// each leave count = s1 + s2 + 2 (c1 + c2) in four words. A rule compiled in with a
// circuit of its own reads its next state from these four words and `alive`
// (B2/S34H and B245/S3H: four three-input operations, B2/SH: three); any other completes
// the count (b0, b1, b2: four more) and selects one of its seven leaves.

/// A three-input operation by its truth table (bit a*4 + b*2 + c of `Lut` is the
/// result for inputs a, b, c: LOP3's and PTX lop3's convention). On the device, 32-bit
/// words go through lop3 as written, so that the compiler keeps each circuit below as
/// found instead of re-deriving it from ands, ors and nots (which cost 7 operations
/// for B2/S34H's four).
template <std::uint8_t Lut, class Word> LIFEBENCH_HOST_DEVICE Word lop3(Word a, Word b, Word c) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Word) == 4) {
    std::uint32_t d;
    asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(Lut));
    return d;
  }
#endif
  Word out = 0;
  for (unsigned i = 0; i < 8; ++i) {
    if (((Lut >> i) & 1U) != 0) {
      out |= static_cast<Word>(((i & 4U) != 0 ? a : ~a) & ((i & 2U) != 0 ? b : ~b) &
                               ((i & 1U) != 0 ? c : ~c));
    }
  }
  return out;
}

template <class Word> struct Sums {
  Word s1; // n0 ^ n1 ^ n2
  Word c1; // majority of n0, n1, n2
  Word s2; // n3 ^ n4 ^ n5
  Word c2; // majority of n3, n4, n5
};

/// A full adder of three words: sum = a ^ b ^ c (0x96), carry = their majority (0xE8).
template <class Word> struct FullSum {
  Word sum;
  Word carry;
};

template <class Word> LIFEBENCH_HOST_DEVICE FullSum<Word> full_adder(Word a, Word b, Word c) {
  return {lop3<0x96>(a, b, c), lop3<0xE8>(a, b, c)};
}

template <class Word>
LIFEBENCH_HOST_DEVICE Sums<Word> neighbour_sums(Word n0, Word n1, Word n2, Word n3, Word n4,
                                                Word n5) {
  const FullSum<Word> first = full_adder(n0, n1, n2);
  const FullSum<Word> second = full_adder(n3, n4, n5);
  return {first.sum, first.carry, second.sum, second.carry};
}

/// The leaf of the count in the sums: the count's bits (b0 = s1 ^ s2, then a full
/// adder of c1, c2 and s1 & s2), then the multiplexer tree; `leaf(c)` is count c's.
template <class Word, class Leaf>
LIFEBENCH_HOST_DEVICE Word select_leaf(const Sums<Word>& sums, Leaf leaf) {
  const Word b0 = sums.s1 ^ sums.s2;
  const Word c3 = sums.s1 & sums.s2;
  const Word b1 = lop3<0x96>(sums.c1, sums.c2, c3);
  const Word b2 = lop3<0xE8>(sums.c1, sums.c2, c3);
  // 0xCA: a ? b : c.
  const auto select = [](Word bit, Word if1, Word if0) { return lop3<0xCA>(bit, if1, if0); };
  const Word low = select(b1, select(b0, leaf(3U), leaf(2U)), select(b0, leaf(1U), leaf(0U)));
  const Word high = select(b1, leaf(6U), select(b0, leaf(5U), leaf(4U)));
  return select(b2, high, low);
}

/// Any rule at run time: leaves as multiply-adds (RuntimeRule::leaf_madd).
template <class Word>
LIFEBENCH_HOST_DEVICE Word next_from_sums(const RuntimeRule<Word>& rule, Word alive,
                                          const Sums<Word>& sums) {
  return select_leaf(sums, [&](unsigned count) { return rule.leaf_madd(count, alive); });
}

/// A rule compiled in. With e = s1 + s2 and f = c1 + c2 (count = e + 2 f):
/// - B2/S34H: born at (e, f) = (2, 0), (0, 1); survives at (1, 1), (2, 1), (0, 2).
///   g = s1 & s2 & !c1 | !s1 & !s2 & c1, h = alive ^ (s1 | s2), u = c1 ^ c2, and
///   next = !h & u | g & h & !u (found by an exhaustive search over circuits of three
///   inputs an operation: none has three operations).
/// - B2/SH: born at (2, 0), (0, 1). x = !alive & (s1 == s2), y = s1 ? !c1 & c2 : !c2,
///   next = x & (c1 == y).
/// - B245/S3H: born at (2, 0), (0, 1), (2, 1), (0, 2), (1, 2); survives at (1, 1).
///   u = c1 ^ c2, p = s1 != s2 | !s1 & !s2 & !u, q = u | !c1 & !c2 & !alive,
///   next = alive ? p & q : p ^ q.
/// - others: the multiplexer tree over constant leaves, folded by the compiler.
template <class Word, std::uint32_t Birth, std::uint32_t Survive>
LIFEBENCH_HOST_DEVICE Word next_from_sums(const StaticRule<Birth, Survive>& rule, Word alive,
                                          const Sums<Word>& sums) {
  const Word s1 = sums.s1;
  const Word s2 = sums.s2;
  const Word c1 = sums.c1;
  const Word c2 = sums.c2;
  if constexpr (Birth == (1U << 2) && Survive == ((1U << 3) | (1U << 4))) {
    const Word g = lop3<0x42>(s1, s2, c1);    // s1 & s2 & !c1 | !s1 & !s2 & c1
    const Word h = lop3<0x56>(s1, s2, alive); // alive ^ (s1 | s2)
    const Word u = c1 ^ c2;
    return lop3<0x62>(g, h, u); // !h & u | g & h & !u
  } else if constexpr (Birth == (1U << 2) && Survive == 0U) {
    const Word x = lop3<0x41>(s1, s2, alive); // !alive & (s1 == s2)
    const Word y = lop3<0x25>(s1, c1, c2);    // s1 ? !c1 & c2 : !c2
    return lop3<0x84>(c1, x, y);              // x & (c1 == y)
  } else if constexpr (Birth == ((1U << 2) | (1U << 4) | (1U << 5)) && Survive == (1U << 3)) {
    const Word u = c1 ^ c2;
    const Word p = lop3<0x3D>(s1, s2, u);     // s1 != s2 | !s1 & !s2 & !u
    const Word q = lop3<0x3D>(c1, c2, alive); // u | !c1 & !c2 & !alive
    return lop3<0x86>(alive, p, q);           // alive ? p & q : p ^ q
  } else {
    return select_leaf(sums, [&](unsigned count) { return rule.leaf(count, alive); });
  }
}

/// Next states of a word of cells from its six aligned neighbour words, by the sums.
template <class Word, class Rule>
LIFEBENCH_HOST_DEVICE Word step_word_sums(const Rule& rule, Word alive, Word n0, Word n1, Word n2,
                                          Word n3, Word n4, Word n5) {
  return next_from_sums(rule, alive, neighbour_sums(n0, n1, n2, n3, n4, n5));
}

/// Next states of a word of row y from the rows above and below: `*_left` and
/// `*_right` are the words beside each (for the cells shifted in at the ends).
template <class Word, class Rule>
LIFEBENCH_HOST_DEVICE Word step_word_rows(const Rule& rule, Word above, Word above_left,
                                          Word middle, Word middle_left, Word middle_right,
                                          Word below, Word below_right) {
  return step_word(rule, middle, above, from_left(above, above_left),
                   from_left(middle, middle_left), from_right(middle, middle_right), below,
                   from_right(below, below_right));
}

} // namespace lifebench::hex
