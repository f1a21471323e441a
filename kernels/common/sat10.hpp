// The truth tables of the last four instructions of seed 000's SAT-solver sequence for
// B3/S23 ("LOP3", ten instructions), which the blog gives without explanation. In LOP3's
// and VPTERNLOGQ's convention (a = 0xF0, b = 0xCC, c = 0xAA), for the CUDA kernels
// (cuda/life_lop3.cuh) and the AVX-512 one (cpu/blocked_tiles.cpp).
#pragma once

#include <cstdint>

namespace lifebench::sat10 {

// After two full adders of three neighbours each and one of the first's sum bit with the
// last two neighbours, the count of live neighbours is a9 + aA + 2 * (b0 + b1 + b2); then
//   magic0 = f(a9, aA, centre)        magic1 = f(magic0, centre, b2)
//   magic2 = f(magic1, b1, b0)        next   = f(magic2, magic0, magic1)
inline constexpr std::uint8_t kMagic0 = 0x3E;
inline constexpr std::uint8_t kMagic1 = 0x5B;
inline constexpr std::uint8_t kMagic2 = 0x91;
inline constexpr std::uint8_t kNext = 0x58;

} // namespace lifebench::sat10
