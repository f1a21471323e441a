// Ours: dense B3/S23 on Hopper (kernels/cuda/life_wide.cuh) on a whole grid, a torus.
#include "../cuda-lop3/packed_simulator.cuh"
#include "cuda/life_wide.cuh"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

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

std::optional<std::string> unsupported(const Problem& problem, const Params& params) {
  if (auto reason = cuda_packed::common_unsupported(problem)) return reason;
  if (auto reason = cuda_packed::torus_only(problem)) return reason;
  return wide::unsupported(wide::Config::of(params), problem.shape.height);
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "cuda-life-wide",
    .family = "square",
    .backend = "cuda",
    .source = "ours",
    .technique = "warp across 32 adjacent words, rows_per_thread rows per lane in registers, "
                 "steps_per_launch generations per launch, neighbour words by shuffles, "
                 "horizontal sums once per row, 9 LOP3 per word and generation",
    .axes = lifebench::cuda::life_wide::axes(),
    .unavailable = lifebench::cuda::life_wide::unavailable,
    .unsupported = lifebench::unsupported,
    .verify_generations = [](const lifebench::Params& params) -> std::uint64_t {
      // Two full launches and a partial third.
      return 2 * static_cast<std::uint64_t>(params.get_int("steps_per_launch")) + 3;
    },
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params& params) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::WideSimulator>(
          problem, lifebench::cuda::life_wide::Config::of(params));
    }})
