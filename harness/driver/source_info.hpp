// The source tree this lifebench and its experiments were built from, found at build time by
// cmake/LifebenchSourceInfo.cmake. Only the driver is given it: compiled into the experiments,
// every change anywhere would change every binary and void every result --resume could keep.
#pragma once

#include <nlohmann/json.hpp>

namespace lifebench::driver {

/// {"source_hash": "sha256:<hex>", "git_commit": hex or null, "git_dirty": bool or null,
/// "git_commit_time": ISO 8601 or null, "commit_source": "git" | "stamp" | "unknown"}: the
/// manifest's build fields of the tree.
nlohmann::json source_info();

} // namespace lifebench::driver
