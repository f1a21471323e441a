// Seed 000 "Back to a Packed Representation Using Bits": 64 cells per 64-bit word, the
// eight aligned neighbour words reduced by a counter of full and half adders to
// count = 4x + 2(y + z) + w, then the next state from x, y, z, w; one thread.
#include "cpu/packed_rows.hpp"

#include <array>

namespace lifebench {
namespace {

using packed_rows::Aligned;
using packed_rows::Word;

struct Bits {
  Word carry;
  Word sum;
};

Bits half_adder(Word a, Word b) {
  return {a & b, a ^ b};
}

Bits full_adder(Word a, Word b, Word c) {
  const Word t = a ^ b;
  return {(a & b) | (t & c), t ^ c};
}

struct BitAdder {
  static constexpr int cell_bits = 1;
  static constexpr int group = 1;
  static std::array<Word, 1> update(const std::array<Aligned, 3>& r) {
    // Stage 0: the eight neighbours to three two-bit sums (l i), (m j), (n k).
    const Bits li = full_adder(r[0].west, r[0].centre, r[0].east);
    const Bits mj = full_adder(r[1].west, r[1].east, r[2].west);
    const Bits nk = half_adder(r[2].centre, r[2].east);
    // Stage 1: weight-1 bits (i j k) to (y w), weight-2 bits (l m n) to (x z).
    const Bits yw = full_adder(li.sum, mj.sum, nk.sum);
    const Bits xz = full_adder(li.carry, mj.carry, nk.carry);
    // Alive next with count 3, or with 2 and alive now: bit 0 set or alive, bit 1 set
    // (y ^ z: exactly one of the two weight-2 bits), and no weight 4 (count below 4).
    return {(r[1].centre | yw.sum) & (yw.carry ^ xz.sum) & ~xz.carry};
  }
};

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cpu-bitadder", "square", "cpu",
              "seed 000 \"Back to a Packed Representation Using Bits\" (Packed Bits)",
              "64 cells per 64-bit word, neighbour words shifted into alignment and counted "
              "by full and half adders (27 operations per word), one thread"},
    .unsupported = lifebench::packed_rows::unsupported<lifebench::BitAdder>,
    .make = lifebench::packed_rows::make<lifebench::BitAdder>})
