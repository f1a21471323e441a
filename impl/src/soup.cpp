// Seeded soups. Cell i is alive iff mix64(seed + (i + 1) * golden_gamma) is
// below density * 2^64: the (i + 1)-th output of SplitMix64 started at `seed`.
// Integer arithmetic only, and each cell on its own, so the grid is the same on
// every machine and could be made in any order or in parallel.
#include "lifebench/soup.hpp"

#include "lifebench/error.hpp"
#include "lifebench/packed.hpp"
#include "mix.hpp"
#include "shares.hpp"
#include "text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace lifebench {

SoupSpec parse_soup(std::string_view text) {
  const auto fail = [&](const std::string& why) {
    return Error("soup " + quote(text) + ": " + why);
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
    throw fail("density " + quote(density) + " is not a number from 0 to 1");
  }

  const auto seed = detail::parse_decimal(parts[2]);
  if (!seed) throw fail("seed " + quote(parts[2]) + " is not an unsigned 64-bit integer");
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

/// Soups are made in shares of at least this many cells, one per thread.
constexpr std::int64_t kSoupCellsPerShare = std::int64_t{1} << 22;

/// Cell i's Weyl state before its own step: the seed plus i steps (modulo 2^64).
std::uint64_t state_before(const SoupSpec& spec, std::int64_t cell) {
  return spec.seed + static_cast<std::uint64_t>(cell) * detail::golden_gamma;
}

} // namespace

Grid make_soup(const SoupSpec& spec) {
  const std::uint64_t threshold = threshold_of(spec);
  Grid grid(spec.shape);
  std::uint8_t* cells = grid.data();
  const std::int64_t size = spec.shape.cells();
  if (spec.density == 1.0) {
    std::fill(cells, cells + size, std::uint8_t{1});
    return grid;
  }
  // A soup of 2^32 cells takes seconds on one core.
  detail::in_shares(size, 1, kSoupCellsPerShare, [&](std::int64_t first, std::int64_t last) {
    std::uint64_t state = state_before(spec, first);
    for (std::int64_t i = first; i < last; ++i) {
      state += detail::golden_gamma;
      cells[i] = detail::mix64(state) < threshold ? 1 : 0;
    }
  });
  return grid;
}

void soup_rows(const SoupSpec& spec, std::int64_t first, std::int64_t count,
               std::span<std::uint64_t> words) {
  const std::uint64_t threshold = threshold_of(spec);
  const std::int64_t width = spec.shape.width;
  const std::int64_t row_words = words_per_row<std::uint64_t>(width);
  if (first < 0 || count < 0 || first + count > spec.shape.height * spec.shape.depth ||
      static_cast<std::int64_t>(words.size()) != count * row_words) {
    throw Error("soup_rows: rows " + std::to_string(first) + " + " + std::to_string(count) +
                " into " + std::to_string(words.size()) + " words are not rows of a " +
                spec.shape.to_string() + " soup");
  }
  detail::in_shares(count, width, kSoupCellsPerShare, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r) {
      std::uint64_t* out = words.data() + r * row_words;
      std::uint64_t state = state_before(spec, (first + r) * width);
      for (std::int64_t x = 0; x < width; x += 64) {
        const auto bits = static_cast<int>(std::min<std::int64_t>(64, width - x));
        std::uint64_t word = 0;
        for (int b = 0; b < bits; ++b) {
          state += detail::golden_gamma;
          const bool alive = spec.density == 1.0 || detail::mix64(state) < threshold;
          word |= (alive ? std::uint64_t{1} : 0U) << b;
        }
        out[x / 64] = word;
      }
    }
  });
}

} // namespace lifebench
