// The host side of the hex kernels' bit logic (kernels/common/hex.hpp) against
// the reference: the bit-sliced word step (compiled and run-time rules) and the
// 16-bit and 28-bit table indices, one generation at a time on whole grids.
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

template <class Rule> Grid bitsliced_step(const Problem& problem, const Grid& grid, Rule rule) {
  return step<std::uint64_t>(problem, grid, [&](const Words<std::uint64_t>& w, auto x, auto y) {
    return hex::step_word(
        rule, w.at(x, y), w.at(x, y - 1), hex::from_left(w.at(x, y - 1), w.at(x - 1, y - 1)),
        hex::from_left(w.at(x, y), w.at(x - 1, y)), hex::from_right(w.at(x, y), w.at(x + 1, y)),
        w.at(x, y + 1), hex::from_right(w.at(x, y + 1), w.at(x + 1, y + 1)));
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
          }
          if (words && problem.rule.birth == B2S34::birth &&
              problem.rule.survive == B2S34::survive) {
            EXPECT_EQ(bitsliced_step(problem, start, B2S34{}), expected);
          }
        }
      }
    }
  }
}

} // namespace
} // namespace lifebench
