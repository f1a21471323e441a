// The conformance matrix every experiment is checked against: shapes (square
// and not, powers of two and not), both boundaries, rules, generation counts
// that cross launch boundaries, and every combination of parameter values.
#pragma once

#include "lifebench/experiment.hpp"

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace lifebench::harness {

/// One of `count` interleaved parts of the matrix (the runnable problems index, index +
/// count, ...; the first part also lists the skipped ones), so that a long matrix runs as
/// several tests side by side; {0, 1} is the whole matrix.
struct Shard {
  int index = 0;
  int count = 1;
};

/// Reads "K/N" (1 <= K <= N <= 64), the K-th of N parts; nothing for any other text.
std::optional<Shard> parse_shard(std::string_view text);

/// Runs the matrix (or a shard of it), one line per case; unsupported cases are listed as
/// skipped with their reason. Returns true when every case ran passed and at least one ran.
/// `fixed` pins parameters (the rest take every allowed value). A case's soup is the same
/// whichever shard runs it.
bool run_conformance(const ExperimentInfo& info, const std::map<std::string, std::string>& fixed,
                     Shard shard, std::ostream& log);

} // namespace lifebench::harness
