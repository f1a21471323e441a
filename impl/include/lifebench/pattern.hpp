// A pattern file as a workload: its live cells cut to their box, placed on a run's grid in
// place of a random soup (the sweep key `pattern`, `bench --pattern`).
#pragma once

#include "lifebench/grid.hpp"
#include "lifebench/problem.hpp"
#include "lifebench/rle.hpp" // Position

#include <filesystem>
#include <optional>
#include <string>

namespace lifebench {

/// A pattern as a workload: its live cells on a grid of their box (1x1 and dead where none lives),
/// and the rule its file names (Conway's where it names none, as in Golly).
struct Workload {
  std::string name; ///< the file's name without its extensions: "acorn"
  Rule rule;
  Grid cells;
};

/// Reads any file read_state() reads (RLE, Life 1.05/1.06, macrocell, gzipped; a bounded
/// grid is cut to its live cells' box). Throws Error naming the file where it cannot.
Workload read_pattern(const std::filesystem::path& path);

/// Why `pattern` cannot start a run of `problem`, or nothing: its rule differs from the
/// run's, or its box does not fit the grid at `offset` (the box's top-left cell), else
/// centred. Makes no grid.
std::optional<std::string> placement_refusal(const Workload& pattern, const Problem& problem,
                                             std::optional<Position> offset);

/// The run's grid, dead but for `pattern` placed as placement_refusal() says; throws Error
/// with its refusal.
Grid place_pattern(const Workload& pattern, const Problem& problem, std::optional<Position> offset);

/// The cells' fingerprint (grid_hash of the box) as "0x" and 16 hex digits: the same for
/// one pattern in any of its formats.
std::string pattern_hash(const Workload& pattern);

/// "X,Y" as the sweep's `offset` and `bench --offset` give it; throws Error.
Position parse_offset(const std::string& text);

} // namespace lifebench
