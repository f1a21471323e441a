// Ours: dense B3/S23 on Hopper at ~10 LOP3 per 32 cells and generation. A warp's
// lanes hold 32 adjacent words of a row (1024 cells) and each lane a column of
// rows_per_thread rows of its word, in registers, for steps_per_launch
// generations per launch. A row's west and east neighbour words come from the
// adjacent lanes (one shuffle each way, one funnel shift each); its horizontal
// three-cell sums (2 LOP3) are computed once and serve the three rows that need
// them; three row sums and the cell give the next state in 8 LOP3.
#include "../cuda-lop3/packed_simulator.cuh"
#include "cuda/life_lop3.cuh"

#include <algorithm>
#include <cstdint>
#include <cuda_runtime.h>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

namespace life = cuda::life;

constexpr unsigned kWarp = 32;
constexpr unsigned kWarpsPerBlock = 4; // independent warps, each its own tile
constexpr unsigned kFullMask = 0xFFFFFFFFU;
constexpr unsigned kOutputWords = kWarp - 2; // lanes 0 and 31 only feed their neighbours
constexpr int kMaxSteps = 32; // lane 0's and lane 31's wrong cells reach lanes 1 and 30 after 32
constexpr std::int64_t kMaxGridY = 65535;

/// How the west and east neighbour words are shifted into place.
enum class Shifts { funnel, multiply };

/// The multipliers of Shifts::multiply, kernel arguments so that they stay multiplications.
struct Multipliers {
  std::uint32_t two;
  std::uint32_t half;
};

/// Horizontal three-cell sums of a row whose word this lane holds.
template <Shifts How>
__device__ __forceinline__ life::RowSum row_sum(std::uint32_t x, Multipliers m) {
  const std::uint32_t left = __shfl_up_sync(kFullMask, x, 1);    // lane 0: its own word, wrong
  const std::uint32_t right = __shfl_down_sync(kFullMask, x, 1); // lane 31: likewise
  if constexpr (How == Shifts::funnel) {
    return life::row_sum(life::west(x, left), x, life::east(x, right));
  } else {
    return life::row_sum(life::west_multiply(x, left, m.two), x,
                         life::east_multiply(x, right, m.half));
  }
}

/// Warp (blockIdx.x, blockIdx.y * kWarpsPerBlock + threadIdx.y): words [c, c + 30)
/// of rows [r, r + R - 2 * steps) are written, lanes holding words c - 1 ... c + 30
/// of rows r - steps ... r + R - steps - 1, wrapped around (torus).
template <int R, Shifts How>
__global__ void __launch_bounds__(kWarp* kWarpsPerBlock)
    wide_steps(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
               unsigned words_per_row, unsigned height, unsigned tiles, int steps, Multipliers m) {
  const unsigned tile = blockIdx.y * kWarpsPerBlock + threadIdx.y;
  if (tile >= tiles) return; // whole warps only
  const unsigned lane = threadIdx.x;
  const unsigned rows = static_cast<unsigned>(R - 2 * steps);
  const unsigned column = life::wrap(
      static_cast<long long>(life::first_output(blockIdx.x, kOutputWords, words_per_row)) - 1 +
          lane,
      words_per_row);
  const unsigned first_row =
      life::wrap(static_cast<long long>(life::first_output(tile, rows, height)) - steps, height);

  std::uint32_t x[R];
  unsigned row = first_row;
#pragma unroll
  for (int i = 0; i < R; ++i) {
    x[i] = __ldg(in + row * words_per_row + column);
    row = row + 1 == height ? 0 : row + 1;
  }

  // Rows 0 and R - 1 are never updated: one more row at each end goes wrong per generation.
  for (int s = 0; s < steps; ++s) {
    life::RowSum above = row_sum<How>(x[0], m);
    life::RowSum mid = row_sum<How>(x[1], m);
#pragma unroll
    for (int i = 1; i < R - 1; ++i) {
      const life::RowSum below = row_sum<How>(x[i + 1], m);
      x[i] = life::step_row_sums(above, mid, below, x[i]);
      above = mid;
      mid = below;
    }
  }

  if (lane == 0 || lane == kWarp - 1) return;
  // Opaque to the compiler: otherwise it keeps every load's address live through
  // the generations for the stores, a register per row.
  row = first_row;
  asm volatile("" : "+r"(row));
#pragma unroll
  for (int i = 0; i < R; ++i) {
    if (i >= steps && i < R - steps) out[row * words_per_row + column] = x[i];
    row = row + 1 == height ? 0 : row + 1;
  }
}

int rows_per_thread(const Params& params) {
  return static_cast<int>(params.get_int("rows_per_thread"));
}
Shifts shifts(const Params& params) {
  return params.get("shifts") == "multiply" ? Shifts::multiply : Shifts::funnel;
}
int steps_per_launch(const Params& params) {
  return static_cast<int>(params.get_int("steps_per_launch"));
}

class WideSimulator final : public cuda_packed::PackedSimulator {
public:
  WideSimulator(const Problem& problem, int rows, int steps, Shifts how)
      : PackedSimulator(problem, instructions_per_cell(rows, steps),
                        // each word read and written once per launch
                        2.0 * static_cast<double>(problem.shape.cells()) / 8.0 / steps),
        rows_(rows), steps_(steps), how_(how) {}

  /// LOP3 per cell written: per lane and generation, 2 per row (its sums) and 8
  /// per updated row (R - 2 of them), for R - 2 * steps written rows of 30 of the
  /// 32 lanes' words. The 2 funnel shifts and 2 shuffles per row come on top.
  static double instructions_per_cell(int rows, int steps) {
    const double per_lane = 2.0 * rows + 8.0 * (rows - 2);
    return per_lane * kWarp / (static_cast<double>(rows - 2 * steps) * kOutputWords * 32.0);
  }

private:
  void launch(std::uint64_t generations) override {
    const bool multiply = how_ == Shifts::multiply;
    switch (rows_) {
    case 64:
      multiply ? launch_all<64, Shifts::multiply>(generations)
               : launch_all<64, Shifts::funnel>(generations);
      break;
    case 128:
      multiply ? launch_all<128, Shifts::multiply>(generations)
               : launch_all<128, Shifts::funnel>(generations);
      break;
    default:
      multiply ? launch_all<192, Shifts::multiply>(generations)
               : launch_all<192, Shifts::funnel>(generations);
      break;
    }
  }

  template <int R, Shifts How> void launch_all(std::uint64_t generations) {
    const unsigned groups = (words_per_row() + kOutputWords - 1) / kOutputWords;
    for (std::uint64_t done = 0; done < generations;) {
      const int steps = static_cast<int>(
          std::min<std::uint64_t>(static_cast<std::uint64_t>(steps_), generations - done));
      const auto rows = static_cast<unsigned>(R - 2 * steps);
      const unsigned tiles = (height() + rows - 1) / rows;
      const dim3 grid(groups, (tiles + kWarpsPerBlock - 1) / kWarpsPerBlock);
      const dim3 block(kWarp, kWarpsPerBlock);
      wide_steps<R, How><<<grid, block, 0, stream()>>>(in(), out(), words_per_row(), height(),
                                                       tiles, steps, Multipliers{2U, 1U << 31});
      LIFEBENCH_CUDA_CHECK_LAUNCH();
      swap();
      done += static_cast<std::uint64_t>(steps);
    }
  }

  int rows_;
  int steps_;
  Shifts how_;
};

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = cuda_packed::common_unsupported(problem)) return reason;
  if (problem.boundary != Boundary::torus) {
    return "torus only: several generations per launch would let cells outside a dead "
           "boundary come alive (masking them costs an instruction per row and generation)";
  }
  const int rows = rows_per_thread(params);
  const int steps = steps_per_launch(params);
  if (steps < 1 || steps > kMaxSteps || 2 * steps >= rows) {
    return "steps_per_launch must be 1 to 32 and below rows_per_thread / 2: each generation "
           "one more row at each end of a thread's column and one more cell at each end of a "
           "warp's 32 words go wrong";
  }
  const std::int64_t written_rows = rows - 2 * steps;
  const std::int64_t tiles = (problem.shape.height + written_rows - 1) / written_rows;
  if ((tiles + kWarpsPerBlock - 1) / kWarpsPerBlock > kMaxGridY) {
    return "too many row tiles for CUDA's grid y limit (65535 blocks of 4 warps)";
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "cuda-life-wide",
    .family = "square",
    .backend = "cuda",
    .source = "ours",
    .technique = "warp across 32 adjacent words, rows_per_thread rows per lane in registers, "
                 "steps_per_launch generations per launch, neighbour words by shuffles, "
                 "horizontal sums once per row, 10 LOP3 per word and generation",
    .axes = {{.name = "rows_per_thread",
              .default_value = "128",
              .allowed = {"64", "128", "192"},
              .description = "rows of its word each lane holds in registers"},
             {.name = "steps_per_launch",
              .default_value = "8",
              .allowed = {},
              .description = "generations per launch, 1 to 32 and below rows_per_thread / 2"},
             {.name = "shifts",
              .default_value = "funnel",
              .allowed = {"funnel", "multiply"},
              .description = "west and east neighbour words by funnel shifts (ALU pipe, as "
                             "LOP3) or by multiply-adds (FMA pipe)"}},
    .unavailable =
        [] {
          return lifebench::cuda::unavailable_reason(
              &lifebench::wide_steps<128, lifebench::Shifts::funnel>);
        },
    .unsupported = lifebench::unsupported,
    .verify_generations = [](const lifebench::Params& params) -> std::uint64_t {
      // Two full launches and a partial third.
      return 2 * static_cast<std::uint64_t>(lifebench::steps_per_launch(params)) + 3;
    },
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params& params) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::WideSimulator>(problem, lifebench::rows_per_thread(params),
                                                        lifebench::steps_per_launch(params),
                                                        lifebench::shifts(params));
    }})
