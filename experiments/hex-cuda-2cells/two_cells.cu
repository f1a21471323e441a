// Seed 004's "multiple threads per cell" attempt: the naive kernel with each
// thread updating two horizontally adjacent cells instead of one.
#include "common/hex.hpp"
#include "cuda/hex_simulator.cuh"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

__constant__ std::uint8_t rule_table[14];

constexpr unsigned kBlockX = 32; // threads; 64 cells along a row
constexpr unsigned kBlockY = 8;
constexpr unsigned kCells = 2; // per thread
constexpr std::int64_t kMaxGridY = 65535;

template <bool Torus>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    two_cell_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                  int height) {
  const int first = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) * kCells);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (y >= height) return;
#pragma unroll
  for (int x = first; x < first + static_cast<int>(kCells); ++x) {
    if (x >= width) return;
    const unsigned count = hex::neighbour_count<Torus>(in, x, y, width, height);
    const std::size_t index =
        static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
    out[index] = rule_table[count + 7U * in[index]];
  }
}

class HexTwoCellSimulator final : public hex::DeviceGridSimulator<std::uint8_t, false> {
public:
  explicit HexTwoCellSimulator(const Problem& problem) : DeviceGridSimulator(problem) {
    const auto table = hex::next_state_table(problem.rule.birth, problem.rule.survive);
    LIFEBENCH_CUDA_CALL(cudaMemcpyToSymbol(rule_table, table.data(), table.size()));
  }

private:
  void launch(std::uint64_t generations) override {
    const Shape& shape = problem().shape;
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(
        static_cast<unsigned>((shape.width + kBlockX * kCells - 1) / (kBlockX * kCells)),
        static_cast<unsigned>((shape.height + kBlockY - 1) / kBlockY));
    const auto width = static_cast<int>(shape.width);
    const auto height = static_cast<int>(shape.height);
    launch_per_generation(generations, grid, block,
                          problem().boundary == Boundary::torus ? two_cell_step<true>
                                                                : two_cell_step<false>,
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
    .name = "hex-cuda-2cells",
    .family = "hex",
    .backend = "cuda",
    .source = "seed 004 \"Design process\": multiple cells per thread (failed attempt)",
    .technique = "one byte per cell, two adjacent cells per thread (32x8 threads = 64x8 cells "
                 "a block), rule table in constant memory, one generation per launch",
    .axes = {},
    .unavailable =
        [] { return lifebench::cuda::unavailable_reason(&lifebench::two_cell_step<true>); },
    .unsupported = lifebench::unsupported,
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params&) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::HexTwoCellSimulator>(problem);
    }})
