#include "catalog_json.hpp"

#include "lifebench/axes_json.hpp"

namespace lifebench::driver {

nlohmann::json catalog_json(const Catalog& catalog) {
  nlohmann::json experiments = nlohmann::json::array();
  for (const auto& e : catalog.experiments) {
    nlohmann::json entry = e.summary();
    entry["name"] = e.name;
    entry["axes"] = axes_json(e.axes);
    experiments.push_back(std::move(entry));
  }
  nlohmann::json broken = nlohmann::json::array();
  for (const auto& e : catalog.broken) {
    broken.push_back({{"name", e.name}, {"binary", e.binary.string()}, {"reason", e.reason}});
  }
  return {{"experiments", experiments}, {"broken", broken}};
}

} // namespace lifebench::driver
