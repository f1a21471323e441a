// Seed 004's naive CUDA version: one byte per cell, one thread per cell, one
// launch per generation; each thread adds its six hexagonal neighbours and reads
// its next state from the 14-entry rule table (count + 7 * alive) in constant
// memory, as the seed's naive_kernel_single_iteration does.
#include "common/hex.hpp"
#include "cuda/hex_simulator.cuh"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

__constant__ std::uint8_t rule_table[14];

constexpr unsigned kBlockX = 32; // one warp along a row
constexpr unsigned kBlockY = 8;
constexpr std::int64_t kMaxGridY = 65535; // CUDA's limit on gridDim.y

template <bool Torus>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    naive_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
               int height) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= width || y >= height) return;
  const unsigned count = hex::neighbour_count<Torus>(in, x, y, width, height);
  const std::size_t index =
      static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
  out[index] = rule_table[count + 7U * in[index]];
}

class HexNaiveSimulator final : public hex::DeviceGridSimulator<std::uint8_t, false> {
public:
  explicit HexNaiveSimulator(const Problem& problem) : DeviceGridSimulator(problem) {
    const auto table = hex::next_state_table(problem.rule.birth, problem.rule.survive);
    LIFEBENCH_CUDA_CALL(cudaMemcpyToSymbol(rule_table, table.data(), table.size()));
  }

private:
  void launch(std::uint64_t generations) override {
    const Shape& shape = problem().shape;
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(static_cast<unsigned>((shape.width + kBlockX - 1) / kBlockX),
                    static_cast<unsigned>((shape.height + kBlockY - 1) / kBlockY));
    const auto width = static_cast<int>(shape.width);
    const auto height = static_cast<int>(shape.height);
    launch_per_generation(generations, grid, block,
                          problem().boundary == Boundary::torus ? naive_step<true>
                                                                : naive_step<false>,
                          width, height);
  }
};

std::optional<std::string> unsupported(const Problem& problem, const Params&) {
  if (auto reason = hex::byte_grid_unsupported(problem)) return reason;
  if ((problem.shape.height + kBlockY - 1) / kBlockY > kMaxGridY) {
    return "height must be at most " + std::to_string(kMaxGridY * kBlockY) +
           " (8-row blocks, CUDA's grid y limit)";
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "hex-cuda-naive",
    .family = "hex",
    .backend = "cuda",
    .source = "seed 004 \"Design process\": naive_kernel_single_iteration",
    .technique = "one byte per cell, one thread per cell (32x8 blocks), six neighbour loads, "
                 "rule table in constant memory, one generation per launch",
    .axes = {},
    .unavailable = [] { return lifebench::cuda::unavailable_reason(&lifebench::naive_step<true>); },
    .unsupported = lifebench::unsupported,
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params&) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::HexNaiveSimulator>(problem);
    }})
