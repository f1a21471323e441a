#include "commands.hpp"
#include "lifebench/axes_json.hpp"
#include "lifebench/json_text.hpp"

#include <nlohmann/json.hpp>

namespace lifebench::harness {

void describe(const ExperimentInfo& info, std::ostream& out) {
  const auto reason = info.unavailable();
  nlohmann::json description{
      {"name", info.about.name},
      {"family", info.about.family},
      {"backend", info.about.backend},
      {"source", info.about.source},
      {"technique", info.about.technique},
      {"axes", axes_json(info.axes)},
      {"available", !reason},
      {"reason", reason ? nlohmann::json(*reason) : nlohmann::json(nullptr)}};
  if (!info.external.empty()) description["external"] = info.external;
  out << json_text(description);
}

} // namespace lifebench::harness
