// The HPCGame 3D format: little-endian uint64 M, uint64 T (generation), then
// M^3 bytes of 0/1 with cell (x, y, z) at byte 16 + x*M^2 + y*M + z. The file's
// slowest axis maps onto the canonical grid's slowest axis (z) and its fastest
// onto x, so the bytes are the canonical grid as they stand.
#pragma once

#include "lifebench/grid.hpp"

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

namespace lifebench {

struct Universe3D {
  Grid cells; ///< M x M x M
  std::uint64_t generation = 0;
};

/// Reads a 3D universe; throws Error naming `source` on a short or malformed file.
Universe3D read_3d(std::istream& in, const std::string& source);
void write_3d(std::ostream& out, const Grid& cells, std::uint64_t generation);

} // namespace lifebench
