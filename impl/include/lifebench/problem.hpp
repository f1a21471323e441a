// The problem model: a rule (birth/survival counts on a neighbourhood), a grid
// shape and a boundary. Rule strings follow Golly:
//
//   B3/S23              square grid, Moore neighbourhood (8)
//   B2/S34H             hexagonal (6): the square array's NE and SW cells are
//                       not neighbours (Golly's convention)
//   B6/S567/3D          three-dimensional, 26 neighbours; counts above 9 are
//                       written comma-separated: B6,13/S5,6,7,12/3D, and a
//                       lone one with a trailing comma: B13,/S5/3D
//
// followed by an optional bounded grid: ":T<w>,<h>[,<d>]" (torus) or
// ":P<w>,<h>[,<d>]" (plane, dead outside); one size alone stands for all of
// them, as Golly reads ":T100" as ":T100,100". Golly's shifted and twisted
// topologies (Klein bottle, cross-surface, sphere) and its sizes of zero
// (unbounded in one direction) are refused, but a 2D grid of zeros (":T0") is
// Golly's unbounded plane, as no grid at all. Lowercase letters, Golly's S/B
// form ("23/3") and its forms without a slash ("B3S23", "B234": no survival) are
// read too, and rules by name as Golly names them ("Life", "HighLife", "Day and
// Night", "34Life": letters and digits count, in any case); to_string() gives
// the canonical B/S form. Multi-state rules (Golly's Generations rules "B2/S/C3",
// rule tables such as LifeHistory) are refused as such.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lifebench {

enum class Topology { square, hex, cube };
enum class Boundary { torus, dead };

/// Birth and survival neighbour counts on one neighbourhood.
struct Rule {
  Topology topology = Topology::square;
  std::uint32_t birth = 0;   ///< bit n set: a dead cell with n live neighbours is born
  std::uint32_t survive = 0; ///< bit n set: a live cell with n live neighbours survives

  [[nodiscard]] int neighbours() const; ///< 8, 6 or 26
  [[nodiscard]] bool born(int n) const { return ((birth >> n) & 1U) != 0; }
  [[nodiscard]] bool survives(int n) const { return ((survive >> n) & 1U) != 0; }
  [[nodiscard]] std::string to_string() const; ///< canonical form, e.g. "B3/S23"
  friend bool operator==(const Rule&, const Rule&) = default;
};

/// Extent of a grid in cells; depth is 1 for 2D families.
struct Shape {
  std::int64_t width = 0;
  std::int64_t height = 0;
  std::int64_t depth = 1;

  [[nodiscard]] std::int64_t cells() const { return width * height * depth; }
  [[nodiscard]] std::string to_string() const; ///< "WxH" or "WxHxD"
  friend bool operator==(const Shape&, const Shape&) = default;
};

/// Everything a simulator needs to know besides the cells themselves.
struct Problem {
  Rule rule;
  Shape shape;
  Boundary boundary = Boundary::torus;

  [[nodiscard]] std::string to_string() const; ///< Golly form, e.g. "B3/S23:T64,64"
  friend bool operator==(const Problem&, const Problem&) = default;
};

/// A rule string with its optional bounded-grid suffix.
struct RuleSpec {
  Rule rule;
  std::optional<Shape> shape; ///< absent for an unbounded rule
  Boundary boundary = Boundary::torus;
};

/// Parses a rule string with optional bound; throws Error naming the fault.
RuleSpec parse_rule_spec(std::string_view text);

/// The most cells a problem may have (2^40: 128 GiB bit-packed). Host grids, one
/// byte per cell, are further bounded by the machine's memory (see Grid).
inline constexpr std::int64_t max_cells = std::int64_t{1} << 40;

/// Why `shape` cannot be a grid (a size not positive, more than max_cells cells), or nothing.
std::optional<std::string> invalid_shape_reason(const Shape& shape);

/// Parses "WxH" or "WxHxD" (positive sizes); throws Error.
Shape parse_shape(std::string_view text);

/// "torus" or "dead"; throws Error on anything else.
Boundary parse_boundary(std::string_view text);
std::string to_string(Boundary boundary);
std::string to_string(Topology topology); ///< "square", "hex", "3d"

} // namespace lifebench
