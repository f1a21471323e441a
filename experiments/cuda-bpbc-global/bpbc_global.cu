// Fujita, Nakano and Ito (seed 003), Sections 4, 5 and 9 (Table 1, GPU bit-per-cell): one
// generation per launch from global memory, 32-thread blocks, each thread updating one
// 64-bit word by Algorithm SINGLE-WORD or two vertically adjacent words by DOUBLE-WORD,
// words stacked down columns (Figure 3).
#include "cuda/bpbc_tile.cuh"
#include "cuda/ceilings.cuh"
#include "lifebench/experiment.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

using bpbc_tile::Columns;
using bpbc_tile::Row3;
using Word = std::uint64_t;

constexpr unsigned kBlock = 32; // threads per block (Section 4)

/// Word (wx, y) of the grid, wrapped around on the torus, dead (0) outside otherwise.
template <bool Torus> __device__ Word word_at(const Word* in, Columns grid, int wx, int y) {
  if constexpr (Torus) {
    wx = wx < 0 ? grid.words_per_row - 1 : (wx == grid.words_per_row ? 0 : wx);
    y = y < 0 ? grid.height - 1 : (y == grid.height ? 0 : y);
  } else if (wx < 0 || wx >= grid.words_per_row || y < 0 || y >= grid.height) {
    return 0;
  }
  return in[grid.index(wx, y)];
}

template <bool Torus> __device__ Row3<Word> row_at(const Word* in, Columns grid, int wx, int y) {
  return {word_at<Torus>(in, grid, wx - 1, y), word_at<Torus>(in, grid, wx, y),
          word_at<Torus>(in, grid, wx + 1, y)};
}

/// SINGLE-WORD: block (bx, wx) updates words 32*bx ... 32*bx+31 of word column wx, so its 32
/// threads read and write 32 consecutive words of the column-major array.
template <bool Torus>
__global__ void __launch_bounds__(kBlock)
    single_kernel(const Word* __restrict__ in, Word* __restrict__ out, Columns grid) {
  const auto y = static_cast<int>(blockIdx.x * kBlock + threadIdx.x);
  const auto wx = static_cast<int>(blockIdx.y);
  if (y >= grid.height) return;
  out[grid.index(wx, y)] =
      bpbc_tile::next_single(row_at<Torus>(in, grid, wx, y - 1), row_at<Torus>(in, grid, wx, y),
                             row_at<Torus>(in, grid, wx, y + 1));
}

/// DOUBLE-WORD: thread i of block (bx, wx) updates words 2i and 2i+1 of column wx, so a
/// block's threads touch every second word of 64: the strided access the paper blames for
/// DOUBLE-WORD being no faster than SINGLE-WORD on the GPU.
template <bool Torus>
__global__ void __launch_bounds__(kBlock)
    double_kernel(const Word* __restrict__ in, Word* __restrict__ out, Columns grid) {
  const auto y = 2 * static_cast<int>(blockIdx.x * kBlock + threadIdx.x);
  const auto wx = static_cast<int>(blockIdx.y);
  if (y >= grid.height) return;
  const bpbc::WordPair<Word> next = bpbc_tile::next_double(
      row_at<Torus>(in, grid, wx, y - 1), row_at<Torus>(in, grid, wx, y),
      row_at<Torus>(in, grid, wx, y + 1), row_at<Torus>(in, grid, wx, y + 2));
  out[grid.index(wx, y)] = next.k;
  out[grid.index(wx, y + 1)] = next.l;
}

class GlobalSimulator final : public bpbc_tile::ColumnSimulator<Word> {
public:
  GlobalSimulator(const Problem& problem, bool double_word)
      : ColumnSimulator<Word>(problem), double_word_(double_word) {}

  [[nodiscard]] std::map<std::string, std::string> device() const override {
    std::map<std::string, std::string> info = cuda::device_info();
    info.merge(std::map<std::string, std::string>(cuda::measured_ceilings()));
    return info;
  }
  /// Each cell's bit read once and written once: 2 bits a cell.
  [[nodiscard]] std::optional<double> bytes_per_generation() const override {
    return static_cast<double>(problem_.shape.cells()) / 4.0;
  }

private:
  void launch(std::uint64_t generations) override {
    problem_.boundary == Boundary::torus ? launch_all<true>(generations)
                                         : launch_all<false>(generations);
  }

  template <bool Torus> void launch_all(std::uint64_t generations) {
    // 16K x 16K: 512 x 256 = 131072 blocks for SINGLE-WORD, as the paper's n / (64 * 32).
    const auto rows = static_cast<unsigned>(double_word_ ? columns_.height / 2 : columns_.height);
    const dim3 blocks((rows + kBlock - 1) / kBlock, static_cast<unsigned>(columns_.words_per_row));
    for (std::uint64_t g = 0; g < generations; ++g) {
      if (double_word_) {
        double_kernel<Torus><<<blocks, kBlock, 0, stream_.get()>>>(in(), out(), columns_);
      } else {
        single_kernel<Torus><<<blocks, kBlock, 0, stream_.get()>>>(in(), out(), columns_);
      }
      LIFEBENCH_CUDA_CHECK_LAUNCH();
      flip();
    }
  }

  bool double_word_;
};

bool double_of(const Params& params) {
  return params.get("words") == "double";
}

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = bpbc_tile::unsupported_layout(problem, 64)) return reason;
  if (double_of(params) && problem.shape.height % 2 != 0) {
    return std::string("words=double updates pairs of rows: height must be even");
  }
  constexpr std::int64_t max_grid_y = 65535; // one block column per word column
  if (problem.shape.width / 64 > max_grid_y) {
    return "width must be at most " + std::to_string(max_grid_y * 64) +
           " (one block column per 64-bit word column, CUDA's grid y limit)";
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "cuda-bpbc-global",
    .family = "square",
    .backend = "cuda",
    .source = "seed 003 Sections 4, 5 and 9 (Table 1, GPU bit-per-cell)",
    .technique = "bit per cell in 64-bit words stacked down columns, one generation per launch "
                 "from global memory, one (single) or two (double) words per thread",
    .axes = {{.name = "words",
              .default_value = "single",
              .allowed = {"single", "double"},
              .description = "SINGLE-WORD (34 operations, one word per thread) or DOUBLE-WORD "
                             "(59 operations, two vertically adjacent words per thread)"}},
    .unavailable =
        [] { return lifebench::cuda::unavailable_reason(&lifebench::single_kernel<true>); },
    .unsupported = lifebench::unsupported,
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params& params) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::GlobalSimulator>(problem, lifebench::double_of(params));
    }})
