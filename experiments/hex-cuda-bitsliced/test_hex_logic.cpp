// The host side of the hex kernels' bit logic (kernels/common/hex.hpp) against
// the reference: the bit-sliced word step (compiled and run-time rules, by the full
// count and by the adders' sums) and the 16-bit and 28-bit table indices, one
// generation at a time on whole grids; and the sums' circuits on every neighbourhood.
#include "common/hex.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace lifebench {
namespace {

/// Word (x, y) of rows packed into `Word`s: wrapped on a torus, 0 outside a plane.
template <class Word> struct Words {
  const Problem& problem;
  std::vector<Word> words;
  std::int64_t columns = words_per_row<Word>(problem.shape.width);

  [[nodiscard]] std::uint64_t at(std::int64_t x, std::int64_t y) const {
    const std::int64_t h = problem.shape.height;
    if (problem.boundary == Boundary::dead && (x < 0 || x >= columns || y < 0 || y >= h)) {
      return 0;
    }
    return words[static_cast<std::size_t>(((y + h) % h) * columns + (x + columns) % columns)];
  }
  /// The cells of the last word past the width (they stay dead on a plane).
  [[nodiscard]] Word tail_mask() const {
    const auto tail = static_cast<unsigned>(problem.shape.width % (8 * sizeof(Word)));
    return tail == 0 ? static_cast<Word>(~Word{0}) : static_cast<Word>((Word{1} << tail) - 1);
  }
};

/// One generation by `next(words, x, y)` for every word of the grid.
template <class Word, class Next> Grid step(const Problem& problem, const Grid& grid, Next next) {
  const Words<Word> in{problem, pack_rows<Word>(grid)};
  std::vector<Word> out(in.words.size());
  for (std::int64_t y = 0; y < problem.shape.height; ++y) {
    for (std::int64_t x = 0; x < in.columns; ++x) {
      Word word = next(in, x, y);
      if (x + 1 == in.columns) word &= in.tail_mask();
      out[static_cast<std::size_t>(y * in.columns + x)] = word;
    }
  }
  Grid result(problem.shape);
  unpack_rows<Word>(out, result);
  return result;
}

/// One generation by hex::step_word (the full count and the multiplexer tree) or, with
/// `Sums`, by hex::step_word_sums (the count only as far as the rule needs it).
template <bool Sums = false, class Rule>
Grid bitsliced_step(const Problem& problem, const Grid& grid, Rule rule) {
  return step<std::uint64_t>(problem, grid, [&](const Words<std::uint64_t>& w, auto x, auto y) {
    const std::uint64_t alive = w.at(x, y);
    const std::uint64_t n[6] = {w.at(x, y - 1),
                                hex::from_left(w.at(x, y - 1), w.at(x - 1, y - 1)),
                                hex::from_left(w.at(x, y), w.at(x - 1, y)),
                                hex::from_right(w.at(x, y), w.at(x + 1, y)),
                                w.at(x, y + 1),
                                hex::from_right(w.at(x, y + 1), w.at(x + 1, y + 1))};
    if constexpr (Sums) {
      return hex::step_word_sums(rule, alive, n[0], n[1], n[2], n[3], n[4], n[5]);
    } else {
      return hex::step_word(rule, alive, n[0], n[1], n[2], n[3], n[4], n[5]);
    }
  });
}

template <bool Eight> Grid table_step(const Problem& problem, const Grid& grid) {
  const Rule& rule = problem.rule;
  return step<std::uint8_t>(problem, grid, [&](const Words<std::uint8_t>& w, auto x, auto y) {
    const auto window = [&](std::int64_t row) {
      return hex::lut_window(static_cast<std::uint32_t>(w.at(x - 1, row)),
                             static_cast<std::uint32_t>(w.at(x, row)),
                             static_cast<std::uint32_t>(w.at(x + 1, row)));
    };
    if constexpr (Eight) {
      return hex::lut8_entry(hex::lut8_index(window(y - 1), window(y), window(y + 1)), rule.birth,
                             rule.survive);
    } else {
      const hex::LutIndices index = hex::lut_indices(window(y - 1), window(y), window(y + 1));
      return static_cast<std::uint8_t>(
          hex::lut4_entry(index.low, rule.birth, rule.survive) |
          (hex::lut4_entry(index.high, rule.birth, rule.survive) << 4));
    }
  });
}

using B2S34 = hex::StaticRule<(1U << 2), (1U << 3) | (1U << 4)>;
using B245S3 = hex::StaticRule<(1U << 2) | (1U << 4) | (1U << 5), (1U << 3)>;
using B2S = hex::StaticRule<(1U << 2), 0U>;
using B13S2 = hex::StaticRule<(1U << 1) | (1U << 3), (1U << 2)>; // through the tree

/// The 128 neighbourhoods (six neighbours, then the cell) as bits of two words:
/// neighbourhood m is bit m % 64 of word m / 64, neighbour i set where bit i of m is.
template <class Word> struct Neighbourhoods {
  static constexpr unsigned bits = 8 * sizeof(Word);
  static constexpr unsigned words = 128 / bits;
  Word cell[7][words] = {};
  Neighbourhoods() {
    for (unsigned m = 0; m < 128; ++m) {
      for (unsigned i = 0; i < 7; ++i) {
        if (((m >> i) & 1U) != 0) cell[i][m / bits] |= static_cast<Word>(Word{1} << (m % bits));
      }
    }
  }
  /// Word `k` of the next states under the rule, by hex::next_state.
  [[nodiscard]] Word expected(unsigned k, std::uint32_t birth, std::uint32_t survive) const {
    Word out = 0;
    for (unsigned b = 0; b < bits; ++b) {
      const unsigned m = k * bits + b;
      const auto count = static_cast<unsigned>(__builtin_popcount(m & 63U));
      out |= static_cast<Word>(Word{hex::next_state(m >> 6, count, birth, survive)} << b);
    }
    return out;
  }
  /// Word `k` of the next states by hex::step_word_sums.
  template <class Rule> [[nodiscard]] Word sums(unsigned k, const Rule& rule) const {
    return hex::step_word_sums(rule, cell[6][k], cell[0][k], cell[1][k], cell[2][k], cell[3][k],
                               cell[4][k], cell[5][k]);
  }
};

template <class Word> void expect_every_rule_on_every_neighbourhood() {
  const Neighbourhoods<Word> all;
  int wrong = 0;
  for (std::uint32_t birth = 0; birth < 128; ++birth) {
    for (std::uint32_t survive = 0; survive < 128; ++survive) {
      const auto rule = hex::RuntimeRule<Word>::make(birth, survive);
      for (unsigned k = 0; k < all.words; ++k) {
        if (all.sums(k, rule) != all.expected(k, birth, survive) && wrong++ < 5) {
          ADD_FAILURE() << "B" << birth << "/S" << survive << " (masks), word " << k;
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0);
  const auto compiled = [&](auto rule) {
    for (unsigned k = 0; k < all.words; ++k) {
      EXPECT_EQ(all.sums(k, rule), all.expected(k, rule.birth, rule.survive))
          << "B" << rule.birth << "/S" << rule.survive << " (masks), word " << k;
    }
  };
  compiled(B2S34{});
  compiled(B245S3{});
  compiled(B2S{});
  compiled(B13S2{});
}

// The rules' circuits from the adders' sums, exhaustively: every one of the 2^14
// rules at run time (the multiply-add leaves) and the compiled ones, on 64-bit words
// (the host) and 32-bit ones (the kernel's halves).
TEST(HexLogic, SumsGiveEveryRuleOnEveryNeighbourhood) {
  expect_every_rule_on_every_neighbourhood<std::uint64_t>();
  expect_every_rule_on_every_neighbourhood<std::uint32_t>();
}

TEST(HexLogic, AgreesWithTheReference) {
  for (const char* rule_text : {"B2/S34H", "B2/SH", "B245/S3H", "B13/S2H", "B0/S0123456H"}) {
    for (const Boundary boundary : {Boundary::torus, Boundary::dead}) {
      for (const Shape shape : {Shape{64, 64, 1}, Shape{128, 3, 1}, Shape{8, 5, 1},
                                Shape{48, 40, 1}, Shape{33, 17, 1}}) {
        const Problem problem{parse_rule_spec(rule_text).rule, shape, boundary};
        SCOPED_TRACE(problem.to_string());
        const auto runtime_rule =
            hex::RuntimeRule<std::uint64_t>::make(problem.rule.birth, problem.rule.survive);
        const bool bytes = boundary == Boundary::dead || shape.width % 8 == 0;
        const bool words = boundary == Boundary::dead || shape.width % 64 == 0;
        Grid expected = make_soup(SoupSpec{shape, 0.5, 11});
        for (int generation = 0; generation < 4; ++generation) {
          const Grid start = expected;
          expected = reference_advance(problem, start, 1);
          if (bytes) {
            EXPECT_EQ(table_step<false>(problem, start), expected);
            EXPECT_EQ(table_step<true>(problem, start), expected);
          }
          if (words) {
            EXPECT_EQ(bitsliced_step(problem, start, runtime_rule), expected);
            EXPECT_EQ(bitsliced_step<true>(problem, start, runtime_rule), expected);
          }
          const auto compiled = [&](auto rule) {
            if (words && problem.rule.birth == rule.birth && problem.rule.survive == rule.survive) {
              EXPECT_EQ(bitsliced_step(problem, start, rule), expected);
              EXPECT_EQ(bitsliced_step<true>(problem, start, rule), expected);
            }
          };
          compiled(B2S34{});
          compiled(B245S3{});
          compiled(B2S{});
          compiled(B13S2{});
        }
      }
    }
  }
}

} // namespace
} // namespace lifebench
