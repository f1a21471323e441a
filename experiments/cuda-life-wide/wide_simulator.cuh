// cuda-life-wide's simulator: kernels/cuda/life_wide.cuh's launches on a whole grid, a
// torus, and the checks of its parameters; shared by the experiment and its GPU test.
#pragma once

#include "cuda/life_wide.cuh"
#include "cuda/packed_simulator.cuh"

#include <cstdint>
#include <optional>
#include <string>

namespace lifebench::cuda_life_wide {

namespace wide = cuda::life_wide;

class WideSimulator final : public cuda_packed::PackedSimulator {
public:
  WideSimulator(const Problem& problem, const wide::Config& config)
      : PackedSimulator(problem, config.instructions_per_cell(),
                        // each word read and written once per launch
                        2.0 * static_cast<double>(problem.shape.cells()) / 8.0 / config.steps),
        config_(config) {}

private:
  void launch(std::uint64_t generations) override {
    for (std::uint64_t done = 0; done < generations;) {
      done += static_cast<std::uint64_t>(wide::launch(config_, in(), out(), words_per_row(),
                                                      height(), generations - done, stream()));
      swap();
    }
  }

  wide::Config config_;
};

inline std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = cuda_packed::common_unsupported(problem)) return reason;
  if (auto reason = cuda_packed::torus_only(problem)) return reason;
  if (auto reason = wide::unsupported(wide::Config::of(params), problem.shape.width / 32,
                                      problem.shape.height)) {
    return reason;
  }
  return cuda_packed::beyond_device_memory(problem);
}

} // namespace lifebench::cuda_life_wide
