// What a results folder was measured with: one machine and one source tree (harness/RESULTS.md).
// A folder holds one of each, so that every number in it names the commit and machine it
// came from.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

namespace lifebench::driver {

/// The manifest's "build": build_environment() and the source tree's hash and commit
/// (source_info()).
nlohmann::json build_provenance();

/// Throws Error, in one line naming both, where the results folder `dir`, whose manifest is
/// `earlier`, was measured on another machine (its name) or with binaries built from another
/// source tree (its source hash) than `machine` and `build` of this run; also where `earlier`
/// records neither (an older lifebench wrote it), which cannot be told apart.
void check_same_machine_and_source(const std::filesystem::path& dir, const nlohmann::json& earlier,
                                   const nlohmann::json& machine, const nlohmann::json& build);

} // namespace lifebench::driver
