// Fujita, Nakano and Ito (seed 003), Sections 4, 5 and 9 (Table 1, GPU bit-per-cell): one
// generation per launch from global memory, 32-thread blocks, each thread updating one
// 64-bit word by Algorithm SINGLE-WORD or two vertically adjacent words by DOUBLE-WORD,
// words stacked down columns (Figure 3); optionally a strip of such words along the row.
#include "cuda/bpbc_tile.cuh"
#include "cuda/buffered_simulator.cuh"
#include "cuda/grid_limits.cuh"
#include "lifebench/experiment.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

using bpbc_tile::Columns;
using Word = std::uint64_t;

constexpr unsigned kBlock = 32; // threads per block (Section 4)

/// Thread i of block (bx, by) updates rows y = R*(32*bx + i) ... y+R-1 (R = 1 for SINGLE-WORD,
/// 2 for DOUBLE-WORD) in word columns K*by ... K*by+K-1, K = `strip` (update_strip()). A
/// block's 32 threads read and write 32 consecutive words of a column (SINGLE-WORD), or every
/// second word of 64 (DOUBLE-WORD: the
/// strided access the paper blames for DOUBLE-WORD being no faster on the GPU). With K = 1,
/// the paper's kernel: every thread loads all nine (twelve) words of its neighbourhood.
template <bool Torus, bool Double>
__global__ void __launch_bounds__(kBlock)
    strip_kernel(const Word* __restrict__ in, Word* __restrict__ out, Columns grid, int strip) {
  const auto y = (Double ? 2 : 1) * static_cast<int>(blockIdx.x * kBlock + threadIdx.x);
  const int first = static_cast<int>(blockIdx.y) * strip;
  if (y >= grid.height) return;
  bpbc_tile::update_strip<Torus, Double>(in, out, grid, first, strip, y);
}

bool double_of(const Params& params) {
  return params.get("words") == "double";
}

/// bytes_per_generation(): each cell's bit read once and written once, 2 bits a cell.
class GlobalSimulator final : public cuda::BufferedSimulator<bpbc_tile::ColumnWords<Word>> {
public:
  GlobalSimulator(const Problem& problem, const Params& params)
      : BufferedSimulator(problem), columns_(bpbc_tile::columns_of<Word>(problem.shape)),
        double_word_(double_of(params)),
        strip_(static_cast<int>(params.get_int("columns_per_thread"))) {}

private:
  void launch(std::uint64_t generations) override {
    torus() ? run<true>(generations) : run<false>(generations);
  }

  template <bool Torus> void run(std::uint64_t generations) {
    // 16K x 16K, strip 1: 512 x 256 = 131072 blocks for SINGLE-WORD, the paper's n / (64 * 32).
    const auto rows = static_cast<unsigned>(double_word_ ? columns_.height / 2 : columns_.height);
    const dim3 blocks((rows + kBlock - 1) / kBlock,
                      static_cast<unsigned>((columns_.words_per_row + strip_ - 1) / strip_));
    const auto kernel = double_word_ ? strip_kernel<Torus, true> : strip_kernel<Torus, false>;
    each_generation(generations, [&](const Word* in, Word* out) {
      kernel<<<blocks, kBlock, 0, stream()>>>(in, out, columns_, strip_);
    });
  }

  Columns columns_;
  bool double_word_;
  int strip_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = bpbc_tile::unsupported_layout(problem, 64)) return reason;
  if (double_of(params) && problem.shape.height % 2 != 0) {
    return std::string("words=double updates pairs of rows: height must be even");
  }
  const std::int64_t strip_cells = 64 * params.get_int("columns_per_thread");
  return cuda::beyond_grid_yz("width", problem.shape.width, strip_cells,
                              "a block per strip of columns_per_thread words");
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda-bpbc-global", "square", "cuda",
              "seed 003 Sections 4, 5 and 9 (Table 1, GPU bit-per-cell)",
              "bit per cell in 64-bit words stacked down columns, one generation per launch "
              "from global memory, one (single) or two (double) words per thread"},
    .axes = {{.name = "words",
              .default_value = "single",
              .allowed = {"single", "double"},
              .description = "SINGLE-WORD (34 operations, one word per thread) or DOUBLE-WORD "
                             "(59 operations, two vertically adjacent words per thread)"},
             {.name = "columns_per_thread",
              .default_value = "1",
              .allowed = {"1", "4", "16"},
              .description = "word columns a thread updates left to right, reusing the "
                             "neighbour columns it loaded (1: the paper's kernel)"}},
    .unavailable = lifebench::cuda::unavailable_for<&lifebench::strip_kernel<true, false>>,
    .unsupported = lifebench::unsupported,
    .make = lifebench::make_simulator<lifebench::GlobalSimulator>})
