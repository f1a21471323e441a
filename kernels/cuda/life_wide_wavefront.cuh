// The wavefront schedule of cuda/life_wide.cuh, for any rule of one bit a cell whose next
// state reads the rows above and below and the cells beside: cuda-life-wide's B3/S23
// (life_wide_kernels.cuh) and hex-cuda-bitsliced's hexagonal rules. A warp's 32 lanes hold
// 32 adjacent 32-bit words of a row (lanes 0 and 31 only feed their neighbours); each lane
// streams a column of `rows` + 2 S rows down through S generations held at once, generation
// k one row behind generation k - 1: each row is read once and each cell of generation S
// written once. What a generation keeps between rows, and how it completes one, is the
// Step's.
#pragma once

#include "cuda/life_lop3.cuh"
#include "cuda/life_wide.cuh"
#include "cuda/life_wide_pipeline.hpp"

#include <algorithm>
#include <cstdint>
#include <cuda/atomic>
#include <cuda_runtime.h>
#include <string>
#include <type_traits>

namespace lifebench::cuda::life_wide {

/// The multipliers of Shifts::multiply, kernel arguments so that they stay multiplications.
struct Multipliers {
  std::uint32_t two;
  std::uint32_t half;
};
constexpr Multipliers kMultipliers{2U, 1U << 31}; // x·2 and x·2^31

/// A row word's cells' west and east neighbours, the words beside it coming from the
/// adjacent lanes (lanes 0 and 31 get their own, wrong), shifted `How`.
struct Beside {
  std::uint32_t west;
  std::uint32_t east;
};

template <Shifts How> __device__ __forceinline__ Beside beside(std::uint32_t x, Multipliers m) {
  const std::uint32_t left = __shfl_up_sync(0xFFFFFFFFU, x, 1);
  const std::uint32_t right = __shfl_down_sync(0xFFFFFFFFU, x, 1);
  return {How == Shifts::multiply ? life::west_multiply(x, left, m.two) : life::west(x, left),
          How == Shifts::funnel ? life::east(x, right) : life::east_multiply(x, right, m.half)};
}

/// Row `row` of the column whose row-0 word `column` points at, rows `row_bytes` apart:
/// 64-bit (a universe may hold 2^32 words or more: 512K x 512K cells are 2^33) in one
/// IMAD.WIDE.U32, where a 32-bit word index took two instructions.
template <class Word>
__device__ __forceinline__ Word* at_row(Word* column, unsigned row, unsigned row_bytes) {
  using Byte = std::conditional_t<std::is_const_v<Word>, const char, char>;
  return reinterpret_cast<Word*>(reinterpret_cast<Byte*>(column) +
                                 static_cast<std::size_t>(row) * row_bytes);
}

/// Where a lane's column is read from: through the read-only data cache, where nothing
/// writes the input while the launch runs, or from L2 (`ld.global.cg`), where other warps of
/// the same launch wrote it (wavefront_persistent, after flags that say they did).
enum class Reads { read_only, written_in_launch };

/// What a tile does between its rows where no other warp of its launch writes what it reads
/// (wavefront_steps, wavefront_persistent): nothing, its rows in one run that ends before the
/// torus's last row.
struct Unpaced {
  static constexpr bool kWraps = false; ///< whether the rows written may pass the last row
  static constexpr unsigned kRun = ~0U; ///< rows written between a wait and a count: all
  __device__ void wait_for_loads(unsigned /*end*/) const {}
  __device__ void written(unsigned /*rows*/) const {}
};

/// The wavefront schedule's column: the warp writes words [c, c + 30) of group `group`'s rows
/// first ... first + rows - 1 (wrapped around where Pace::kWraps), its lanes streaming words
/// c - 1 ... c + 30 of rows first - S ... first + rows + S - 1, wrapped around (torus).
/// `step(level, v)` takes row i + 1 of a generation and returns row i of the next, `level` (a
/// Step::Level, zero at first) keeping what row i + 1 needs when row i + 2 comes. As the rows and
/// cells near the ends go wrong, one more each generation, the first S and last S rows of a
/// column are not written, nor lanes 0 and 31 (right up to 32 generations), whatever the (zero)
/// initial state. `rows` is at most `height` (the launches clamp it). The rows are written in runs
/// of Pace::kRun: `pace.wait_for_loads(end)` comes before the run whose loads end with the
/// end-th row loaded, `pace.written(n)` after the run that ends with the n-th row written. The
/// last kAhead rows loaded are never used.
template <int S, Reads From, class Step, class Pace>
__device__ __forceinline__ void
wavefront_column(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                 unsigned words_per_row, unsigned height, unsigned rows, unsigned group,
                 unsigned first, const Step& step, const Pace& pace) {
  const unsigned lane = threadIdx.x;
  const bool writes = lane - 1U < kWarp - 2U; // not lanes 0 and 31
  const unsigned column = life::wrap(
      static_cast<long long>(life::first_output(group, kOutputWords, words_per_row)) - 1 + lane,
      words_per_row);
  unsigned load_row = life::wrap(static_cast<long long>(first) - S, height);
  const unsigned row_bytes = words_per_row * 4U;

  typename Step::Level level[S] = {};
  // Rows loaded kAhead ahead of their use: more loads in flight per warp.
  std::uint32_t ahead[kAhead];
  const auto load = [&] {
    const std::uint32_t* word = at_row(in + column, load_row, row_bytes);
    load_row = load_row + 1 == height ? 0 : load_row + 1;
    return From == Reads::read_only ? __ldg(word) : __ldcg(word);
  };
  constexpr unsigned kLoadsBefore = 2 * S + kAhead; // rows loaded before the first row written
  pace.wait_for_loads(kLoadsBefore);
#pragma unroll
  for (int a = 0; a < kAhead; ++a) {
    ahead[a] = load();
  }
  // The next row of generation 0 in, through every generation: row j of generation 0 in,
  // row j - S of generation S out, the j-th call.
  const auto next = [&] {
    std::uint32_t v = ahead[0];
#pragma unroll
    for (int a = 0; a + 1 < kAhead; ++a) {
      ahead[a] = ahead[a + 1];
    }
    ahead[kAhead - 1] = load();
#pragma unroll
    for (int k = 0; k < S; ++k) {
      v = step(level[k], v); // row j - k of generation k in, row j - k - 1 of k + 1 out
    }
    return v;
  };
  // The first 2 S rows out are above the rows written: in a loop of their own, the one
  // below tests neither that nor (unless Pace::kWraps) whether its row wraps around.
#pragma unroll 1
  for (unsigned j = 0; j < 2 * S; ++j) {
    next();
  }
  // Writes the column's from-th to (to - 1)-th rows. Counted from `from`, not from 0: nvcc 13.0
  // unrolled a loop from 0 to a run's length (min(kRun, rows - done)) by 3 with no remainder,
  // writing up to 2 rows past each run.
  unsigned out_row = first;
  const auto write_rows = [&](unsigned from, unsigned to) {
#pragma unroll 3
    for (unsigned j = from; j < to; ++j) {
      const std::uint32_t v = next();
      if (writes) *at_row(out + column, out_row, row_bytes) = v;
      ++out_row;
      if constexpr (Pace::kWraps) out_row = out_row == height ? 0 : out_row;
    }
  };
  if constexpr (Pace::kRun == Unpaced::kRun) {
    write_rows(0, rows); // all in one run (wavefront_steps, wavefront_persistent)
  } else {
    for (unsigned done = 0; done < rows;) {
      const unsigned stop = min(done + Pace::kRun, rows);
      pace.wait_for_loads(kLoadsBefore + stop);
      write_rows(done, stop);
      done = stop;
      pace.written(done);
    }
  }
}

/// The wavefront schedule's tile: wavefront_column over the rows of tile `tile`
/// (life::first_output: the last one moved back, so that no row written wraps around).
template <int S, Reads From, class Step>
__device__ __forceinline__ void
wavefront_tile(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
               unsigned words_per_row, unsigned height, unsigned rows, unsigned group,
               unsigned tile, const Step& step) {
  wavefront_column<S, From>(in, out, words_per_row, height, rows, group,
                            life::first_output(tile, rows, height), step, Unpaced{});
}

/// S generations from `in` to `out`: warp (blockIdx.y * kWarpsPerBlock + threadIdx.y) of
/// block column blockIdx.x writes that tile of that group (wavefront_tile).
template <int S, class Step>
__global__ void __launch_bounds__(kWarp* kWarpsPerBlock, 3)
    wavefront_steps(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                    unsigned words_per_row, unsigned height, unsigned tiles, unsigned rows,
                    Step step) {
  const unsigned tile = blockIdx.y * kWarpsPerBlock + threadIdx.y;
  if (tile >= tiles) return; // whole warps only
  wavefront_tile<S, Reads::read_only>(in, out, words_per_row, height, rows, blockIdx.x, tile, step);
}

/// The loop of a persistent launch's warps: each takes the next work item from the count at
/// `next` (pass after pass, each pass's tiles row of tiles after row of tiles, a row's groups side
/// by side) and calls `tile(pass, tile, group)` on it, the same in every lane, until the items of
/// `passes` passes are taken.
template <class Tile>
__device__ __forceinline__ void take_items(unsigned long long* next, unsigned groups,
                                           unsigned tiles, unsigned passes, const Tile& tile) {
  const unsigned long long per_pass = static_cast<unsigned long long>(groups) * tiles;
  for (;;) {
    unsigned long long item = 0;
    if (threadIdx.x == 0) item = atomicAdd(next, 1ULL);
    item = __shfl_sync(0xFFFFFFFFU, item, 0);
    if (__all_sync(0xFFFFFFFFU, item >= per_pass * passes)) return; // the same item in every lane
    const auto within = static_cast<unsigned>(item % per_pass);
    tile(static_cast<unsigned>(item / per_pass), within / groups, within % groups);
  }
}

/// What the warps of a persistent launch share, in device memory zeroed before it
/// (progress_words): the next work item to take, then for each tile (the groups of a row of
/// tiles side by side) how many of the launch's passes it has written.
struct Progress {
  unsigned long long* next;
  unsigned* passes_done;
};

/// Waits until every lane's `word` holds at least that lane's `need` (0: nothing to wait for),
/// asleep `sleep_ns` between tries. The whole warp loops until every lane's is reached: the loop
/// stays convergent, and so do the shuffles after it.
template <class T>
__device__ __forceinline__ void wait_in_warp(T* word, T need, unsigned sleep_ns) {
  const ::cuda::atomic_ref<T, ::cuda::thread_scope_device> done(*word);
  while (!__all_sync(0xFFFFFFFFU, need == 0 || done.load(::cuda::memory_order_acquire) >= need)) {
    __nanosleep(sleep_ns);
  }
  __syncwarp(); // each lane's acquire ordered before every lane's loads and stores (a vote is not)
}

/// Stores `value` to `word` once every lane's writes before it are done: a fence in every lane,
/// then every lane's release store, so that a warp that acquires it (wait_in_warp) acquires one
/// lane's release after every lane's writes.
template <class T> __device__ __forceinline__ void say_written(T* word, T value) {
  __threadfence();
  __syncwarp();
  ::cuda::atomic_ref<T, ::cuda::thread_scope_device>(*word).store(value,
                                                                  ::cuda::memory_order_release);
}

/// Waits until the tiles around (group, tile), one group and two rows of tiles either way
/// (wrapped), have written `pass` passes. With `rows` at least S, those hold the rows the tile
/// reads in pass `pass` (S above and below its own, the last tile of a column moved back by
/// less than `rows`), and the tiles that read in pass `pass` - 1 the rows it is about to
/// overwrite.
__device__ __forceinline__ void wait_for_neighbours(unsigned* passes_done, unsigned pass,
                                                    unsigned group, unsigned tile, unsigned groups,
                                                    unsigned tiles) {
  constexpr unsigned kNeighbours = 3 * 5;
  const unsigned neighbour = threadIdx.x % kNeighbours; // every lane acquires one
  const unsigned g = (group + groups + neighbour % 3 - 1) % groups;
  const unsigned t = (tile + 2 * tiles + neighbour / 3 - 2) % tiles;
  wait_in_warp(&passes_done[t * groups + g], pass, 256);
}

/// Blocks an SM holds of wavefront_persistent<S>: those of wavefront_steps<S> (ptxas, sm_90,
/// funnel shifts: 56, 93 and 166 registers a thread for S = 4, 8 and 16; 9, 5 and 3 blocks)
/// where its loop over tiles fits them without spilling. Without the bound it took 107
/// registers at S = 8, and four blocks an SM; at S = 4 the multiply-add shifts spill with 9.
constexpr int wavefront_blocks_per_sm(int steps) {
  return steps <= 4 ? 8 : steps <= 8 ? 5 : 3;
}

/// `passes` passes of S generations each from `a` (the result in `b` after an odd number), in one
/// launch of as many blocks as the SMs hold: each warp takes the next tile of the next pass
/// (row of tiles after row of tiles, pass after pass) as soon as it is done with one, and
/// starts it once its neighbours' previous pass is written (wait_for_neighbours). No warp
/// waits on a tile taken after its own, so the launch ends whatever blocks are resident.
template <int S, class Step>
__global__ void __launch_bounds__(kWarp* kWarpsPerBlock, wavefront_blocks_per_sm(S))
    wavefront_persistent(std::uint32_t* a, std::uint32_t* b, unsigned words_per_row,
                         unsigned height, unsigned groups, unsigned tiles, unsigned rows,
                         unsigned passes, Progress progress, Step step) {
  take_items(progress.next, groups, tiles, passes,
             [&](unsigned pass, unsigned tile, unsigned group) {
               wait_for_neighbours(progress.passes_done, pass, group, tile, groups, tiles);
               const bool odd = (pass & 1U) != 0;
               wavefront_tile<S, Reads::written_in_launch>(odd ? b : a, odd ? a : b, words_per_row,
                                                           height, rows, group, tile, step);
               say_written(&progress.passes_done[tile * groups + group], pass + 1);
             });
}

/// What a tile of wavefront_pipelined does between its rows (life_wide_pipeline.hpp says where
/// its rows are). Before each run of kRun rows it waits until the tiles it loads from, and those
/// of the groups either side, have written the rows the run loads; after it, it says how many
/// rows it has written. No tile waits for another's last rows, so a pass can start as soon as the
/// pass before has written a few rows of each tile, and many passes run at once however long the
/// tiles. That a tile has read rows before the pass after overwrites them follows: that pass
/// overwrites row j only after loading row j + 2 S, which this tile wrote after loading row
/// j + 4 S (the rows past the last loaded, kAhead of them, are never used). Passes of one tile run
/// at once, so each keeps its count in a slot of its own (pipeline::slot_of), and waits before it
/// takes one (wait_for_slot).
struct Paced {
  static constexpr bool kWraps = true;
  static constexpr unsigned kRun = pipeline::kRun;
  unsigned long long* rows_done; ///< [slot][tile][group]: a pass's count of rows written
  unsigned rows;                 ///< rows a tile writes
  unsigned pass, tile, group, groups, tiles;

  /// Waits until every tile that reads the counts this pass will overwrite has read its last
  /// (pipeline::slot_need).
  __device__ void wait_for_slot() const {
    const pipeline::SlotNeed need = pipeline::slot_need(pass, rows);
    if (need.done == 0) return;
    wait_until(need.reader, tile, tile == 0 ? tiles - 1 : tile - 1, need.done, need.done);
  }

  __device__ void wait_for_loads(unsigned end) const {
    if (pass == 0) return; // the first pass reads the launch's input
    const pipeline::LoadsNeed need = pipeline::loads_need(pass, rows, end);
    wait_until(pass - 1, tile, tile + 1 == tiles ? 0 : tile + 1, need.own, need.next);
  }

  __device__ void written(unsigned rows_written) const {
    say_written(at(pass, tile, group),
                static_cast<unsigned long long>(pipeline::count(pass, rows, rows_written)));
  }

private:
  [[nodiscard]] __device__ unsigned long long* at(unsigned of_pass, unsigned t, unsigned g) const {
    return rows_done + (static_cast<std::size_t>(pipeline::slot_of(of_pass)) * tiles + t) * groups +
           g;
  }

  /// Waits until the counts of pass `of_pass` reach `first_need` for tile `first` and
  /// `second_need` for tile `second` (0: nothing to wait for), in the groups either side too: each
  /// of pipeline::kWaitingLanes lanes loads one.
  __device__ void wait_until(unsigned of_pass, unsigned first, unsigned second,
                             unsigned long long first_need, unsigned long long second_need) const {
    const unsigned lane = threadIdx.x;
    const bool on_first = pipeline::waits_on_first(lane);
    const unsigned long long need = lane >= pipeline::kWaitingLanes ? 0
                                    : on_first                      ? first_need
                                                                    : second_need;
    wait_in_warp(
        at(of_pass, on_first ? first : second, pipeline::waited_group(lane, group, groups)), need,
        64);
  }
};

/// What the warps of a pipelined launch share, in device memory zeroed before it
/// (pipelined_progress_words): the next work item to take, then each tile's rows written.
struct PipelineProgress {
  unsigned long long* next;
  unsigned long long* rows_done;
};

/// `passes` passes of S generations each from `a` (the result in `b` after an odd number), in one
/// launch of as many blocks as the SMs hold, on a torus of `tiles` tiles of `rows` rows (height =
/// tiles x rows): each warp takes the next tile of the next pass (row of tiles after row of tiles,
/// pass after pass) and streams it at the pace Paced sets. No warp waits on a tile taken after its
/// own, so the launch ends whatever blocks are resident.
template <int S, class Step>
__global__ void __launch_bounds__(kWarp* kWarpsPerBlock, wavefront_blocks_per_sm(S))
    wavefront_pipelined(std::uint32_t* a, std::uint32_t* b, unsigned words_per_row, unsigned height,
                        unsigned groups, unsigned tiles, unsigned rows, unsigned passes,
                        PipelineProgress progress, Step step) {
  take_items(progress.next, groups, tiles, passes,
             [&](unsigned pass, unsigned tile, unsigned group) {
               const Paced pace{progress.rows_done, rows, pass, tile, group, groups, tiles};
               pace.wait_for_slot();
               const bool odd = (pass & 1U) != 0;
               wavefront_column<S, Reads::written_in_launch>(
                   odd ? b : a, odd ? a : b, words_per_row, height, rows, group,
                   pipeline::first_row(pass, tile, rows, height, S), step, pace);
             });
}

/// Enqueues wavefront_steps<S> on `stream` over a torus of `height` rows of `words_per_row`
/// words, `rows` rows a lane writes (`height` where `rows` is more: all of them, once).
template <int S, class Step>
void launch_wavefront(const std::uint32_t* in, std::uint32_t* out, unsigned words_per_row,
                      unsigned height, unsigned rows, const Step& step, cudaStream_t stream) {
  rows = clamped_rows(rows, height);
  const LaunchGrid g = launch_grid(words_per_row, height, rows);
  const dim3 blocks(static_cast<unsigned>(g.groups), static_cast<unsigned>(g.block_rows()));
  wavefront_steps<S><<<blocks, dim3(kWarp, kWarpsPerBlock), 0, stream>>>(
      in, out, words_per_row, height, static_cast<unsigned>(g.tiles), rows, step);
}

/// Blocks of `kernel` (kWarp x kWarpsPerBlock threads, no shared memory) that the SMs hold at
/// once: the grid of a one-launch kernel, whose warps wait on warps taken before theirs, all
/// resident.
template <class Kernel> unsigned resident_blocks(Kernel kernel) {
  int per_sm = 0;
  LIFEBENCH_CUDA_CALL(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kWarp * kWarpsPerBlock, 0));
  return static_cast<unsigned>(per_sm * sm_count());
}

/// Enqueues wavefront_persistent<S> on `stream`: `passes` passes of S generations from `a`
/// (the result in `b` after an odd number, in `a` after an even one), over a torus as
/// launch_wavefront's; `progress` holds
/// progress_words() of launch_grid(words_per_row, height, rows) (rows as launch_wavefront takes
/// them). Throws Error where persistent_rows_unsupported() says why it cannot.
template <int S, class Step>
void launch_wavefront_persistent(std::uint32_t* a, std::uint32_t* b, unsigned words_per_row,
                                 unsigned height, unsigned rows, unsigned passes,
                                 unsigned* progress, const Step& step, cudaStream_t stream) {
  if (auto reason = persistent_rows_unsupported(rows, height, S)) throw Error(*reason);
  rows = clamped_rows(rows, height);
  const LaunchGrid g = launch_grid(words_per_row, height, rows);
  LIFEBENCH_CUDA_CALL(cudaMemsetAsync(progress, 0, progress_words(g) * sizeof(unsigned), stream));
  const Progress shared{reinterpret_cast<unsigned long long*>(progress), progress + 2};
  wavefront_persistent<S>
      <<<resident_blocks(wavefront_persistent<S, Step>), dim3(kWarp, kWarpsPerBlock), 0, stream>>>(
          a, b, words_per_row, height, static_cast<unsigned>(g.groups),
          static_cast<unsigned>(g.tiles), rows, passes, shared, step);
}

/// Enqueues wavefront_pipelined<S> on `stream`: `passes` passes of S generations from `a` (the
/// result in `b` after an odd number, in `a` after an even one), over a torus as
/// launch_wavefront's; `progress` holds pipelined_progress_words() of launch_grid(words_per_row,
/// height, rows) (rows as launch_wavefront takes them). Throws Error where
/// pipelined_rows_unsupported() says why it cannot.
template <int S, class Step>
void launch_wavefront_pipelined(std::uint32_t* a, std::uint32_t* b, unsigned words_per_row,
                                unsigned height, unsigned rows, unsigned passes, unsigned* progress,
                                const Step& step, cudaStream_t stream) {
  if (auto reason = pipelined_rows_unsupported(rows, height, S)) throw Error(*reason);
  rows = clamped_rows(rows, height);
  const LaunchGrid g = launch_grid(words_per_row, height, rows);
  LIFEBENCH_CUDA_CALL(
      cudaMemsetAsync(progress, 0, pipelined_progress_words(g) * sizeof(unsigned), stream));
  auto* counts = reinterpret_cast<unsigned long long*>(progress);
  const PipelineProgress shared{counts, counts + 1};
  wavefront_pipelined<S>
      <<<resident_blocks(wavefront_pipelined<S, Step>), dim3(kWarp, kWarpsPerBlock), 0, stream>>>(
          a, b, words_per_row, height, static_cast<unsigned>(g.groups),
          static_cast<unsigned>(g.tiles), rows, passes, shared, step);
}

/// `call.template operator()<S>()` for the S among `Ss` that equals `steps` (one of them).
template <int... Ss, class Call> void with_steps(int steps, Call&& call) {
  const bool called = ((steps == Ss && (call.template operator()<Ss>(), true)) || ...);
  if (!called) throw Error("no kernel of " + std::to_string(steps) + " generations a launch");
}

} // namespace lifebench::cuda::life_wide
