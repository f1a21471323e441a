#include "lifebench/environment.hpp"

#include <hwy/highway.h>
#include <hwy/targets.h>

namespace lifebench {

std::vector<std::string> simd_targets() {
  // Highway numbers better targets with lower bits, so ascending bit order is best first.
  std::vector<std::string> names;
  const std::int64_t usable = hwy::SupportedTargets() & HWY_TARGETS;
  for (int bit = 0; bit < 63; ++bit) {
    const std::int64_t target = std::int64_t{1} << bit;
    if ((usable & target) != 0) names.emplace_back(hwy::TargetName(target));
  }
  return names;
}

} // namespace lifebench
