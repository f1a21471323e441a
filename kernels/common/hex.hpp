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

  static RuntimeRule make(std::uint32_t birth, std::uint32_t survive) {
    RuntimeRule rule{};
    for (unsigned c = 0; c < 7; ++c) {
      const Word born = ((birth >> c) & 1U) != 0 ? static_cast<Word>(~Word{0}) : Word{0};
      const Word kept = ((survive >> c) & 1U) != 0 ? static_cast<Word>(~Word{0}) : Word{0};
      rule.base[c] = born;
      rule.flip[c] = static_cast<Word>(born ^ kept);
    }
    return rule;
  }
  [[nodiscard]] LIFEBENCH_HOST_DEVICE Word leaf(unsigned count, Word alive) const {
    return static_cast<Word>(base[count] ^ (alive & flip[count]));
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
