// Seed 003's Figure 11: a torus universe cut into columns x rows sub-universes, each
// extended by T cells on every side. After T generations of the extended sub-universe
// (wrong cells creep in from its edges, one cell per generation) its own cells are exact.
// With one column a sub-universe spans whole rows, the simulation wraps them around
// exactly, and only rows are added.
#pragma once

#include "lifebench/error.hpp"
#include "lifebench/universe.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace lifebench::outofcore_tiles {

/// Sub-universes across and down the universe.
struct Partition {
  int columns = 1;
  int rows = 1;

  /// "CxR", e.g. "4x4" (the paper's B = 16) or "1x8" (eight bands of whole rows).
  static std::optional<Partition> parse(const std::string& text) {
    const std::size_t x = text.find('x');
    if (x == std::string::npos || x == 0 || x + 1 == text.size() || x > 4 || text.size() - x > 5 ||
        text.find_first_not_of("0123456789x") != std::string::npos ||
        text.find('x', x + 1) != std::string::npos) {
      return std::nullopt;
    }
    const Partition p{std::stoi(text.substr(0, x)), std::stoi(text.substr(x + 1))};
    if (p.columns < 1 || p.rows < 1) return std::nullopt;
    return p;
  }
  [[nodiscard]] std::string to_string() const {
    return std::to_string(columns) + "x" + std::to_string(rows);
  }
};

/// The sub-universes of a universe of `height` rows of `row_words` 64-bit words.
struct Geometry {
  std::int64_t row_words = 0;
  std::int64_t height = 0;
  Partition parts;
  int halo_steps = 0; ///< T

  /// Why this partition does not cut the universe into equal word-aligned pieces, or nothing.
  [[nodiscard]] std::optional<std::string> unsupported() const {
    if (row_words % parts.columns != 0 || height % parts.rows != 0) {
      return "subuniverses=" + parts.to_string() +
             " must divide the universe evenly: " + std::to_string(row_words) +
             " words of 64 cells across, " + std::to_string(height) + " rows down";
    }
    return std::nullopt;
  }

  [[nodiscard]] int count() const { return parts.columns * parts.rows; }
  [[nodiscard]] std::int64_t tile_words() const { return row_words / parts.columns; }
  [[nodiscard]] std::int64_t tile_rows() const { return height / parts.rows; }
  /// Words added on each side: T cells rounded up to whole words; none for whole rows.
  [[nodiscard]] std::int64_t halo_words() const {
    return parts.columns == 1 ? 0 : (std::int64_t{halo_steps} + 63) / 64;
  }
  [[nodiscard]] std::int64_t extended_words() const { return tile_words() + 2 * halo_words(); }
  [[nodiscard]] std::int64_t extended_rows() const {
    return tile_rows() + 2 * std::int64_t{halo_steps};
  }
  [[nodiscard]] std::int64_t extended_size() const { return extended_words() * extended_rows(); }
  [[nodiscard]] std::int64_t tile_size() const { return tile_words() * tile_rows(); }

  /// Sub-universe k's first row and first word (row-major order of sub-universes).
  [[nodiscard]] std::int64_t first_row(int k) const { return k / parts.columns * tile_rows(); }
  [[nodiscard]] std::int64_t first_word(int k) const { return k % parts.columns * tile_words(); }
};

inline std::int64_t wrap(std::int64_t i, std::int64_t n) {
  return ((i % n) + n) % n;
}

/// Whole rows [first, first + rows) of a universe `height` rows high, wrapped around the
/// torus (first may be negative, rows more than the height): the contiguous pieces, in
/// order, as visit(universe row, rows, offset in the block's rows).
template <class Visit>
void for_wrapped_rows(std::int64_t height, std::int64_t first, std::int64_t rows, Visit visit) {
  for (std::int64_t r = 0; r < rows;) {
    const std::int64_t y = wrap(first + r, height);
    const std::int64_t piece = std::min(rows - r, height - y);
    visit(y, piece, r);
    r += piece;
  }
}

/// Whole rows [first, first + rows), wrapped around the torus, into `out`.
inline void read_rows(UniverseReader& reader, std::int64_t first, std::int64_t rows,
                      std::span<std::uint64_t> out) {
  const std::int64_t width = reader.header().words_per_row();
  for_wrapped_rows(reader.header().problem.shape.height, first, rows,
                   [&](std::int64_t y, std::int64_t piece, std::int64_t r) {
                     reader.read_rows(y, piece, out.subspan(r * width, piece * width));
                   });
}

/// `block`'s whole rows (of `width` words) to rows [first, first + rows) of a universe
/// `height` rows high, wrapped around.
inline void write_rows(UniverseBlockWriter& file, std::int64_t height, std::int64_t width,
                       std::int64_t first, std::int64_t rows,
                       std::span<const std::uint64_t> block) {
  for_wrapped_rows(height, first, rows, [&](std::int64_t y, std::int64_t piece, std::int64_t r) {
    file.write(y, piece, 0, width, block.subspan(r * width, piece * width));
  });
}

/// Sub-universe k extended by its halo, wrapped around the torus, into `out`
/// (extended_rows() rows of extended_words() words).
inline void read_extended(UniverseReader& reader, const Geometry& g, int k,
                          std::span<std::uint64_t> out) {
  const std::int64_t width = g.extended_words();
  const std::int64_t y0 = g.first_row(k) - g.halo_steps;
  if (g.parts.columns == 1) { // whole rows; an extended width that only equals the row's
                              // still starts its halo words before the sub-universe
    read_rows(reader, y0, g.extended_rows(), out);
    return;
  }
  const std::int64_t x0 = g.first_word(k) - g.halo_words();
  for (std::int64_t r = 0; r < g.extended_rows(); ++r) {
    const std::int64_t y = wrap(y0 + r, g.height);
    for (std::int64_t done = 0; done < width;) {
      const std::int64_t x = wrap(x0 + done, g.row_words);
      const std::int64_t words = std::min(width - done, g.row_words - x);
      reader.read_block(y, 1, x, words, out.subspan(r * width + done, words));
      done += words;
    }
  }
}

} // namespace lifebench::outofcore_tiles
