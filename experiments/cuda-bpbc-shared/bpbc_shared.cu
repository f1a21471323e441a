// Fujita, Nakano and Ito (seed 003), Section 6: t generations per launch on one d x d tile
// per 32-thread block, the words of the tile in shared memory; 32x32 tiles of 32-bit words
// (SINGLE-WORD) or 64x64 tiles of 64-bit words (SINGLE-WORD twice or DOUBLE-WORD once per
// lane), optionally in the shift arrangement of their Figure 9 against bank conflicts.
#include "cuda/bpbc_simulator.cuh"
#include "cuda/bpbc_tile.cuh"
#include "lifebench/experiment.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

using bpbc_tile::lane_rows;

/// Each lane stores its rows into the tile in shared memory and reads the rows above and
/// below them. Rows -1 and d are dead rows of the array, so that no lane needs a test. In
/// the shift arrangement every 128 bytes of words (one pass of the 32 four-byte banks) are
/// followed by one unused word, which moves the next ones by one 8-byte bank pair: lanes
/// reading every second 64-bit row (DOUBLE-WORD's pattern) then spread over all banks.
template <class W, bool Shift> struct SharedExchange {
  static constexpr int rows = bpbc_tile::bits<W> + 2;
  static constexpr int per_pass = 128 / static_cast<int>(sizeof(W));
  static constexpr int slots = rows + (Shift ? (rows - 1) / per_pass : 0);

  __device__ static int slot(int row) { return Shift ? row + row / per_pass : row; }

  __device__ void operator()(const W (&own)[lane_rows<W>], W& above, W& below) const {
    constexpr int r = lane_rows<W>;
    __shared__ W tile[slots];
    const int first = static_cast<int>(threadIdx.x) * r + 1; // array row of the lane's first
    if (threadIdx.x == 0) {
      tile[slot(0)] = 0;
      tile[slot(rows - 1)] = 0;
    }
#pragma unroll
    for (int j = 0; j < r; ++j)
      tile[slot(first + j)] = own[j];
    __syncwarp();
    above = tile[slot(first - 1)];
    below = tile[slot(first + r)];
    __syncwarp(); // every lane has read before the next step overwrites
  }
};

template <class W> using Shifted = SharedExchange<W, true>;
template <class W> using Unshifted = SharedExchange<W, false>;

std::unique_ptr<Simulator> make(const Problem& problem, const Params& params) {
  if (params.get("bank_shift") == "on") return bpbc_tile::make_multistep<Shifted>(problem, params);
  return bpbc_tile::make_multistep<Unshifted>(problem, params);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::bpbc_tile::multistep_experiment<lifebench::Shifted>(
    {.about = {"cuda-bpbc-shared", "square", "cuda",
               "seed 003 Sections 6 and 9 (Table 2, GPU shared memory)",
               "bit per cell, t generations per launch on d x d tiles in shared memory, one "
               "warp per tile, the clean (d-2t) x (d-2t) patch written back"},
     .axes = lifebench::bpbc_tile::multistep_axes(
         {{.name = "bank_shift",
           .default_value = "on",
           .allowed = {"on", "off"},
           .description = "shift arrangement (Figure 9): one unused word after every 128 bytes of "
                          "the tile in shared memory"}}),
     .make = lifebench::make}))
