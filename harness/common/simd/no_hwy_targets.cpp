#include "lifebench/environment.hpp"

namespace lifebench {

std::vector<std::string> simd_targets() {
  return {};
} // built without Highway

} // namespace lifebench
