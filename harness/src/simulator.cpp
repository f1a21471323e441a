#include "lifebench/experiment.hpp"

#include <chrono>

namespace lifebench {

double Simulator::timed_advance(std::uint64_t generations) {
  const auto start = std::chrono::steady_clock::now();
  advance(generations);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace lifebench
