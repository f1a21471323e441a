// How cuda/life_wide.cuh's kernels split a torus into blocks, and the rows a lane writes
// (schedule=wavefront) chosen for a launch's grid: rows_per_thread=auto of cuda-life-wide,
// cuda-multigpu, cuda-nccl and cuda-outofcore. Arithmetic only, so that the host tests it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace lifebench::cuda::life_wide {

constexpr unsigned kWarp = 32;
constexpr unsigned kWarpsPerBlock = 4;       // independent warps, each its own tile
constexpr unsigned kOutputWords = kWarp - 2; // lanes 0 and 31 only feed their neighbours
constexpr int kAhead = 4; // schedule=wavefront: rows a lane loads ahead of their use

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

/// Device words of a persistent launch's progress over `grid` (life_wide_wavefront.cuh's
/// Progress): a 64-bit count of the work items taken, and a count of passes for each tile.
inline std::size_t progress_words(const LaunchGrid& grid) {
  return 2 + static_cast<std::size_t>(grid.groups * grid.tiles);
}

/// Why a persistent launch of `steps` generations a pass cannot have its lanes write `rows`
/// rows on a torus of `height` rows, or nothing. The tiles a tile waits for (two rows of tiles
/// either way) hold every row it reads only where it writes at least `steps` rows, or all of
/// them.
inline std::optional<std::string> persistent_rows_unsupported(std::int64_t rows,
                                                              std::int64_t height, int steps) {
  if (rows >= steps || rows >= height) return std::nullopt;
  return "launch=persistent needs at least steps_per_launch (" + std::to_string(steps) +
         ") rows a lane on a column of several tiles: the tiles it waits for hold every row it "
         "reads only then";
}

/// Passes of a pipelined launch whose counts of rows written each tile keeps at once: at most as
/// many passes of one tile run at once.
constexpr unsigned kPipelineSlots = 16;

/// Device words of a pipelined launch's progress over `grid` (life_wide_wavefront.cuh's
/// PipelineProgress): a 64-bit count of the work items taken, and for each tile kPipelineSlots
/// 64-bit counts of rows written.
inline std::size_t pipelined_progress_words(const LaunchGrid& grid) {
  return 2 * (1 + kPipelineSlots * static_cast<std::size_t>(grid.groups * grid.tiles));
}

/// Why a pipelined launch (launch=pipelined) of `steps` generations a pass cannot have its lanes
/// write `rows` rows on a torus of `height` rows, or nothing. Its tiles must cover the height
/// evenly (each pass's tiles start `steps` rows below the pass before's, around the torus), and,
/// on a column of several tiles, a tile's loads past its own rows (2 steps + kAhead) must stay
/// within the next tile's.
inline std::optional<std::string> pipelined_rows_unsupported(std::int64_t rows, std::int64_t height,
                                                             int steps) {
  if (rows >= height) return std::nullopt; // one tile a column: the whole height
  if (height % rows != 0) {
    return "launch=pipelined needs rows_per_thread to divide the height (" +
           std::to_string(height) + " rows)";
  }
  if (rows < 2 * std::int64_t{steps} + kAhead) {
    return "launch=pipelined needs at least 2 steps_per_launch + " + std::to_string(kAhead) +
           " rows a lane (" + std::to_string(2 * steps + kAhead) + ") on a column of several tiles";
  }
  return std::nullopt;
}

/// rows_per_thread=auto for a pipelined launch: the most rows, up to 512, that divide `height`
/// and that pipelined_rows_unsupported() takes (or the whole height where none does). Its passes
/// run at once whatever the tiles' length, so long tiles only save the 2 `steps` rows each
/// recomputes; 512 is the longest measured with the other launches.
inline std::int64_t pipelined_rows(std::int64_t height, int steps) {
  constexpr std::int64_t kLongest = 512;
  for (std::int64_t rows = std::min(kLongest, height); rows >= 1; --rows) {
    if (height % rows == 0 && !pipelined_rows_unsupported(rows, height, steps)) return rows;
  }
  return height;
}

/// The rows a lane of the wavefront schedule writes when asked for `rows` on a torus of `height`
/// rows: at most all of them, once.
template <class Int> Int clamped_rows(Int rows, Int height) {
  return std::min(rows, height);
}

/// Warps an SM needs besides those it runs to keep its integer pipe busy (likely: with few
/// warps each waits on its own dependent LOP3s and shuffles). Fitted to cuda-life-wide's
/// whole grids on one H200 (132 SMs; 8192² to 65536², 64 to 1024 rows), and applied to
/// every device: with any value from 6, launch_cost orders every two of those 21
/// configurations whose rates differ by more than 10 % as measured, and 7 or 8 fit them
/// best (10 % RMS); counting blocks alone (0) put 147 rows before 64 on 8192², 1.4 times
/// slower.
constexpr std::int64_t kLatencyWarps = 8;

/// A launch's time, in rows a lane streams: it lasts as long as its busiest SM, which runs
/// ceil(blocks / SMs) blocks, whose warps and kLatencyWarps share its integer pipe, each
/// lane streaming rows + 2 x steps rows. The blocks are counted as if all ran at once,
/// where fewer are resident (6 blocks of 128 threads at 77 registers a thread): a simplification
/// the fit absorbs.
inline std::int64_t launch_cost(std::int64_t words_per_row, std::int64_t height, std::int64_t rows,
                                int steps, std::int64_t sms) {
  const std::int64_t blocks = launch_grid(words_per_row, height, rows).blocks();
  const std::int64_t blocks_per_sm = (blocks + sms - 1) / sms;
  return (blocks_per_sm * kWarpsPerBlock + kLatencyWarps) * (rows + 2 * std::int64_t{steps});
}

/// The rows a lane writes (schedule=wavefront, `steps` generations a launch) that make
/// the cheapest launch (launch_cost) on `sms` SMs, of 32 ... max(32, height) rows and at
/// most kMaxRows; the fewest of equals.
inline int rows_for_launch(std::int64_t words_per_row, std::int64_t height, int steps,
                           std::int64_t sms) {
  constexpr std::int64_t kMaxRows = 1 << 16; // longer columns only lengthen a launch
  std::int64_t best = 32;
  std::int64_t best_cost = launch_cost(words_per_row, height, best, steps, sms);
  for (std::int64_t rows = 33; rows <= std::clamp<std::int64_t>(height, 32, kMaxRows); ++rows) {
    const std::int64_t cost = launch_cost(words_per_row, height, rows, steps, sms);
    if (cost < best_cost) {
      best = rows;
      best_cost = cost;
    }
  }
  return static_cast<int>(best);
}

} // namespace lifebench::cuda::life_wide
