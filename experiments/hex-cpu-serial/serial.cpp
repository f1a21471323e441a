// One byte per cell, one cell at a time: the serial version of seed 004. Each
// cell sums its six hexagonal neighbours (Golly's convention, see
// kernels/common/hex.hpp) and looks its next state up in a 14-entry table
// indexed by count + 7 * alive, the seed's rule representation.
#include "common/hex.hpp"
#include "cpu/byte_rows.hpp"

#include <array>
#include <cstdint>
#include <memory>

namespace lifebench {
namespace {

class HexSerialRows {
public:
  explicit HexSerialRows(const Rule& rule)
      : next_state_(hex::next_state_table(rule.birth, rule.survive)) {}

  void operator()(const std::uint8_t* above, const std::uint8_t* middle, const std::uint8_t* below,
                  std::uint8_t* out, std::int64_t w, bool torus) const {
    // Cell x of a row; outside a plane it is dead.
    const auto at = [&](const std::uint8_t* cells, std::int64_t x) {
      return byte_rows::cell(cells, x, w, torus);
    };
    for (std::int64_t x = 0; x < w; ++x) {
      const unsigned count = at(above, x - 1) + above[x] + at(middle, x - 1) + at(middle, x + 1) +
                             below[x] + at(below, x + 1);
      out[x] = next_state_[count + 7U * middle[x]];
    }
  }

private:
  std::array<std::uint8_t, 14> next_state_;
};

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"hex-cpu-serial", "hex", "cpu", "seed 004 \"Design process\": the serial version",
              "one byte per cell, six neighbour loads per cell, rule as a 14-entry table "
              "(count + 7 * alive), two grids swapped, one thread"},
    .make = lifebench::make_simulator<lifebench::byte_rows::Simulator<lifebench::HexSerialRows>>})
