// Seed 000, "Warp Shuffle": the blog's final CUDA kernel. One warp per block;
// each thread simulates work_per_thread consecutive rows of a 64-cell window
// (the 32 cells it writes and 16 padding cells each side), steps_per_launch
// generations per launch in registers, the rows just above and below its own
// taken from the neighbouring lanes with __shfl_up_sync/__shfl_down_sync.
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
constexpr std::int64_t kMaxGridY = 65535;

/// Block (column, tile): word `column` of the rows of row tile `tile`, torus.
template <int Wpt>
__global__ void __launch_bounds__(kWarp)
    shuffle_steps(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                  unsigned words_per_row, unsigned height, int steps) {
  const unsigned lane = threadIdx.x;
  const unsigned column = blockIdx.x;
  const unsigned before = column == 0 ? words_per_row - 1 : column - 1;
  const unsigned after = column + 1 == words_per_row ? 0 : column + 1;
  const unsigned rows = sw::output_rows(Wpt, static_cast<unsigned>(steps));
  const unsigned first_row =
      cuda::life::wrap(static_cast<long long>(cuda::life::first_output(blockIdx.y, rows, height)) -
                           steps + static_cast<long long>(lane * Wpt),
                       height);

  // w[1 .. Wpt]: this thread's rows; w[0], w[Wpt + 1]: the neighbouring lanes' edge rows.
  sw::Window w[Wpt + 2];
  unsigned row = first_row;
#pragma unroll
  for (int i = 1; i <= Wpt; ++i) {
    const unsigned base = row * words_per_row;
    w[i] = sw::load(__ldg(in + base + before), __ldg(in + base + column), __ldg(in + base + after));
    row = row + 1 == height ? 0 : row + 1;
  }

  for (int s = 0; s < steps; ++s) {
    w[0].left = __shfl_up_sync(kFullMask, w[Wpt].left, 1);
    w[0].right = __shfl_up_sync(kFullMask, w[Wpt].right, 1);
    w[Wpt + 1].left = __shfl_down_sync(kFullMask, w[1].left, 1);
    w[Wpt + 1].right = __shfl_down_sync(kFullMask, w[1].right, 1);
    sw::Shifted above = sw::shifted(w[0]);
    sw::Shifted mid = sw::shifted(w[1]);
#pragma unroll
    for (int i = 1; i <= Wpt; ++i) {
      const sw::Shifted below = sw::shifted(w[i + 1]); // before w[i + 1] changes
      w[i] = sw::step(above, mid, below);
      above = mid;
      mid = below;
    }
  }

  // Tile rows [steps, 32 * Wpt - steps) are right; the others are written by other tiles.
  // Opaque to the compiler: otherwise it keeps every load's address live through
  // the generations for the stores, a register per row.
  row = first_row;
  asm volatile("" : "+r"(row));
#pragma unroll
  for (int i = 1; i <= Wpt; ++i) {
    const unsigned tile_row = lane * Wpt + static_cast<unsigned>(i - 1);
    if (tile_row >= static_cast<unsigned>(steps) && tile_row < rows + steps) {
      out[row * words_per_row + column] = sw::middle(w[i]);
    }
    row = row + 1 == height ? 0 : row + 1;
  }
}

int work_per_thread(const Params& params) {
  return static_cast<int>(params.get_int("work_per_thread"));
}
int steps_per_launch(const Params& params) {
  return static_cast<int>(params.get_int("steps_per_launch"));
}

class ShuffleSimulator final : public cuda_packed::PackedSimulator {
public:
  ShuffleSimulator(const Problem& problem, int wpt, int steps)
      : PackedSimulator(problem, instructions_per_cell(wpt, steps),
                        // each word read three times (its own column and both
                        // neighbours', mostly from the caches) and written once per launch
                        2.0 * static_cast<double>(problem.shape.cells()) / 8.0 / steps),
        wpt_(wpt), steps_(steps) {}

  /// LOP3 per cell written: 2 x 10 (sat10) per window row and generation for 32
  /// written cells, times the simulated rows over the written ones. The 4 shifts
  /// per window row (not LOP3) and 4 shuffles per thread and generation come on top.
  static double instructions_per_cell(int wpt, int steps) {
    const double simulated = 32.0 * wpt;
    return 20.0 / 32.0 * simulated / (simulated - 2.0 * steps);
  }

private:
  void launch(std::uint64_t generations) override {
    switch (wpt_) {
    case 8:
      launch_all<8>(generations);
      break;
    case 16:
      launch_all<16>(generations);
      break;
    default:
      launch_all<32>(generations);
      break;
    }
  }

  template <int Wpt> void launch_all(std::uint64_t generations) {
    for (std::uint64_t done = 0; done < generations;) {
      const int steps = static_cast<int>(
          std::min<std::uint64_t>(static_cast<std::uint64_t>(steps_), generations - done));
      const unsigned rows = sw::output_rows(Wpt, static_cast<unsigned>(steps));
      const dim3 grid(words_per_row(), (height() + rows - 1) / rows);
      shuffle_steps<Wpt>
          <<<grid, kWarp, 0, stream()>>>(in(), out(), words_per_row(), height(), steps);
      LIFEBENCH_CUDA_CHECK_LAUNCH();
      swap();
      done += static_cast<std::uint64_t>(steps);
    }
  }

  int wpt_;
  int steps_;
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
  const auto rows = static_cast<std::int64_t>(sw::output_rows(
      static_cast<unsigned>(work_per_thread(params)), static_cast<unsigned>(steps)));
  if ((problem.shape.height + rows - 1) / rows > kMaxGridY) {
    return "too many row tiles for CUDA's grid y limit (65535)";
  }
  return cuda_packed::beyond_device_memory(problem);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "cuda-lop3-shuffle",
    .family = "square",
    .backend = "cuda",
    .source = "seed 000 \"Cuda\" / \"Warp Shuffle\" (the final CUDA kernel)",
    .technique = "one warp per block, a 64-cell window of work_per_thread rows per thread, "
                 "steps_per_launch generations in registers (sat10 LOP3s), halo rows by warp "
                 "shuffles",
    .axes = {{.name = "work_per_thread",
              .default_value = "16",
              .allowed = {"8", "16", "32"},
              .description = "rows per thread; a warp simulates 32 times as many"},
             {.name = "steps_per_launch",
              .default_value = "16",
              .allowed = {},
              .description = "generations per launch, 1 to 16 (the window's padding)"}},
    .unavailable =
        [] { return lifebench::cuda::unavailable_reason(&lifebench::shuffle_steps<16>); },
    .unsupported = lifebench::unsupported,
    .verify_generations = [](const lifebench::Params& params) -> std::uint64_t {
      // Two full launches and a partial third.
      return 2 * static_cast<std::uint64_t>(lifebench::steps_per_launch(params)) + 3;
    },
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params& params) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::ShuffleSimulator>(
          problem, lifebench::work_per_thread(params), lifebench::steps_per_launch(params));
    }})
