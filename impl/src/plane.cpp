// The bounded grid that stands for Golly's unbounded plane, and its refusals.
#include "lifebench/plane.hpp"

#include "lifebench/error.hpp"
#include "lifebench/grid.hpp"

#include <limits>

namespace lifebench {

PlaneGrid plane_grid(const std::string& source, const Box& box, const Rule& rule,
                     const PlaneFit& fit) {
  if (rule.born(0)) {
    throw Error(source + ": rule " + rule.to_string() +
                " has births on 0 live neighbours, which fill Golly's unbounded plane: give it "
                "a bounded grid, e.g. " +
                rule.to_string() + ":P1024,1024");
  }
  // A pattern with no live cell still takes a cell, so that the grid has one.
  const Box cells = box.width > 0 && box.height > 0 ? box : Box{0, 0, 1, 1};
  const std::uint64_t generations = fit.generations;
  const std::string what = source + ": the " + Shape{cells.width, cells.height, 1}.to_string() +
                           " pattern with a margin of " + std::to_string(generations) +
                           " generations on every side";
  if (generations > static_cast<std::uint64_t>(max_cells)) {
    throw Error(what + " is more than 2^40 cells wide");
  }
  const auto margin = static_cast<std::int64_t>(generations);
  // Boxes are at most 2^40 cells a side and the margin too: no sum overflows.
  const Shape least{cells.width + 2 * margin, cells.height + 2 * margin, 1};
  if (auto reason = invalid_shape_reason(least)) {
    throw Error(what + " needs a " + least.to_string() + " plane: " + *reason);
  }
  const Problem problem =
      fit.problem_for ? fit.problem_for(rule, least) : Problem{rule, least, Boundary::dead};
  LIFEBENCH_EXPECTS(problem.rule == rule && problem.shape.depth == 1 &&
                        problem.shape.width >= least.width && problem.shape.height >= least.height,
                    "the plane for " + least.to_string() + " cells is " + problem.to_string());
  const std::string rounded = problem.shape == least
                                  ? std::string()
                                  : " (" + least.to_string() + " rounded up for the simulator)";
  // Golly's coordinates are unbounded, ours 64-bit: every cell of the plane must have one,
  // so that a state written from it (its "#CXRLE Pos") reads back.
  constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t least_coordinate = std::numeric_limits<std::int64_t>::min();
  if (cells.left < least_coordinate + margin || cells.top < least_coordinate + margin ||
      cells.left - margin > most - problem.shape.width ||
      cells.top - margin > most - problem.shape.height) {
    throw Error(what + " needs a " + problem.shape.to_string() + " plane" + rounded +
                " that reaches past 64-bit coordinates");
  }
  require_run_fits_in_memory(what + " needs a " + problem.shape.to_string() + " plane" + rounded,
                             problem.shape);
  return {problem, Position{cells.left - margin, cells.top - margin}};
}

} // namespace lifebench
