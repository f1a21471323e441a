// Files the CLI reads and writes, by extension: ".rle" (2D, rule and bound in
// the header), ".lbu" (2D universe file, universe.hpp; read whole here) and
// ".dat"/".bin" (3D HPCGame format, rule B6/S567/3D unless given).
// Outputs are written to a temporary file beside the target and renamed into
// place, so a failure never leaves a half-written file.
#pragma once

#include "lifebench/grid.hpp"
#include "lifebench/problem.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace lifebench {

/// A universe at some generation.
struct State {
  Problem problem;
  Grid grid;
  std::uint64_t generation = 0;
};

/// Loads a state; `rule_override` (a rule spec, e.g. "B3/S23:T64,64") replaces
/// the file's rule. Throws Error if the result has no bounded grid or the
/// pattern does not fit into it.
State read_state(const std::filesystem::path& path,
                 const std::optional<std::string>& rule_override);

/// Writes a state in the format its extension names, atomically.
void write_state(const std::filesystem::path& path, const State& state);

/// Writes a file through `write` into a temporary beside `path`, then renames it
/// into place; on any exception the temporary is removed and `path` is untouched.
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

/// Removes the temporaries of write_file_atomically(path) that writers killed before the
/// rename left beside `path` (each may be as large as the file).
void remove_temporaries_beside(const std::filesystem::path& path);

/// Whether `path` names a universe file (".lbu", in any case).
[[nodiscard]] bool is_universe_file(const std::filesystem::path& path);

} // namespace lifebench
