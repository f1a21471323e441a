// The experiment executable's subcommands.
#pragma once

#include "lifebench/experiment.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace lifebench::harness {

/// Prints the experiment's description and availability as JSON.
void describe(const ExperimentInfo& info, std::ostream& out);

struct RunRequest {
  std::optional<std::string> input; ///< a pattern file, or
  std::optional<std::string> soup;  ///< "WxH[xD],density,seed"
  std::optional<std::string> rule;  ///< overrides the input's rule
  std::uint64_t generations = 0;
  std::string output;
  bool resume = false; ///< continue from a universe file `output` left by a stopped run
};

/// Advances an input file or soup and writes the result atomically.
void run(const ExperimentInfo& info, const Params& params, const RunRequest& request);

} // namespace lifebench::harness
