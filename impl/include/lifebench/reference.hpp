// Reference simulators: the plainest correct code for each family, against
// which every experiment is verified. Clarity first; they only need to be fast
// enough to check a few million cells for a few thousand generations (on every core).
#pragma once

#include "lifebench/grid.hpp"
#include "lifebench/problem.hpp"

#include <cstdint>

namespace lifebench {

/// Returns `grid` advanced by `generations` under `problem` (rule, boundary).
/// Throws Error if the grid's shape is not the problem's.
Grid reference_advance(const Problem& problem, Grid grid, std::uint64_t generations);

} // namespace lifebench
