// The slides' 4x4 table (common/lut4x4.hpp) of a rule in device memory: what the two
// table experiments (cuda-lut4x4, cuda-uint16-lut) read their next states from.
#pragma once

#include "common/lut4x4.hpp"
#include "cuda/error.cuh"
#include "cuda/grid_limits.cuh"
#include "cuda/runtime.cuh"
#include "lifebench/problem.hpp"

#include <cstdint>
#include <cuda_runtime.h>
#include <optional>
#include <string>
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

/// Why a grid whose blocks each update a whole tile of `tile` x `tile` cells (`why` says how)
/// with int coordinates up to 2^`width_bits` across cannot run, or nothing (cuda-lut4x4,
/// cuda-uint16-lut).
inline std::optional<std::string> whole_tiles_unsupported(const Shape& shape, std::int64_t tile,
                                                          const std::string& why, int width_bits) {
  // The harness refuses other families (ExperimentInfo::family) before asking.
  if (shape.width % tile != 0 || shape.height % tile != 0) {
    return "width and height must be multiples of " + std::to_string(tile) + " (" + why +
           "); this grid is " + shape.to_string();
  }
  if (shape.width > (std::int64_t{1} << width_bits)) {
    return "width at most 2^" + std::to_string(width_bits) + " (32-bit coordinates)";
  }
  return beyond_grid_yz("height", shape.height, tile, std::to_string(tile) + "-row tiles");
}

} // namespace lifebench::cuda
