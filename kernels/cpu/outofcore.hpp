// Seed 003 Section 8 on the CPU: a universe kept in a file (universe.hpp) is advanced
// `halo_steps` (T) generations at a time, one sub-universe after another. Here the
// sub-universes are bands of whole rows: a band of `band_rows` rows is read with T rows
// above and below (wrapped on a torus, dead outside a plane), advanced T generations in
// memory (the valid rows shrink by one at each end per generation, so after T the
// band's own rows are exact) and written to the next version of the file. Each batch
// of T generations replaces the file atomically, so the file always holds a whole
// generation: the last completed batch.
#pragma once

#include "cpu/packed_rows.hpp"
#include "lifebench/error.hpp"
#include "lifebench/universe.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lifebench::outofcore {

using packed_rows::Word;

struct Plan {
  int halo_steps = 16;           ///< T: generations per pass over the file
  std::int64_t band_rows = 1024; ///< rows written per sub-universe
};

/// Bytes of rows a plan holds in memory for a universe `row_words` words wide.
inline std::int64_t memory_bytes(const Plan& plan, std::int64_t row_words) {
  return 2 * (plan.band_rows + 2 * std::int64_t{plan.halo_steps}) * row_words * 8;
}

namespace detail {

/// Rows first .. first + count - 1 of the universe into `band` (wrapped on a torus,
/// zero outside a plane), read in as few contiguous pieces as the wrap allows.
inline void read_band(UniverseReader& reader, std::int64_t first, std::int64_t count,
                      std::span<Word> band) {
  const std::int64_t height = reader.header().problem.shape.height;
  const std::int64_t n = reader.header().words_per_row();
  const bool torus = reader.header().problem.boundary == Boundary::torus;
  for (std::int64_t done = 0; done < count;) {
    const std::int64_t y = first + done;
    Word* dst = band.data() + done * n;
    if (!torus && (y < 0 || y >= height)) {
      const std::int64_t dead = y < 0 ? std::min(count - done, -y) : count - done;
      std::fill_n(dst, dead * n, Word{0});
      done += dead;
      continue;
    }
    const std::int64_t start = ((y % height) + height) % height;
    const std::int64_t rows = std::min(count - done, height - start);
    reader.read_rows(start, rows, std::span(dst, static_cast<std::size_t>(rows * n)));
    done += rows;
  }
}

} // namespace detail

/// Advances the universe in `in` by `generations` with `Kernel` (a packed_rows kernel of
/// 1-bit cells) into `out` (`in` itself for in place): the first pass reads `in`, the
/// others `out`; each pass's header carries `origin` (UniverseHeader::origin). Throws
/// Error; `out` then holds the last whole pass (if one completed).
template <class Kernel>
void advance(const std::filesystem::path& in, const std::filesystem::path& out,
             std::uint64_t generations, const Plan& plan,
             std::optional<std::uint64_t> origin = std::nullopt) {
  static_assert(Kernel::cell_bits == 1);
  constexpr int group = Kernel::group;
  if (plan.halo_steps < 1 || plan.band_rows < group || plan.band_rows % group != 0) {
    throw Error("out-of-core plan: halo_steps " + std::to_string(plan.halo_steps) +
                " and band_rows " + std::to_string(plan.band_rows) +
                " must be positive, band_rows a multiple of " + std::to_string(group));
  }
  std::vector<Word> a;
  std::vector<Word> b;
  for (bool first = true; generations > 0; first = false) {
    UniverseReader reader(first ? in : out);
    UniverseHeader next = reader.header();
    next.origin = origin;
    const std::int64_t height = next.problem.shape.height;
    const std::int64_t n = next.words_per_row();
    const bool torus = next.problem.boundary == Boundary::torus;
    const int steps = static_cast<int>(std::min<std::uint64_t>(plan.halo_steps, generations));
    if (height % group != 0 ||
        next.generation > std::numeric_limits<std::uint64_t>::max() - generations) {
      throw Error("out-of-core: " + next.problem.to_string() + " at generation " +
                  std::to_string(next.generation) + " cannot be advanced " +
                  std::to_string(generations) + " generations in row groups of " +
                  std::to_string(group));
    }
    next.generation += static_cast<std::uint64_t>(steps);
    write_universe(out, next, [&](const RowSink& sink) {
      for (std::int64_t y0 = 0; y0 < height; y0 += plan.band_rows) {
        const std::int64_t rows = std::min(plan.band_rows, height - y0);
        const std::int64_t total = rows + 2 * std::int64_t{steps};
        a.resize(static_cast<std::size_t>(total * n));
        b.resize(a.size());
        detail::read_band(reader, y0 - steps, total, a);
        for (int s = 0; s < steps; ++s) {
          // Rows s + 1 .. total - s - 2 are still exact after this generation.
          for (std::int64_t r = s + 1; r + group <= total - s - 1; r += group) {
            std::array<const Word*, group + 2> around{};
            for (int i = 0; i < group + 2; ++i)
              around[i] = a.data() + (r - 1 + i) * n;
            packed_rows::step_group<Kernel>(around, b.data() + r * n, n, torus);
          }
          if (!torus) { // rows outside a plane stay dead
            for (std::int64_t r = 0; r < total; ++r) {
              const std::int64_t y = y0 - steps + r;
              if (y < 0 || y >= height) std::fill_n(b.data() + r * n, n, Word{0});
            }
          }
          std::swap(a, b);
        }
        sink(std::span<const Word>(a).subspan(static_cast<std::size_t>(steps * n),
                                              static_cast<std::size_t>(rows * n)));
      }
    });
    generations -= static_cast<std::uint64_t>(steps);
  }
}

} // namespace lifebench::outofcore
