// The bit-sliced adders and rules of kernels/common/bitsliced3d.hpp (shared with
// cuda3d-bitsliced) against plain arithmetic, exhaustively over their inputs.
#include "common/bitsliced3d.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <random>

namespace lifebench::bitsliced3d {
namespace {

/// Bit i of every plane as a number: cell i's count.
int value(const Sum5& s, int i) {
  const auto bit = [i](Word plane) { return static_cast<int>((plane >> i) & 1U); };
  return bit(s.b0) + 2 * bit(s.b1) + 4 * bit(s.b2) + 8 * bit(s.b3) + 16 * bit(s.b4);
}

Word all(int bit) {
  return bit != 0 ? ~Word{0} : Word{0};
}

/// Count t as bit-planes, every cell the same.
Sum5 count(int t) {
  return {all(t & 1), all((t >> 1) & 1), all((t >> 2) & 1), all((t >> 3) & 1), all((t >> 4) & 1)};
}

TEST(Bitsliced3D, RowSumAddsTheCellAndItsTwoNeighboursAcrossWords) {
  std::mt19937 random(3);
  for (int trial = 0; trial < 100; ++trial) {
    const auto before = static_cast<Word>(random());
    const auto word = static_cast<Word>(random());
    const auto after = static_cast<Word>(random());
    const Sum2 s = row_sum(before, word, after);
    for (int i = 0; i < word_bits; ++i) {
      const auto cell = [&](int x) -> int {
        if (x < 0) return static_cast<int>((before >> 31U) & 1U);
        if (x >= word_bits) return static_cast<int>(after & 1U);
        return static_cast<int>((word >> x) & 1U);
      };
      const int expected = cell(i - 1) + cell(i) + cell(i + 1);
      EXPECT_EQ(static_cast<int>(((s.b0 >> i) & 1U) + 2 * ((s.b1 >> i) & 1U)), expected);
    }
  }
}

TEST(Bitsliced3D, PlaneAndCubeSumsAreExactForEveryInput) {
  const auto sum2 = [](int v) { return Sum2{all(v & 1), all(v >> 1)}; };
  const auto plane_value = [](const Sum4& s) {
    return static_cast<int>((s.ones & 1U) + 2 * (s.twos_a & 1U) + 2 * (s.twos_b & 1U) +
                            4 * (s.fours & 1U));
  };
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(plane_value(plane_sum(sum2(a), sum2(b), sum2(c))), a + b + c);
      }
    }
  }
  // Every carry-save plane sum (any four bits, 0..9) in every combination.
  const auto sum4 = [](int v) {
    return Sum4{all(v & 1), all((v >> 1) & 1), all((v >> 2) & 1), all((v >> 3) & 1)};
  };
  const auto value4 = [](int v) {
    return (v & 1) + 2 * ((v >> 1) & 1) + 2 * ((v >> 2) & 1) + 4 * (v >> 3);
  };
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      for (int c = 0; c < 16; ++c) {
        EXPECT_EQ(value(cube_sum(sum4(a), sum4(b), sum4(c)), 0), value4(a) + value4(b) + value4(c));
      }
    }
  }
}

/// The next state as the rule defines it, from the cell and its neighbour count n.
int next(std::uint32_t birth, std::uint32_t survive, int alive, int n) {
  return static_cast<int>(((alive != 0 ? survive : birth) >> n) & 1U);
}

TEST(Bitsliced3D, HandWrittenB6S567MatchesTheRule) {
  for (int alive = 0; alive < 2; ++alive) {
    for (int n = 0; n <= 26; ++n) {
      const Word got = RuleB6S567{}(count(n + alive), all(alive));
      EXPECT_EQ(got, all(next(RuleB6S567::birth, RuleB6S567::survive, alive, n)))
          << "alive " << alive << ", " << n << " neighbours";
    }
  }
}

TEST(Bitsliced3D, AnyRuleMatchesRandomRules) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 200; ++trial) {
    const auto birth = static_cast<std::uint32_t>(random() & ((1U << 27) - 1));
    const auto survive = static_cast<std::uint32_t>(random() & ((1U << 27) - 1));
    const AnyRule rule = AnyRule::from(birth, survive);
    for (int alive = 0; alive < 2; ++alive) {
      for (int n = 0; n <= 26; ++n) {
        EXPECT_EQ(rule(count(n + alive), all(alive)), all(next(birth, survive, alive, n)));
      }
    }
  }
}

} // namespace
} // namespace lifebench::bitsliced3d
