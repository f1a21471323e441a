// Ours: dense B3/S23 on Hopper (kernels/cuda/life_wide.cuh) on a whole grid, a torus.
#include "cuda/life_wide_simulator.cuh"

#include <cstdint>
#include <memory>

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "cuda-life-wide",
    .family = "square",
    .backend = "cuda",
    .source = "ours",
    .technique = "warp across 32 adjacent words, rows_per_thread rows per lane in registers, "
                 "steps_per_launch generations per launch, neighbour words by shuffles, "
                 "horizontal sums once per row, 9 LOP3 per word and generation",
    .axes = lifebench::cuda::life_wide::axes(),
    .unavailable = lifebench::cuda::life_wide::unavailable,
    .unsupported = lifebench::cuda::life_wide::WideSimulator::unsupported,
    .verify_generations = [](const lifebench::Params& params) -> std::uint64_t {
      // Two full launches and a partial third.
      return 2 * static_cast<std::uint64_t>(params.get_int("steps_per_launch")) + 3;
    },
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params& params) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::cuda::life_wide::WideSimulator>(
          problem, lifebench::cuda::life_wide::config_of(params));
    }})
