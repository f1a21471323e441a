// `lifebench list --json`: the experiments found, as one JSON document for scripts.
#pragma once

#include "discovery.hpp"

#include <nlohmann/json.hpp>

namespace lifebench::driver {

/// {"experiments": [{name, family, backend, available, reason, source, technique, binary,
/// axes: [{name, default, allowed, description}], external?}], "broken": [{name, binary,
/// reason}]}, each list sorted by name.
nlohmann::json catalog_json(const Catalog& catalog);

} // namespace lifebench::driver
