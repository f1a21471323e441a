// CUDA's limit on a launch grid's y and z extents, and the check that every kernel mapping
// rows, planes or word columns onto grid y or z makes of it for its `unsupported`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace lifebench::cuda {

/// gridDim.y and gridDim.z are at most 65535 (gridDim.x at most 2^31 - 1).
inline constexpr std::int64_t kMaxGridYZ = 65535;

/// Why `extent` cells, rows or planes of the grid's `what` ("height", "depth"), covered by one
/// block along grid y or z for every `per_block` of them (`unit`: "8-row blocks"), need more
/// than kMaxGridYZ blocks; or nothing.
inline std::optional<std::string> beyond_grid_yz(const std::string& what, std::int64_t extent,
                                                 std::int64_t per_block, const std::string& unit) {
  if ((extent + per_block - 1) / per_block <= kMaxGridYZ) return std::nullopt;
  return what + " must be at most " + std::to_string(kMaxGridYZ * per_block) + " (" + unit +
         ", at most " + std::to_string(kMaxGridYZ) + " blocks along CUDA's grid y and z); it is " +
         std::to_string(extent);
}

} // namespace lifebench::cuda
