// Verification against the reference simulator: the same experiment and
// parameters on a seeded soup, compared cell by cell.
#pragma once

#include "lifebench/experiment.hpp"
#include "lifebench/pattern.hpp"
#include "lifebench/result_record.hpp"
#include "lifebench/soup.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace lifebench::harness {

/// A pattern that starts a run in place of a soup (`bench --pattern`), placed on each grid.
struct PatternInput {
  Workload pattern;
  std::string path;               ///< as given
  std::optional<Position> offset; ///< of the pattern's top-left cell; none: centred
  [[nodiscard]] Grid on(const Problem& problem) const {
    return place_pattern(pattern, problem, offset);
  }
};

/// One check: a soup of the problem's shape (or a pattern on it) advanced in two calls (first,
/// then second generations), so that state carried across advance() calls is checked too.
struct VerificationCase {
  Problem problem;
  std::uint64_t first = 0;
  std::uint64_t second = 0;
  std::uint64_t seed = 1;
  double density = 0.5;
  std::shared_ptr<const PatternInput> pattern{}; ///< none: the soup
  [[nodiscard]] std::string soup() const;        ///< "WxH,density,seed"
  [[nodiscard]] SoupSpec soup_spec() const;      ///< the soup of the problem's shape
  [[nodiscard]] Grid start() const;              ///< the pattern placed, else the soup
};

struct VerificationOutcome {
  bool passed = false;
  std::string detail; ///< first difference, or which step failed
  std::uint64_t reference_hash = 0;
};

VerificationOutcome verify_case(const ExperimentInfo& info, const Params& params,
                                const VerificationCase& check);

/// Generations a verification runs: the experiment's own rule, else 2 *
/// steps_per_launch + 1 when that parameter exists, else 5.
std::uint64_t verify_generations(const ExperimentInfo& info, const Params& params);

/// Soup density that keeps a family's rules busy for many generations.
double soup_density(Topology topology);

/// The problem shrunk (halving its largest side while the experiment still
/// supports it and `keeps` accepts it, e.g. while a pattern fits) to at most `max_cells`, so
/// that the reference stays quick.
Problem capped_problem(const ExperimentInfo& info, const Params& params, Problem problem,
                       std::int64_t max_cells,
                       const std::function<bool(const Problem&)>& keeps = {});

inline constexpr std::int64_t kVerifyMaxCells = std::int64_t{1} << 22;

/// The reference's work to check a timed problem's final state, cells x generations: a few
/// seconds of one core at most (the reference advances 1 to 2 x 10^9 cell-generations a
/// second on an idle core), so that the check stays cheap beside the timing.
inline constexpr double kFinalStateMaxCellGenerations = 4294967296.0; // 2^32
/// A byte a cell for each of the three grids the check holds (soup, reference, download).
inline constexpr std::int64_t kFinalStateMaxCells = std::int64_t{1} << 28;

/// The simulator's state (advanced `generations` in all from `start`'s grid, a soup or a
/// pattern) against the reference advanced as far from the same grid; not run, with the
/// reason, past the limits above (`start` is then never called).
FinalStateCheck check_final_state(Simulator& simulator, const Problem& problem,
                                  const std::function<Grid()>& start, std::uint64_t generations);

} // namespace lifebench::harness
