// harness/results.schema.json, built into the driver: what it reads of a results folder is
// checked against the one description of the format, as the report checks it.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

namespace lifebench::driver {

/// The text of harness/results.schema.json.
extern const char* const kResultsSchemaText;

/// Throws Error unless `contents`, read from `file`, is valid as the schema's definition
/// `kind` ("experiment_results", "manifest"): one line naming the file, the place in it and
/// the fault, "out/a.json: configurations[3].status: ... (found \"weird\")".
void check_against_schema(const std::filesystem::path& file, const nlohmann::json& contents,
                          const char* kind);

} // namespace lifebench::driver
