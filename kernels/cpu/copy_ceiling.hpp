// The memory ceiling of a CPU experiment's threads: the bytes they read and write a second
// copying, all at once, each its share of a buffer far larger than the caches, as
// kernels/cuda/ceilings.cuh measures a GPU's. The report divides a memory-bound
// experiment's bytes a second by it (reports/lifebench_report/bounds.py).
#pragma once

#include "cpu/thread_pool.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

namespace lifebench::pool {

/// Best of four copies of `bytes` by the pool's workers, after one untimed: read plus
/// written bytes per second. Each worker first writes its share of both buffers, so that
/// its pages lie where it runs.
inline double measure_copy_bandwidth(ThreadPool& pool, std::size_t bytes = std::size_t{1} << 28) {
  const auto from = std::make_unique_for_overwrite<std::uint8_t[]>(bytes);
  const auto to = std::make_unique_for_overwrite<std::uint8_t[]>(bytes);
  const auto mine = [&](int worker) {
    const Share part = share(static_cast<std::int64_t>(bytes), worker, pool.size());
    return std::pair{static_cast<std::size_t>(part.begin),
                     static_cast<std::size_t>(part.end - part.begin)};
  };
  pool.run([&](int worker) {
    const auto [offset, length] = mine(worker);
    std::memset(from.get() + offset, 1, length);
    std::memset(to.get() + offset, 0, length);
  });
  using Clock = std::chrono::steady_clock;
  double best = 0;
  for (int repetition = 0; repetition < 5; ++repetition) {
    const auto start = Clock::now();
    pool.run([&](int worker) {
      const auto [offset, length] = mine(worker);
      std::memcpy(to.get() + offset, from.get() + offset, length);
    });
    const std::chrono::duration<double> seconds = Clock::now() - start;
    if (repetition > 0 && seconds.count() > 0)
      best = std::max(best, 2.0 * static_cast<double>(bytes) / seconds.count());
  }
  return best;
}

} // namespace lifebench::pool
