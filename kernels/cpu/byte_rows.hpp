// The row sweep of the one-byte-per-cell CPU experiments (cpu-trivial, hex-cpu-serial):
// one thread, two grids swapped after each generation, and a kernel that writes one row
// of the next generation from the rows above, at and below it.
#pragma once

#include "lifebench/experiment.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace lifebench::byte_rows {

/// Column x of rows `width` cells wide: wrapped on a torus; -1 outside a plane (dead).
inline std::int64_t wrap(std::int64_t x, std::int64_t width, bool torus) {
  if (x >= 0 && x < width) return x;
  return torus ? (x + width) % width : -1;
}

/// Cell x of a row `width` cells wide: wrapped on a torus, dead outside a plane.
inline unsigned cell(const std::uint8_t* row, std::int64_t x, std::int64_t width, bool torus) {
  const std::int64_t i = wrap(x, width, torus);
  return i < 0 ? 0U : row[i];
}

/// What a kernel supplies:
///   void operator()(const std::uint8_t* above, const std::uint8_t* middle,
///                   const std::uint8_t* below, std::uint8_t* out, std::int64_t width,
///                   bool torus) const;
template <class Kernel> class Simulator final : public lifebench::Simulator {
public:
  Simulator(const Problem& problem, Kernel kernel)
      : problem_(problem), kernel_(std::move(kernel)), current_(problem.shape),
        next_(problem.shape), dead_row_(static_cast<std::size_t>(problem.shape.width), 0) {}
  /// With the kernel made from the problem's rule.
  explicit Simulator(const Problem& problem) : Simulator(problem, Kernel(problem.rule)) {}

  void upload(const Grid& grid) override { current_ = grid; }
  Grid download() override { return current_; }

  void advance(std::uint64_t generations) override {
    const std::int64_t w = problem_.shape.width;
    const bool torus = problem_.boundary == Boundary::torus;
    for (std::uint64_t g = 0; g < generations; ++g) {
      for (std::int64_t y = 0; y < problem_.shape.height; ++y) {
        kernel_(row(y - 1), row(y), row(y + 1), next_.data() + y * w, w, torus);
      }
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

  Problem problem_;
  Kernel kernel_;
  Grid current_;
  Grid next_;
  std::vector<std::uint8_t> dead_row_;
};

} // namespace lifebench::byte_rows
