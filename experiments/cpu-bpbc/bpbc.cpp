// Fujita, Nakano, Ito (seed 003), the bit-per-cell CPU implementation of Table 1: 64
// cells per 64-bit word, the eight neighbour words of every word shifted into alignment
// and summed by Algorithm SINGLE-WORD (34 operations per word) or DOUBLE-WORD (59
// operations per two vertically adjacent words), one thread.
#include "common/bpbc.hpp"

#include "cpu/packed_rows.hpp"

#include <array>

namespace lifebench {
namespace {

using packed_rows::Aligned;
using packed_rows::Word;

struct SingleWord {
  static constexpr int cell_bits = 1;
  static constexpr int group = 1;
  static std::array<Word, 1> update(const std::array<Aligned, 3>& r) {
    return {bpbc::single_word(r[0].west, r[0].centre, r[0].east, r[1].west, r[1].east, r[2].west,
                              r[2].centre, r[2].east, r[1].centre)};
  }
};

// Rows r[1] and r[2] are the paper's words K and L (its Figure 5).
struct DoubleWord {
  static constexpr int cell_bits = 1;
  static constexpr int group = 2;
  static std::array<Word, 2> update(const std::array<Aligned, 4>& r) {
    const auto next =
        bpbc::double_word(r[0].west, r[0].centre, r[0].east, r[1].west, r[1].east, r[3].west,
                          r[3].centre, r[3].east, r[2].west, r[2].east, r[1].centre, r[2].centre);
    return {next.k, next.l};
  }
};

bool double_words(const Params& params) {
  return params.get("words") == "double";
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "cpu-bpbc",
    .family = "square",
    .backend = "cpu",
    .source = "seed 003 Sections 4-5 and 9, bit-per-cell CPU (Table 1, SINGLE-WORD and "
              "DOUBLE-WORD)",
    .technique = "64 cells per 64-bit word, neighbour words shifted into alignment and summed "
                 "bitwise (34 operations per word, or 59 per two words), one thread",
    .axes = {{.name = "words",
              .default_value = "double",
              .allowed = {"single", "double"},
              .description = "single: Algorithm SINGLE-WORD, one word at a time; double: "
                             "Algorithm DOUBLE-WORD, two vertically adjacent words at once"}},
    .unsupported =
        [](const lifebench::Problem& problem, const lifebench::Params& params) {
          return lifebench::double_words(params)
                     ? lifebench::packed_rows::unsupported<lifebench::DoubleWord>(problem, params)
                     : lifebench::packed_rows::unsupported<lifebench::SingleWord>(problem, params);
        },
    .make =
        [](const lifebench::Problem& problem, const lifebench::Params& params) {
          return lifebench::double_words(params)
                     ? lifebench::packed_rows::make<lifebench::DoubleWord>(problem, params)
                     : lifebench::packed_rows::make<lifebench::SingleWord>(problem, params);
        }})
