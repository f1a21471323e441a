// Seeded soups. Cell i is alive iff mix64(seed + (i + 1) * golden_gamma) is
// below density * 2^64: the (i + 1)-th output of SplitMix64 started at `seed`.
// Integer arithmetic only, and each cell on its own, so the grid is the same on
// every machine and could be made in any order or in parallel.
#include "lifebench/soup.hpp"

#include "lifebench/error.hpp"
#include "lifebench/packed.hpp"
#include "mix.hpp"
#include "text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace lifebench {

SoupSpec parse_soup(std::string_view text) {
  const auto fail = [&](const std::string& why) {
    return Error("soup " + detail::quote(text) + ": " + why);
  };
  const auto parts = detail::split(text, ',');
  if (parts.size() != 3) throw fail("expected WxH[xD],density,seed, e.g. 1024x1024,0.5,1");
  SoupSpec spec;
  spec.shape = parse_shape(parts[0]);

  const std::string_view density = parts[1];
  const auto [end, error] =
      std::from_chars(density.data(), density.data() + density.size(), spec.density);
  if (density.empty() || error != std::errc{} || end != density.data() + density.size() ||
      !(spec.density >= 0.0 && spec.density <= 1.0)) {
    throw fail("density " + detail::quote(density) + " is not a number from 0 to 1");
  }

  const auto seed = detail::parse_decimal(parts[2]);
  if (!seed) throw fail("seed " + detail::quote(parts[2]) + " is not an unsigned 64-bit integer");
  spec.seed = *seed;
  return spec;
}

namespace {

/// The hash below which a cell is alive. Scaling by a power of two is exact and the
/// conversion truncates, so it is the same integer everywhere; density 1 is every
/// hash, which no threshold gives (2^64 does not fit), so that case is apart.
std::uint64_t threshold_of(const SoupSpec& spec) {
  if (!(spec.density >= 0.0 && spec.density <= 1.0)) {
    throw Error("soup density " + std::to_string(spec.density) + " is not from 0 to 1");
  }
  return spec.density == 1.0 ? 0 : static_cast<std::uint64_t>(std::ldexp(spec.density, 64));
}

} // namespace

Grid make_soup(const SoupSpec& spec) {
  const std::uint64_t threshold = threshold_of(spec);
  Grid grid(spec.shape);
  std::uint8_t* cells = grid.data();
  const auto size = static_cast<std::uint64_t>(spec.shape.cells());
  if (spec.density == 1.0) {
    std::fill(cells, cells + size, std::uint8_t{1});
    return grid;
  }
  std::uint64_t state = spec.seed;
  for (std::uint64_t i = 0; i < size; ++i) {
    state += detail::golden_gamma;
    cells[i] = detail::mix64(state) < threshold ? 1 : 0;
  }
  return grid;
}

void soup_row(const SoupSpec& spec, std::int64_t row, std::span<std::uint64_t> words) {
  const std::uint64_t threshold = threshold_of(spec);
  const std::int64_t width = spec.shape.width;
  if (row < 0 || row >= spec.shape.height * spec.shape.depth ||
      static_cast<std::int64_t>(words.size()) != words_per_row<std::uint64_t>(width)) {
    throw Error("soup_row: row " + std::to_string(row) + " into " + std::to_string(words.size()) +
                " words is not a row of a " + spec.shape.to_string() + " soup");
  }
  std::fill(words.begin(), words.end(), std::uint64_t{0});
  // Cell i's state is the seed plus i + 1 steps of the Weyl sequence (modulo 2^64).
  std::uint64_t state = spec.seed + static_cast<std::uint64_t>(row * width) * detail::golden_gamma;
  for (std::int64_t x = 0; x < width; ++x) {
    state += detail::golden_gamma;
    const bool alive = spec.density == 1.0 || detail::mix64(state) < threshold;
    if (alive) words[static_cast<std::size_t>(x / 64)] |= std::uint64_t{1} << (x % 64);
  }
}

} // namespace lifebench
