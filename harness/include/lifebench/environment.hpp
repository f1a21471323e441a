// Provenance of a measurement: the build (from configure time, plus the git
// state of the source tree now) and the host it runs on.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lifebench {

/// Build type, preset, compilers, flags, CUDA architectures, Highway version, git commit and dirty
/// flag.
nlohmann::json build_environment();

/// CPU model, logical cores, Highway's targets on this CPU, host name, operating system.
nlohmann::json host_environment();

/// Highway targets compiled in and supported by this CPU, best first; empty without Highway.
std::vector<std::string> simd_targets();

} // namespace lifebench
