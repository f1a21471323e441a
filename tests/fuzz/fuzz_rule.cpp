// Rule strings: any text parses or is refused with lifebench::Error, and what parses reads
// back from its canonical form as the same rule, grid and boundary.
#include "fuzz_support.hpp"
#include "lifebench/error.hpp"
#include "lifebench/problem.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lifebench;
  RuleSpec spec;
  try {
    spec = parse_rule_spec(fuzz::text_of(data, size));
  } catch (const Error&) {
    return 0;
  }
  const int neighbours = spec.rule.neighbours();
  fuzz::require((spec.rule.birth >> (neighbours + 1)) == 0 &&
                    (spec.rule.survive >> (neighbours + 1)) == 0,
                "a count beyond the neighbourhood");
  const RuleSpec again = parse_rule_spec(spec.rule.to_string());
  fuzz::require(again.rule == spec.rule && !again.shape, "the canonical rule reads differently");
  if (spec.shape) {
    fuzz::require(invalid_shape_reason(*spec.shape) == std::nullopt, "an invalid grid was read");
    const Problem problem{spec.rule, *spec.shape, spec.boundary};
    const RuleSpec bounded = parse_rule_spec(problem.to_string());
    fuzz::require(bounded.rule == spec.rule && bounded.shape == spec.shape &&
                      bounded.boundary == spec.boundary,
                  "the canonical problem reads differently");
  }
  return 0;
}
