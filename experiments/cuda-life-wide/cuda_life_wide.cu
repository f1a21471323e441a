// Ours: dense B3/S23 on Hopper (kernels/cuda/life_wide.cuh) on a whole grid, a torus.
#include "cuda/life_wide_simulator.cuh"

#include <cstdint>
#include <memory>

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .about = {"cuda-life-wide", "square", "cuda", "ours",
              "warp across 32 adjacent words, rows_per_thread rows per lane in registers, "
              "steps_per_launch generations per launch, neighbour words by shuffles, "
              "horizontal sums once per row, 9 LOP3 per word and generation"},
    .axes = lifebench::cuda::life_wide::whole_grid_axes(),
    .unavailable = lifebench::cuda::life_wide::unavailable,
    .unsupported = lifebench::cuda::life_wide::WideSimulator::unsupported,
    .verify_generations = lifebench::cuda_packed::two_launches_and_three,
    .make = lifebench::make_simulator<lifebench::cuda::life_wide::WideSimulator>})
