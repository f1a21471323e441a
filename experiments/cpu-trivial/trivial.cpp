// One byte per cell, one cell at a time: seed 000's "Trivial" simulation and
// the word-per-cell CPU implementation of Fujita et al. (seed 003, Table 1).
// Nine loads per cell (itself and eight neighbours), the next state from the
// neighbour sum, into a second grid; the two grids are swapped by pointer.
#include "cpu/byte_rows.hpp"

#include <array>
#include <cstdint>
#include <memory>

namespace lifebench {
namespace {

/// Next state by [alive][neighbour sum]: formula (2) of Fujita et al. for B3/S23.
class TrivialRows {
public:
  explicit TrivialRows(const Rule& rule) {
    for (int sum = 0; sum <= 8; ++sum) {
      rule_table_[0][sum] = rule.born(sum) ? 1 : 0;
      rule_table_[1][sum] = rule.survives(sum) ? 1 : 0;
    }
  }

  void operator()(const std::uint8_t* above, const std::uint8_t* middle, const std::uint8_t* below,
                  std::uint8_t* out, std::int64_t w, bool torus) const {
    // Three cells of column x; outside a plane the column is dead.
    const auto column = [&](std::int64_t x) -> int {
      const std::int64_t i = byte_rows::wrap(x, w, torus);
      return i < 0 ? 0 : above[i] + middle[i] + below[i];
    };
    for (std::int64_t x = 0; x < w; ++x) {
      const int sum = column(x - 1) + above[x] + below[x] + column(x + 1); // formula (1)
      out[x] = rule_table_[middle[x]][sum];
    }
  }

private:
  std::array<std::array<std::uint8_t, 9>, 2> rule_table_{};
};

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cpu-trivial", "square", "cpu",
              "seed 000 \"Trivial simulation\"; seed 003 Section 9, word-per-cell CPU (Table 1)",
              "one byte per cell, nine loads per cell, two grids swapped, one thread"},
    .make = lifebench::make_simulator<lifebench::byte_rows::Simulator<lifebench::TrivialRows>>})
