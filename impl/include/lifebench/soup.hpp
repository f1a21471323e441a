// Seeded random soups from a counter-based generator: cell i is alive iff a
// hash of (seed, i) falls under the density, so the same grid comes out on
// every machine, backend and thread count.
#pragma once

#include "lifebench/grid.hpp"

#include <cstdint>
#include <span>
#include <string_view>

namespace lifebench {

struct SoupSpec {
  Shape shape;
  double density = 0.5; ///< probability in [0, 1] that a cell is alive
  std::uint64_t seed = 1;
};

/// Parses "WxH[xD],density,seed"; throws Error.
SoupSpec parse_soup(std::string_view text);

/// Cell i (in memory order) is alive iff the (i + 1)-th output of SplitMix64
/// started at `seed` is below density * 2^64. Large soups are made on every core.
Grid make_soup(const SoupSpec& spec);

/// Rows first .. first + count - 1 (rows of every plane in memory order) of the soup
/// make_soup() makes, packed as pack_rows<std::uint64_t>() packs them into `words`
/// (count * words_per_row<std::uint64_t>(width) of them): a universe made in bands.
void soup_rows(const SoupSpec& spec, std::int64_t first, std::int64_t count,
               std::span<std::uint64_t> words);

} // namespace lifebench
