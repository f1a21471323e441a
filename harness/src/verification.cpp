#include "verification.hpp"

#include "checks.hpp"
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

VerificationOutcome verify_case(const ExperimentInfo& info, const Params& params,
                                const VerificationCase& check) {
  const Grid start = make_soup(SoupSpec{check.problem.shape, check.density, check.seed});
  const Grid expected = reference_advance(check.problem, start, check.first + check.second);
  VerificationOutcome outcome{false, {}, grid_hash(expected)};

  auto simulator = info.make(check.problem, params);
  simulator->upload(start);
  if (auto diff = first_difference(start, simulator->download())) {
    outcome.detail = "upload then download changed the grid: " + diff->to_string();
    return outcome;
  }
  simulator->advance(check.first);
  simulator->advance(check.second);
  const Grid actual = simulator->download();
  if (actual.shape() != expected.shape()) {
    outcome.detail = "download gave a " + actual.shape().to_string() + " grid, expected " +
                     expected.shape().to_string();
  } else if (auto diff = first_difference(expected, actual)) {
    outcome.detail = "after " + std::to_string(check.first + check.second) +
                     " generations: " + diff->to_string();
  } else {
    outcome.passed = true;
  }
  return outcome;
}

std::uint64_t verify_generations(const ExperimentInfo& info, const Params& params) {
  if (info.verify_generations) return info.verify_generations(params);
  if (params.has("steps_per_launch")) {
    return 2 * static_cast<std::uint64_t>(params.get_int("steps_per_launch")) + 1;
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
                       std::int64_t max_cells) {
  while (problem.shape.cells() > max_cells) {
    std::optional<Problem> smaller;
    for (auto candidate : {halve_largest(problem), halve_all(problem)}) {
      if (candidate && !unsupported_reason(info, *candidate, params)) {
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
