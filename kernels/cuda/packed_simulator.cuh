// Host side shared by the bit-packed B3/S23 CUDA experiments of seed 000 and ours
// (cuda-lop3, cuda-lop3-shuffle, cuda-life-wide; the checks also cuda-multigpu and
// cuda-outofcore): rows of 32-cell words (LSB = leftmost cell) on the buffered
// simulator, a soup made straight into the device words, rows downloaded by bands,
// and the limits these kernels share.
#pragma once

#include "cuda/buffered_simulator.cuh"
#include "cuda/error.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/error.hpp"
#include "lifebench/experiment.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/soup.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cuda_runtime.h>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lifebench::cuda_packed {

inline bool is_conway(const Rule& rule) {
  return rule.topology == Topology::square && rule.birth == (1U << 3) &&
         rule.survive == ((1U << 2) | (1U << 3));
}

/// The limits every one of these kernels has, or nothing.
inline std::optional<std::string> common_unsupported(const Problem& problem) {
  if (!is_conway(problem.rule)) {
    return "B3/S23 only: the LOP3 sequences compute exactly Conway's rule (a truth table "
           "of the nine cells), they have no birth or survival mask";
  }
  if (problem.shape.width % 32 != 0) {
    return "width must be a multiple of 32 (32 cells per 32-bit word); it is " +
           std::to_string(problem.shape.width);
  }
  return std::nullopt;
}

/// The limit of the kernels whose word indices are 32-bit, or nothing.
inline std::optional<std::string> beyond_32bit_indices(const Problem& problem) {
  if (problem.shape.cells() / 32 > (std::int64_t{1} << 31)) {
    return "at most 2^36 cells (2^31 words, 32-bit word indices)";
  }
  return std::nullopt;
}

/// Why the two grids of `problem` (a bit a cell each) do not fit in the device's free
/// memory, or nothing.
inline std::optional<std::string> beyond_device_memory(const Problem& problem) {
  return cuda::beyond_free_memory(2 * static_cast<std::size_t>(problem.shape.cells() / 8),
                                  "two grids of " + problem.shape.to_string() + " at a bit a cell");
}

/// Why a kernel that runs several generations per launch refuses a dead boundary.
inline std::optional<std::string> torus_only(const Problem& problem) {
  if (problem.boundary == Boundary::torus) return std::nullopt;
  return "torus only: with several generations per launch, cells outside a dead boundary "
         "would come alive inside the tiles (masking them costs instructions per row and "
         "generation; the blog's kernel wraps around)";
}

/// The rows of `shape` whose soup words make about 128 MiB: the host's buffer of
/// upload_soup_rows.
inline std::int64_t soup_band_rows(const Shape& shape) {
  constexpr std::int64_t kSoupBandWords = std::int64_t{1} << 24;
  return std::max<std::int64_t>(1, kSoupBandWords /
                                       lifebench::words_per_row<std::uint64_t>(shape.width));
}

/// Rows first .. first + count - 1 of `soup` made on the host `rows_per_band` rows at a
/// time and copied into `rows` (the device's words of those rows, `words_per_row` 32-bit
/// words each) on `stream`: a whole byte grid of a universe as large as the device's memory
/// would not fit in the host's (512K x 512K cells are 256 GiB as bytes, 32 GiB here).
inline void upload_soup_rows(const SoupSpec& soup, std::int64_t first, std::int64_t count,
                             std::uint32_t* rows, unsigned words_per_row,
                             std::int64_t rows_per_band, cudaStream_t stream) {
  static_assert(std::endian::native == std::endian::little,
                "a row of 64-bit words is then its row of 32-bit words (LSB first)");
  const std::int64_t soup_words = lifebench::words_per_row<std::uint64_t>(soup.shape.width);
  rows_per_band = std::clamp<std::int64_t>(rows_per_band, 1, std::max<std::int64_t>(count, 1));
  std::vector<std::uint64_t> band(static_cast<std::size_t>(rows_per_band * soup_words));
  for (std::int64_t done = 0; done < count; done += rows_per_band) {
    const std::int64_t n = std::min(rows_per_band, count - done);
    soup_rows(soup, first + done, n,
              std::span(band.data(), static_cast<std::size_t>(n * soup_words)));
    // Each row's first width / 32 words: a 64-bit row may end in a padding word.
    LIFEBENCH_CUDA_CALL(
        cudaMemcpy2DAsync(rows + static_cast<std::size_t>(done) * words_per_row,
                          words_per_row * sizeof(std::uint32_t), band.data(),
                          soup_words * sizeof(std::uint64_t), words_per_row * sizeof(std::uint32_t),
                          static_cast<std::size_t>(n), cudaMemcpyHostToDevice, stream));
    LIFEBENCH_CUDA_CALL(cudaStreamSynchronize(stream)); // before the next band overwrites `band`
  }
}

/// Rows of 32-cell words on cuda::BufferedSimulator, with what a universe as large as the
/// device's memory needs: a soup made band by band on the device, and rows downloaded by
/// bands. The derived class launches kernels from in() to out() and calls swap() after
/// each launch (launch()).
class PackedSimulator : public cuda::BufferedSimulator<cuda::PackedRows<std::uint32_t>> {
public:
  /// `instructions_per_cell_update`: the kernel's LOP3-class instructions per cell
  /// updated (written), for the %lop3 unit of the reports.
  PackedSimulator(const Problem& problem, double instructions_per_cell_update,
                  double bytes_per_generation)
      : BufferedSimulator(problem), words_per_row_(static_cast<unsigned>(problem.shape.width / 32)),
        instructions_per_cell_update_(instructions_per_cell_update),
        bytes_per_generation_(bytes_per_generation) {}

  /// The soup made band by band straight into the device's words: a whole byte grid of
  /// a universe as large as the device's memory would not fit in the host's (512K x 512K
  /// cells are 256 GiB as bytes, 32 GiB here).
  void upload_soup(const SoupSpec& soup) override {
    upload_soup_in_bands(soup, soup_band_rows(problem().shape));
  }

  /// upload_soup() `rows_per_band` rows at a time.
  void upload_soup_in_bands(const SoupSpec& soup, std::int64_t rows_per_band) {
    const Shape& shape = problem().shape;
    if (soup.shape != shape || rows_per_band < 1) {
      throw Error("upload_soup: a " + soup.shape.to_string() + " soup in bands of " +
                  std::to_string(rows_per_band) + " rows for a " + shape.to_string() + " grid");
    }
    upload_soup_rows(soup, 0, shape.height, in(), words_per_row_, rows_per_band, stream());
  }

  /// Rows first .. first + count - 1 of the current state, as words: a part of a universe
  /// too large to download whole as a grid.
  [[nodiscard]] std::vector<std::uint32_t> download_rows(std::int64_t first,
                                                         std::int64_t count) const {
    if (first < 0 || count < 0 || first + count > problem().shape.height) {
      throw Error("download_rows: rows " + std::to_string(first) + " + " + std::to_string(count) +
                  " of " + std::to_string(problem().shape.height));
    }
    const std::size_t offset = static_cast<std::size_t>(first) * words_per_row_;
    std::vector<std::uint32_t> words(static_cast<std::size_t>(count) * words_per_row_);
    LIFEBENCH_CUDA_CALL(cudaMemcpyAsync(words.data(), in() + offset,
                                        words.size() * sizeof(std::uint32_t),
                                        cudaMemcpyDeviceToHost, stream()));
    synchronize();
    return words;
  }

  [[nodiscard]] std::optional<double> bytes_per_generation() const override {
    return bytes_per_generation_;
  }

protected:
  [[nodiscard]] unsigned words_per_row() const { return words_per_row_; }
  [[nodiscard]] unsigned height() const { return static_cast<unsigned>(problem().shape.height); }

  [[nodiscard]] std::map<std::string, std::string> device_extras() const override {
    return {{"instructions_per_cell_update", std::to_string(instructions_per_cell_update_)}};
  }

private:
  unsigned words_per_row_;
  double instructions_per_cell_update_;
  double bytes_per_generation_;
};

/// ExperimentInfo::verify_generations of the kernels that run steps_per_launch generations a
/// launch in registers: two full launches and three generations of a third.
inline std::uint64_t two_launches_and_three(const Params& params) {
  return 2 * static_cast<std::uint64_t>(params.get_int("steps_per_launch")) + 3;
}

} // namespace lifebench::cuda_packed
