// Seed 000 "A Packed Representation Using Nibbles": 16 cells per 64-bit word, one per
// nibble; the eight aligned neighbour words are added as plain integers (a count of at
// most 8 never carries out of its nibble) and the next state follows from the count's
// bits by shifts and masks; one thread.
#include "cpu/packed_rows.hpp"

#include <array>

namespace lifebench {
namespace {

using packed_rows::Aligned;
using packed_rows::Word;

struct Nibble {
  static constexpr int cell_bits = 4;
  static constexpr int group = 1;
  static std::array<Word, 1> update(const std::array<Aligned, 3>& r) {
    const Word count = r[0].west + r[0].centre + r[0].east + r[1].west + r[1].east + r[2].west +
                       r[2].centre + r[2].east;
    // Bit 0 of each nibble: alive next iff (alive or count odd) and count in 2, 3, 6, 7
    // and count below 4 and count below 8, that is count 3, or 2 and alive.
    Word next = r[1].centre | count;
    next &= count >> 1U;
    next &= ~(count >> 2U);
    next &= ~(count >> 3U);
    return {next & 0x1111'1111'1111'1111U};
  }
};

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cpu-nibble", "square", "cpu",
              "seed 000 \"A Packed Representation Using Nibbles\" (Packed Nibbles)",
              "16 cells per 64-bit word (one per nibble), neighbour words shifted into "
              "alignment and added nibble-wise, next state by shifts and masks, one thread"},
    .unsupported = lifebench::packed_rows::unsupported<lifebench::Nibble>,
    .make = lifebench::packed_rows::make<lifebench::Nibble>})
