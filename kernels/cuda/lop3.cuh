// LOP3: any three-input boolean function in one instruction, the function given
// as an 8-bit truth table (immediate) built from the operands' own tables
// a = 0xF0, b = 0xCC, c = 0xAA: e.g. a ^ b ^ c is 0xF0 ^ 0xCC ^ 0xAA = 0x96.
#pragma once

#include <cstdint>

namespace lifebench::cuda {

inline constexpr std::uint8_t lop3_a = 0xF0;
inline constexpr std::uint8_t lop3_b = 0xCC;
inline constexpr std::uint8_t lop3_c = 0xAA;

/// f(a, b, c) bit by bit, f's truth table in Table. The host version lets the
/// bit logic of kernels be tested on the CPU.
template <std::uint8_t Table>
__host__ __device__ __forceinline__ std::uint32_t lop3(std::uint32_t a, std::uint32_t b,
                                                       std::uint32_t c) {
#ifdef __CUDA_ARCH__
  std::uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(Table));
  return d;
#else
  std::uint32_t d = 0;
  for (int bit = 0; bit < 8; ++bit) {
    if (((Table >> bit) & 1U) == 0) continue;
    // Minterm `bit`: a is bit 2 of the index, b bit 1, c bit 0 (as the 0xF0/0xCC/0xAA tables).
    const std::uint32_t ta = (bit & 4) != 0 ? a : ~a;
    const std::uint32_t tb = (bit & 2) != 0 ? b : ~b;
    const std::uint32_t tc = (bit & 1) != 0 ? c : ~c;
    d |= ta & tb & tc;
  }
  return d;
#endif
}

} // namespace lifebench::cuda
