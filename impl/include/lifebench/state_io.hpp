// Files the CLI reads and writes, by extension: ".rle" (2D, rule and bound in
// the header), ".lbu" (2D universe file, universe.hpp; read whole here) and
// ".dat"/".bin" (3D HPCGame format, rule B6/S567/3D unless given).
// Outputs are written to a temporary file beside the target and renamed into
// place, so a failure never leaves a half-written file.
#pragma once

#include "lifebench/grid.hpp"
#include "lifebench/problem.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <span>
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

/// A file of a known size being written in place through a memory map.
class MappedOutput {
public:
  MappedOutput(std::span<std::byte> bytes, int fd) : bytes_(bytes), fd_(fd) {}
  [[nodiscard]] std::span<std::byte> bytes() const { return bytes_; }
  /// Starts writing bytes [offset, offset + length) to the disk without waiting, so
  /// that the final sync has less left to do.
  void start_writeback(std::int64_t offset, std::int64_t length) const;

private:
  std::span<std::byte> bytes_;
  int fd_;
};

/// write_file_atomically() for a file of `size` bytes that `write` fills in any order
/// through a memory map (zeros where it writes nothing). The space is reserved first,
/// so a disk too small fails here with one error rather than midway.
void write_mapped_file_atomically(const std::filesystem::path& path, std::int64_t size,
                                  const std::function<void(const MappedOutput&)>& write);

/// Removes the temporaries of write_file_atomically(path) that writers killed before the
/// rename left beside `path` (each may be as large as the file).
void remove_temporaries_beside(const std::filesystem::path& path);

/// Whether `path` names a universe file (".lbu", in any case).
[[nodiscard]] bool is_universe_file(const std::filesystem::path& path);

} // namespace lifebench
