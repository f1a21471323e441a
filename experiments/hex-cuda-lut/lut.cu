// Seed 004's final version: one bit per cell, eight cells per byte, one thread
// per byte; the byte's two halves of four cells each take one lookup in a
// 2^16-entry table (16-bit neighbourhood index -> next states of four cells)
// built on the host for the rule. Index layout: kernels/common/hex.hpp; kernel:
// kernels/cuda/hex_lut.cuh.
#include "common/hex.hpp"
#include "cuda/hex_lut.cuh"
#include "cuda/hex_simulator.cuh"

#include <cstdint>
#include <vector>

namespace lifebench {
namespace {

/// Two lookups of four cells each, through the read-only cache.
struct TwoLookups {
  __device__ static unsigned next(const std::uint8_t* __restrict__ table, std::uint32_t above,
                                  std::uint32_t middle, std::uint32_t below) {
    const hex::LutIndices index = hex::lut_indices(above, middle, below);
    return __ldg(table + index.low) | (static_cast<unsigned>(__ldg(table + index.high)) << 4);
  }
};

/// The rule's 2^16 entries, built on the host.
void fill_table(cuda::DeviceBuffer<std::uint8_t>& table, const Rule& rule, cudaStream_t stream) {
  std::vector<std::uint8_t> entries(table.size());
  for (std::uint32_t i = 0; i < entries.size(); ++i) {
    entries[i] = hex::lut4_entry(i, rule.birth, rule.survive);
  }
  LIFEBENCH_CUDA_CALL(
      cudaMemcpyAsync(table.data(), entries.data(), table.bytes(), cudaMemcpyHostToDevice, stream));
  LIFEBENCH_CUDA_CALL(cudaStreamSynchronize(stream)); // before `entries` goes
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::hex::lut_experiment<lifebench::TwoLookups>(
    {"hex-cuda-lut", "hex", "cuda",
     "seed 004 \"Final Implementation\": kernel_single_iteration, create_lookup_table",
     "one bit per cell, 8 cells per byte, one byte per thread (32x8 blocks), two "
     "lookups of a 2^16-entry table (16-bit neighbourhood -> 4 next states) in "
     "global memory"},
    lifebench::hex::lut_index_bits, lifebench::fill_table))
