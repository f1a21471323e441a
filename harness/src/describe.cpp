#include "commands.hpp"

#include <nlohmann/json.hpp>

namespace lifebench::harness {

void describe(const ExperimentInfo& info, std::ostream& out) {
  nlohmann::json axes = nlohmann::json::array();
  for (const auto& axis : info.axes) {
    axes.push_back({{"name", axis.name},
                    {"default", axis.default_value},
                    {"allowed", axis.allowed},
                    {"description", axis.description}});
  }
  const auto reason = info.unavailable();
  nlohmann::json description{
      {"name", info.name},
      {"family", info.family},
      {"backend", info.backend},
      {"source", info.source},
      {"technique", info.technique},
      {"axes", axes},
      {"available", !reason},
      {"reason", reason ? nlohmann::json(*reason) : nlohmann::json(nullptr)}};
  if (!info.external.empty()) description["external"] = info.external;
  out << description.dump(2) << "\n";
}

} // namespace lifebench::harness
