// One configuration of an experiment: what one `bench` process measures and one result
// records. The driver makes configurations from sweep files and hands each to its
// experiment's executable as a command line (to_argv), which reads it back
// (ConfigurationOptions::from_argv); both call it by name(), the results' config_id.
#pragma once

#include "lifebench/experiment.hpp"
#include "lifebench/problem.hpp"
#include "lifebench/rle.hpp" // Position
#include "lifebench/statistics.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace lifebench {

struct Configuration {
  std::string experiment;
  Problem problem;
  std::uint64_t generations = 0; ///< per timed repetition
  /// As given (a sweep file's, `--param`): the name holds these, so that a result keeps its
  /// name when an axis gains a parameter; resolved_params() fills in the axes' defaults.
  std::map<std::string, std::string> params;
  std::optional<double> density; ///< of both soups; none: the family's soup density
  /// A pattern file that starts both runs in place of soups, as the sweep wrote it
  /// ("datasets/acorn.rle", "golly:Life/..."): the name holds it; none: soups.
  std::optional<std::string> pattern;
  /// Where `pattern` is read: the driver resolves it (harness/driver/sweep_pattern.hpp) and
  /// to_argv passes it, which `bench --pattern` then reads as both.
  std::filesystem::path pattern_file;
  std::optional<Position> offset;    ///< the pattern's top-left cell; none: centred
  statistics::StoppingRule stopping; ///< its min_repetitions: a sweep's `repetitions`
  int warmup = 1;

  /// The canonical name, the results' config_id and the Google Benchmark name:
  /// "experiment|problem|g<generations>|k=v,..." and "|density=D" when a density is given, or
  /// "|pattern=P[@X,Y]" when a pattern is (at an offset), so that the names of
  /// configurations without them stay as results folders hold them.
  [[nodiscard]] std::string name() const;
  /// The name's fields for a progress line: "cpu-trivial B3/S23:T4096,4096 g16 threads=4
  /// density=0.01", "... g16 pattern=datasets/acorn.rle@10,20".
  [[nodiscard]] std::string label() const;
  /// The parameters with the axes' defaults, checked against them (resolve_params, the one
  /// check of parameter names and values); throws Error naming the parameter.
  [[nodiscard]] Params resolved_params(const std::vector<Axis>& axes) const;
};

/// A name's fields: experiment, problem, generations ("g16"), parameters ("k=v,..." or "")
/// and, when given, "density=D" or "pattern=P[@X,Y]"; at least four, the missing ones empty.
std::vector<std::string> name_fields(const std::string& name);

/// Parses a problem spec, which must name a bounded grid ("B3/S23:T64,64"); throws Error.
Problem parse_problem(const std::string& spec);

/// The arguments after `<experiment executable> bench` that measure `c` and write its result
/// to `json_out`: what ConfigurationOptions reads.
std::vector<std::string> to_argv(const Configuration& c, const std::filesystem::path& json_out);

/// The options to_argv writes, declared on an experiment executable's `bench` command.
class ConfigurationOptions {
public:
  explicit ConfigurationOptions(CLI::App& bench);
  /// The configuration of `experiment` that the parsed command line gives; throws Error on a
  /// problem without a bounded grid, a malformed --param or --offset, or a maximum below the
  /// minimum.
  [[nodiscard]] Configuration from_argv(const std::string& experiment) const;
  [[nodiscard]] const std::string& json_out() const { return json_out_; }

private:
  Configuration parsed_;
  std::vector<std::string> pairs_;
  std::string problem_;
  std::optional<std::string> offset_;
  std::string json_out_;
};

} // namespace lifebench
