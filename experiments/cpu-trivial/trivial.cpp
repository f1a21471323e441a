// One byte per cell, one cell at a time: seed 000's "Trivial" simulation and
// the word-per-cell CPU implementation of Fujita et al. (seed 003, Table 1).
// Nine loads per cell (itself and eight neighbours), the next state from the
// neighbour sum, into a second grid; the two grids are swapped by pointer.
#include "lifebench/experiment.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace lifebench {
namespace {

class TrivialSimulator final : public Simulator {
public:
  explicit TrivialSimulator(const Problem& problem)
      : problem_(problem), current_(problem.shape), next_(problem.shape),
        dead_row_(static_cast<std::size_t>(problem.shape.width), 0) {
    // next state by [alive][neighbour sum]: formula (2) of Fujita et al. for B3/S23.
    for (int sum = 0; sum <= 8; ++sum) {
      rule_table_[0][sum] = problem.rule.born(sum) ? 1 : 0;
      rule_table_[1][sum] = problem.rule.survives(sum) ? 1 : 0;
    }
  }

  void upload(const Grid& grid) override { current_ = grid; }
  Grid download() override { return current_; }

  void advance(std::uint64_t generations) override {
    for (std::uint64_t g = 0; g < generations; ++g) {
      step();
      std::swap(current_, next_);
    }
  }

private:
  /// Row y's neighbour row at y + dy: wrapped on a torus, all dead outside a plane.
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
      // Three cells of column x; outside a plane the column is dead.
      const auto column = [&](std::int64_t x) -> int {
        if (x < 0 || x >= w) {
          if (!torus) return 0;
          x = (x + w) % w;
        }
        return above[x] + middle[x] + below[x];
      };
      std::uint8_t* out = next_.data() + y * w;
      for (std::int64_t x = 0; x < w; ++x) {
        const int sum = column(x - 1) + above[x] + below[x] + column(x + 1); // formula (1)
        out[x] = rule_table_[middle[x]][sum];
      }
    }
  }

  Problem problem_;
  Grid current_;
  Grid next_;
  std::vector<std::uint8_t> dead_row_;
  std::array<std::array<std::uint8_t, 9>, 2> rule_table_{};
};

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "cpu-trivial",
    .family = "square",
    .backend = "cpu",
    .source = "seed 000 \"Trivial simulation\"; seed 003 Section 9, word-per-cell CPU (Table 1)",
    .technique = "one byte per cell, nine loads per cell, two grids swapped, one thread",
    .axes = {},
    .make = [](const lifebench::Problem& problem, const lifebench::Params&) {
      return std::make_unique<lifebench::TrivialSimulator>(problem);
    }})
