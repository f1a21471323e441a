#include "shares.hpp"

#include <algorithm>
#include <new>
#include <sched.h>
#include <system_error>
#include <thread>
#include <vector>

namespace lifebench::detail {
namespace {

/// The hardware threads this process may run on.
std::int64_t usable_threads() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(CPU_COUNT(&set), 1);
  return std::max<std::int64_t>(std::thread::hardware_concurrency(), 1);
}

} // namespace

void in_shares(std::int64_t count, std::int64_t cells_each, std::int64_t cells_per_share,
               const std::function<void(std::int64_t, std::int64_t)>& work) {
  const std::int64_t shares =
      std::clamp<std::int64_t>(count * cells_each / cells_per_share, 1, usable_threads());
  const auto share = [&](std::int64_t k) { work(count * k / shares, count * (k + 1) / shares); };
  std::vector<std::jthread> others;
  others.reserve(static_cast<std::size_t>(shares));
  std::int64_t started = 1;
  try {
    for (; started < shares; ++started)
      others.emplace_back(share, started);
  } catch (const std::system_error&) {
    // No more threads: this one takes the shares left.
  } catch (const std::bad_alloc&) {
    // No memory for another thread's state: likewise.
  }
  for (std::int64_t k = started; k < shares; ++k)
    share(k);
  share(0);
}

} // namespace lifebench::detail
