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
// The kernels themselves are in life_wide_kernels.cuh, compiled once for each way of
// shifting (life_wide_shifts.cu, the library lifebench::kernels_cuda_life_wide): the
// experiments that use them include this header only.
#pragma once

#include "cuda/grid_limits.cuh"
#include "cuda/life_wide_rows.hpp"
#include "cuda/runtime.cuh"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cuda_runtime.h>
#include <optional>
#include <string>

namespace lifebench::cuda::life_wide {

constexpr int kMaxSteps = 32; // lane 0's and lane 31's wrong cells reach lanes 1 and 30 after 32

/// wide_steps (rows in registers) or wavefront_steps (rows streamed).
enum class Schedule { registers, wavefront };

/// How the west and east neighbour words are shifted into place: both by funnel
/// shifts (ALU pipe, with LOP3), both by multiply-adds (FMA pipe), or mixed: west
/// by a funnel shift, east by multiply-adds (IMAD.HI is slow, so only one of them).
enum class Shifts { funnel, multiply, mixed };

/// How schedule=wavefront's passes of `steps` generations are launched: one launch each; or all
/// in one launch whose warps take tile after tile, each once its neighbours' previous pass is
/// written (persistent, launch_persistent), or each pass's tiles S rows below the pass before's,
/// started as soon as the pass before has written their first rows (pipelined,
/// wavefront_pipelined).
enum class Launch { per_pass, persistent, pipelined };

/// A launch configuration: the experiment parameters of every user of these kernels
/// (cuda/life_wide_simulator.cuh reads them).
struct Config {
  Schedule schedule = Schedule::registers;
  int rows = 128; ///< registers: rows a lane holds; wavefront: rows a lane writes
  int steps = 8;  ///< generations per launch
  Shifts shifts = Shifts::funnel;
  Launch launch = Launch::per_pass;

  /// Whether the whole passes go in one launch (launch_persistent).
  [[nodiscard]] bool one_launch() const { return launch != Launch::per_pass; }

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

/// Why these kernels cannot step along rows of `words_per_row` 32-bit words, or nothing.
inline std::optional<std::string> row_unsupported(std::int64_t words_per_row) {
  if (words_per_row < (std::int64_t{1} << 30)) return std::nullopt;
  return "rows of fewer than 2^35 cells: the kernels step from row to row by a 32-bit count of "
         "bytes";
}

/// Why a torus of `height` rows cannot be covered by blocks of kWarpsPerBlock tiles of
/// `written_rows` rows (launch_grid), or nothing.
inline std::optional<std::string> height_unsupported(std::int64_t height, int written_rows) {
  return beyond_grid_yz("height", height, std::int64_t{written_rows} * kWarpsPerBlock,
                        "blocks of " + std::to_string(kWarpsPerBlock) + " warps of " +
                            std::to_string(written_rows) + " rows");
}

/// Why `config` cannot run on a torus of `height` rows of `words_per_row` 32-bit words,
/// or nothing.
inline std::optional<std::string> unsupported(const Config& config, std::int64_t words_per_row,
                                              std::int64_t height) {
  if (auto reason = row_unsupported(words_per_row)) return reason;
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
    if (config.one_launch()) {
      return config.launch == Launch::pipelined ? "launch=pipelined needs schedule=wavefront"
                                                : "launch=persistent needs schedule=wavefront";
    }
  } else if (config.steps != 4 && config.steps != 8 && config.steps != 16) {
    return "schedule=wavefront: steps_per_launch must be 4, 8 or 16 (the generations a lane "
           "holds at once are compiled in)";
  } else if (config.one_launch()) {
    auto reason = config.launch == Launch::pipelined
                      ? pipelined_rows_unsupported(config.rows, height, config.steps)
                      : persistent_rows_unsupported(config.rows, height, config.steps);
    if (reason) return reason;
  }
  return height_unsupported(height, config.written_rows());
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

/// One launch of up to config.steps generations with the neighbour words shifted `How`
/// (life_wide_kernels.cuh); instantiated once for each in life_wide_shifts.cu.
template <Shifts How>
int launch(const Config& config, const std::uint32_t* in, std::uint32_t* out,
           unsigned words_per_row, unsigned height, std::uint64_t generations, cudaStream_t stream);

/// One persistent launch of config.steps generations a pass with the neighbour words shifted
/// `How` (life_wide_kernels.cuh); instantiated once for each in life_wide_shifts.cu.
template <Shifts How>
void launch_persistent(const Config& config, std::uint32_t* a, std::uint32_t* b,
                       unsigned words_per_row, unsigned height, unsigned passes, unsigned* progress,
                       cudaStream_t stream);

} // namespace detail

/// Why these kernels cannot run here (no CUDA device, or none this binary has code
/// for), or nothing: the `unavailable` of every experiment that uses them.
std::optional<std::string> unavailable();

/// The rows a lane writes with schedule=wavefront for a launch of `config` on a torus of
/// `height` rows of `words_per_row` words on this device (rows_for_launch).
inline int rows_for_launch(const Config& config, std::int64_t words_per_row, std::int64_t height) {
  if (config.schedule != Schedule::wavefront) {
    throw Error("rows a lane writes are chosen for schedule=wavefront only");
  }
  return rows_for_launch(words_per_row, height, config.steps, sm_count());
}

/// Enqueues one launch of up to config.steps of the `generations` still to do, from `in`
/// to `out` (torus of height rows of words_per_row words) on `stream`; returns how many
/// generations it does. The caller swaps its buffers after each.
int launch(const Config& config, const std::uint32_t* in, std::uint32_t* out,
           unsigned words_per_row, unsigned height, std::uint64_t generations, cudaStream_t stream);

/// Device words the progress of a persistent launch of `config` (launch_persistent) takes on
/// a torus of `height` rows of `words_per_row` words.
inline std::size_t progress_words(const Config& config, unsigned words_per_row, unsigned height) {
  const LaunchGrid grid =
      launch_grid(words_per_row, height, clamped_rows(static_cast<unsigned>(config.rows), height));
  return config.launch == Launch::pipelined ? pipelined_progress_words(grid) : progress_words(grid);
}

/// Enqueues on `stream` one launch of `passes` passes of config.steps generations each
/// (schedule=wavefront), from `a` to `b` and back, the result in `b` after an odd number of
/// passes and in `a` after an even one (tori of height rows of words_per_row words): warps take the
/// tiles of a pass in order, pass after pass, each tile once the tiles around it have written the
/// previous pass. `progress` holds progress_words() device words.
void launch_persistent(const Config& config, std::uint32_t* a, std::uint32_t* b,
                       unsigned words_per_row, unsigned height, unsigned passes, unsigned* progress,
                       cudaStream_t stream);

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
