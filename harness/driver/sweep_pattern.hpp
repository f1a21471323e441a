// Patterns that sweeps name (`pattern = ...`): where their files are found, and the refusal,
// before anything runs, of one that cannot start its configuration.
//
//   "datasets/acorn.rle"                  lifebench's datasets: the datasets/ folder beside
//                                         the lifebench that runs (the build copies it there)
//   "golly:Life/Guns/gun-p165mwss.rle"    Golly's collection: share/golly/Patterns/ beside
//                                         the bgolly the external experiments run
//                                         (LIFEBENCH_BGOLLY, else bgolly on PATH)
//   any other path                        as it stands (relative: to the current folder)
#pragma once

#include "lifebench/result_record.hpp"
#include "sweep.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace lifebench::driver {

/// The file a sweep's `pattern` names; throws Error where it cannot be found.
std::filesystem::path resolve_pattern(const std::string& given);

/// Gives each configuration with a pattern its pattern_file; throws Error, naming the run,
/// for the first whose pattern is missing or unreadable, runs another rule, or does not fit
/// its grid. Each file is read once.
void resolve_patterns(std::vector<SweepConfiguration>& configurations);

/// What a result records of `c`'s pattern (its pattern_file read again), or nothing for soups.
std::optional<ResultPattern> result_pattern(const Configuration& c);

} // namespace lifebench::driver
