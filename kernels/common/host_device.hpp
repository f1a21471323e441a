// Marks functions that compile both for the host (CPU experiments, host-side
// tests) and, under nvcc, for the device: bit logic shared by CPU and CUDA
// experiments is written once.
#pragma once

#if defined(__CUDACC__)
#define LIFEBENCH_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define LIFEBENCH_HOST_DEVICE inline
#endif
