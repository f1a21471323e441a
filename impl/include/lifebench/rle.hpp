// Run-length encoded patterns as Golly reads and writes them: an optional
// comment block, the header "x = W, y = H, rule = R", then runs of b/o, $ and !.
#pragma once

#include "lifebench/grid.hpp"
#include "lifebench/problem.hpp"

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace lifebench {

/// Golly's coordinates of a cell: the origin is the centre of a bounded grid
/// (its top-left cell is at (-(W/2), -(H/2))), and y grows downward.
struct Position {
  std::int64_t x = 0;
  std::int64_t y = 0;
  friend bool operator==(const Position&, const Position&) = default;
};

/// `length` live cells of a pattern's row y, from column x on.
struct LiveRun {
  std::int64_t x = 0;
  std::int64_t y = 0;
  std::int64_t length = 0;
  friend bool operator==(const LiveRun&, const LiveRun&) = default;
};

/// A pattern as it stands in a file: its size (the header's x by y), live cells and rule.
/// The cells are kept as runs, so that a pattern takes memory in proportion to its file
/// whatever size its header claims: a grid is made only once the pattern fits into it.
struct Pattern {
  Shape size;                       ///< the header's x by y
  std::vector<LiveRun> alive;       ///< none overlapping; read_rle gives them in file order
  std::optional<RuleSpec> rule;     ///< absent when the header names none
  std::uint64_t generation = 0;     ///< from a "#CXRLE ... Gen=N" line when present
  std::optional<Position> position; ///< top-left cell, from "#CXRLE Pos=x,y" when present

  /// The cells as a grid of the pattern's own size.
  [[nodiscard]] Grid cells() const;
};

/// Reads an RLE; throws ParseError with `source`, line and column on malformed text.
Pattern read_rle(std::istream& in, const std::string& source);

/// Reads an RLE straight into a bounded grid, the only copy of its cells: `grid_for` is given
/// the pattern without its cells (`alive` empty) and returns the shape of the grid it goes
/// into, or throws. The pattern is placed as corner_in_grid() says, and refused before the
/// grid is made if it does not fit. Throws ParseError on malformed text.
Grid read_rle_into_grid(std::istream& in, const std::string& source,
                        const std::function<Shape(const Pattern&)>& grid_for);

/// Writes the whole grid (x and y are the grid's size) with the problem's rule
/// and bounded grid, so that Golly reads it back onto the same cells.
void write_rle(std::ostream& out, const Grid& grid, const Problem& problem,
               std::uint64_t generation);

/// Writes a grid that stands for Golly's unbounded plane, its top-left cell at Golly's
/// `origin`, as Golly writes a pattern of its plane: the box of the live cells, its place
/// ("#CXRLE Pos") and the rule with no bounded grid ("x = 0, y = 0" where none lives).
void write_rle_plane(std::ostream& out, const Grid& grid, const Rule& rule, Position origin,
                     std::uint64_t generation);

/// A cell of a grid, counted from its top-left cell.
struct Cell {
  std::int64_t x = 0;
  std::int64_t y = 0;
  friend bool operator==(const Cell&, const Cell&) = default;
};

/// Where a pattern goes: the shape of a grid and the grid cell of the pattern's top-left cell.
struct Placement {
  Shape grid;
  Cell corner;
};

/// Reads an RLE straight into a grid, the only copy of its cells: `place` is given the pattern
/// without its cells (`alive` empty) and returns the grid and where the pattern goes, which
/// must hold it, or throws. Throws ParseError on malformed text.
Grid read_rle_placed(std::istream& in, const std::string& source,
                     const std::function<Placement(const Pattern&)>& place);

/// Where Golly puts the pattern's top-left cell in a bounded grid of `grid_shape`: at its
/// "#CXRLE Pos" when it has one (as place_in_grid(pattern, shape, position)), else centred
/// (as place_in_grid(pattern, shape)). Throws Error if the pattern does not fit.
Cell corner_in_grid(const Pattern& pattern, Shape grid_shape);

/// Places a pattern into a bounded grid as Golly does: the grid and the pattern
/// are both centred on the origin, so the pattern's top-left cell lands at
/// (W/2 - x/2, H/2 - y/2). Throws Error, before the grid is made, if the pattern
/// does not fit.
Grid place_in_grid(const Pattern& pattern, Shape grid_shape);

/// Places a pattern whose top-left cell is at Golly's `top_left`, as Golly does
/// when a file gives "#CXRLE Pos=x,y". Throws Error, before the grid is made, if the
/// pattern does not fit.
Grid place_in_grid(const Pattern& pattern, Shape grid_shape, Position top_left);

} // namespace lifebench
