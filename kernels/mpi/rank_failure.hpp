// What went wrong in a run of MPI ranks, from what mpirun and the ranks printed.
#pragma once

#include <string>
#include <string_view>

namespace lifebench::mpi {

/// The failure of a run of ranks in one line, naming the rank where the output of mpirun
/// and the ranks tells which: the first error line a rank printed ("lifebench: error: rank
/// 2: ..."), else mpirun's note of a rank killed by a signal, else `mpirun_end` (how mpirun
/// ended) with its last line of output; where that is "mpirun exited with code N" above 128,
/// the signal that killed some rank (mpirun passes on the first failed rank's status, but
/// names the rank only where it died past its start).
std::string rank_failure(std::string_view output, const std::string& mpirun_end);

/// Whether mpirun's output holds its note that it is ending the job (a rank killed, exited
/// non-zero, or called MPI_Abort): from then on mpirun should end within seconds.
bool mpirun_is_aborting(std::string_view output);

} // namespace lifebench::mpi
