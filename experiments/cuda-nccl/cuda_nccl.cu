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
  return wide::band_unsupported(problem, params, band_rows);
}

std::vector<Axis> axes() {
  auto axes = wide::band_axes(
      "GPUs, one MPI rank each, to split the universe across in bands: a count, or all of this "
      "host's");
  axes.push_back(mpi::transport_axis());
  axes.push_back(outofcore::folder_axis());
  return axes;
}

} // namespace
} // namespace lifebench::cuda_nccl

// NVLink multicast stays off in every launch (the rank program sets it too).
LIFEBENCH_EXPERIMENT(lifebench::mpi::ranks_experiment(
    {.about = {"cuda-nccl", "square", "cuda",
               "ours (cuda-multigpu's bands on MPI ranks, halos through NCCL)",
               "one universe in bands of rows across MPI ranks, one GPU each, halo_steps halo "
               "rows exchanged by NCCL sends and receives on the GPUs every halo_steps "
               "generations, cuda-life-wide's kernel on each band"},
     .axes = lifebench::cuda_nccl::axes(),
     .unavailable = lifebench::cuda::life_wide::unavailable,
     .unsupported = lifebench::cuda_nccl::unsupported},
    lifebench::cuda::life_wide::gpus_of, {{"NCCL_NVLS_ENABLE", "0"}}))
