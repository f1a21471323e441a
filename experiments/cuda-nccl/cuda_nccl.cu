// Ours: one universe in bands of rows across MPI ranks, one rank per GPU, each band advanced
// with cuda-life-wide's kernels, halo_steps halo rows exchanged with NCCL sends and receives
// on the GPUs every halo_steps generations (nccl_band.cu); MPI only starts the ranks and
// hands them the NCCL id (cuda_nccl_rank.cpp). This process starts the ranks in each
// advance and keeps the universe in a file between them (kernels/mpi/ranks_simulator.hpp).
#include "common/universe_file.hpp"
#include "cuda/life_wide.cuh"
#include "cuda/life_wide_simulator.cuh"
#include "cuda/packed_simulator.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/error.hpp"
#include "mpi/ranks_simulator.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::cuda_nccl {
namespace {

namespace wide = cuda::life_wide;

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = cuda_packed::common_unsupported(problem)) return reason;
  if (problem.shape.width % 64 != 0) {
    return "width must be a multiple of 64 (the universe file's rows are 64-bit words)";
  }
  int gpus = 0;
  try {
    gpus = wide::gpus_of(params);
    if (params.get_int("halo_steps") > 4096) throw Error("halo_steps must be 1 ... 4096");
    if (auto reason = mpi::ranks_unsupported(problem, params, gpus)) return reason;
  } catch (const Error& error) {
    return error.what();
  }
  const int present = wide::device_count();
  if (gpus > present) {
    return "gpus=" + params.get("gpus") + ": " + std::to_string(present) +
           " CUDA devices on this host (one rank per GPU)";
  }
  // The tallest band, between its halos.
  const std::int64_t band_rows =
      (problem.shape.height + gpus - 1) / gpus + 2 * params.get_int("halo_steps");
  if (auto reason =
          wide::unsupported(wide::config_of(params), problem.shape.width / 32, band_rows)) {
    return reason;
  }
  return cuda::beyond_free_memory(2 * static_cast<std::size_t>(problem.shape.width / 8 * band_rows),
                                  "each GPU's two grids of a band of " + std::to_string(band_rows) +
                                      " rows at a bit a cell");
}

std::vector<Axis> axes() {
  auto axes = wide::fastest_axes();
  axes.insert(axes.begin(),
              {{.name = "gpus",
                .default_value = "all",
                .allowed = {},
                .description = "GPUs, one MPI rank each, to split the universe across in bands: "
                               "a count, or all of this host's",
                .role = AxisRole::gpu_count},
               {.name = "halo_steps",
                .default_value = "64",
                .allowed = {},
                .description = "generations between halo exchanges, and each band's halo rows "
                               "above and below, 1 ... 4096",
                .role = AxisRole::halo_steps}});
  axes.push_back(mpi::transport_axis());
  axes.push_back(outofcore::folder_axis());
  return axes;
}

} // namespace
} // namespace lifebench::cuda_nccl

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "cuda-nccl",
    .family = "square",
    .backend = "cuda",
    .source = "ours (cuda-multigpu's bands on MPI ranks, halos through NCCL)",
    .technique = "one universe in bands of rows across MPI ranks, one GPU each, halo_steps halo "
                 "rows exchanged by NCCL sends and receives on the GPUs every halo_steps "
                 "generations, cuda-life-wide's kernel on each band",
    .axes = lifebench::cuda_nccl::axes(),
    .unavailable =
        [] {
          if (auto reason = lifebench::cuda::life_wide::unavailable()) return reason;
          return lifebench::mpi::ranks_unavailable("cuda-nccl");
        },
    .unsupported = lifebench::cuda_nccl::unsupported,
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params& params) -> std::unique_ptr<lifebench::Simulator> {
      // NVLink multicast stays off in every launch (the rank program sets it too).
      return std::make_unique<lifebench::mpi::RanksSimulator>(
          problem, params,
          lifebench::mpi::RankLaunch{"cuda-nccl",
                                     lifebench::cuda::life_wide::gpus_of(params),
                                     {{"NCCL_NVLS_ENABLE", "0"}}});
    }})
