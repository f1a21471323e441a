// Seed 000, "Warp Shuffle": the blog's final CUDA kernel. One warp per block;
// each thread simulates work_per_thread consecutive rows of a 64-cell window
// (the 32 cells it writes and 16 padding cells each side), steps_per_launch
// generations per launch in registers, the rows just above and below its own
// taken from the neighbouring lanes with __shfl_up_sync/__shfl_down_sync; the grid's
// words column after column, as the blog stores them.
#include "cuda/grid_limits.cuh"
#include "cuda/packed_simulator.cuh"
#include "window.cuh"

#include <algorithm>
#include <cstdint>
#include <cuda_runtime.h>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

namespace sw = shuffle_window;

constexpr unsigned kWarp = 32;
constexpr unsigned kFullMask = 0xFFFFFFFFU;
constexpr int kMaxSteps = 16; // the window's padding: 16 cells each side

/// Where the grid's words are: `rows` one row after another (as the other packed
/// experiments), or `columns`, one column of words after another (as the blog's
/// kernel), so that a thread's consecutive rows are consecutive words, read four at a
/// time.
enum class Layout { rows, columns };

/// Index of word `column` of row `row` (the grid has at most 2^31 words).
template <Layout L>
__device__ unsigned word_index(unsigned row, unsigned column, unsigned words_per_row,
                               unsigned height) {
  return L == Layout::rows ? row * words_per_row + column : column * height + row;
}

/// `row` + `step` on the torus axis of `height` (step <= height).
__device__ unsigned next_row(unsigned row, unsigned step, unsigned height) {
  return row + step >= height ? row + step - height : row + step;
}

/// Block (column, tile): word `column` of the rows of row tile `tile`, torus.
/// `padding` rows at each end of a tile are simulated but not written (at least
/// `steps`); the tile writes the rows between.
template <int Wpt, Layout L>
__global__ void __launch_bounds__(kWarp)
    shuffle_steps(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                  unsigned words_per_row, unsigned height, int steps, unsigned padding) {
  const unsigned lane = threadIdx.x;
  const unsigned column = blockIdx.x;
  const unsigned before = column == 0 ? words_per_row - 1 : column - 1;
  const unsigned after = column + 1 == words_per_row ? 0 : column + 1;
  const unsigned rows = sw::output_rows(Wpt, padding);
  const unsigned first_row =
      cuda::life::wrap(static_cast<long long>(cuda::life::first_output(blockIdx.y, rows, height)) -
                           padding + static_cast<long long>(lane * Wpt),
                       height);
  const auto at = [&](unsigned row, unsigned word) {
    return word_index<L>(row, word, words_per_row, height);
  };

  // w[1 .. Wpt]: this thread's rows; w[0], w[Wpt + 1]: the neighbouring lanes' edge rows.
  sw::Window w[Wpt + 2];
  unsigned row = first_row;
  if constexpr (L == Layout::columns) {
    // Four rows a 128-bit load: the height and every lane's first row are multiples of 4.
    const auto load4 = [&](unsigned word) {
      return __ldg(reinterpret_cast<const uint4*>(in + at(row, word)));
    };
#pragma unroll
    for (int i = 1; i <= Wpt; i += 4) {
      const uint4 b = load4(before);
      const uint4 s = load4(column);
      const uint4 a = load4(after);
      w[i] = sw::load(b.x, s.x, a.x);
      w[i + 1] = sw::load(b.y, s.y, a.y);
      w[i + 2] = sw::load(b.z, s.z, a.z);
      w[i + 3] = sw::load(b.w, s.w, a.w);
      row = next_row(row, 4, height);
    }
  } else {
#pragma unroll
    for (int i = 1; i <= Wpt; ++i) {
      w[i] = sw::load(__ldg(in + at(row, before)), __ldg(in + at(row, column)),
                      __ldg(in + at(row, after)));
      row = next_row(row, 1, height);
    }
  }

  for (int s = 0; s < steps; ++s) {
    w[0].left = __shfl_up_sync(kFullMask, w[Wpt].left, 1);
    w[0].right = __shfl_up_sync(kFullMask, w[Wpt].right, 1);
    w[Wpt + 1].left = __shfl_down_sync(kFullMask, w[1].left, 1);
    w[Wpt + 1].right = __shfl_down_sync(kFullMask, w[1].right, 1);
    sw::Prepared above = sw::prepare(w[0]);
    sw::Prepared mid = sw::prepare(w[1]);
#pragma unroll
    for (int i = 1; i <= Wpt; ++i) {
      const sw::Prepared below = sw::prepare(w[i + 1]); // before w[i + 1] changes
      w[i] = sw::step(above, mid, below);
      above = mid;
      mid = below;
    }
  }

  // Tile rows [padding, 32 * Wpt - padding) are right; the others are written by other
  // tiles. Opaque to the compiler: otherwise it keeps every load's address live through
  // the generations for the stores, a register per row.
  row = first_row;
  asm volatile("" : "+r"(row));
#pragma unroll
  for (int i = 1; i <= Wpt; ++i) {
    const unsigned tile_row = lane * Wpt + static_cast<unsigned>(i - 1);
    if (tile_row >= padding && tile_row < rows + padding) out[at(row, column)] = sw::middle(w[i]);
    row = next_row(row, 1, height);
  }
}

/// Row-major words (`rows` rows of `columns`) to column-major, or back with the two
/// swapped; not timed (before and after the runs).
__global__ void transpose(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                          unsigned rows, unsigned columns) {
  __shared__ std::uint32_t tile[32][33]; // 33: a column of the tile spans every bank
  const unsigned x = blockIdx.x * 32 + threadIdx.x;
  for (unsigned block_row = blockIdx.y; block_row * 32 < rows; block_row += gridDim.y) {
    for (unsigned y = threadIdx.y; y < 32; y += blockDim.y) {
      const unsigned row = block_row * 32 + y;
      if (row < rows && x < columns) tile[y][threadIdx.x] = in[row * columns + x];
    }
    __syncthreads();
    for (unsigned y = threadIdx.y; y < 32; y += blockDim.y) {
      const unsigned column = blockIdx.x * 32 + y;
      const unsigned row = block_row * 32 + threadIdx.x;
      if (row < rows && column < columns) out[column * rows + row] = tile[threadIdx.x][y];
    }
    __syncthreads();
  }
}

int work_per_thread(const Params& params) {
  return static_cast<int>(params.get_int("work_per_thread"));
}
int steps_per_launch(const Params& params) {
  return static_cast<int>(params.get_int("steps_per_launch"));
}
Layout layout(const Params& params) {
  return params.get("layout") == "columns" ? Layout::columns : Layout::rows;
}

class ShuffleSimulator final : public cuda_packed::PackedSimulator {
public:
  ShuffleSimulator(const Problem& problem, const Params& params)
      : ShuffleSimulator(problem, work_per_thread(params), steps_per_launch(params),
                         layout(params)) {}
  ShuffleSimulator(const Problem& problem, int wpt, int steps, Layout layout)
      : PackedSimulator(problem, instructions_per_cell(wpt, steps),
                        // each word read three times (its own column and both
                        // neighbours', mostly from the caches) and written once per launch
                        2.0 * static_cast<double>(problem.shape.cells()) / 8.0 / steps),
        wpt_(wpt), steps_(steps), layout_(layout) {}

  /// LOP3 per cell written: 2 x 8 (sat10 over shared row sums) per window row and
  /// generation for 32 written cells, times the simulated rows over the written ones.
  /// The 4 shifts per window row (not LOP3) and 4 shuffles per thread and generation
  /// come on top.
  static double instructions_per_cell(int wpt, int steps) {
    const double simulated = 32.0 * wpt;
    const double padding = sw::padding_rows(static_cast<unsigned>(steps));
    return 16.0 / 32.0 * simulated / (simulated - 2.0 * padding);
  }

  void upload(const Grid& grid) override {
    PackedSimulator::upload(grid);
    to_layout();
  }
  void upload_soup(const SoupSpec& soup) override {
    PackedSimulator::upload_soup(soup);
    to_layout();
  }
  Grid download() override {
    from_layout();
    Grid grid = PackedSimulator::download();
    to_layout();
    return grid;
  }

private:
  /// The rows the base class reads and writes to the kernel's layout, and back.
  void to_layout() { transpose_words(height(), words_per_row()); }
  void from_layout() { transpose_words(words_per_row(), height()); }
  void transpose_words(unsigned rows, unsigned columns) {
    if (layout_ == Layout::rows) return;
    const dim3 block(32, 8);
    const dim3 grid((columns + 31) / 32,
                    std::min((rows + 31) / 32, static_cast<unsigned>(cuda::kMaxGridYZ)));
    transpose<<<grid, block, 0, stream()>>>(in(), out(), rows, columns);
    LIFEBENCH_CUDA_CHECK_LAUNCH();
    swap();
    LIFEBENCH_CUDA_CALL(cudaStreamSynchronize(stream()));
  }

  void launch(std::uint64_t generations) override {
    const bool columns = layout_ == Layout::columns;
    switch (wpt_) {
    case 8:
      columns ? launch_all<8, Layout::columns>(generations)
              : launch_all<8, Layout::rows>(generations);
      break;
    case 16:
      columns ? launch_all<16, Layout::columns>(generations)
              : launch_all<16, Layout::rows>(generations);
      break;
    default:
      columns ? launch_all<32, Layout::columns>(generations)
              : launch_all<32, Layout::rows>(generations);
      break;
    }
  }

  template <int Wpt, Layout L> void launch_all(std::uint64_t generations) {
    const unsigned padding = sw::padding_rows(static_cast<unsigned>(steps_));
    const unsigned rows = sw::output_rows(Wpt, padding);
    const dim3 grid(words_per_row(), (height() + rows - 1) / rows);
    for (std::uint64_t done = 0; done < generations;) {
      const int steps = static_cast<int>(
          std::min<std::uint64_t>(static_cast<std::uint64_t>(steps_), generations - done));
      shuffle_steps<Wpt, L>
          <<<grid, kWarp, 0, stream()>>>(in(), out(), words_per_row(), height(), steps, padding);
      LIFEBENCH_CUDA_CHECK_LAUNCH();
      swap();
      done += static_cast<std::uint64_t>(steps);
    }
  }

  int wpt_;
  int steps_;
  Layout layout_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = cuda_packed::common_unsupported(problem)) return reason;
  if (auto reason = cuda_packed::beyond_32bit_indices(problem)) return reason;
  if (auto reason = cuda_packed::torus_only(problem)) return reason;
  const int steps = steps_per_launch(params);
  if (steps < 1 || steps > kMaxSteps) {
    return "steps_per_launch must be 1 to 16: the window pads the 32 written cells with 16 "
           "cells each side, and one more goes wrong each generation";
  }
  if (layout(params) == Layout::columns && problem.shape.height % 4 != 0) {
    return "layout=columns needs a height that is a multiple of 4 (four rows a 128-bit load); "
           "it is " +
           std::to_string(problem.shape.height);
  }
  const auto rows =
      static_cast<std::int64_t>(sw::output_rows(static_cast<unsigned>(work_per_thread(params)),
                                                sw::padding_rows(static_cast<unsigned>(steps))));
  if (auto reason = cuda::beyond_grid_yz("height", problem.shape.height, rows,
                                         "row tiles of " + std::to_string(rows) + " rows")) {
    return reason;
  }
  return cuda_packed::beyond_device_memory(problem);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda-lop3-shuffle", "square", "cuda",
              "seed 000 \"Cuda\" / \"Warp Shuffle\" (the final CUDA kernel)",
              "one warp per block, a 64-cell window of work_per_thread rows per thread, "
              "steps_per_launch generations in registers (sat10 LOP3s), halo rows by warp "
              "shuffles"},
    .axes = {{.name = "work_per_thread",
              .default_value = "16",
              .allowed = {"8", "16", "32"},
              .description = "rows per thread; a warp simulates 32 times as many"},
             lifebench::steps_per_launch_axis(
                 "16", {}, "generations per launch, 1 to 16 (the window's padding)"),
             {.name = "layout",
              .default_value = "columns",
              .allowed = {"columns", "rows"},
              .description = "words stored column after column (the blog's: a thread's rows "
                             "are consecutive, read four at a time) or row after row"}},
    .unavailable =
        lifebench::cuda::unavailable_for<&lifebench::shuffle_steps<16, lifebench::Layout::columns>>,
    .unsupported = lifebench::unsupported,
    .verify_generations = lifebench::cuda_packed::two_launches_and_three,
    .make = lifebench::make_simulator<lifebench::ShuffleSimulator>})
