// Reading `run`'s input, a pattern of Golly's plane on the smallest grid the experiment runs.
#include "run_input.hpp"

#include "checks.hpp"

#include <algorithm>
#include <iostream>
#include <vector>

namespace lifebench::harness {
namespace {

std::int64_t round_up(std::int64_t size, std::int64_t multiple) {
  return (size + multiple - 1) / multiple * multiple;
}

} // namespace

Problem smallest_plane(const ExperimentInfo& info, const Params& params, const Rule& rule,
                       Shape least) {
  // Past the larger side a multiple only doubles the grid: no technique asks for a multiple
  // above both 1024 cells and four times that side.
  const std::int64_t largest =
      std::max<std::int64_t>(1024, 4 * std::max(least.width, least.height));
  std::optional<std::string> first_refusal;
  for (std::int64_t multiple = 1; multiple <= largest; multiple *= 2) {
    const Shape rounded{round_up(least.width, multiple), round_up(least.height, multiple), 1};
    const std::int64_t side = std::max(rounded.width, rounded.height);
    std::vector<Shape> shapes{rounded};
    if (rounded.width != rounded.height) shapes.push_back(Shape{side, side, 1});
    for (const Shape& shape : shapes) {
      if (invalid_shape_reason(shape)) continue;
      for (const Boundary boundary : {Boundary::dead, Boundary::torus}) {
        const Problem problem{rule, shape, boundary};
        auto reason = unsupported_reason(info, problem, params);
        if (!reason) return problem;
        if (!first_refusal) first_refusal = std::move(reason);
      }
    }
  }
  throw Error(info.about.name + " runs " + rule.to_string() + " on no plane of " +
              least.to_string() +
              " cells or more (dead or torus, the sides rounded up to multiples of 1, 2, 4, ... " +
              std::to_string(largest) + "): " + first_refusal.value_or("no grid is valid"));
}

void require_room_to_run(const std::string& source, const Problem& problem) {
  require_run_fits_in_memory(source + ": the " + problem.shape.to_string() + " grid of " +
                                 problem.to_string(),
                             problem.shape);
}

State read_run_input(const ExperimentInfo& info, const Params& params, const RunRequest& request) {
  const ReadOptions options{
      .rule = request.rule,
      .plane = PlaneFit{.generations = request.generations,
                        .problem_for =
                            [&](const Rule& rule, Shape least) {
                              return smallest_plane(info, params, rule, least);
                            }},
      .warn = [](const std::string& line) { std::cerr << "lifebench: warning: " << line << "\n"; },
      .before_grid = [&](const Problem& problem) { require_room_to_run(*request.input, problem); }};
  State state = read_state(*request.input, options);
  require_writable(request.output, state.problem, state.origin.has_value());
  return state;
}

} // namespace lifebench::harness
