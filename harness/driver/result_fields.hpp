// Reading fields of a result as the results folder holds it (JSON that may have been edited
// by hand): for the folder, benchmarks.json and `compare` alike.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace lifebench::driver {

/// The string at `key` of a JSON object, or "" where there is none (or another type).
std::string string_at(const nlohmann::json& object, const char* key);

/// Whether a result measured a verified configuration: status ok, verification passed.
bool verified(const nlohmann::json& result);

} // namespace lifebench::driver
