// Checks every command makes before it touches a simulator.
#pragma once

#include "lifebench/error.hpp"
#include "lifebench/exit_codes.hpp"
#include "lifebench/experiment.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lifebench::harness {

/// The backend cannot run on this machine; main() exits with kExitUnavailable.
class Unavailable : public Error {
public:
  using Error::Error;
};

/// Throws Unavailable with the experiment's reason when its backend is missing.
void require_available(const ExperimentInfo& info);

/// Why the experiment cannot run this problem with these parameters (wrong family
/// included), or nothing.
std::optional<std::string> unsupported_reason(const ExperimentInfo& info, const Problem& problem,
                                              const Params& params);

/// Throws Error with the reason when the combination is unsupported.
void require_supported(const ExperimentInfo& info, const Problem& problem, const Params& params);

} // namespace lifebench::harness
