// cuda-nccl's rank program: MPI starts the ranks and hands rank 0's NCCL id to the others;
// everything else goes through NCCL on the GPUs (nccl_band.cu).
#include "mpi/rank_main.hpp"
#include "nccl_band.hpp"

#include <cstdlib>
#include <mpi.h>

int main(int argc, char** argv) {
  // NVLink multicast stays off, however the ranks were started: a program that uses it can
  // take a host's GPUs, which others share, out of service.
  ::setenv("NCCL_NVLS_ENABLE", "0", 1);
  return lifebench::mpi::rank_main(argc, argv, [](const lifebench::mpi::RankContext& context) {
    ncclUniqueId id{};
    if (context.rank == 0)
      lifebench::cuda_nccl::check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    lifebench::mpi::check_mpi(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
    return lifebench::cuda_nccl::make_band(context, id);
  });
}
