// One byte per cell, one cell at a time: the serial version of seed 004. Each
// cell sums its six hexagonal neighbours (Golly's convention, see
// kernels/common/hex.hpp) and looks its next state up in a 14-entry table
// indexed by count + 7 * alive, the seed's rule representation.
#include "common/hex.hpp"
#include "lifebench/experiment.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace lifebench {
namespace {

class HexSerialSimulator final : public Simulator {
public:
  explicit HexSerialSimulator(const Problem& problem)
      : problem_(problem), current_(problem.shape), next_(problem.shape),
        dead_row_(static_cast<std::size_t>(problem.shape.width), 0),
        next_state_(hex::next_state_table(problem.rule.birth, problem.rule.survive)) {}

  void upload(const Grid& grid) override { current_ = grid; }
  Grid download() override { return current_; }

  void advance(std::uint64_t generations) override {
    for (std::uint64_t g = 0; g < generations; ++g) {
      step();
      std::swap(current_, next_);
    }
  }

private:
  /// Row y: wrapped on a torus, all dead outside a plane.
  [[nodiscard]] const std::uint8_t* row(std::int64_t y) const {
    const std::int64_t h = problem_.shape.height;
    if (y < 0 || y >= h) {
      if (problem_.boundary == Boundary::dead) return dead_row_.data();
      y = (y + h) % h;
    }
    return current_.data() + y * problem_.shape.width;
  }

  void step() {
    const std::int64_t w = problem_.shape.width;
    const bool torus = problem_.boundary == Boundary::torus;
    for (std::int64_t y = 0; y < problem_.shape.height; ++y) {
      const std::uint8_t* above = row(y - 1);
      const std::uint8_t* middle = row(y);
      const std::uint8_t* below = row(y + 1);
      // Cell x of a row; outside a plane it is dead.
      const auto at = [&](const std::uint8_t* cells, std::int64_t x) -> unsigned {
        if (x < 0 || x >= w) {
          if (!torus) return 0;
          x = (x + w) % w;
        }
        return cells[x];
      };
      std::uint8_t* out = next_.data() + y * w;
      for (std::int64_t x = 0; x < w; ++x) {
        const unsigned count = at(above, x - 1) + above[x] + at(middle, x - 1) + at(middle, x + 1) +
                               below[x] + at(below, x + 1);
        out[x] = next_state_[count + 7U * middle[x]];
      }
    }
  }

  Problem problem_;
  Grid current_;
  Grid next_;
  std::vector<std::uint8_t> dead_row_;
  std::array<std::uint8_t, 14> next_state_;
};

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "hex-cpu-serial",
    .family = "hex",
    .backend = "cpu",
    .source = "seed 004 \"Design process\": the serial version",
    .technique = "one byte per cell, six neighbour loads per cell, rule as a 14-entry table "
                 "(count + 7 * alive), two grids swapped, one thread",
    .axes = {},
    .make = [](const lifebench::Problem& problem, const lifebench::Params&) {
      return std::make_unique<lifebench::HexSerialSimulator>(problem);
    }})
