// Work split over the hardware threads this process may run on.
#pragma once

#include <cstdint>
#include <functional>

namespace lifebench::detail {

/// Calls work(first, last) over [0, count) in contiguous shares, one per usable hardware
/// thread where each share holds `cells_per_share` cells or more (`cells_each` to an
/// item), else in the calling thread. Shares whose thread cannot be started (a process
/// short of memory or threads) run in the calling thread. Returns when all are done.
void in_shares(std::int64_t count, std::int64_t cells_each, std::int64_t cells_per_share,
               const std::function<void(std::int64_t, std::int64_t)>& work);

} // namespace lifebench::detail
