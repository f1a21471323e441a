// The row sweep the bit-packed CPU experiments share (cpu-bpbc, cpu-bitadder, cpu-nibble):
// rows of 64-bit words holding `cell_bits`-bit cells (least significant cells leftmost, as
// lifebench/packed.hpp packs them), swept word by word with the west and east neighbours
// of every word shifted into alignment, and a kernel that turns the aligned words of
// `group + 2` consecutive rows into the next states of the `group` rows in their middle.
// Only the kernels differ between the experiments; one thread, two grids swapped.
#pragma once

#include "lifebench/experiment.hpp"
#include "lifebench/packed.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lifebench::packed_rows {

using Word = std::uint64_t;

/// A word of one row with its west and east neighbour cells shifted into alignment: bit
/// position of cell x in `centre` holds cell x - 1 in `west` and cell x + 1 in `east`.
struct Aligned {
  Word west;
  Word centre;
  Word east;
};

/// What a kernel supplies:
///   static constexpr int cell_bits;  // bits per cell: 1 or 4
///   static constexpr int group;      // rows updated at once
///   static std::array<Word, group> update(const std::array<Aligned, group + 2>& rows);
template <class Kernel> inline constexpr std::int64_t cells_per_word = 64 / Kernel::cell_bits;

/// Why a kernel cannot run `problem`: it evaluates B3/S23 only, wraps the torus by whole
/// words, and updates whole groups of rows.
template <class Kernel>
std::optional<std::string> unsupported(const Problem& problem, const Params& /*params*/) {
  const Rule& rule = problem.rule;
  if (rule.topology != Topology::square || rule.birth != (1U << 3U) ||
      rule.survive != ((1U << 2U) | (1U << 3U))) {
    return "the bitwise next-state logic is B3/S23 only, not " + rule.to_string();
  }
  if (problem.shape.width % cells_per_word<Kernel> != 0) {
    return "width must be a multiple of " + std::to_string(cells_per_word<Kernel>) +
           " (cells per 64-bit word: edges wrap by whole words)";
  }
  if (problem.shape.height % Kernel::group != 0) {
    return "height must be a multiple of " + std::to_string(Kernel::group) +
           " (rows updated together)";
  }
  return std::nullopt;
}

/// The next states of the `group` rows in the middle of `in` (group + 2 rows of `n`
/// words) into `out` (the rows `n` words apart). Past the first and last word the rows
/// wrap on a torus and are dead otherwise.
template <class Kernel>
void step_group(const std::array<const Word*, Kernel::group + 2>& in, Word* out, std::int64_t n,
                bool torus) {
  constexpr int bits = Kernel::cell_bits;
  // Every word is reloaded with its two neighbours rather than carried over from the
  // previous one: the loads hit L1, and carrying 3 * (group + 2) words spills registers.
  const auto update = [&](std::int64_t i, const auto& word) {
    std::array<Aligned, Kernel::group + 2> rows{};
    for (int r = 0; r < Kernel::group + 2; ++r) {
      const Word centre = word(r, i);
      rows[r] = {(centre << bits) | (word(r, i - 1) >> (64 - bits)), centre,
                 (centre >> bits) | (word(r, i + 1) << (64 - bits))};
    }
    const std::array<Word, Kernel::group> next = Kernel::update(rows);
    for (int g = 0; g < Kernel::group; ++g) {
      out[g * n + i] = next[g];
    }
  };
  const auto inside = [&](int r, std::int64_t i) { return in[r][i]; };
  const auto at_edge = [&](int r, std::int64_t i) {
    if (i >= 0 && i < n) return in[r][i];
    return torus ? in[r][(i + n) % n] : Word{0};
  };
  update(0, at_edge);
  for (std::int64_t i = 1; i < n - 1; ++i) {
    update(i, inside);
  }
  if (n > 1) update(n - 1, at_edge);
}

/// One thread sweeping the rows with `Kernel`, two grids swapped after each generation.
template <class Kernel> class Simulator final : public lifebench::Simulator {
  static constexpr int in_rows = Kernel::group + 2;
  static constexpr int bits = Kernel::cell_bits;

public:
  explicit Simulator(const Problem& problem)
      : problem_(problem), row_words_(problem.shape.width / cells_per_word<Kernel>),
        next_(static_cast<std::size_t>(row_words_ * problem.shape.height)),
        dead_row_(static_cast<std::size_t>(row_words_), Word{0}) {}

  static std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
    return packed_rows::unsupported<Kernel>(problem, params);
  }

  void upload(const Grid& grid) override {
    if constexpr (bits == 1) {
      current_ = pack_rows<Word>(grid);
    } else {
      current_.assign(next_.size(), Word{0});
      const std::int64_t cells = grid.shape().cells();
      for (std::int64_t x = 0; x < cells; ++x) {
        current_[static_cast<std::size_t>(x / cells_per_word<Kernel>)] |= static_cast<Word>(
            (grid.data()[x] != 0U ? Word{1} : Word{0}) << ((x % cells_per_word<Kernel>)*bits));
      }
    }
  }

  Grid download() override {
    Grid grid(problem_.shape);
    if constexpr (bits == 1) {
      unpack_rows<Word>(current_, grid);
    } else {
      const std::int64_t cells = grid.shape().cells();
      for (std::int64_t x = 0; x < cells; ++x) {
        grid.data()[x] = static_cast<std::uint8_t>(
            (current_[static_cast<std::size_t>(x / cells_per_word<Kernel>)] >>
             ((x % cells_per_word<Kernel>)*bits)) &
            1U);
      }
    }
    return grid;
  }

  void advance(std::uint64_t generations) override {
    for (std::uint64_t g = 0; g < generations; ++g) {
      for (std::int64_t y = 0; y < problem_.shape.height; y += Kernel::group) {
        step_group(y);
      }
      std::swap(current_, next_);
    }
  }

private:
  /// Row y: wrapped on a torus, all dead outside a plane.
  [[nodiscard]] const Word* row(std::int64_t y) const {
    const std::int64_t h = problem_.shape.height;
    if (y < 0 || y >= h) {
      if (problem_.boundary == Boundary::dead) return dead_row_.data();
      y = (y + h) % h;
    }
    return current_.data() + y * row_words_;
  }

  /// Rows y .. y + group - 1 of the next generation.
  void step_group(std::int64_t y) {
    std::array<const Word*, in_rows> in{};
    for (int r = 0; r < in_rows; ++r) {
      in[r] = row(y - 1 + r);
    }
    packed_rows::step_group<Kernel>(in, next_.data() + y * row_words_, row_words_,
                                    problem_.boundary == Boundary::torus);
  }

  Problem problem_;
  std::int64_t row_words_;
  std::vector<Word> current_;
  std::vector<Word> next_;
  std::vector<Word> dead_row_;
};

/// ExperimentInfo::make of an experiment with one kernel.
template <class Kernel>
std::unique_ptr<lifebench::Simulator> make(const Problem& problem, const Params& /*params*/) {
  return std::make_unique<Simulator<Kernel>>(problem);
}

} // namespace lifebench::packed_rows
