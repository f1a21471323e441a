// Checks kernels/common/bpbc.hpp against the paper's operation counts (Lemma 1: 34,
// Lemma 2: 59) and against a cell-by-cell neighbour count on random words.
#include "common/bpbc.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace {

// A word that counts every &, |, ^ and ~ applied to it.
struct CountingWord {
  static inline int operations = 0;
  std::uint64_t bits = 0;

  friend CountingWord operator&(CountingWord x, CountingWord y) {
    ++operations;
    return {x.bits & y.bits};
  }
  friend CountingWord operator|(CountingWord x, CountingWord y) {
    ++operations;
    return {x.bits | y.bits};
  }
  friend CountingWord operator^(CountingWord x, CountingWord y) {
    ++operations;
    return {x.bits ^ y.bits};
  }
  friend CountingWord operator~(CountingWord x) {
    ++operations;
    return {~x.bits};
  }
};

TEST(BpbcOps, SingleWordTakes34Operations) {
  CountingWord::operations = 0;
  const CountingWord w{};
  static_cast<void>(lifebench::bpbc::single_word(w, w, w, w, w, w, w, w, w));
  EXPECT_EQ(CountingWord::operations, 34);
}

TEST(BpbcOps, DoubleWordTakes59Operations) {
  CountingWord::operations = 0;
  const CountingWord w{};
  static_cast<void>(lifebench::bpbc::double_word(w, w, w, w, w, w, w, w, w, w, w, w));
  EXPECT_EQ(CountingWord::operations, 59);
}

// B3/S23 of one bit position from the neighbour words, one bit at a time.
template <class W, std::size_t N>
bool brute_force(const std::array<W, N>& neighbours, W centre, unsigned bit) {
  int count = 0;
  for (const W word : neighbours) {
    count += static_cast<int>((word >> bit) & 1U);
  }
  const bool alive = ((centre >> bit) & 1U) != 0;
  return count == 3 || (alive && count == 2);
}

template <class W> void check_against_brute_force() {
  constexpr unsigned bits = std::numeric_limits<W>::digits;
  std::mt19937_64 random(20170301);
  // Sparse and dense words too, so that every count 0..8 occurs often.
  const auto draw = [&](int density) {
    W word = static_cast<W>(random());
    for (int i = 0; i < density; ++i) {
      word &= static_cast<W>(random());
    }
    return density < 0 ? static_cast<W>(word | static_cast<W>(random())) : word;
  };
  for (int trial = 0; trial < 4000; ++trial) {
    const int density = trial % 4 - 1;
    std::array<W, 12> w{};
    for (W& word : w) {
      word = draw(density);
    }
    const auto [a, b, c, d, e, f, g, h, i, j, k, l] = w;
    const W single = lifebench::bpbc::single_word(a, b, c, d, e, f, g, h, i);
    const auto pair = lifebench::bpbc::double_word(a, b, c, d, e, f, g, h, i, j, k, l);
    for (unsigned bit = 0; bit < bits; ++bit) {
      ASSERT_EQ(((single >> bit) & 1U) != 0,
                brute_force(std::array<W, 8>{a, b, c, d, e, f, g, h}, i, bit));
      ASSERT_EQ(((pair.k >> bit) & 1U) != 0,
                brute_force(std::array<W, 8>{a, b, c, d, e, i, j, l}, k, bit));
      ASSERT_EQ(((pair.l >> bit) & 1U) != 0,
                brute_force(std::array<W, 8>{d, e, f, g, h, i, j, k}, l, bit));
    }
  }
}

TEST(BpbcOps, AgreesWithBruteForce32) {
  check_against_brute_force<std::uint32_t>();
}
TEST(BpbcOps, AgreesWithBruteForce64) {
  check_against_brute_force<std::uint64_t>();
}

} // namespace
