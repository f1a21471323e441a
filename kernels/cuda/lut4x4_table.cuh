// The slides' 4x4 table (common/lut4x4.hpp) of a rule in device memory: what the two
// table experiments (cuda-lut4x4, cuda-uint16-lut) read their next states from.
#pragma once

#include "common/lut4x4.hpp"
#include "cuda/error.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/problem.hpp"

#include <cstdint>
#include <cuda_runtime.h>
#include <vector>

namespace lifebench::cuda {

/// lut4x4::entries bytes on the device, filled for `rule` on `stream` when constructed.
class Lut4x4Table {
public:
  Lut4x4Table(const Rule& rule, cudaStream_t stream) : table_(lut4x4::entries) {
    const std::vector<std::uint8_t> table = lut4x4::build_table(rule.birth, rule.survive);
    LIFEBENCH_CUDA_CALL(
        cudaMemcpyAsync(table_.data(), table.data(), table.size(), cudaMemcpyHostToDevice, stream));
    LIFEBENCH_CUDA_CALL(cudaStreamSynchronize(stream)); // before `table` goes
  }

  [[nodiscard]] const std::uint8_t* data() const { return table_.data(); }

private:
  DeviceBuffer<std::uint8_t> table_;
};

} // namespace lifebench::cuda
