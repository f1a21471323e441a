// cpu-blocked's logic ceiling (logic_ceiling.hpp): the kernel's instruction counts on each
// SIMD target and chains of its main instruction, compiled once per target as the kernel is.
#include "cpu/logic_ceiling.hpp"

#include "cpu/blocked_tiles.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/logic_ceiling.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep
#include <hwy/highway.h>

#ifndef LIFEBENCH_CPU_LOGIC_COUNT
#define LIFEBENCH_CPU_LOGIC_COUNT
namespace lifebench::cpu_blocked {
/// The kernel's vector logic instructions (funnel shifts, shifts and ORs included) as counted
/// in its compiled loop on a target (experiments/cpu-blocked/README.md): per vector and row
/// of a column walk, and per start of a walk (the sums of the row above its first row and of
/// that row, and on AVX3 and AVX3_DL their adder). Zero where the target's loop was not
/// counted.
struct LogicCount {
  std::int64_t per_row;
  std::int64_t per_start;
  std::int64_t lanes; ///< 64-bit words per vector of the widest walk
};
} // namespace lifebench::cpu_blocked
#endif

#include "cpu/ternary-inl.h"

HWY_BEFORE_NAMESPACE();
namespace lifebench::cpu_blocked::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

LogicCount KernelLogicCount() {
  const auto lanes =
      static_cast<std::int64_t>(hn::Lanes(hn::CappedTag<std::uint64_t, kWidestVectorWords>()));
#if HWY_TARGET == HWY_AVX3_DL
  // A row sum: 2 VPSHLDQ/VPSHRDQ + 2 VPTERNLOGQ; then 4 to decide and 2 for the next adder.
  // A start: two row sums and an adder.
  return {10, 10, lanes};
#elif HWY_TARGET == HWY_AVX3
  return {14, 18, lanes}; // the funnel shifts as 2 shifts and an OR each
#elif HWY_TARGET == HWY_AVX2
  return {33, 24, lanes};
#else
  return {0, 0, lanes};
#endif
}

/// `rounds` rounds of independent chains of the instruction the kernel is mostly made of
/// (VPTERNLOGQ where the target has it, else a vector XOR): the rate the kernel's logic
/// cannot pass. Returns the instructions issued; 0 on targets whose kernel was not counted
/// (KernelLogicCount()'s), which are not measured.
double LogicChains(std::int64_t rounds, std::uint64_t seed) {
#if HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX2
  const hn::CappedTag<std::uint64_t, kWidestVectorWords> d;
  using V = hn::Vec<decltype(d)>;
  const V b = hn::Set(d, seed * 0x9E3779B97F4A7C15ULL);
  const V c = hn::Set(d, ~seed);
  const auto op = [&](V chain) {
#if LIFEBENCH_TERNLOG
    return Ternary<0x96>(chain, b, c);
#else
    return hn::Xor(chain, b);
#endif
  };
  // Eight chains, more than latency x issue width; named, so that they stay in registers.
  V c0 = hn::Set(d, seed), c1 = hn::Set(d, seed + 1), c2 = hn::Set(d, seed + 2);
  V c3 = hn::Set(d, seed + 3), c4 = hn::Set(d, seed + 4), c5 = hn::Set(d, seed + 5);
  V c6 = hn::Set(d, seed + 6), c7 = hn::Set(d, seed + 7);
  for (std::int64_t round = 0; round < rounds; ++round) {
    c0 = op(c0), c1 = op(c1), c2 = op(c2), c3 = op(c3);
    c4 = op(c4), c5 = op(c5), c6 = op(c6), c7 = op(c7);
    // An empty barrier: the compiler may not cancel a chain's operations across rounds.
    asm volatile(""
                 : "+x"(c0.raw), "+x"(c1.raw), "+x"(c2.raw), "+x"(c3.raw), "+x"(c4.raw),
                   "+x"(c5.raw), "+x"(c6.raw), "+x"(c7.raw));
  }
  const V all =
      hn::Xor(hn::Xor(hn::Xor(c0, c1), hn::Xor(c2, c3)), hn::Xor(hn::Xor(c4, c5), hn::Xor(c6, c7)));
  volatile std::uint64_t sink = hn::GetLane(all);
  static_cast<void>(sink);
  return static_cast<double>(rounds) * 8;
#else
  static_cast<void>(rounds);
  static_cast<void>(seed);
  return 0;
#endif
}

} // namespace lifebench::cpu_blocked::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace lifebench::cpu_blocked {
HWY_EXPORT(KernelLogicCount);
HWY_EXPORT(LogicChains);

std::optional<double> logic_per_cell_update(const Tiling& tiling, std::int64_t words,
                                            std::int64_t height) {
  const LogicCount count = HWY_DYNAMIC_DISPATCH(KernelLogicCount)();
  if (count.per_row == 0) return std::nullopt;
  // Column walks over n words: whole vectors, then narrower ones for the rest (Generation).
  const auto walks = [&](std::int64_t n) {
    std::int64_t total = 0;
    for (std::int64_t lanes = count.lanes; lanes >= 1; lanes /= 2) {
      total += n / lanes;
      n %= lanes;
    }
    return total;
  };
  const auto walk = [&](std::int64_t rows) { return count.per_row * rows + count.per_start; };
  const std::int64_t steps = tiling.steps;
  double instructions = 0;
  for (std::int64_t y0 = 0; y0 < height; y0 += tiling.tile_rows) {
    const std::int64_t rows = std::min(tiling.tile_rows, height - y0);
    for (std::int64_t x0 = 0; x0 < words; x0 += tiling.tile_words) {
      const std::int64_t tile_words = std::min(tiling.tile_words, words - x0);
      // Generations 1 .. steps - 1 in the tile buffer over the rows still valid, the two
      // halo words too; the last one over the tile's own rows (PassTile).
      for (std::int64_t g = 1; g < steps; ++g)
        instructions += static_cast<double>((walks(tile_words) + 2) * walk(rows + 2 * (steps - g)));
      instructions += static_cast<double>(walks(tile_words) * walk(rows));
    }
  }
  return instructions / (static_cast<double>(steps) * static_cast<double>(words) * 64.0 *
                         static_cast<double>(height));
}

std::optional<double> logic_rate(pool::ThreadPool& pool) {
  if (HWY_DYNAMIC_DISPATCH(KernelLogicCount)().per_row == 0) return std::nullopt;
  // Every worker issues chains in bursts until a common deadline and the counts are summed,
  // so that a fast core issues more, as the shared queue of tiles lets it do in the passes.
  // Bursts of 2^17 instructions (26 us at 5e9 a second); the best of three 20 ms runs.
  using Clock = std::chrono::steady_clock;
  constexpr std::int64_t kBurstRounds = std::int64_t{1} << 14;
  double best = 0;
  for (int repetition = 0; repetition < 3; ++repetition) {
    std::vector<double> issued(static_cast<std::size_t>(pool.size()));
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::milliseconds(20);
    pool.run([&](int worker) {
      const auto seed = static_cast<std::uint64_t>(worker) + static_cast<std::uint64_t>(repetition);
      double count = 0;
      while (Clock::now() < deadline)
        count += HWY_DYNAMIC_DISPATCH(LogicChains)(kBurstRounds, seed);
      issued[static_cast<std::size_t>(worker)] = count;
    });
    const std::chrono::duration<double> seconds = Clock::now() - start;
    best = std::max(best, std::accumulate(issued.begin(), issued.end(), 0.0) / seconds.count());
  }
  if (best == 0) return std::nullopt; // LogicChains not built for this target
  return best;
}

} // namespace lifebench::cpu_blocked
#endif // HWY_ONCE
