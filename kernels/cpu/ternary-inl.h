// VPTERNLOGQ for Highway's vectors, per SIMD target: cpu-blocked's kernel
// (blocked_tiles.cpp) and its logic ceiling (logic_ceiling.cpp), which measures the
// instruction the kernel is mostly made of. LIFEBENCH_TERNLOG says whether the target has it.
// Included inside a file's foreach_target pass, as Highway's -inl.h headers are.
#if defined(LIFEBENCH_CPU_TERNARY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LIFEBENCH_CPU_TERNARY_INL_H_
#undef LIFEBENCH_CPU_TERNARY_INL_H_
#else
#define LIFEBENCH_CPU_TERNARY_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace lifebench::cpu_blocked::HWY_NAMESPACE {

#undef LIFEBENCH_TERNLOG // included once per target
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
#define LIFEBENCH_TERNLOG 1
/// One VPTERNLOGQ: bit i of kTable is the result for (a, b, c) = (i>>2 & 1, i>>1 & 1, i & 1).
template <int kTable, class V> HWY_INLINE V Ternary(V a, V b, V c) {
  if constexpr (sizeof(a.raw) == 64) {
    return V{_mm512_ternarylogic_epi64(a.raw, b.raw, c.raw, kTable)};
  } else if constexpr (sizeof(a.raw) == 32) {
    return V{_mm256_ternarylogic_epi64(a.raw, b.raw, c.raw, kTable)};
  } else {
    return V{_mm_ternarylogic_epi64(a.raw, b.raw, c.raw, kTable)};
  }
}

/// The table of the same function with its inputs x and y exchanged (a = 2, b = 1, c = 0:
/// their bits in the index): VPTERNLOGQ overwrites its first input, so that an input at
/// its last use can go first and need no copy.
constexpr int Swapped(int table, int x, int y) {
  int swapped = 0;
  for (int i = 0; i < 8; ++i) {
    const int bit_x = (i >> x) & 1;
    const int bit_y = (i >> y) & 1;
    const int j = (i & ~((1 << x) | (1 << y))) | (bit_x << y) | (bit_y << x);
    swapped |= ((table >> j) & 1) << i;
  }
  return swapped;
}
constexpr int kA = 2, kB = 1, kC = 0;
static_assert(Swapped(0xF0, kA, kB) == 0xCC && Swapped(0xF0, kA, kC) == 0xAA &&
              Swapped(Swapped(0x3E, kA, kB), kA, kB) == 0x3E);
#else
#define LIFEBENCH_TERNLOG 0
#endif

} // namespace lifebench::cpu_blocked::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif // per-target include guard
