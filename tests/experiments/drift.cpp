#include "misbehaving.hpp"

// Passes verification before timing, then each timed advance leaves a cell wrong: only the
// check of the timed problem's final state can catch it.
LIFEBENCH_EXPERIMENT(lifebench::testing::misbehaving_experiment(
    "test-drift", "reference simulator that spoils a cell of its grid when timed",
    [](lifebench::Grid& grid) { grid.set(0, 0, static_cast<std::uint8_t>(grid.at(0, 0) ^ 1U)); }))
