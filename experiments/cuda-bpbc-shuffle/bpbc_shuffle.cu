// Fujita, Nakano and Ito (seed 003), Section 7: the multi-step tiles of Section 6 kept in
// registers, each lane taking the rows just above and below its own from its neighbour
// lanes with warp shuffles instead of through shared memory.
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

constexpr unsigned kFullWarp = 0xffffffffU;

/// The row above a lane's first is the previous lane's last, the row below its last is the
/// next lane's first; past the tile's first and last lane, rows are dead.
template <class W> struct ShuffleExchange {
  __device__ void operator()(const W (&own)[lane_rows<W>], W& above, W& below) const {
    const W from_up = __shfl_up_sync(kFullWarp, own[lane_rows<W> - 1], 1);
    const W from_down = __shfl_down_sync(kFullWarp, own[0], 1);
    above = threadIdx.x == 0 ? W{0} : from_up;
    below = threadIdx.x == 31 ? W{0} : from_down;
  }
};

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::bpbc_tile::multistep_experiment<lifebench::ShuffleExchange>(
    {.about = {"cuda-bpbc-shuffle", "square", "cuda",
               "seed 003 Sections 7 and 9 (Table 2, GPU register + warp shuffle)",
               "bit per cell, t generations per launch on d x d tiles held in registers of "
               "one warp, neighbour rows by warp shuffle, the clean (d-2t) x (d-2t) patch "
               "written back"},
     .axes = lifebench::bpbc_tile::multistep_axes()}))
