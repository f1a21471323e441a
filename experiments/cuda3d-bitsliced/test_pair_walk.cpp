// The pair walk (pair_walk.hpp) on the host: its adders and fused B6/S567 rule
// against arithmetic over every input, and whole walks (every rows value, walks of
// every length remainder, torus and dead cubes, B6/S567 and other rules) against the
// reference simulator. On the host the x neighbours are loaded instead of shuffled.
#include "lifebench/packed.hpp"
#include "lifebench/problem.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"
#include "pair_walk.hpp"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace lifebench::bitsliced3d::pairs {
namespace {

Word all(int bit) {
  return bit != 0 ? ~Word{0} : Word{0};
}

/// A carry-save plane sum from four bits (any of the 16 patterns, 0..9).
Sum4 sum4(int v) {
  return Sum4{all(v & 1), all((v >> 1) & 1), all((v >> 2) & 1), all((v >> 3) & 1)};
}
int value4(int v) {
  return (v & 1) + 2 * ((v >> 1) & 1) + 2 * ((v >> 2) & 1) + 4 * (v >> 3);
}
int bit(Word plane) {
  return static_cast<int>(plane & 1U);
}

TEST(PairWalk, PairAndPairPlusAreExactForEveryInput) {
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      const Pair q = pair_sum(sum4(a), sum4(b));
      EXPECT_EQ(bit(q.ones_a) + bit(q.ones_b) + 2 * (bit(q.twos_a) + bit(q.twos_b)) +
                    4 * bit(q.four) + 8 * bit(q.eight),
                value4(a) + value4(b));
      for (int c = 0; c < 16; ++c) {
        const Sum5 t = pair_plus(q, sum4(c));
        EXPECT_EQ(bit(t.b0) + 2 * bit(t.b1) + 4 * bit(t.b2) + 8 * bit(t.b3) + 16 * bit(t.b4),
                  value4(a) + value4(b) + value4(c));
      }
    }
  }
}

TEST(PairWalk, FusedB6S567MatchesTheRuleForEveryInput) {
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      const Pair q = pair_sum(sum4(a), sum4(b));
      for (int c = 0; c < 16; ++c) {
        for (int alive = 0; alive < 2; ++alive) {
          const int n = value4(a) + value4(b) + value4(c) - alive;
          if (n < 0) continue; // a live cell counts itself
          const std::uint32_t set = alive != 0 ? RuleB6S567::survive : RuleB6S567::birth;
          EXPECT_EQ(finish(RuleB6S567{}, q, sum4(c), all(alive)), all((set >> n) & 1U))
              << "alive " << alive << ", " << n << " neighbours";
        }
      }
    }
  }
}

/// `generations` of the pair walk over the whole cube, walks of `planes` planes.
template <bool Torus, int Rows, class RuleFn>
Grid walk(const Problem& problem, const Grid& start, RuleFn rule, int planes, int generations) {
  const int side = static_cast<int>(problem.shape.width);
  const Cube cube{side, side / word_bits};
  std::vector<Word> in = pack_rows<Word>(start);
  std::vector<Word> out(in.size());
  for (int g = 0; g < generations; ++g) {
    for (int y0 = 0; y0 < side; y0 += Rows) {
      for (int w = 0; w < cube.words; ++w) {
        for (int z0 = 0; z0 < side; z0 += planes) {
          pairs::column_walk<Torus, Rows>(in.data(), out.data(), cube, w, y0, z0,
                                          std::min(z0 + planes, side), rule);
        }
      }
    }
    in.swap(out);
  }
  Grid result(problem.shape);
  unpack_rows<Word>(std::span<const Word>(in), result);
  return result;
}

template <int Rows> void check(const std::string& spec, double density) {
  const RuleSpec parsed = parse_rule_spec(spec);
  const Problem problem{parsed.rule, *parsed.shape, parsed.boundary};
  const Grid start = make_soup(SoupSpec{problem.shape, density, 11});
  constexpr int kGenerations = 3;
  const Grid expected = reference_advance(problem, start, kGenerations);
  const auto run = [&](auto torus, auto rule) {
    constexpr bool kTorus = decltype(torus)::value;
    for (const int planes : {4, 5, 6, 7, static_cast<int>(problem.shape.depth)}) {
      EXPECT_EQ((walk<kTorus, Rows>(problem, start, rule, planes, kGenerations)), expected)
          << spec << ", rows " << Rows << ", planes " << planes;
    }
  };
  const auto with_rule = [&](auto torus) {
    if (problem.rule.birth == RuleB6S567::birth && problem.rule.survive == RuleB6S567::survive) {
      run(torus, RuleB6S567{});
    }
    run(torus, AnyRule::from(problem.rule.birth, problem.rule.survive));
  };
  if (problem.boundary == Boundary::torus) {
    with_rule(std::true_type{});
  } else {
    with_rule(std::false_type{});
  }
}

TEST(PairWalk, WalksMatchTheReference) {
  for (const char* spec : {"B6/S567/3D:T32,32,32", "B6/S567/3D:P64,64,64", "B6/S567/3D:T64,64,64",
                           "B5,6,7/S4,5,6,13/3D:T32,32,32", "B4/S5,6,7,8,9/3D:P32,32,32"}) {
    check<1>(spec, 0.25);
    check<2>(spec, 0.25);
    check<4>(spec, 0.25);
  }
}

} // namespace
} // namespace lifebench::bitsliced3d::pairs
