#include "checks.hpp"
#include "commands.hpp"
#include "lifebench/soup.hpp"
#include "lifebench/state_io.hpp"

namespace lifebench::harness {
namespace {

State soup_state(const std::string& soup_text, const std::optional<std::string>& rule_text,
                 const std::string& family) {
  const SoupSpec soup = parse_soup(soup_text);
  const std::string default_rule =
      family == "hex" ? "B2/S34H" : (family == "3d" ? "B6/S567/3D" : "B3/S23");
  const RuleSpec spec = parse_rule_spec(rule_text.value_or(default_rule));
  if (spec.shape && *spec.shape != soup.shape) {
    throw Error("the rule's bounded grid " + spec.shape->to_string() +
                " differs from the soup's shape " + soup.shape.to_string());
  }
  return State{Problem{spec.rule, soup.shape, spec.boundary}, make_soup(soup), 0};
}

} // namespace

void run(const ExperimentInfo& info, const Params& params, const RunRequest& request) {
  State state = request.input ? read_state(*request.input, request.rule)
                              : soup_state(*request.soup, request.rule, info.family);
  require_available(info);
  require_supported(info, state.problem, params);
  auto simulator = info.make(state.problem, params);
  simulator->upload(state.grid);
  simulator->advance(request.generations);
  state.grid = simulator->download();
  state.generation += request.generations;
  write_state(request.output, state);
}

} // namespace lifebench::harness
