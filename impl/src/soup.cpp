// Seeded soups. Cell i is alive iff mix64(seed + (i + 1) * golden_gamma) is
// below density * 2^64: the (i + 1)-th output of SplitMix64 started at `seed`.
// Integer arithmetic only, and each cell on its own, so the grid is the same on
// every machine and could be made in any order or in parallel.
#include "lifebench/soup.hpp"

#include "lifebench/error.hpp"
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

Grid make_soup(const SoupSpec& spec) {
  if (!(spec.density >= 0.0 && spec.density <= 1.0)) {
    throw Error("soup density " + std::to_string(spec.density) + " is not from 0 to 1");
  }
  Grid grid(spec.shape);
  std::uint8_t* cells = grid.data();
  const auto size = static_cast<std::uint64_t>(spec.shape.cells());
  if (spec.density == 1.0) {
    std::fill(cells, cells + size, std::uint8_t{1});
    return grid;
  }
  // Scaling by a power of two is exact and the conversion truncates, so the
  // threshold is the same integer everywhere.
  const auto threshold = static_cast<std::uint64_t>(std::ldexp(spec.density, 64));
  std::uint64_t state = spec.seed;
  for (std::uint64_t i = 0; i < size; ++i) {
    state += detail::golden_gamma;
    cells[i] = detail::mix64(state) < threshold ? 1 : 0;
  }
  return grid;
}

} // namespace lifebench
