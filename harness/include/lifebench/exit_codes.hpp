// Exit statuses of the experiment executables and the driver: the driver reads
// an experiment's status, so both sides use these.
#pragma once

namespace lifebench {

inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;        ///< a bad command line
inline constexpr int kExitUnavailable = 77; ///< the backend cannot run here (CTest's skip)
inline constexpr int kExitInterrupted = 130;

} // namespace lifebench
