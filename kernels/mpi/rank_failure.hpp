// What went wrong in a run of MPI ranks, from what mpirun and the ranks printed.
#pragma once

#include <string>
#include <string_view>

namespace lifebench::mpi {

/// The failure of a run of ranks in one line, naming the rank where the output of mpirun
/// and the ranks tells which: the first error line a rank printed ("lifebench: error: rank
/// 2: ..."), else mpirun's note of a rank killed by a signal, else `mpirun_end` (how mpirun
/// ended) with its last line of output.
std::string rank_failure(std::string_view output, const std::string& mpirun_end);

} // namespace lifebench::mpi
