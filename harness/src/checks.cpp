#include "checks.hpp"

namespace lifebench::harness {

void require_available(const ExperimentInfo& info) {
  if (auto reason = info.unavailable()) {
    throw Unavailable(info.about.name + " is unavailable: " + *reason);
  }
}

std::optional<std::string> unsupported_reason(const ExperimentInfo& info, const Problem& problem,
                                              const Params& params) {
  if (to_string(problem.rule.topology) != info.about.family) {
    return info.about.name + " simulates the " + info.about.family + " family, not " +
           to_string(problem.rule.topology) + " rules like " + problem.rule.to_string();
  }
  if (problem.rule.topology != Topology::cube && problem.shape.depth != 1) {
    return "a " + to_string(problem.rule.topology) + " rule takes a WxH shape, not " +
           problem.shape.to_string();
  }
  return info.unsupported(problem, params);
}

void require_supported(const ExperimentInfo& info, const Problem& problem, const Params& params) {
  if (auto reason = unsupported_reason(info, problem, params)) {
    throw Error(info.about.name + " cannot run " + problem.to_string() + ": " + *reason);
  }
}

} // namespace lifebench::harness
