// Seed 004's attempt at one lookup per byte: the next states of all eight cells
// from a 2^28-entry table of bytes (256 MiB) indexed by the byte's whole
// neighbourhood (9 + 10 + 9 cells, see hex::lut8_index). The seed found it
// slower than two 2^16-entry lookups: the table no longer fits any cache.
#include "common/hex.hpp"
#include "cuda/hex_lut.cuh"
#include "cuda/hex_simulator.cuh"

#include <cstdint>

namespace lifebench {
namespace {

struct OneLookup {
  __device__ static unsigned next(const std::uint8_t* __restrict__ table, std::uint32_t above,
                                  std::uint32_t middle, std::uint32_t below) {
    return __ldg(table + hex::lut8_index(above, middle, below));
  }
};

/// Fills the table on the device: 2^28 entries would take seconds on one host core.
__global__ void build_table(std::uint8_t* table, std::uint32_t birth, std::uint32_t survive) {
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
       i < (std::uint32_t{1} << hex::lut8_index_bits); i += stride) {
    table[i] = hex::lut8_entry(i, birth, survive);
  }
}

void fill_table(cuda::DeviceBuffer<std::uint8_t>& table, const Rule& rule, cudaStream_t stream) {
  build_table<<<4096, 256, 0, stream>>>(table.data(), rule.birth, rule.survive);
  LIFEBENCH_CUDA_CHECK_LAUNCH();
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::hex::lut_experiment<lifebench::OneLookup>(
    {"hex-cuda-lut8", "hex", "cuda",
     "seed 004 \"Final Implementation\": the 2^28-entry table tried after the 2^16 one",
     "one bit per cell, 8 cells per byte, one byte per thread (32x8 blocks), one "
     "lookup of a 2^28-entry table of bytes (256 MiB, 28-bit neighbourhood -> 8 "
     "next states) in global memory"},
    lifebench::hex::lut8_index_bits, lifebench::fill_table))
