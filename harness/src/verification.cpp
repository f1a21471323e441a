#include "verification.hpp"

#include "checks.hpp"
#include "lifebench/number_text.hpp"
#include "lifebench/reference.hpp"
#include "lifebench/soup.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <sstream>

namespace lifebench::harness {

std::string VerificationCase::soup() const {
  std::ostringstream out;
  out << problem.shape.to_string() << "," << density << "," << seed;
  return out.str();
}

SoupSpec VerificationCase::soup_spec() const {
  return SoupSpec{problem.shape, density, seed};
}

Grid VerificationCase::start() const {
  return pattern ? pattern->on(problem) : make_soup(soup_spec());
}

namespace {

/// How `actual` differs from the reference's `expected` after `generations`, or nothing.
std::optional<std::string> difference(const Grid& expected, const Grid& actual,
                                      std::uint64_t generations) {
  if (actual.shape() != expected.shape()) {
    return "download gave a " + actual.shape().to_string() + " grid, expected " +
           expected.shape().to_string();
  }
  if (auto diff = first_difference(expected, actual)) {
    return "after " + std::to_string(generations) + " generations: " + diff->to_string();
  }
  return std::nullopt;
}

} // namespace

VerificationOutcome verify_case(const ExperimentInfo& info, const Params& params,
                                const VerificationCase& check) {
  const Grid start = check.start();
  const Grid expected = reference_advance(check.problem, start, check.first + check.second);
  VerificationOutcome outcome{false, {}, grid_hash(expected)};

  // A soup goes in as the timed run's does (upload_soup: made in bands where a whole
  // grid would not fit), so that path is checked against the reference's soup too.
  auto simulator = info.make(check.problem, params);
  if (check.pattern) {
    simulator->upload(start);
  } else {
    simulator->upload_soup(check.soup_spec());
  }
  if (auto diff = first_difference(start, simulator->download())) {
    outcome.detail = std::string(check.pattern ? "upload" : "upload_soup") +
                     " then download changed the grid: " + diff->to_string();
    return outcome;
  }
  simulator->advance(check.first);
  simulator->advance(check.second);
  if (auto diff = difference(expected, simulator->download(), check.first + check.second)) {
    outcome.detail = *diff;
  } else {
    outcome.passed = true;
  }
  return outcome;
}

FinalStateCheck check_final_state(Simulator& simulator, const Problem& problem,
                                  const std::function<Grid()>& start, std::uint64_t generations) {
  using Status = FinalStateCheck::Status;
  FinalStateCheck check{Status::not_run, generations, ""};
  const double work = double(problem.shape.cells()) * double(generations);
  if (problem.shape.cells() > kFinalStateMaxCells || work > kFinalStateMaxCellGenerations) {
    check.reason = "too large for the reference: " + number_text(work) + " cell-generations of " +
                   std::to_string(problem.shape.cells()) + " cells (at most " +
                   number_text(kFinalStateMaxCellGenerations) + " of " +
                   std::to_string(kFinalStateMaxCells) + ")";
    return check;
  }
  const Grid expected = reference_advance(problem, start(), generations);
  if (auto diff = difference(expected, simulator.download(), generations)) {
    check.status = Status::failed;
    check.reason = *diff;
  } else {
    check.status = Status::passed;
  }
  return check;
}

std::uint64_t verify_generations(const ExperimentInfo& info, const Params& params) {
  if (info.verify_generations) return info.verify_generations(params);
  // Halo exchanges first: crossing two of them crosses the launches within them too.
  for (const AxisRole role : {AxisRole::halo_steps, AxisRole::steps_per_launch}) {
    if (const Axis* axis = axis_with_role(info.axes, role)) {
      // Two whole exchanges (or launches) and a part of a third.
      return 2 * static_cast<std::uint64_t>(params.get_int(axis->name)) + 1;
    }
  }
  return 5;
}

double soup_density(Topology topology) {
  // A 3D soup at one half has about 13 live neighbours per cell and dies at once
  // under B6/S567; a fifth keeps it near the birth and survival counts.
  return topology == Topology::cube ? 0.2 : 0.5;
}

namespace {

/// The problem with every side halved (keeps the aspect, e.g. cubes), if all are even.
std::optional<Problem> halve_all(Problem problem) {
  Shape& s = problem.shape;
  if (s.width % 2 != 0 || s.height % 2 != 0 || (s.depth > 1 && s.depth % 2 != 0)) {
    return std::nullopt;
  }
  s.width /= 2;
  s.height /= 2;
  if (s.depth > 1) s.depth /= 2;
  return problem;
}

/// The problem with its largest side halved, if it is even.
std::optional<Problem> halve_largest(Problem problem) {
  std::array<std::int64_t*, 3> sides{&problem.shape.width, &problem.shape.height,
                                     &problem.shape.depth};
  std::int64_t* largest = *std::max_element(sides.begin(), sides.end(),
                                            [](const auto* a, const auto* b) { return *a < *b; });
  if (*largest % 2 != 0) return std::nullopt;
  *largest /= 2;
  return problem;
}

} // namespace

Problem capped_problem(const ExperimentInfo& info, const Params& params, Problem problem,
                       std::int64_t max_cells, const std::function<bool(const Problem&)>& keeps) {
  while (problem.shape.cells() > max_cells) {
    std::optional<Problem> smaller;
    for (auto candidate : {halve_largest(problem), halve_all(problem)}) {
      if (candidate && !unsupported_reason(info, *candidate, params) &&
          (!keeps || keeps(*candidate))) {
        smaller = candidate;
        break;
      }
    }
    if (!smaller) break;
    problem = *smaller;
  }
  return problem;
}

} // namespace lifebench::harness
