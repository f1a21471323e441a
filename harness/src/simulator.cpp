#include "lifebench/experiment.hpp"

#include <chrono>

namespace lifebench {

void Simulator::upload_soup(const SoupSpec& soup) {
  upload(make_soup(soup));
}

double Simulator::timed_advance(std::uint64_t generations) {
  const auto start = std::chrono::steady_clock::now();
  advance(generations);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace lifebench
