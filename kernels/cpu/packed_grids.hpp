// The two whole-grid buffers of a bit-per-cell CPU simulator (this generation and the
// next, rows of 64-bit words as lifebench/packed.hpp packs them), aligned for vector
// loads and streaming stores, and the problems their B3/S23 kernels take (simd-hwy,
// cpu-blocked).
#pragma once

#include "lifebench/grid.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/problem.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <hwy/aligned_allocator.h>
#include <utility>

namespace lifebench::simd {

/// Why a B3/S23 bit-per-cell kernel cannot run `problem`, or nothing.
inline std::optional<std::string> b3s23_bits_unsupported(const Problem& problem) {
  if (problem.rule.topology != Topology::square || problem.shape.depth != 1) {
    return "square 2D grids only";
  }
  if (problem.rule != parse_rule_spec("B3/S23").rule) {
    return "rule must be B3/S23: the output logic is written for it";
  }
  if (problem.shape.width % 64 != 0) return "width must be a multiple of 64 (one bit per cell)";
  return std::nullopt;
}

/// 64-byte aligned words, zeroed.
inline hwy::AlignedFreeUniquePtr<std::uint64_t[]> allocate_words(std::int64_t count) {
  auto words = hwy::AllocateAligned<std::uint64_t>(static_cast<std::size_t>(count));
  std::fill_n(words.get(), count, std::uint64_t{0});
  return words;
}

class PackedGrids {
public:
  explicit PackedGrids(const Shape& shape)
      : shape_(shape), row_words_(words_per_row<std::uint64_t>(shape.width)),
        cells_(allocate_words(words())), next_(allocate_words(words())) {}

  void upload(const Grid& grid) {
    const auto packed = pack_rows<std::uint64_t>(grid);
    std::copy(packed.begin(), packed.end(), cells_.get());
  }

  [[nodiscard]] Grid download() const {
    Grid grid(shape_);
    unpack_rows<std::uint64_t>({cells_.get(), static_cast<std::size_t>(words())}, grid);
    return grid;
  }

  [[nodiscard]] const std::uint64_t* cells() const { return cells_.get(); }
  [[nodiscard]] std::uint64_t* next() const { return next_.get(); }
  /// The next generation becomes this one.
  void swap() { std::swap(cells_, next_); }

  [[nodiscard]] std::int64_t row_words() const { return row_words_; }
  [[nodiscard]] std::int64_t words() const { return row_words_ * shape_.height; }
  /// One read and one write of the grid.
  [[nodiscard]] double bytes_read_and_written() const {
    return 2.0 * static_cast<double>(words()) * sizeof(std::uint64_t);
  }

private:
  Shape shape_;
  std::int64_t row_words_;
  hwy::AlignedFreeUniquePtr<std::uint64_t[]> cells_;
  hwy::AlignedFreeUniquePtr<std::uint64_t[]> next_;
};

} // namespace lifebench::simd
