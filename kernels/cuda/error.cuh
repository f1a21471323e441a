// CUDA error checking: every runtime call goes through LIFEBENCH_CUDA_CALL, which
// turns a failure into lifebench::Error carrying the call text, file, line and
// CUDA's own description, so the harness records one readable line instead of
// a crash. Destructors use the _NOEXCEPT variant, which prints and carries on.
#pragma once

#include "lifebench/error.hpp"

#include <cstdio>
#include <cuda_runtime_api.h>
#include <string>

namespace lifebench::cuda {

/// "cudaMalloc(&p, n) failed at file.cu:12: cudaErrorMemoryAllocation: out of memory".
inline std::string describe_error(cudaError_t status, const char* call, const char* file,
                                  int line) {
  return std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
         cudaGetErrorName(status) + ": " + cudaGetErrorString(status);
}

/// Throws lifebench::Error for a failed status; used by LIFEBENCH_CUDA_CALL.
inline void check(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) throw Error(describe_error(status, call, file, line));
}

/// Prints a failed status to stderr and returns; for destructors.
inline void check_noexcept(cudaError_t status, const char* call, const char* file,
                           int line) noexcept {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "lifebench: warning: %s\n",
                 describe_error(status, call, file, line).c_str());
  }
}

} // namespace lifebench::cuda

/// Evaluates a CUDA runtime call; throws lifebench::Error if it did not return cudaSuccess.
#define LIFEBENCH_CUDA_CALL(...)                                                                   \
  ::lifebench::cuda::check((__VA_ARGS__), #__VA_ARGS__, __FILE__, __LINE__)

/// Evaluates a CUDA runtime call; prints a failure to stderr and never throws.
#define LIFEBENCH_CUDA_CALL_NOEXCEPT(...)                                                          \
  ::lifebench::cuda::check_noexcept((__VA_ARGS__), #__VA_ARGS__, __FILE__, __LINE__)

/// After a kernel launch: throws if the launch itself failed (bad configuration,
/// no kernel image for this device). Errors during execution surface at the next
/// synchronising call, which goes through LIFEBENCH_CUDA_CALL too.
#define LIFEBENCH_CUDA_CHECK_LAUNCH()                                                              \
  ::lifebench::cuda::check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
