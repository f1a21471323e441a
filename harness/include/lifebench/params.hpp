// Resolving parameter values against an experiment's axes: shared by the
// experiment executables and the driver, so both refuse the same things.
#pragma once

#include "lifebench/experiment.hpp"

#include <map>
#include <string>
#include <vector>

namespace lifebench {

/// Parses "name=value" pairs; throws Error on a pair without '=' or a repeated name.
std::map<std::string, std::string> parse_param_pairs(const std::vector<std::string>& pairs);

/// Fills defaults and checks names and values against the axes; throws Error naming
/// the experiment, the parameter and the accepted names or values.
Params resolve_params(const std::string& experiment, const std::vector<Axis>& axes,
                      const std::map<std::string, std::string>& given);

} // namespace lifebench
