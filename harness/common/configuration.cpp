#include "lifebench/configuration.hpp"

#include "lifebench/cli.hpp"
#include "lifebench/error.hpp"
#include "lifebench/number_text.hpp"
#include "lifebench/params.hpp"
#include "lifebench/pattern.hpp"

#include <sstream>

namespace lifebench {
namespace {

// `bench`'s options, named once for the writer and the reader.
constexpr const char* kParam = "--param";
constexpr const char* kProblem = "--problem";
constexpr const char* kGenerations = "--generations";
constexpr const char* kRepetitions = "--repetitions";
constexpr const char* kMaxRepetitions = "--max-repetitions";
constexpr const char* kTargetRelCi = "--target-rel-ci";
constexpr const char* kTimingBudgetS = "--timing-budget-s";
constexpr const char* kWarmup = "--warmup";
constexpr const char* kDensity = "--density";
constexpr const char* kPattern = "--pattern";
constexpr const char* kOffset = "--offset";
constexpr const char* kJsonOut = "--json-out";

/// "X,Y", as a sweep's `offset` and --offset give it.
std::string offset_text(Position offset) {
  return std::to_string(offset.x) + "," + std::to_string(offset.y);
}

/// How the name's fields are joined: the name keeps an empty parameters field, so that its
/// fields stay at their places; a label leaves it out.
struct Spelling {
  const char* field;
  const char* param;
  bool empty_params_field;
};
constexpr Spelling kName{"|", ",", true};
constexpr Spelling kLabel{" ", " ", false};

/// The one builder of a configuration's name, in either spelling.
std::string spell(const Configuration& c, const Spelling& spelling) {
  std::string params;
  for (const auto& [name, value] : c.params)
    params += (params.empty() ? "" : spelling.param) + name + "=" + value;
  std::string text = c.experiment + spelling.field + c.problem.to_string() + spelling.field + "g" +
                     std::to_string(c.generations);
  if (spelling.empty_params_field || !params.empty()) text += spelling.field + params;
  if (c.density) text += spelling.field + ("density=" + number_text(*c.density));
  if (c.pattern) {
    text += spelling.field + ("pattern=" + *c.pattern);
    if (c.offset) text += "@" + offset_text(*c.offset);
  }
  return text;
}

/// A check that --density is a number in (0, 1].
CLI::Validator density_in_range() {
  return {[](const std::string& text) {
            double density = 0;
            std::istringstream in(text);
            in >> density;
            return in && in.eof() && density > 0 && density <= 1
                       ? std::string()
                       : "must be a number in (0, 1], not " + text;
          },
          "DENSITY in (0, 1]"};
}

} // namespace

std::string Configuration::name() const {
  return spell(*this, kName);
}

std::string Configuration::label() const {
  return spell(*this, kLabel);
}

Params Configuration::resolved_params(const std::vector<Axis>& axes) const {
  return resolve_params(experiment, axes, params);
}

std::vector<std::string> name_fields(const std::string& name) {
  std::vector<std::string> fields;
  std::istringstream in(name);
  for (std::string field; std::getline(in, field, '|');)
    fields.push_back(field);
  fields.resize(std::max<std::size_t>(fields.size(), 4));
  return fields;
}

Problem parse_problem(const std::string& spec) {
  const RuleSpec parsed = parse_rule_spec(spec);
  if (!parsed.shape) {
    throw Error("problem '" + spec + "' has no bounded grid: add :T<w>,<h> (torus) or :P<w>,<h>");
  }
  return Problem{parsed.rule, *parsed.shape, parsed.boundary};
}

std::vector<std::string> to_argv(const Configuration& c, const std::filesystem::path& json_out) {
  std::vector<std::string> argv;
  for (const auto& [name, value] : c.params) {
    argv.emplace_back(kParam);
    argv.push_back(name + "=" + value);
  }
  const statistics::StoppingRule& stopping = c.stopping;
  for (const auto& [option, value] :
       {std::pair<const char*, std::string>{kProblem, c.problem.to_string()},
        {kGenerations, std::to_string(c.generations)},
        {kRepetitions, std::to_string(stopping.min_repetitions)},
        {kMaxRepetitions, std::to_string(stopping.max_repetitions)},
        {kTargetRelCi, number_text(stopping.target_rel_ci)},
        {kTimingBudgetS, number_text(stopping.budget_s)},
        {kWarmup, std::to_string(c.warmup)},
        {kJsonOut, json_out.string()}}) {
    argv.emplace_back(option);
    argv.push_back(value);
  }
  if (c.density) {
    argv.emplace_back(kDensity);
    argv.push_back(number_text(*c.density));
  }
  if (c.pattern) {
    argv.emplace_back(kPattern);
    argv.push_back(c.pattern_file.string());
  }
  if (c.offset) {
    argv.emplace_back(kOffset);
    argv.push_back(offset_text(*c.offset));
  }
  return argv;
}

ConfigurationOptions::ConfigurationOptions(CLI::App& bench) {
  bench.add_option(kParam, pairs_, "Parameter name=value (repeatable)");
  bench.add_option(kProblem, problem_, "Rule with bounded grid")->required();
  bench.add_option(kGenerations, parsed_.generations, "Generations per repetition")
      ->required()
      ->check(whole_number(1, kMaxGenerations));
  // At most a million, as a sweep file's repetitions and warmup.
  statistics::StoppingRule& stopping = parsed_.stopping;
  bench
      .add_option(kRepetitions, stopping.min_repetitions,
                  "Timed repetitions at least (more until the median's interval is narrow "
                  "enough)")
      ->capture_default_str()
      ->check(whole_number(1, 1'000'000));
  bench.add_option(kMaxRepetitions, stopping.max_repetitions, "Timed repetitions at most")
      ->capture_default_str()
      ->check(whole_number(1, 1'000'000));
  bench
      .add_option(kTargetRelCi, stopping.target_rel_ci,
                  "Stop when the median's 95 % interval's half-width is within this fraction "
                  "of it")
      ->capture_default_str()
      ->check(open_fraction());
  bench
      .add_option(kTimingBudgetS, stopping.budget_s,
                  "Begin no repetition past the minimum that would end after this many seconds "
                  "of timing")
      ->capture_default_str()
      ->check(positive_seconds());
  bench.add_option(kWarmup, parsed_.warmup, "Untimed repetitions first")
      ->check(whole_number(0, 1'000'000));
  bench
      .add_option(kDensity, parsed_.density,
                  "Initial soup density in (0, 1] (default: the family's)")
      ->check(density_in_range());
  auto* pattern =
      bench
          .add_option(kPattern, parsed_.pattern,
                      "Pattern file that starts both runs in place of soups, centred on the grid")
          ->excludes(kDensity);
  bench.add_option(kOffset, offset_, "X,Y: the pattern's top-left cell instead of centred")
      ->needs(pattern);
  bench.add_option(kJsonOut, json_out_, "Result file")->required();
}

Configuration ConfigurationOptions::from_argv(const std::string& experiment) const {
  const statistics::StoppingRule& stopping = parsed_.stopping;
  if (stopping.max_repetitions < stopping.min_repetitions) {
    throw Error(std::string(kMaxRepetitions) + " " + std::to_string(stopping.max_repetitions) +
                " is below " + kRepetitions + " " + std::to_string(stopping.min_repetitions));
  }
  Configuration c = parsed_;
  c.experiment = experiment;
  c.params = parse_param_pairs(pairs_);
  c.problem = parse_problem(problem_);
  if (c.pattern) c.pattern_file = *c.pattern;
  if (offset_) c.offset = parse_offset(*offset_);
  return c;
}

} // namespace lifebench
