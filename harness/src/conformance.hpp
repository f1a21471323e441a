// The conformance matrix every experiment is checked against: shapes (square
// and not, powers of two and not), both boundaries, rules, generation counts
// that cross launch boundaries, and every combination of parameter values.
#pragma once

#include "lifebench/experiment.hpp"

#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace lifebench::harness {

/// Runs the matrix, one line per case; unsupported cases are listed as skipped
/// with their reason. Returns true when every case ran passed and at least one ran.
/// `fixed` pins parameters (the rest take every allowed value).
bool run_conformance(const ExperimentInfo& info, const std::map<std::string, std::string>& fixed,
                     std::ostream& log);

} // namespace lifebench::harness
