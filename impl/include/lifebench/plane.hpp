// Golly's unbounded plane on a bounded grid. A pattern whose rule gives no bounded grid lives
// on Golly's infinite plane. In g generations a cell further than g cells (in x or in y) from
// every live cell cannot change, so a grid that holds the pattern's box and g cells more on
// every side gives the very cells Golly gives, with either boundary: outside a dead one
// every cell stays dead on the plane too, and on a torus that large what crosses one edge
// cannot meet, within g generations, what the pattern sends towards the opposite one. A rule
// with B0 fills the plane with live cells and is refused there.
#pragma once

#include "lifebench/problem.hpp"
#include "lifebench/rle.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace lifebench {

/// A rectangle of cells in Golly's coordinates (y grows downward).
struct Box {
  std::int64_t left = 0;
  std::int64_t top = 0;
  std::int64_t width = 0; ///< 0: no cell
  std::int64_t height = 0;
  friend bool operator==(const Box&, const Box&) = default;
};

/// How a pattern of the unbounded plane is put on a bounded grid for a run.
struct PlaneFit {
  std::uint64_t generations = 0; ///< the run's length: the margin on every side
  /// The problem that runs `rule` on a grid of at least `least` cells and where the simulator
  /// can run it (larger where its sizes must be multiples of something); throws Error where
  /// there is none. Empty: a dead boundary around exactly `least`.
  std::function<Problem(const Rule& rule, Shape least)> problem_for{};
};

/// A bounded grid that stands for Golly's unbounded plane.
struct PlaneGrid {
  Problem problem;
  Position origin; ///< Golly's coordinates of the grid's top-left cell
};

/// The grid for a pattern whose live cells lie in `box` (a width of 0: none) run with `rule`
/// for fit.generations generations, the box `fit.generations` cells from its top and left
/// edges. Throws Error, naming `source`, for a rule with B0, and, with the sizes worked out,
/// where the grid would pass 2^40 cells or 64-bit coordinates, or a run on it this machine's
/// memory (about three copies of the grid at a byte a cell), before anything is made.
PlaneGrid plane_grid(const std::string& source, const Box& box, const Rule& rule,
                     const PlaneFit& fit);

} // namespace lifebench
