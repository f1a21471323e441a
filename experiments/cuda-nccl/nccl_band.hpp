// cuda-nccl's rank side without MPI: a rank's band on its GPU (nccl_band.cu), made by the
// rank program (cuda_nccl_rank.cpp) once the ranks share an NCCL id.
#pragma once

#include "mpi/rank_main.hpp"

#include <memory>
#include <nccl.h>

namespace lifebench::cuda_nccl {

/// Throws Error naming `call`, NCCL's text of `result` and its last error unless it is
/// ncclSuccess.
void check_nccl(ncclResult_t result, const char* call);

/// The band of `context`'s rank on its GPU (the host's local_rank-th), in the NCCL
/// communicator of all ranks that `id` names.
std::unique_ptr<mpi::BandStepper> make_band(const mpi::RankContext& context,
                                            const ncclUniqueId& id);

} // namespace lifebench::cuda_nccl
