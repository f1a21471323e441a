// Golly's pattern files that place their cells on its plane by coordinates: Life 1.05 and
// 1.06 (".lif", ".life": rows of '.' and '*' from a "#P x y" corner, or one "x y" line per
// live cell) and macrocell (".mc": a quadtree of 8x8 leaves, as Golly's HashLife writes it;
// two-state only). Both are read as Golly reads them (readpattern.cpp, readpclife;
// hlifealgo::readmacrocell), but anything Golly would skip or misread is an error with its
// line: a character outside the format, a node that refers to one not yet defined or of
// another level, a leaf larger than 8x8.
#pragma once

#include "lifebench/plane.hpp"
#include "lifebench/problem.hpp"

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>

namespace lifebench {

/// Receives a run of `length` live cells along a row, from (x, y) rightward.
using RunSink = std::function<void(std::int64_t x, std::int64_t y, std::int64_t length)>;

/// A pattern as such a file gives it: live cells at Golly's coordinates.
struct PlanePattern {
  std::optional<RuleSpec> rule; ///< absent where the file names none (Golly runs B3/S23)
  std::uint64_t generation = 0; ///< a macrocell file's "#G"
  Box box;                      ///< the live cells' box; a width of 0 where none lives
  /// Gives every live cell, in runs inside `box`, in no particular order (a cell a Life
  /// 1.06 file lists twice may come twice; lifebench keeps a run it lists a million times
  /// once).
  std::function<void(const RunSink&)> runs;
};

/// Reads a Life 1.05 or 1.06 file; throws ParseError with `source`, line and column.
PlanePattern read_life(std::istream& in, const std::string& source);

/// Reads a two-state macrocell file ("[M2]"); throws ParseError with `source`, line and
/// column, a node above level 62 (more than 2^62 cells a side) among them.
PlanePattern read_macrocell(std::istream& in, const std::string& source);

} // namespace lifebench
