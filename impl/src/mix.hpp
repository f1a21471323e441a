// The 64-bit mixing function behind soups and grid hashes, and the hash of bytes. Both must give
// the same bits on every machine, so they use integer arithmetic only.
#pragma once

#include <cstdint>
#include <span>

namespace lifebench::detail {

/// Weyl-sequence increment of SplitMix64: 2^64 divided by the golden ratio, odd.
inline constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15;

/// SplitMix64's output function (Steele, Lea and Flood, 2014): a bijection on
/// 64-bit words in which every output bit depends on every input bit.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111eb;
  return z ^ (z >> 31U);
}

/// grid_hash()'s hash of any bytes from `seed` (grid.cpp), identical on every machine.
std::uint64_t hash_bytes(std::uint64_t seed, std::span<const std::uint8_t> bytes);

} // namespace lifebench::detail
