// The line `run` ends with: how long the generations took and the rate, on standard error
// (standard output stays free for data).
#pragma once

#include "lifebench/problem.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>

namespace lifebench::harness {

/// "cpu-trivial: 100 generations of B3/S23:T1024,1024 in 0.0123 s (8.52e+09 cell updates/s,
/// steady_clock)"; nothing for 0 generations (a conversion).
void print_run_time(std::ostream& out, const std::string& experiment, const Problem& problem,
                    std::uint64_t generations, double seconds, const std::string& clock);

} // namespace lifebench::harness
