#include "lifebench/environment.hpp"

namespace lifebench {

// Built without Highway: no SIMD target.
std::vector<std::string> simd_targets() {
  return {};
}

} // namespace lifebench
