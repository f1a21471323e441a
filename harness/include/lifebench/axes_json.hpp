// An experiment's parameters (its axes) as JSON: as `describe` prints them and
// `lifebench list --json` gives them on.
#pragma once

#include "lifebench/experiment.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace lifebench {

/// [{name, default, allowed, description[, role]}, ...] in the axes' order; "role" only for
/// an axis that plays one.
inline nlohmann::json axes_json(const std::vector<Axis>& axes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& axis : axes) {
    nlohmann::json entry = {{"name", axis.name},
                            {"default", axis.default_value},
                            {"allowed", axis.allowed},
                            {"description", axis.description}};
    if (axis.role != AxisRole::none) entry["role"] = to_string(axis.role);
    out.push_back(std::move(entry));
  }
  return out;
}

} // namespace lifebench
