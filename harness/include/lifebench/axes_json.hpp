// An experiment's parameters (its axes) as JSON: as `describe` prints them and
// `lifebench list --json` gives them on.
#pragma once

#include "lifebench/experiment.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace lifebench {

/// [{name, default, allowed, description}, ...] in the axes' order.
inline nlohmann::json axes_json(const std::vector<Axis>& axes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& axis : axes) {
    out.push_back({{"name", axis.name},
                   {"default", axis.default_value},
                   {"allowed", axis.allowed},
                   {"description", axis.description}});
  }
  return out;
}

} // namespace lifebench
