// Seed 004's shared-memory attempt: each block copies its tile of cells and a
// one-cell border into shared memory, one thread per cell of tile and border
// (the border threads only load), then the tile's threads count neighbours in
// shared memory.
#include "common/hex.hpp"
#include "cuda/hex_simulator.cuh"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lifebench {
namespace {

__constant__ std::uint8_t rule_table[14];

constexpr int kTileX = 32; // cells updated by a block
constexpr int kTileY = 8;
constexpr int kLoadX = kTileX + 2; // threads of a block: tile and border
constexpr int kLoadY = kTileY + 2;
constexpr std::int64_t kMaxGridY = 65535;

/// Coordinate `c` (one outside the grid at most matters) wrapped on a torus; -1 outside a plane.
template <bool Torus> __device__ __forceinline__ int wrap(int c, int size) {
  if (c >= 0 && c < size) return c;
  if (!Torus || c < -1 || c > size) return -1;
  return c < 0 ? size - 1 : 0;
}

template <bool Torus>
__global__ void __launch_bounds__(kLoadX* kLoadY)
    shared_step(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                int height) {
  __shared__ std::uint8_t tile[kLoadY][kLoadX];
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int x = static_cast<int>(blockIdx.x) * kTileX + tx - 1; // this thread's cell
  const int y = static_cast<int>(blockIdx.y) * kTileY + ty - 1;
  tile[ty][tx] = static_cast<std::uint8_t>(
      hex::cell_at(in, width, wrap<Torus>(x, width), wrap<Torus>(y, height)));
  __syncthreads();
  if (tx == 0 || tx == kLoadX - 1 || ty == 0 || ty == kLoadY - 1) return; // border loaders
  if (x >= width || y >= height) return;
  const unsigned count = tile[ty - 1][tx - 1] + tile[ty - 1][tx] + tile[ty][tx - 1] +
                         tile[ty][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 1];
  out[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] =
      rule_table[count + 7U * tile[ty][tx]];
}

class HexSharedSimulator final : public hex::DeviceGridSimulator<std::uint8_t, false> {
public:
  explicit HexSharedSimulator(const Problem& problem) : DeviceGridSimulator(problem) {
    const auto table = hex::next_state_table(problem.rule.birth, problem.rule.survive);
    LIFEBENCH_CUDA_CALL(cudaMemcpyToSymbol(rule_table, table.data(), table.size()));
  }

private:
  void launch(std::uint64_t generations) override {
    const Shape& shape = problem().shape;
    const dim3 block(kLoadX, kLoadY);
    const dim3 grid(static_cast<unsigned>((shape.width + kTileX - 1) / kTileX),
                    static_cast<unsigned>((shape.height + kTileY - 1) / kTileY));
    const auto width = static_cast<int>(shape.width);
    const auto height = static_cast<int>(shape.height);
    launch_per_generation(generations, grid, block,
                          problem().boundary == Boundary::torus ? shared_step<true>
                                                                : shared_step<false>,
                          width, height);
  }
};

std::optional<std::string> unsupported(const Problem& problem, const Params&) {
  if (auto reason = hex::byte_grid_unsupported(problem)) return reason;
  if ((problem.shape.height + kTileY - 1) / kTileY > kMaxGridY) {
    return "height must be at most " + std::to_string(kMaxGridY * kTileY) +
           " (8-row tiles, CUDA's grid y limit)";
  }
  return std::nullopt;
}

} // namespace
} // namespace lifebench

LIFEBENCH_EXPERIMENT(lifebench::ExperimentInfo{
    .name = "hex-cuda-shared",
    .family = "hex",
    .backend = "cuda",
    .source = "seed 004 \"Design process\": shared memory (failed attempt)",
    .technique = "one byte per cell, 32x8-cell tiles copied with a one-cell border into shared "
                 "memory by 34x10 threads (border threads only load), rule table in constant "
                 "memory, one generation per launch",
    .axes = {},
    .unavailable =
        [] { return lifebench::cuda::unavailable_reason(&lifebench::shared_step<true>); },
    .unsupported = lifebench::unsupported,
    .make = [](const lifebench::Problem& problem,
               const lifebench::Params&) -> std::unique_ptr<lifebench::Simulator> {
      return std::make_unique<lifebench::HexSharedSimulator>(problem);
    }})
