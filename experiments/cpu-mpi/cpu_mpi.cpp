// Ours: one universe in bands of rows across MPI ranks started by mpirun, each rank
// advancing its band with cpu-blocked's tile passes, halo_steps halo rows exchanged with
// its neighbours (a torus of ranks) every halo_steps generations by non-blocking sends and
// receives that progress while the band's interior is computed (cpu_mpi_rank.cpp). This
// process starts the ranks in each advance and keeps the universe in a file between them
// (kernels/mpi/ranks_simulator.hpp).
#include "common/universe_file.hpp"
#include "cpu/blocked_tiles.hpp"
#include "cpu/packed_grids.hpp"
#include "cpu/thread_pool.hpp"
#include "lifebench/error.hpp"
#include "mpi/ranks_simulator.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::cpu_mpi {
namespace {

/// The `ranks` parameter, checked: 1 ... 4096.
int ranks_of(const Params& params) {
  const std::int64_t ranks = params.get_int("ranks");
  if (ranks < 1 || ranks > 4096) throw Error("ranks must be 1 ... 4096");
  return static_cast<int>(ranks);
}

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = simd::b3s23_bits_unsupported(problem)) return reason;
  if (auto reason = cpu_blocked::tiling_unsupported("halo_steps", params)) return reason;
  if (auto reason = pool::threads_unsupported(params)) return reason;
  try {
    return mpi::ranks_unsupported(problem, params, ranks_of(params));
  } catch (const Error& error) {
    return error.what();
  }
}

std::vector<Axis> axes() {
  auto axes = cpu_blocked::tile_axes(
      {{.name = "ranks",
        .default_value = "1",
        .allowed = {},
        .description = "MPI ranks (processes) mpirun starts, each with a band of rows, 1 ... 4096"},
       halo_steps_axis("16", "generations between halo exchanges, and the halo rows above and "
                             "below each band, 1 ... 63 (a tile pass of that many generations)"),
       pool::threads_axis("threads of each rank; tiles taken from a shared queue")});
  axes.push_back(mpi::bands_axis());
  axes.push_back(mpi::transport_axis());
  axes.push_back(outofcore::folder_axis());
  return axes;
}

} // namespace
} // namespace lifebench::cpu_mpi

LIFEBENCH_EXPERIMENT(lifebench::mpi::ranks_experiment(
    {.about = {"cpu-mpi", "square", "simd", "ours (cpu-blocked's tiles on the bands of MPI ranks)",
               "one universe in bands of rows across MPI ranks, halo_steps halo rows "
               "exchanged by non-blocking MPI sends overlapped with the band's interior, "
               "cpu-blocked's tile passes on each band"},
     .axes = lifebench::cpu_mpi::axes(),
     .unsupported = lifebench::cpu_mpi::unsupported},
    lifebench::cpu_mpi::ranks_of))
