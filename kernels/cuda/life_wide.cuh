// Ours: dense B3/S23 on Hopper at 8 or 9 LOP3 per 32 cells and generation, on a torus
// of rows of 32-cell words (LSB = leftmost cell). A warp's lanes hold 32 adjacent words
// of a row (1024 cells) and each lane a column of rows, in registers (wide_steps) or
// streamed (wavefront_steps), for several generations per launch. A row's west and east
// neighbour words come from the adjacent lanes (one shuffle each way, one funnel shift
// each); its horizontal three-cell sums (2 LOP3) are computed once and serve the rows
// that need them. wavefront_steps: the sums of the rows above and below, the row's own
// west and east words and the cells give the next state in 6 LOP3 (the SAT solver's
// sequence of seed 000 over row sums); wide_steps: three row sums and the cells in 7.
// Shared by cuda-life-wide (a whole grid) and the out-of-core and multi-GPU
// experiments (sub-universes and bands: a torus of their own, whose wrong edges the
// halo absorbs).
#pragma once

#include "cuda/error.cuh"
#include "cuda/grid_limits.cuh"
#include "cuda/life_lop3.cuh"
#include "cuda/runtime.cuh"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include <optional>
#include <string>
#include <type_traits>

namespace lifebench::cuda::life_wide {

namespace life = cuda::life;

constexpr unsigned kWarp = 32;
constexpr unsigned kWarpsPerBlock = 4; // independent warps, each its own tile
constexpr unsigned kFullMask = 0xFFFFFFFFU;
constexpr unsigned kOutputWords = kWarp - 2; // lanes 0 and 31 only feed their neighbours
constexpr int kMaxSteps = 32; // lane 0's and lane 31's wrong cells reach lanes 1 and 30 after 32
constexpr int kAhead = 4;     // wavefront_steps: rows loaded ahead

/// wide_steps (rows in registers) or wavefront_steps (rows streamed).
enum class Schedule { registers, wavefront };

/// How the west and east neighbour words are shifted into place: both by funnel
/// shifts (ALU pipe, with LOP3), both by multiply-adds (FMA pipe), or mixed: west
/// by a funnel shift, east by multiply-adds (IMAD.HI is slow, so only one of them).
enum class Shifts { funnel, multiply, mixed };

/// The multipliers of Shifts::multiply, kernel arguments so that they stay multiplications.
struct Multipliers {
  std::uint32_t two;
  std::uint32_t half;
};

/// Row `row` of the column whose row-0 word `column` points at, rows `row_bytes` apart:
/// 64-bit (a universe may hold 2^32 words or more: 512K x 512K cells are 2^33) in one
/// IMAD.WIDE.U32, where a 32-bit word index took two instructions.
template <class Word>
__device__ __forceinline__ Word* at_row(Word* column, unsigned row, unsigned row_bytes) {
  using Byte = std::conditional_t<std::is_const_v<Word>, const char, char>;
  return reinterpret_cast<Word*>(reinterpret_cast<Byte*>(column) +
                                 static_cast<std::size_t>(row) * row_bytes);
}

/// A row whose word this lane holds: its west and east neighbour words and its
/// horizontal three-cell sums.
struct Row {
  std::uint32_t west;
  std::uint32_t east;
  life::RowSum sum;
};

template <Shifts How> __device__ __forceinline__ Row row_of(std::uint32_t x, Multipliers m) {
  const std::uint32_t left = __shfl_up_sync(kFullMask, x, 1);    // lane 0: its own word, wrong
  const std::uint32_t right = __shfl_down_sync(kFullMask, x, 1); // lane 31: likewise
  const std::uint32_t west =
      How == Shifts::multiply ? life::west_multiply(x, left, m.two) : life::west(x, left);
  const std::uint32_t east =
      How == Shifts::funnel ? life::east(x, right) : life::east_multiply(x, right, m.half);
  return {west, east, life::row_sum(west, x, east)};
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

  const unsigned row_bytes = words_per_row * 4U;
  std::uint32_t x[R];
  unsigned row = first_row;
#pragma unroll
  for (int i = 0; i < R; ++i) {
    x[i] = __ldg(at_row(in + column, row, row_bytes));
    row = row + 1 == height ? 0 : row + 1;
  }

  // Rows 0 and R - 1 are never updated: one more row at each end goes wrong per generation.
  for (int s = 0; s < steps; ++s) {
    // The rule on three row sums (7 LOP3), not the SAT solver's 6 of wavefront_steps:
    // with those, nvcc 13.0 gives this kernel 255 registers and spills at R = 64 and
    // above (80 and 168 registers with these at R = 64 and 128), and it ran 3.4 times
    // slower at R = 128.
    life::RowSum above = row_of<How>(x[0], m).sum;
    life::RowSum mid = row_of<How>(x[1], m).sum;
#pragma unroll
    for (int i = 1; i < R - 1; ++i) {
      const life::RowSum below = row_of<How>(x[i + 1], m).sum;
      x[i] = life::step_row_sums(above, mid, below, x[i]);
      above = mid;
      mid = below;
    }
  }

  if (lane == 0 || lane == kWarp - 1) return;
  // Opaque to the compiler: otherwise it keeps every load's address live through the
  // generations for the stores, two registers per row, or rebuilds the column's pointer
  // for each store (the stores then branch instead of being predicated).
  row = first_row;
  std::uint32_t* column_out = out + column;
  asm volatile("" : "+r"(row), "+l"(column_out));
  __builtin_assume(__isGlobal(column_out)); // STG, not a generic store
#pragma unroll
  for (int i = 0; i < R; ++i) {
    if (i >= steps && i < R - steps) *at_row(column_out, row, row_bytes) = x[i];
    row = row + 1 == height ? 0 : row + 1;
  }
}

/// The state one generation keeps while a column streams through it, for the row it
/// completes next: the first half of its step (the row above's sums with the row's
/// west and east words), its cells, and its sums (for the row after it).
struct Level {
  life::Sat10Begun begun;
  std::uint32_t center;
  life::RowSum sum;
};

/// Wavefront schedule: the lane streams a column of L + 2S rows (L = `rows` written)
/// down through S generations held at once, generation k one row behind generation
/// k - 1; each row loaded is read once, each cell of generation S written once. As
/// with wide_steps, rows and cells near the ends go wrong, one more per generation:
/// the first S and last S rows of the column, whatever the (zero) initial state.
template <int S, Shifts How>
__global__ void __launch_bounds__(kWarp* kWarpsPerBlock, 3)
    wavefront_steps(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                    unsigned words_per_row, unsigned height, unsigned tiles, unsigned rows,
                    Multipliers m) {
  const unsigned tile = blockIdx.y * kWarpsPerBlock + threadIdx.y;
  if (tile >= tiles) return; // whole warps only
  const unsigned lane = threadIdx.x;
  const bool writes = lane != 0 && lane != kWarp - 1;
  const unsigned column = life::wrap(
      static_cast<long long>(life::first_output(blockIdx.x, kOutputWords, words_per_row)) - 1 +
          lane,
      words_per_row);
  const unsigned first = life::first_output(tile, rows, height);
  unsigned load_row = life::wrap(static_cast<long long>(first) - S, height);
  unsigned store_row = life::wrap(first, height);
  const auto next_row = [height](unsigned row) { return row + 1 == height ? 0 : row + 1; };
  const unsigned row_bytes = words_per_row * 4U;

  Level level[S] = {};
  // Rows loaded kAhead ahead of their use: more loads in flight per warp.
  std::uint32_t ahead[kAhead];
#pragma unroll
  for (int a = 0; a < kAhead; ++a) {
    ahead[a] = __ldg(at_row(in + column, load_row, row_bytes));
    load_row = next_row(load_row);
  }
  const unsigned total = rows + 2 * S;
#pragma unroll 3
  for (unsigned j = 0; j < total; ++j) {
    std::uint32_t v = ahead[0]; // row j of generation 0
#pragma unroll
    for (int a = 0; a + 1 < kAhead; ++a) {
      ahead[a] = ahead[a + 1];
    }
    ahead[kAhead - 1] = __ldg(at_row(in + column, load_row, row_bytes));
    load_row = next_row(load_row);
#pragma unroll
    for (int k = 0; k < S; ++k) {
      // v: row j - k of generation k; it completes row j - k - 1 of generation k + 1.
      const Row below = row_of<How>(v, m);
      const std::uint32_t cells = life::sat10_end(level[k].begun, below.sum, level[k].center);
      level[k] = {life::sat10_begin(level[k].sum, below.west, below.east), v, below.sum};
      v = cells;
    }
    if (j >= 2 * S) { // v: row j - S of generation S, one of the `rows` written
      if (writes) *at_row(out + column, store_row, row_bytes) = v;
      store_row = next_row(store_row);
    }
  }
}

/// A launch's blocks on a torus of `height` rows of `words_per_row` words, `rows` rows a
/// lane writes: groups of kOutputWords words across, tiles of `rows` rows down,
/// kWarpsPerBlock tiles a block.
struct LaunchGrid {
  std::int64_t groups;
  std::int64_t tiles;
  [[nodiscard]] std::int64_t block_rows() const {
    return (tiles + kWarpsPerBlock - 1) / kWarpsPerBlock;
  }
  [[nodiscard]] std::int64_t blocks() const { return groups * block_rows(); }
};

inline LaunchGrid launch_grid(std::int64_t words_per_row, std::int64_t height, std::int64_t rows) {
  return {(words_per_row + kOutputWords - 1) / kOutputWords, (height + rows - 1) / rows};
}

/// A launch configuration: the experiment parameters of every user of these kernels
/// (cuda/life_wide_simulator.cuh reads them).
struct Config {
  Schedule schedule = Schedule::registers;
  int rows = 128; ///< registers: rows a lane holds; wavefront: rows a lane writes
  int steps = 8;  ///< generations per launch
  Shifts shifts = Shifts::funnel;

  /// Rows a lane writes per launch of `steps` generations.
  [[nodiscard]] int written_rows() const {
    return schedule == Schedule::registers ? rows - 2 * steps : rows;
  }

  /// LOP3 per cell written, 2 per row (its sums) and 7 (registers) or 6 (wavefront) per
  /// updated row per lane and generation, for 30 of the 32 lanes' words. registers: R
  /// rows, R - 2 updated, R - 2S written; wavefront: L + 2S rows streamed and updated, L
  /// written. The 2 shifts and 2 shuffles per row come on top.
  [[nodiscard]] double instructions_per_cell() const {
    const double lop3_per_lane =
        schedule == Schedule::registers ? 2.0 * rows + 7.0 * (rows - 2) : 8.0 * (rows + 2 * steps);
    return lop3_per_lane * kWarp / (written_rows() * kOutputWords * 32.0);
  }
};

/// Why `config` cannot run on a torus of `height` rows of `words_per_row` 32-bit words,
/// or nothing.
inline std::optional<std::string> unsupported(const Config& config, std::int64_t words_per_row,
                                              std::int64_t height) {
  if (words_per_row >= (std::int64_t{1} << 30)) {
    return "rows of fewer than 2^35 cells: the kernels step from row to row by a 32-bit "
           "count of bytes";
  }
  if (config.schedule == Schedule::registers) {
    if (config.rows > 192) {
      return "schedule=registers: rows_per_thread must be 64, 128 or 192 (rows held in "
             "registers; 512 and 1024 are for schedule=wavefront)";
    }
    if (config.steps < 1 || config.steps > kMaxSteps || 2 * config.steps >= config.rows) {
      return "steps_per_launch must be 1 to 32 and below rows_per_thread / 2: each "
             "generation one more row at each end of a thread's column and one more cell at "
             "each end of a warp's 32 words go wrong";
    }
  } else if (config.steps != 8 && config.steps != 16) {
    return "schedule=wavefront: steps_per_launch must be 8 or 16 (the generations a lane "
           "holds at once are compiled in)";
  }
  // A block row is kWarpsPerBlock row tiles (launch_grid).
  return beyond_grid_yz("height", height, std::int64_t{config.written_rows()} * kWarpsPerBlock,
                        "blocks of " + std::to_string(kWarpsPerBlock) + " warps of " +
                            std::to_string(config.written_rows()) + " rows");
}

/// Generations one launch does when `generations` (at least one) remain: wavefront
/// launches do steps_per_launch while that many remain, then one; registers launches
/// up to steps_per_launch.
inline int steps_of(const Config& config, std::uint64_t generations) {
  const auto steps = static_cast<std::uint64_t>(config.steps);
  if (config.schedule == Schedule::wavefront) return generations >= steps ? config.steps : 1;
  return static_cast<int>(std::min(steps, generations));
}

namespace detail {

template <Shifts How>
int launch(const Config& config, const std::uint32_t* in, std::uint32_t* out,
           unsigned words_per_row, unsigned height, std::uint64_t generations,
           cudaStream_t stream) {
  const dim3 block(kWarp, kWarpsPerBlock);
  const Multipliers m{2U, 1U << 31};
  const auto grid = [&](unsigned rows) {
    const LaunchGrid g = launch_grid(words_per_row, height, rows);
    return std::pair{dim3(static_cast<unsigned>(g.groups), static_cast<unsigned>(g.block_rows())),
                     static_cast<unsigned>(g.tiles)};
  };
  const int steps = steps_of(config, generations);
  if (config.schedule == Schedule::wavefront) {
    const auto rows = static_cast<unsigned>(config.rows);
    const auto [blocks, tiles] = grid(rows);
    if (steps == 8) {
      wavefront_steps<8, How>
          <<<blocks, block, 0, stream>>>(in, out, words_per_row, height, tiles, rows, m);
    } else if (steps == 16) {
      wavefront_steps<16, How>
          <<<blocks, block, 0, stream>>>(in, out, words_per_row, height, tiles, rows, m);
    } else {
      wavefront_steps<1, How>
          <<<blocks, block, 0, stream>>>(in, out, words_per_row, height, tiles, rows, m);
    }
    return steps;
  }
  const auto [blocks, tiles] = grid(static_cast<unsigned>(config.rows - 2 * steps));
  switch (config.rows) {
  case 64:
    wide_steps<64, How>
        <<<blocks, block, 0, stream>>>(in, out, words_per_row, height, tiles, steps, m);
    break;
  case 128:
    wide_steps<128, How>
        <<<blocks, block, 0, stream>>>(in, out, words_per_row, height, tiles, steps, m);
    break;
  default:
    wide_steps<192, How>
        <<<blocks, block, 0, stream>>>(in, out, words_per_row, height, tiles, steps, m);
    break;
  }
  return steps;
}

} // namespace detail

/// Why these kernels cannot run here (no CUDA device, or none this binary has code
/// for), or nothing: the `unavailable` of every experiment that uses them.
inline std::optional<std::string> unavailable() {
  return unavailable_reason(&wide_steps<128, Shifts::funnel>);
}

/// Rows a lane writes with schedule=wavefront for a launch on a torus of `height` rows of
/// `words_per_row` words: a launch lasts as long as its busiest SM, which runs
/// ceil(blocks / SMs) blocks, each of whose lanes streams rows + 2 x steps rows (the
/// kernel is bound by the integer pipe, which a few resident blocks fill); minimised over
/// 32 ... max(32, height) rows, at most kMaxFittedRows. On a band far shorter than a
/// universe, 64 or 128 rows leave SMs with a block less than others for most of the launch.
inline int rows_balancing_sms(const Config& config, std::int64_t words_per_row,
                              std::int64_t height) {
  if (config.schedule != Schedule::wavefront) {
    throw Error("rows a lane writes are chosen for schedule=wavefront only");
  }
  constexpr std::int64_t kMaxFittedRows = 1 << 16; // longer columns only lengthen a launch
  const std::int64_t sms = sm_count();
  std::int64_t best = 32;
  std::int64_t best_time = -1;
  for (std::int64_t rows = 32; rows <= std::clamp<std::int64_t>(height, 32, kMaxFittedRows);
       ++rows) {
    const std::int64_t blocks = launch_grid(words_per_row, height, rows).blocks();
    const std::int64_t time = (blocks + sms - 1) / sms * (rows + 2 * config.steps);
    if (best_time < 0 || time < best_time) {
      best = rows;
      best_time = time;
    }
  }
  return static_cast<int>(best);
}

/// Enqueues one launch of up to config.steps of the `generations` still to do, from `in`
/// to `out` (torus of height rows of words_per_row words) on `stream`; returns how many
/// generations it does. The caller swaps its buffers after each.
inline int launch(const Config& config, const std::uint32_t* in, std::uint32_t* out,
                  unsigned words_per_row, unsigned height, std::uint64_t generations,
                  cudaStream_t stream) {
  int done = 0;
  switch (config.shifts) {
  case Shifts::funnel:
    done =
        detail::launch<Shifts::funnel>(config, in, out, words_per_row, height, generations, stream);
    break;
  case Shifts::multiply:
    done = detail::launch<Shifts::multiply>(config, in, out, words_per_row, height, generations,
                                            stream);
    break;
  default:
    done =
        detail::launch<Shifts::mixed>(config, in, out, words_per_row, height, generations, stream);
    break;
  }
  LIFEBENCH_CUDA_CHECK_LAUNCH();
  return done;
}

/// Enqueues launches on `stream` until `generations` are done, from buffers[current]
/// back and forth between the two (tori of height rows of words_per_row words);
/// returns the index of the buffer that then holds the result.
inline int advance(const Config& config, const std::array<std::uint32_t*, 2>& buffers, int current,
                   unsigned words_per_row, unsigned height, std::uint64_t generations,
                   cudaStream_t stream) {
  for (std::uint64_t done = 0; done < generations; current = 1 - current) {
    done += static_cast<std::uint64_t>(launch(config, buffers[current], buffers[1 - current],
                                              words_per_row, height, generations - done, stream));
  }
  return current;
}

} // namespace lifebench::cuda::life_wide
